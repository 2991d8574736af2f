      PROGRAM A2ARED
C     FT's iteration without its computation: an MPI_ALLTOALL of 32 KiB
C     blocks (FT class W at P = 16), then a 16-byte MPI_REDUCE to rank 0,
C     eight times; arrays for P <= 16
      INCLUDE 'mpif.h'
      INTEGER IERR, K
      DOUBLE PRECISION A(65536), B(65536), C(2), D(2)
      CALL MPI_INIT(IERR)
      DO K = 1, 8
      CALL MPI_ALLTOALL(A, 4096, MPI_DOUBLE_PRECISION, B, 4096,
     &                  MPI_DOUBLE_PRECISION, MPI_COMM_WORLD, IERR)
      CALL MPI_REDUCE(C, D, 2, MPI_DOUBLE_PRECISION, MPI_SUM, 0,
     &                MPI_COMM_WORLD, IERR)
      END DO
      CALL MPI_FINALIZE(IERR)
      END
