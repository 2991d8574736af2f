C     ELEMBUF -- a message buffer named by an element: rank 0 sends
C     X(3), X(4) (count 2 from X(3)) into rank 1's Y(5), Y(6); rank 1
C     then sends Y(6) = X(4) = 5 messages back, and rank 0 broadcasts
C     Z(0..2) (count 3 from Z(0)): every rank loops Z(2) = 1 time.
      PROGRAM ELEMB
      INCLUDE 'mpif.h'
      INTEGER ME, IERR, I, N, X(4), Y(10), Z(0:2)
      INTEGER STAT(MPI_STATUS_SIZE)
      CALL MPI_INIT(IERR)
      CALL MPI_COMM_RANK(MPI_COMM_WORLD, ME, IERR)
      IF (ME .EQ. 0) THEN
         X(1) = 0
         X(2) = 0
         X(3) = 7
         X(4) = 5
         Z(0) = 4
         Z(1) = 3
         Z(2) = 1
         CALL MPI_SEND(X(3), 2, MPI_INTEGER, 1, 1, MPI_COMM_WORLD, IERR)
         DO 10 I = 1, 5
            CALL MPI_RECV(N, 1, MPI_INTEGER, 1, 2, MPI_COMM_WORLD, STAT,
     &                    IERR)
   10    CONTINUE
      ELSE
         CALL MPI_RECV(Y(5), 2, MPI_INTEGER, 0, 1, MPI_COMM_WORLD, STAT,
     &                 IERR)
         DO 20 I = 1, Y(6)
            CALL MPI_SEND(N, 1, MPI_INTEGER, 0, 2, MPI_COMM_WORLD, IERR)
   20    CONTINUE
      END IF
      CALL MPI_BCAST(Z(0), 3, MPI_INTEGER, 0, MPI_COMM_WORLD, IERR)
      DO 30 I = 1, Z(2)
         CALL MPI_BARRIER(MPI_COMM_WORLD, IERR)
   30 CONTINUE
      CALL MPI_FINALIZE(IERR)
      END
