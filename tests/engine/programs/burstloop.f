C     BURSTLOOP -- rank 1 sends rank 0 one 8000-byte message (eager)
C     every iteration of a loop, after N additions; rank 0 receives
C     them all.  Run on P = 2.  With few additions a message is still
C     on the wire when the next leaves (the sender's queue makes it
C     wait); with many each has the link to itself.  NITER iterations:
C     the steady state jumps over most of them.
      PROGRAM BURSTL
      INCLUDE 'mpif.h'
      INTEGER N, NITER, ME, I, J, IERR
      INTEGER STATUS(MPI_STATUS_SIZE)
      DOUBLE PRECISION BUF(1000), S
      READ *, N, NITER
      CALL MPI_INIT(IERR)
      CALL MPI_COMM_RANK(MPI_COMM_WORLD, ME, IERR)
      S = 0.0D0
      DO 20 I = 1, NITER
         IF (ME .EQ. 1) THEN
            DO 10 J = 1, N
               S = S + 1.0D0
   10       CONTINUE
            CALL MPI_SEND(BUF, 1000, MPI_DOUBLE_PRECISION, 0, 5,
     &                    MPI_COMM_WORLD, IERR)
         ELSE
            CALL MPI_RECV(BUF, 1000, MPI_DOUBLE_PRECISION, 1, 5,
     &                    MPI_COMM_WORLD, STATUS, IERR)
         END IF
   20 CONTINUE
      CALL MPI_FINALIZE(IERR)
      END
