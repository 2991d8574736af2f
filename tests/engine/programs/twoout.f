C     TWOOUT -- ranks 0 and 1 each send 1000 bytes at the same moment,
C     rank 0 to rank 4 and rank 1 to rank D.  On a fat tree of 4-port
C     switches (k = 2) the up-port out of the leaf switch of ranks 0
C     and 1 is picked by the destination's lowest bit: D = 6 shares
C     it with 0 -> 4, D = 7 takes the other one.  Run on P = 8.
      PROGRAM TWOOUT
      INCLUDE 'mpif.h'
      INTEGER ME, D, IERR, BUF(250), STAT(MPI_STATUS_SIZE)
      CALL MPI_INIT(IERR)
      CALL MPI_COMM_RANK(MPI_COMM_WORLD, ME, IERR)
      IF (ME .EQ. 0) THEN
         CALL MPI_SEND(BUF, 250, MPI_INTEGER, 4, 7, MPI_COMM_WORLD,
     &                 IERR)
      ELSE IF (ME .EQ. 1) THEN
         CALL MPI_SEND(BUF, 250, MPI_INTEGER, D, 7, MPI_COMM_WORLD,
     &                 IERR)
      ELSE IF (ME .EQ. 4 .OR. ME .EQ. D) THEN
         CALL MPI_RECV(BUF, 250, MPI_INTEGER, MPI_ANY_SOURCE, 7,
     &                 MPI_COMM_WORLD, STAT, IERR)
      END IF
      CALL MPI_FINALIZE(IERR)
      END
