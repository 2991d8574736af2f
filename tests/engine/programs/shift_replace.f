C     SHIFT_REPLACE -- a periodic ring shift of 250 integers (1000
C     bytes) with MPI_SENDRECV_REPLACE; then the received first word
C     (the left neighbour's ME + 3) sets a message count: rank 0 holds
C     rank 3's 6 and sends 6 - 3 = 3 messages, rank 1 holds rank 0's 3
C     and receives 3.
      PROGRAM SHIFTR
      INCLUDE 'mpif.h'
      INTEGER ME, NP, NEXT, PREV, IERR, I
      INTEGER STATUS(MPI_STATUS_SIZE)
      INTEGER IB(250)
      CALL MPI_INIT(IERR)
      CALL MPI_COMM_RANK(MPI_COMM_WORLD, ME, IERR)
      CALL MPI_COMM_SIZE(MPI_COMM_WORLD, NP, IERR)
      NEXT = MOD(ME + 1, NP)
      PREV = MOD(ME - 1 + NP, NP)
      IB(1) = ME + 3
      CALL MPI_SENDRECV_REPLACE(IB, 250, MPI_INTEGER, NEXT, 3,
     &                          PREV, 3, MPI_COMM_WORLD, STATUS, IERR)
      IF (ME .EQ. 0) THEN
         DO 10 I = 1, IB(1) - 3
            CALL MPI_SEND(I, 1, MPI_INTEGER, 1, 9, MPI_COMM_WORLD, IERR)
   10    CONTINUE
      ELSE IF (ME .EQ. 1) THEN
         DO 20 I = 1, IB(1)
            CALL MPI_RECV(J, 1, MPI_INTEGER, 0, 9, MPI_COMM_WORLD,
     &                    STATUS, IERR)
   20    CONTINUE
      END IF
      CALL MPI_FINALIZE(IERR)
      END
