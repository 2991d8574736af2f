      PROGRAM CROSS
C     Rank 2 sends A to rank 0 (link 2 -> 0); rank 3 waits for rank 1's
C     C, then sends B to rank 0 through 2 -> 0 while A is still on it.
C     Rank 0 forwards D to rank 1 once it has A: rank 1 ends when A is in.
      INCLUDE 'mpif.h'
      INTEGER ME, IERR, ST(MPI_STATUS_SIZE)
      DOUBLE PRECISION A(1000), B(1000), C(100), D(100)
      CALL MPI_INIT(IERR)
      CALL MPI_COMM_RANK(MPI_COMM_WORLD, ME, IERR)
      IF (ME .EQ. 0) THEN
         CALL MPI_RECV(A, 1000, MPI_DOUBLE_PRECISION, 2, 1,
     &                 MPI_COMM_WORLD, ST, IERR)
         CALL MPI_SEND(D, 100, MPI_DOUBLE_PRECISION, 1, 4,
     &                 MPI_COMM_WORLD, IERR)
         CALL MPI_RECV(B, 1000, MPI_DOUBLE_PRECISION, 3, 2,
     &                 MPI_COMM_WORLD, ST, IERR)
      ELSE IF (ME .EQ. 1) THEN
         CALL MPI_SEND(C, 100, MPI_DOUBLE_PRECISION, 3, 3,
     &                 MPI_COMM_WORLD, IERR)
         CALL MPI_RECV(D, 100, MPI_DOUBLE_PRECISION, 0, 4,
     &                 MPI_COMM_WORLD, ST, IERR)
      ELSE IF (ME .EQ. 2) THEN
         CALL MPI_SEND(A, 1000, MPI_DOUBLE_PRECISION, 0, 1,
     &                 MPI_COMM_WORLD, IERR)
      ELSE IF (ME .EQ. 3) THEN
         CALL MPI_RECV(C, 100, MPI_DOUBLE_PRECISION, 1, 3,
     &                 MPI_COMM_WORLD, ST, IERR)
         CALL MPI_SEND(B, 1000, MPI_DOUBLE_PRECISION, 0, 2,
     &                 MPI_COMM_WORLD, IERR)
      END IF
      CALL MPI_FINALIZE(IERR)
      END
