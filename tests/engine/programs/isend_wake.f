      PROGRAM WAKE
C     Rank 1 sends A to rank 0 with MPI_ISEND, waits in MPI_RECV for
C     rank 2's message (it arrives while A is still on the link 1 -> 0),
C     then sends B to rank 0 on the same link and waits for both sends.
C     Rank 0 forwards D to rank 2 once it has A: rank 2 ends when A is in.
      INCLUDE 'mpif.h'
      INTEGER ME, IERR, R(2), ST(MPI_STATUS_SIZE, 2)
      DOUBLE PRECISION A(1000), B(1000), C(100), D(100)
      CALL MPI_INIT(IERR)
      CALL MPI_COMM_RANK(MPI_COMM_WORLD, ME, IERR)
      IF (ME .EQ. 1) THEN
         CALL MPI_ISEND(A, 1000, MPI_DOUBLE_PRECISION, 0, 1,
     &                  MPI_COMM_WORLD, R(1), IERR)
         CALL MPI_RECV(C, 100, MPI_DOUBLE_PRECISION, 2, 3,
     &                 MPI_COMM_WORLD, ST, IERR)
         CALL MPI_ISEND(B, 1000, MPI_DOUBLE_PRECISION, 0, 2,
     &                  MPI_COMM_WORLD, R(2), IERR)
         CALL MPI_WAITALL(2, R, ST, IERR)
      ELSE IF (ME .EQ. 0) THEN
         CALL MPI_RECV(A, 1000, MPI_DOUBLE_PRECISION, 1, 1,
     &                 MPI_COMM_WORLD, ST, IERR)
         CALL MPI_SEND(D, 100, MPI_DOUBLE_PRECISION, 2, 4,
     &                 MPI_COMM_WORLD, IERR)
         CALL MPI_RECV(B, 1000, MPI_DOUBLE_PRECISION, 1, 2,
     &                 MPI_COMM_WORLD, ST, IERR)
      ELSE IF (ME .EQ. 2) THEN
         CALL MPI_SEND(C, 100, MPI_DOUBLE_PRECISION, 1, 3,
     &                 MPI_COMM_WORLD, IERR)
         CALL MPI_RECV(D, 100, MPI_DOUBLE_PRECISION, 0, 4,
     &                 MPI_COMM_WORLD, ST, IERR)
      END IF
      CALL MPI_FINALIZE(IERR)
      END
