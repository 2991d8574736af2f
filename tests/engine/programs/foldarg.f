C     foldvals.f's IX, read after the loop in a routine it is passed
C     to, by an IF that computes (no communication under it).
      PROGRAM FOLDIF
      INCLUDE 'mpif.h'
      INTEGER ME, NP, IERR, K, IX, I
      INTEGER STATUS(MPI_STATUS_SIZE)
      DOUBLE PRECISION SBUF(128), RBUF(128), X
      CALL MPI_INIT(IERR)
      CALL MPI_COMM_RANK(MPI_COMM_WORLD, ME, IERR)
      CALL MPI_COMM_SIZE(MPI_COMM_WORLD, NP, IERR)
      IX = 1
      DO 5 K = 1, 1000
         IX = MOD(IX * 3, 7)
         CALL MPI_SENDRECV(SBUF, 128, MPI_DOUBLE_PRECISION,
     &        MOD(ME + 1, NP), 7, RBUF, 128, MPI_DOUBLE_PRECISION,
     &        MOD(ME - 1 + NP, NP), 7, MPI_COMM_WORLD, STATUS, IERR)
 5    CONTINUE
      CALL LATE(IX)
      CALL MPI_FINALIZE(IERR)
      END
      SUBROUTINE LATE(J)
      INTEGER J, I
      DOUBLE PRECISION X
      X = 0.0D0
      IF (J .EQ. 4) THEN
         DO 10 I = 1, 100000
            X = X + 1.0D0
 10      CONTINUE
      END IF
      END
