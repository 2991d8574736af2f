C     A ring exchange NROUND times whose message tag is the loop's
C     index: in the loop itself (MODE = 1), in a routine it is passed
C     to (MODE = 2), or only on the sending side, the receive taking
C     MOD(K, 7) (MODE = 3: they part at K = 7); rank 0 sending rank 1
C     a message tagged K each round, the others idle (MODE = 4); the
C     ring tagged K + 100 (MODE = 5).
      PROGRAM TAGIDX
      INCLUDE 'mpif.h'
      INTEGER ME, NP, IERR, K, NROUND, MODE
      INTEGER STATUS(MPI_STATUS_SIZE)
      DOUBLE PRECISION SBUF(128), RBUF(128)
      COMMON /RING/ ME, NP
      CALL MPI_INIT(IERR)
      CALL MPI_COMM_RANK(MPI_COMM_WORLD, ME, IERR)
      CALL MPI_COMM_SIZE(MPI_COMM_WORLD, NP, IERR)
      DO 10 K = 1, NROUND
         IF (MODE .EQ. 1) THEN
            CALL MPI_SENDRECV(SBUF, 128, MPI_DOUBLE_PRECISION,
     &           MOD(ME + 1, NP), K, RBUF, 128, MPI_DOUBLE_PRECISION,
     &           MOD(ME - 1 + NP, NP), K, MPI_COMM_WORLD, STATUS, IERR)
         ELSE IF (MODE .EQ. 2) THEN
            CALL SHIFT(SBUF, RBUF, K)
         ELSE IF (MODE .EQ. 5) THEN
            CALL MPI_SENDRECV(SBUF, 128, MPI_DOUBLE_PRECISION,
     &           MOD(ME + 1, NP), K + 100, RBUF, 128,
     &           MPI_DOUBLE_PRECISION, MOD(ME - 1 + NP, NP), K + 100,
     &           MPI_COMM_WORLD, STATUS, IERR)
         ELSE IF (MODE .EQ. 3) THEN
            CALL MPI_SENDRECV(SBUF, 128, MPI_DOUBLE_PRECISION,
     &           MOD(ME + 1, NP), K, RBUF, 128, MPI_DOUBLE_PRECISION,
     &           MOD(ME - 1 + NP, NP), MOD(K, 7), MPI_COMM_WORLD,
     &           STATUS, IERR)
         ELSE
            IF (ME .EQ. 0) CALL MPI_SEND(SBUF, 128,
     &           MPI_DOUBLE_PRECISION, 1, K, MPI_COMM_WORLD, IERR)
            IF (ME .EQ. 1) CALL MPI_RECV(RBUF, 128,
     &           MPI_DOUBLE_PRECISION, 0, K, MPI_COMM_WORLD, STATUS,
     &           IERR)
         END IF
 10   CONTINUE
      CALL MPI_FINALIZE(IERR)
      END

      SUBROUTINE SHIFT(S, R, J)
      INCLUDE 'mpif.h'
      INTEGER J, ME, NP, IERR, STATUS(MPI_STATUS_SIZE)
      DOUBLE PRECISION S(128), R(128)
      COMMON /RING/ ME, NP
      CALL MPI_SENDRECV(S, 128, MPI_DOUBLE_PRECISION, MOD(ME + 1, NP),
     &     J, R, 128, MPI_DOUBLE_PRECISION, MOD(ME - 1 + NP, NP), J,
     &     MPI_COMM_WORLD, STATUS, IERR)
      END
