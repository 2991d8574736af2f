C     Ten MPI_SENDRECVs of 1000 doubles to and from the rank itself;
C     then rank 0 sends rank 1 a message whose size is read from what
C     the sendrecv received (300 doubles when B(1) = 3).
      PROGRAM SRSELF
      IMPLICIT NONE
      INCLUDE 'mpif.h'
      INTEGER ME, IERR, K, N
      INTEGER STATUS(MPI_STATUS_SIZE)
      DOUBLE PRECISION A(1000), B(1000), C(300)
      CALL MPI_INIT(IERR)
      CALL MPI_COMM_RANK(MPI_COMM_WORLD, ME, IERR)
      A(1) = 3.0D0
      DO 10 K = 1, 10
         CALL MPI_SENDRECV(A, 1000, MPI_DOUBLE_PRECISION, ME, K,
     &        B, 1000, MPI_DOUBLE_PRECISION, ME, K, MPI_COMM_WORLD,
     &        STATUS, IERR)
   10 CONTINUE
      N = NINT(B(1)) * 100
      IF (ME .EQ. 0) CALL MPI_SEND(C, N, MPI_DOUBLE_PRECISION, 1, 99,
     &     MPI_COMM_WORLD, IERR)
      IF (ME .EQ. 1) CALL MPI_RECV(C, N, MPI_DOUBLE_PRECISION, 0, 99,
     &     MPI_COMM_WORLD, STATUS, IERR)
      CALL MPI_FINALIZE(IERR)
      END
