C     Every rank sends messages to itself (partner = its own rank), as a
C     halo exchange does along an axis of one process: IRECV from self,
C     SEND to self, WAIT. 10 messages of 1000 doubles (8000 bytes).
      program selfsd
      include 'mpif.h'
      integer ierr, me, np, req, i
      integer status(MPI_STATUS_SIZE)
      double precision a(1000), b(1000)
      call mpi_init(ierr)
      call mpi_comm_rank(MPI_COMM_WORLD, me, ierr)
      call mpi_comm_size(MPI_COMM_WORLD, np, ierr)
      do 10 i = 1, 10
         call mpi_irecv(b, 1000, MPI_DOUBLE_PRECISION, me, 1,
     &                  MPI_COMM_WORLD, req, ierr)
         call mpi_send(a, 1000, MPI_DOUBLE_PRECISION, me, 1,
     &                 MPI_COMM_WORLD, ierr)
         call mpi_wait(req, status, ierr)
 10   continue
      call mpi_finalize(ierr)
      end
