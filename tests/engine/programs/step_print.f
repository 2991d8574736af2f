C     STEP_PRINT -- a time-step loop as the NAS benchmarks write it: every
C     rank works, then sweeps two stages that each exchange with the next
C     rank, then all ranks sum a residual; rank 0 does extra work (its
C     progress line) at the first step and every twentieth.  The extra
C     work runs at STEP = 1, 20, 40, 60, 80, 100: six times in 100 steps.
      PROGRAM STEPPR
      INCLUDE 'mpif.h'
      INTEGER ME, NP, IERR, STEP, STAGE, I, NEXT, PREV, NITER
      INTEGER STATUS(MPI_STATUS_SIZE)
      DOUBLE PRECISION X, R, RSUM, BUF(100)
      CALL MPI_INIT(IERR)
      CALL MPI_COMM_RANK(MPI_COMM_WORLD, ME, IERR)
      CALL MPI_COMM_SIZE(MPI_COMM_WORLD, NP, IERR)
      NITER = 100
      NEXT = MOD(ME + 1, NP)
      PREV = MOD(ME + NP - 1, NP)
      X = 0.0D0
      DO 30 STEP = 1, NITER
         IF (ME .EQ. 0) THEN
            IF (MOD(STEP, 20) .EQ. 0 .OR. STEP .EQ. 1) THEN
               X = X + 1.0D0
               X = X * 2.0D0
            END IF
         END IF
         DO 10 I = 1, 100
            BUF(I) = BUF(I) * 0.5D0 + X
   10    CONTINUE
         DO 20 STAGE = 1, 2
            CALL MPI_SENDRECV(BUF, 100, MPI_DOUBLE_PRECISION, NEXT, 1,
     &                        BUF, 100, MPI_DOUBLE_PRECISION, PREV, 1,
     &                        MPI_COMM_WORLD, STATUS, IERR)
   20    CONTINUE
         R = BUF(1)
         CALL MPI_ALLREDUCE(R, RSUM, 1, MPI_DOUBLE_PRECISION, MPI_SUM,
     &                      MPI_COMM_WORLD, IERR)
   30 CONTINUE
      CALL MPI_FINALIZE(IERR)
      END
