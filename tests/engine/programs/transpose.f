C     TRANSPOSE -- a 2 x 2 process grid on P = 4 in the manner of a
C     distributed 3-D FFT: ME1 = MOD(ME, 2), ME2 = ME / 2; one
C     communicator per grid column (color ME1, key ME2) and one per row.
C     Each rank exchanges N double complex values (16 bytes each) with
C     the other member of its column by MPI_ALLTOALL, then the ranks
C     reduce a double complex checksum to world rank 0.
      PROGRAM TRANSP
      INCLUDE 'mpif.h'
      INTEGER N
      PARAMETER (N = 64)
      INTEGER ME, NP, IERR, ME1, ME2, COMM1, COMM2
      DOUBLE PRECISION X(2 * N), Y(2 * N), CHK(2), ALLCHK(2)
      CALL MPI_INIT(IERR)
      CALL MPI_COMM_RANK(MPI_COMM_WORLD, ME, IERR)
      CALL MPI_COMM_SIZE(MPI_COMM_WORLD, NP, IERR)
      ME1 = MOD(ME, 2)
      ME2 = ME / 2
      CALL MPI_COMM_SPLIT(MPI_COMM_WORLD, ME1, ME2, COMM1, IERR)
      CALL MPI_COMM_SPLIT(MPI_COMM_WORLD, ME2, ME1, COMM2, IERR)
      CALL MPI_ALLTOALL(X, N / 2, MPI_DOUBLE_COMPLEX, Y, N / 2,
     &                  MPI_DOUBLE_COMPLEX, COMM1, IERR)
      CALL MPI_REDUCE(CHK, ALLCHK, 1, MPI_DOUBLE_COMPLEX, MPI_SUM, 0,
     &                MPI_COMM_WORLD, IERR)
      CALL MPI_FINALIZE(IERR)
      END
