C     COMMDUP -- MPI_COMM_DUP of MPI_COMM_WORLD: the same ranks, and a
C     message on the duplicate does not match a receive on the world.
C     Rank 0 sends tag 3 on the duplicate then on the world; rank 1
C     receives on the world first (the second message), then on the
C     duplicate.
      PROGRAM CDUP
      INCLUDE 'mpif.h'
      INTEGER ME, NP, IERR, DUP, MD, ND
      INTEGER STAT(MPI_STATUS_SIZE), A(4)
      CALL MPI_INIT(IERR)
      CALL MPI_COMM_RANK(MPI_COMM_WORLD, ME, IERR)
      CALL MPI_COMM_DUP(MPI_COMM_WORLD, DUP, IERR)
      CALL MPI_COMM_RANK(DUP, MD, IERR)
      CALL MPI_COMM_SIZE(DUP, ND, IERR)
      IF (MD .EQ. 0) THEN
         CALL MPI_SEND(A, 4, MPI_INTEGER, ND - 1, 3, DUP, IERR)
         CALL MPI_SEND(A, 2, MPI_INTEGER, ND - 1, 3, MPI_COMM_WORLD,
     &                 IERR)
      ELSE IF (MD .EQ. ND - 1) THEN
         CALL MPI_RECV(A, 2, MPI_INTEGER, 0, 3, MPI_COMM_WORLD, STAT,
     &                 IERR)
         CALL MPI_RECV(A, 4, MPI_INTEGER, 0, 3, DUP, STAT, IERR)
      END IF
      CALL MPI_COMM_FREE(DUP, IERR)
      CALL MPI_FINALIZE(IERR)
      END
