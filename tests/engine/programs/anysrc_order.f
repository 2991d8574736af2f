C     ANYSRC -- rank 1 posts a 2000-byte send at once; rank 3 posts a
C     200-byte send after an 8-byte message from rank 2: rank 3's send
C     is posted later but arrives first.  Rank 0 takes both with
C     MPI_ANY_SOURCE and answers the first one's sender at once.
      PROGRAM ANYSRC
      IMPLICIT NONE
      INCLUDE 'mpif.h'
      INTEGER ME, NP, IERR, K, W
      INTEGER STATUS(MPI_STATUS_SIZE)
      CHARACTER*1 BUF(2000)
      CALL MPI_INIT(IERR)
      CALL MPI_COMM_RANK(MPI_COMM_WORLD, ME, IERR)
      CALL MPI_COMM_SIZE(MPI_COMM_WORLD, NP, IERR)
      IF (ME .EQ. 0) THEN
         CALL MPI_RECV(BUF, 2000, MPI_BYTE, MPI_ANY_SOURCE, 1,
     &        MPI_COMM_WORLD, STATUS, IERR)
         W = STATUS(MPI_SOURCE)
         CALL MPI_SEND(BUF, 1000, MPI_BYTE, W, 2, MPI_COMM_WORLD, IERR)
         CALL MPI_RECV(BUF, 2000, MPI_BYTE, MPI_ANY_SOURCE, 1,
     &        MPI_COMM_WORLD, STATUS, IERR)
         W = STATUS(MPI_SOURCE)
         CALL MPI_SEND(BUF, 1000, MPI_BYTE, W, 2, MPI_COMM_WORLD, IERR)
      ELSE IF (ME .EQ. 1) THEN
         CALL MPI_SEND(BUF, 2000, MPI_BYTE, 0, 1, MPI_COMM_WORLD, IERR)
         CALL MPI_RECV(BUF, 1000, MPI_BYTE, 0, 2, MPI_COMM_WORLD,
     &        STATUS, IERR)
      ELSE IF (ME .EQ. 2) THEN
         CALL MPI_SEND(BUF, 8, MPI_BYTE, 3, 3, MPI_COMM_WORLD, IERR)
      ELSE IF (ME .EQ. 3) THEN
         CALL MPI_RECV(BUF, 8, MPI_BYTE, 2, 3, MPI_COMM_WORLD,
     &        STATUS, IERR)
         CALL MPI_SEND(BUF, 200, MPI_BYTE, 0, 1, MPI_COMM_WORLD, IERR)
         CALL MPI_RECV(BUF, 1000, MPI_BYTE, 0, 2, MPI_COMM_WORLD,
     &        STATUS, IERR)
      END IF
      CALL MPI_FINALIZE(IERR)
      END
