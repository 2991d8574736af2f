      PROGRAM PRECV
C     probew.f without MPI_PROBE: rank 0 receives from rank K in turn,
C     100*K doubles, and asks MPI_GET_COUNT as probew.f does (the same
C     costs; tests/engine/test_mpi_probe.py).
      INCLUDE 'mpif.h'
      INTEGER ME, NP, IERR, N, K, STATUS(MPI_STATUS_SIZE)
      DOUBLE PRECISION BUF(1000)
      CALL MPI_INIT(IERR)
      CALL MPI_COMM_RANK(MPI_COMM_WORLD, ME, IERR)
      CALL MPI_COMM_SIZE(MPI_COMM_WORLD, NP, IERR)
      IF (ME .EQ. 0) THEN
         DO 10 K = 1, NP - 1
            CALL MPI_RECV(BUF, 100*K, MPI_DOUBLE_PRECISION,
     &                    K, 7, MPI_COMM_WORLD,
     &                    STATUS, IERR)
            CALL MPI_GET_COUNT(STATUS, MPI_DOUBLE_PRECISION, N, IERR)
   10    CONTINUE
      ELSE
         N = 100 * ME
         CALL MPI_SEND(BUF, N, MPI_DOUBLE_PRECISION, 0, 7,
     &                 MPI_COMM_WORLD, IERR)
      END IF
      CALL MPI_FINALIZE(IERR)
      END
