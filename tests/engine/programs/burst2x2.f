C     BURST2X2 -- rank 0 sends two 2048-byte messages to rank 1 and two
C     to rank 2, alternating (1, 2, 1, 2), all eager; rank 1 forwards a
C     note to rank 3 as soon as its first message is in.
      PROGRAM BURST4
      INCLUDE 'mpif.h'
      DOUBLE PRECISION BUF(256)
      INTEGER STATUS(MPI_STATUS_SIZE)
      CALL MPI_INIT(IERR)
      CALL MPI_COMM_RANK(MPI_COMM_WORLD, ME, IERR)
      IF (ME .EQ. 0) THEN
         DO 10 IR = 1, 2
            CALL MPI_SEND(BUF, 256, MPI_DOUBLE_PRECISION, 1, IR,
     &                    MPI_COMM_WORLD, IERR)
            CALL MPI_SEND(BUF, 256, MPI_DOUBLE_PRECISION, 2, IR,
     &                    MPI_COMM_WORLD, IERR)
   10    CONTINUE
      ELSE IF (ME .EQ. 1) THEN
         CALL MPI_RECV(BUF, 256, MPI_DOUBLE_PRECISION, 0, 1,
     &                 MPI_COMM_WORLD, STATUS, IERR)
         CALL MPI_SEND(BUF, 256, MPI_DOUBLE_PRECISION, 3, 9,
     &                 MPI_COMM_WORLD, IERR)
         CALL MPI_RECV(BUF, 256, MPI_DOUBLE_PRECISION, 0, 2,
     &                 MPI_COMM_WORLD, STATUS, IERR)
      ELSE IF (ME .EQ. 2) THEN
         CALL MPI_RECV(BUF, 256, MPI_DOUBLE_PRECISION, 0, 1,
     &                 MPI_COMM_WORLD, STATUS, IERR)
         CALL MPI_RECV(BUF, 256, MPI_DOUBLE_PRECISION, 0, 2,
     &                 MPI_COMM_WORLD, STATUS, IERR)
      ELSE IF (ME .EQ. 3) THEN
         CALL MPI_RECV(BUF, 256, MPI_DOUBLE_PRECISION, 1, 9,
     &                 MPI_COMM_WORLD, STATUS, IERR)
      END IF
      CALL MPI_FINALIZE(IERR)
      END
