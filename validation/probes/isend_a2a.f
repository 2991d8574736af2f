      PROGRAM A2A
      INCLUDE 'mpif.h'
      INTEGER ME, NP, IERR, I, K, REQ(64), STS(MPI_STATUS_SIZE, 64)
      DOUBLE PRECISION A(1000), B(1000, 32)
      CALL MPI_INIT(IERR)
      CALL MPI_COMM_RANK(MPI_COMM_WORLD, ME, IERR)
      CALL MPI_COMM_SIZE(MPI_COMM_WORLD, NP, IERR)
      K = 0
      DO 10 I = 0, NP - 1
         IF (I .NE. ME) THEN
            K = K + 1
            CALL MPI_IRECV(B(1, K), 1000, MPI_DOUBLE_PRECISION, I, 1,
     &                     MPI_COMM_WORLD, REQ(K), IERR)
         END IF
   10 CONTINUE
      DO 20 I = 0, NP - 1
         IF (I .NE. ME) THEN
            K = K + 1
            CALL MPI_ISEND(A, 1000, MPI_DOUBLE_PRECISION, I, 1,
     &                     MPI_COMM_WORLD, REQ(K), IERR)
         END IF
   20 CONTINUE
      CALL MPI_WAITALL(K, REQ, STS, IERR)
      CALL MPI_FINALIZE(IERR)
      END
