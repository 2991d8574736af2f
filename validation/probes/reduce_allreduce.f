C***********************************************************************
C     REDUCE_ALLREDUCE -- MPI_ALLREDUCE AFTER AN MPI_REDUCE
C
C     The reduce to rank 0 makes rank 0 the last to reach the
C     allreduce, so which partners SMPI's allreduce__rdb pairs when P
C     is not a power of two decides the time (rank 0 folds into rank
C     1, not rank P-1 into rank 0).
C***********************************************************************
      PROGRAM REDALL
      IMPLICIT NONE
      INCLUDE 'mpif.h'
      INTEGER IERR
      DOUBLE PRECISION A(8), B(8), S, T
      CALL MPI_INIT(IERR)
      S = 1.0D0
      CALL MPI_REDUCE(A, B, 8, MPI_DOUBLE_PRECISION, MPI_SUM, 0,
     &                MPI_COMM_WORLD, IERR)
      CALL MPI_ALLREDUCE(S, T, 1, MPI_DOUBLE_PRECISION, MPI_SUM,
     &                   MPI_COMM_WORLD, IERR)
      CALL MPI_FINALIZE(IERR)
      END
