C     Rank 0 broadcasts 250 doubles to rank 1, joins an MPI_ALLREDUCE on
C     MPI_COMM_SELF, then sends rank 1 another 250 doubles while the
C     broadcast's are still on the link; rank 1 answers the broadcast
C     with 8 bytes before it takes the second message.
      PROGRAM BCCW
      IMPLICIT NONE
      INCLUDE 'mpif.h'
      INTEGER ME, IERR
      INTEGER STATUS(MPI_STATUS_SIZE)
      DOUBLE PRECISION A(250), X, Y
      CALL MPI_INIT(IERR)
      CALL MPI_COMM_RANK(MPI_COMM_WORLD, ME, IERR)
      CALL MPI_BCAST(A, 250, MPI_DOUBLE_PRECISION, 0, MPI_COMM_WORLD,
     &     IERR)
      IF (ME .EQ. 0) THEN
         CALL MPI_ALLREDUCE(X, Y, 1, MPI_DOUBLE_PRECISION, MPI_SUM,
     &        MPI_COMM_SELF, IERR)
         CALL MPI_SEND(A, 250, MPI_DOUBLE_PRECISION, 1, 5,
     &        MPI_COMM_WORLD, IERR)
         CALL MPI_RECV(X, 1, MPI_DOUBLE_PRECISION, 1, 6,
     &        MPI_COMM_WORLD, STATUS, IERR)
      ELSE
         CALL MPI_SEND(X, 1, MPI_DOUBLE_PRECISION, 0, 6,
     &        MPI_COMM_WORLD, IERR)
         CALL MPI_RECV(A, 250, MPI_DOUBLE_PRECISION, 0, 5,
     &        MPI_COMM_WORLD, STATUS, IERR)
      END IF
      CALL MPI_FINALIZE(IERR)
      END
