C     SHIFT_SR -- every rank sends 250 integers (1000 bytes) to the next
C     rank and receives from the previous one with MPI_SENDRECV; the
C     first and last ranks talk to MPI_PROC_NULL at the open ends.
      PROGRAM SHIFTS
      INCLUDE 'mpif.h'
      INTEGER ME, NP, NEXT, PREV, IERR
      INTEGER STATUS(MPI_STATUS_SIZE)
      INTEGER SB(250), RB(250)
      CALL MPI_INIT(IERR)
      CALL MPI_COMM_RANK(MPI_COMM_WORLD, ME, IERR)
      CALL MPI_COMM_SIZE(MPI_COMM_WORLD, NP, IERR)
      NEXT = ME + 1
      PREV = ME - 1
      IF (ME .EQ. NP - 1) NEXT = MPI_PROC_NULL
      IF (ME .EQ. 0) PREV = MPI_PROC_NULL
      CALL MPI_SENDRECV(SB, 250, MPI_INTEGER, NEXT, 3,
     &                  RB, 250, MPI_INTEGER, PREV, 3,
     &                  MPI_COMM_WORLD, STATUS, IERR)
      CALL MPI_FINALIZE(IERR)
      END
