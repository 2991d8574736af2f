C***********************************************************************
C     COLLECT -- MPI COLLECTIVES: BCAST, REDUCE, ALLREDUCE, BARRIER
C
C     NITER rounds of: MPI_BCAST of 8 doubles from rank 0, MPI_REDUCE
C     of 8 doubles to rank 0, MPI_ALLREDUCE of one double and
C     MPI_BARRIER.
C***********************************************************************
      PROGRAM COLLCT
      IMPLICIT NONE
      INCLUDE 'mpif.h'
      INTEGER NITER, NW
      PARAMETER (NITER = 5, NW = 8)
      INTEGER ME, NP, IT, IERR
      DOUBLE PRECISION A(NW), B(NW), S, T
C
      CALL MPI_INIT(IERR)
      CALL MPI_COMM_RANK(MPI_COMM_WORLD, ME, IERR)
      CALL MPI_COMM_SIZE(MPI_COMM_WORLD, NP, IERR)
      S = 1.0D0
      DO 10 IT = 1, NITER
         CALL MPI_BCAST(A, NW, MPI_DOUBLE_PRECISION, 0, MPI_COMM_WORLD,
     &                  IERR)
         CALL MPI_REDUCE(A, B, NW, MPI_DOUBLE_PRECISION, MPI_SUM, 0,
     &                   MPI_COMM_WORLD, IERR)
         CALL MPI_ALLREDUCE(S, T, 1, MPI_DOUBLE_PRECISION, MPI_SUM,
     &                      MPI_COMM_WORLD, IERR)
         CALL MPI_BARRIER(MPI_COMM_WORLD, IERR)
   10 CONTINUE
      CALL MPI_FINALIZE(IERR)
      END
