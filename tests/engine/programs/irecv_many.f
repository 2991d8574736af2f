      PROGRAM IRMANY
C     1500 small MPI_SENDs (static buffers on the iPSC/860: 1000 a node),
C     each taken by an MPI_IRECV. The IF keeps the loop from folding, so
C     every message is interpreted.
      INCLUDE 'mpif.h'
      INTEGER ME, IERR, K, REQ
      INTEGER STATUS(MPI_STATUS_SIZE)
      DOUBLE PRECISION X
      CALL MPI_INIT(IERR)
      CALL MPI_COMM_RANK(MPI_COMM_WORLD, ME, IERR)
      DO 10 K = 1, 1500
         IF (MOD(K*K, 7) .EQ. 3) THEN
            X = 1.0D0
         END IF
         IF (ME .EQ. 0) THEN
            CALL MPI_SEND(X, 1, MPI_DOUBLE_PRECISION, 1, 7,
     &                    MPI_COMM_WORLD, IERR)
         ELSE
            CALL MPI_IRECV(X, 1, MPI_DOUBLE_PRECISION, 0, 7,
     &                     MPI_COMM_WORLD, REQ, IERR)
            CALL MPI_WAIT(REQ, STATUS, IERR)
         END IF
   10 CONTINUE
      CALL MPI_FINALIZE(IERR)
      END
