C     COMMBENCH -- communication microbenchmarks for seed 000 (interp semiemp fit).
C     Rank 0 prints one line per round: OP BYTES ROUND SECONDS-PER-OPERATION.
C     Ping-pong (ranks 0 and 1, one way = half the round trip) at 8 and 80000 bytes;
C     barrier, allreduce, reduce and bcast of one 8-byte value over all ranks.
      PROGRAM COMMBENCH
      INCLUDE 'mpif.h'
      INTEGER NROUND, NREP, NBIG
      PARAMETER (NROUND = 5, NREP = 400, NBIG = 10000)
      INTEGER ME, NP, IERR, IR, K, STATUS(MPI_STATUS_SIZE)
      DOUBLE PRECISION BUF(NBIG), X, Y, T0, T
      CALL MPI_INIT(IERR)
      CALL MPI_COMM_RANK(MPI_COMM_WORLD, ME, IERR)
      CALL MPI_COMM_SIZE(MPI_COMM_WORLD, NP, IERR)
      DO 5 K = 1, NBIG
         BUF(K) = 0.0D0
    5 CONTINUE
      X = 1.0D0
      DO 100 IR = 1, NROUND
         IF (NP .GE. 2) THEN
            CALL PPONG(ME, BUF, 1, NREP, T)
            IF (ME .EQ. 0) WRITE (6,900) 'pingpong', 8, IR, T
            CALL PPONG(ME, BUF, NBIG, NREP / 10, T)
            IF (ME .EQ. 0) WRITE (6,900) 'pingpong', 8 * NBIG, IR, T
         END IF
         CALL MPI_BARRIER(MPI_COMM_WORLD, IERR)
         T0 = MPI_WTIME()
         DO 10 K = 1, NREP
            CALL MPI_BARRIER(MPI_COMM_WORLD, IERR)
   10    CONTINUE
         T = (MPI_WTIME() - T0) / NREP
         IF (ME .EQ. 0) WRITE (6,900) 'barrier', 0, IR, T
         CALL MPI_BARRIER(MPI_COMM_WORLD, IERR)
         T0 = MPI_WTIME()
         DO 20 K = 1, NREP
            CALL MPI_ALLREDUCE(X, Y, 1, MPI_DOUBLE_PRECISION, MPI_SUM,
     &                         MPI_COMM_WORLD, IERR)
   20    CONTINUE
         T = (MPI_WTIME() - T0) / NREP
         IF (ME .EQ. 0) WRITE (6,900) 'allreduce', 8, IR, T
         CALL MPI_BARRIER(MPI_COMM_WORLD, IERR)
         T0 = MPI_WTIME()
         DO 30 K = 1, NREP
            CALL MPI_REDUCE(X, Y, 1, MPI_DOUBLE_PRECISION, MPI_SUM, 0,
     &                      MPI_COMM_WORLD, IERR)
   30    CONTINUE
         CALL MPI_BARRIER(MPI_COMM_WORLD, IERR)
         T = (MPI_WTIME() - T0) / NREP
         IF (ME .EQ. 0) WRITE (6,900) 'reduce', 8, IR, T
         T0 = MPI_WTIME()
         DO 40 K = 1, NREP
            CALL MPI_BCAST(X, 1, MPI_DOUBLE_PRECISION, 0,
     &                     MPI_COMM_WORLD, IERR)
   40    CONTINUE
         CALL MPI_BARRIER(MPI_COMM_WORLD, IERR)
         T = (MPI_WTIME() - T0) / NREP
         IF (ME .EQ. 0) WRITE (6,900) 'bcast', 8, IR, T
  100 CONTINUE
  900 FORMAT (A, 1X, I10, 1X, I4, 1X, ES16.8)
      CALL MPI_FINALIZE(IERR)
      END

      SUBROUTINE PPONG(ME, BUF, N, NREP, T)
      INCLUDE 'mpif.h'
      INTEGER ME, N, NREP, K, IERR, STATUS(MPI_STATUS_SIZE)
      DOUBLE PRECISION BUF(N), T, T0
      CALL MPI_BARRIER(MPI_COMM_WORLD, IERR)
      T0 = MPI_WTIME()
      DO 10 K = 1, NREP
         IF (ME .EQ. 0) THEN
            CALL MPI_SEND(BUF, N, MPI_DOUBLE_PRECISION, 1, 1,
     &                    MPI_COMM_WORLD, IERR)
            CALL MPI_RECV(BUF, N, MPI_DOUBLE_PRECISION, 1, 2,
     &                    MPI_COMM_WORLD, STATUS, IERR)
         ELSE IF (ME .EQ. 1) THEN
            CALL MPI_RECV(BUF, N, MPI_DOUBLE_PRECISION, 0, 1,
     &                    MPI_COMM_WORLD, STATUS, IERR)
            CALL MPI_SEND(BUF, N, MPI_DOUBLE_PRECISION, 0, 2,
     &                    MPI_COMM_WORLD, IERR)
         END IF
   10 CONTINUE
      T = (MPI_WTIME() - T0) / (2 * NREP)
      CALL MPI_BARRIER(MPI_COMM_WORLD, IERR)
      END
