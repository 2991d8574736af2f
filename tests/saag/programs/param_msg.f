C     PARAM_MSG -- rank 0 sends N integers to rank 1; N is a PARAMETER
C     whose buffer is sized by it too.
      PROGRAM PMSG
      INCLUDE 'mpif.h'
      PARAMETER (N = 8)
      INTEGER IB(N), STATUS(MPI_STATUS_SIZE)
      CALL MPI_INIT(IERR)
      CALL MPI_COMM_RANK(MPI_COMM_WORLD, ME, IERR)
      IF (ME .EQ. 0) CALL MPI_SEND(IB, N, MPI_INTEGER, 1, 5,
     &                             MPI_COMM_WORLD, IERR)
      IF (ME .EQ. 1) CALL MPI_RECV(IB, N, MPI_INTEGER, 0, 5,
     &                             MPI_COMM_WORLD, STATUS, IERR)
      CALL MPI_FINALIZE(IERR)
      END
