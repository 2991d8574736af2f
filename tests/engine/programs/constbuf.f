      PROGRAM CBUF
      INCLUDE 'mpif.h'
      INTEGER RANK, IERR, ST(MPI_STATUS_SIZE), N, I
      DOUBLE PRECISION X
      CALL MPI_INIT(IERR)
      CALL MPI_COMM_RANK(MPI_COMM_WORLD, RANK, IERR)
      IF (RANK .EQ. 0) THEN
         CALL MPI_SEND(3, 1, MPI_INTEGER, 1, 0, MPI_COMM_WORLD, IERR)
         DO 10 I = 1, 3
            CALL MPI_RECV(X, 1, MPI_DOUBLE_PRECISION, 1, 1,
     &                    MPI_COMM_WORLD, ST, IERR)
   10    CONTINUE
      ELSE
         CALL MPI_RECV(N, 1, MPI_INTEGER, 0, 0, MPI_COMM_WORLD, ST,
     &                 IERR)
         DO 20 I = 1, N
            CALL MPI_SEND(X, 1, MPI_DOUBLE_PRECISION, 0, 1,
     &                    MPI_COMM_WORLD, IERR)
   20    CONTINUE
      END IF
      CALL MPI_FINALIZE(IERR)
      END
