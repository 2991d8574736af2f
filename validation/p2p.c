/* One blocking message of N bytes (argv[1]) from rank 0 to the last rank; the last rank
 * prints how long its MPI_Recv took from the common start (both ranks start at time 0). Used
 * by p2p_residual.py; C only to keep the measured program minimal. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
static char buf[1 << 20];
int main(int argc, char** argv) {
  int me, np, n = atoi(argv[1]);
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  MPI_Comm_size(MPI_COMM_WORLD, &np);
  if (me == 0) MPI_Send(buf, n, MPI_BYTE, np - 1, 1, MPI_COMM_WORLD);
  if (me == np - 1) {
    MPI_Recv(buf, n, MPI_BYTE, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    printf("arrived %.12e\n", MPI_Wtime());
  }
  MPI_Finalize();
  return 0;
}
