C     A ring exchange NROUND times, written three ways: a GO TO loop
C     tested at its end (LOOP = 1), a DO WHILE tested at its head
C     (LOOP = 2) and a DO loop (LOOP = 3); each round also calls a
C     routine that works on the buffer (it does not get the counter).
      PROGRAM RINGGT
      INCLUDE 'mpif.h'
      INTEGER ME, NP, IERR, K, NROUND, LOOP
      INTEGER STATUS(MPI_STATUS_SIZE)
      DOUBLE PRECISION SBUF(128), RBUF(128)
      CALL MPI_INIT(IERR)
      CALL MPI_COMM_RANK(MPI_COMM_WORLD, ME, IERR)
      CALL MPI_COMM_SIZE(MPI_COMM_WORLD, NP, IERR)
      IF (LOOP .EQ. 1) THEN
         K = 0
 5       CONTINUE
         K = K + 1
         CALL WORK(SBUF, 128)
         CALL MPI_SENDRECV(SBUF, 128, MPI_DOUBLE_PRECISION,
     &        MOD(ME + 1, NP), 7, RBUF, 128, MPI_DOUBLE_PRECISION,
     &        MOD(ME - 1 + NP, NP), 7, MPI_COMM_WORLD, STATUS, IERR)
         IF (K .LT. NROUND) GO TO 5
      ELSE IF (LOOP .EQ. 2) THEN
         K = 1
         DO WHILE (K .LE. NROUND)
            CALL WORK(SBUF, 128)
            CALL MPI_SENDRECV(SBUF, 128, MPI_DOUBLE_PRECISION,
     &           MOD(ME + 1, NP), 7, RBUF, 128, MPI_DOUBLE_PRECISION,
     &           MOD(ME - 1 + NP, NP), 7, MPI_COMM_WORLD, STATUS, IERR)
            K = K + 1
         END DO
      ELSE
         DO 10 K = 1, NROUND
            CALL WORK(SBUF, 128)
            CALL MPI_SENDRECV(SBUF, 128, MPI_DOUBLE_PRECISION,
     &           MOD(ME + 1, NP), 7, RBUF, 128, MPI_DOUBLE_PRECISION,
     &           MOD(ME - 1 + NP, NP), 7, MPI_COMM_WORLD, STATUS, IERR)
 10      CONTINUE
      END IF
      CALL MPI_FINALIZE(IERR)
      END

      SUBROUTINE WORK(A, N)
      INTEGER N, I
      DOUBLE PRECISION A(N)
      DO 10 I = 1, N
         A(I) = A(I) * 0.5D0 + 1.0D0
 10   CONTINUE
      END
