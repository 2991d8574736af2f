C***********************************************************************
C     PIPELINE -- NITEMS ITEMS FLOW THROUGH NP STAGES
C
C     Rank 0 produces NITEMS items of 50 doubles (400 bytes) and sends
C     each to rank 1; every middle rank receives an item from the rank
C     before it and passes it on; the last rank consumes them.
C***********************************************************************
      PROGRAM PIPE
      IMPLICIT NONE
      INCLUDE 'mpif.h'
      INTEGER NITEMS, NW
      PARAMETER (NITEMS = 20, NW = 50)
      INTEGER ME, NP, I, IERR
      INTEGER STATUS(MPI_STATUS_SIZE)
      DOUBLE PRECISION X(NW)
C
      CALL MPI_INIT(IERR)
      CALL MPI_COMM_RANK(MPI_COMM_WORLD, ME, IERR)
      CALL MPI_COMM_SIZE(MPI_COMM_WORLD, NP, IERR)
      DO 10 I = 1, NITEMS
         IF (ME .GT. 0) CALL MPI_RECV(X, NW, MPI_DOUBLE_PRECISION,
     &      ME - 1, I, MPI_COMM_WORLD, STATUS, IERR)
         IF (ME .LT. NP - 1) CALL MPI_SEND(X, NW, MPI_DOUBLE_PRECISION,
     &      ME + 1, I, MPI_COMM_WORLD, IERR)
   10 CONTINUE
      CALL MPI_FINALIZE(IERR)
      END
