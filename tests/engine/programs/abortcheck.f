C     ABORTCHECK -- the program needs P = 4: rank 0 checks the size and
C     calls MPI_ABORT otherwise; the other ranks wait in a barrier.
      PROGRAM ABCHK
      INCLUDE 'mpif.h'
      INTEGER ME, NP, IERR
      CALL MPI_INIT(IERR)
      CALL MPI_COMM_RANK(MPI_COMM_WORLD, ME, IERR)
      CALL MPI_COMM_SIZE(MPI_COMM_WORLD, NP, IERR)
      IF (ME .EQ. 0 .AND. NP .NE. 4) THEN
         WRITE (*, *) 'needs 4 processes'
         CALL MPI_ABORT(MPI_COMM_WORLD, MPI_ERR_OTHER, IERR)
      END IF
      CALL MPI_BARRIER(MPI_COMM_WORLD, IERR)
      CALL MPI_FINALIZE(IERR)
      END
