C***********************************************************************
C     BURST3 -- 3 BACK-TO-BACK MESSAGES DOWN A CHAIN OF NP RANKS
C
C     Rank 0 sends NMSG messages of 256 doubles (2 KB) to rank 1 one
C     after another; every middle rank receives each from the rank
C     before it and passes it on; the last rank consumes them. Several
C     messages of one sender are on the same link at once, so this
C     measures how a link is shared among them (cs.spec.channel).
C***********************************************************************
      PROGRAM BURST3
      IMPLICIT NONE
      INCLUDE 'mpif.h'
      INTEGER NMSG, NW
      PARAMETER (NMSG = 3, NW = 256)
      INTEGER ME, NP, I, IERR
      INTEGER STATUS(MPI_STATUS_SIZE)
      DOUBLE PRECISION X(NW)
C
      CALL MPI_INIT(IERR)
      CALL MPI_COMM_RANK(MPI_COMM_WORLD, ME, IERR)
      CALL MPI_COMM_SIZE(MPI_COMM_WORLD, NP, IERR)
      DO 10 I = 1, NMSG
         IF (ME .GT. 0) CALL MPI_RECV(X, NW, MPI_DOUBLE_PRECISION,
     &      ME - 1, I, MPI_COMM_WORLD, STATUS, IERR)
         IF (ME .LT. NP - 1) CALL MPI_SEND(X, NW, MPI_DOUBLE_PRECISION,
     &      ME + 1, I, MPI_COMM_WORLD, IERR)
   10 CONTINUE
      CALL MPI_FINALIZE(IERR)
      END
