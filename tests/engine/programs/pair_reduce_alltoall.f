      PROGRAM PAIRRA
C     reduce_alltoall2.f on two communicators of two ranks at once
C     (P = 4: {0, 1} and {2, 3}, links of their own on the 2-cube)
      INCLUDE 'mpif.h'
      INTEGER IERR, ME, C
      DOUBLE PRECISION A(2000), B(2000)
      CALL MPI_INIT(IERR)
      CALL MPI_COMM_RANK(MPI_COMM_WORLD, ME, IERR)
      CALL MPI_COMM_SPLIT(MPI_COMM_WORLD, ME / 2, ME, C, IERR)
      CALL MPI_REDUCE(A, B, 125, MPI_DOUBLE_PRECISION, MPI_SUM, 0,
     &                C, IERR)
      CALL MPI_ALLTOALL(A, 125, MPI_DOUBLE_PRECISION, B, 125,
     &                  MPI_DOUBLE_PRECISION, C, IERR)
      CALL MPI_FINALIZE(IERR)
      END
