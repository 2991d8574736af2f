C     RENDEZVOUS_ISEND -- rendezvous.f with MPI_ISEND and MPI_WAIT.
C     P = 3.  Rank 2 sends 60000 bytes (15000 integers) to
C     rank 1, below the eager threshold; rank 1 receives them, and only
C     then posts its receive of rank 0's 80000 bytes (20000 integers),
C     above the threshold: rank 0 waits in its send until that receive
C     is posted.
      PROGRAM RENDEI
      INCLUDE 'mpif.h'
      INTEGER ME, IERR, REQ
      INTEGER STAT(MPI_STATUS_SIZE)
      INTEGER A(20000), B(20000)
      CALL MPI_INIT(IERR)
      CALL MPI_COMM_RANK(MPI_COMM_WORLD, ME, IERR)
      IF (ME .EQ. 0) THEN
         CALL MPI_ISEND(A, 20000, MPI_INTEGER, 1, 1, MPI_COMM_WORLD,
     &                  REQ, IERR)
         CALL MPI_WAIT(REQ, STAT, IERR)
      ELSE IF (ME .EQ. 2) THEN
         CALL MPI_SEND(A, 15000, MPI_INTEGER, 1, 2, MPI_COMM_WORLD,
     &                 IERR)
      ELSE
         CALL MPI_RECV(B, 15000, MPI_INTEGER, 2, 2, MPI_COMM_WORLD,
     &                 STAT, IERR)
         CALL MPI_RECV(B, 20000, MPI_INTEGER, 0, 1, MPI_COMM_WORLD,
     &                 STAT, IERR)
      END IF
      CALL MPI_FINALIZE(IERR)
      END
