C     ALLREDUCE_VALUE -- every rank contributes its rank number; the
C     sum (0+1+2+3 = 6 on P = 4) decides how many more messages rank 0
C     sends to rank 1: the engine must follow the value into GRES.
      PROGRAM ARVAL
      INCLUDE 'mpif.h'
      INTEGER ME, IERR, K, ISUM, IVAL
      INTEGER STATUS(MPI_STATUS_SIZE)
      CALL MPI_INIT(IERR)
      CALL MPI_COMM_RANK(MPI_COMM_WORLD, ME, IERR)
      IVAL = ME
      CALL MPI_ALLREDUCE(IVAL, ISUM, 1, MPI_INTEGER, MPI_SUM,
     &                   MPI_COMM_WORLD, IERR)
      DO 10 K = 1, ISUM
         IF (ME .EQ. 0) CALL MPI_SEND(K, 1, MPI_INTEGER, 1, 5,
     &                                MPI_COMM_WORLD, IERR)
         IF (ME .EQ. 1) CALL MPI_RECV(IVAL, 1, MPI_INTEGER, 0, 5,
     &                                MPI_COMM_WORLD, STATUS, IERR)
   10 CONTINUE
      CALL MPI_FINALIZE(IERR)
      END
