      PROGRAM PROBEW
C     Rank 0 takes one message from every other rank, in the order they
C     come: MPI_PROBE(ANY_SOURCE), MPI_GET_COUNT for its length, then
C     MPI_RECV from STATUS(MPI_SOURCE) (tests/engine/test_mpi_probe.py).
C     Rank K sends 100*K doubles.
      INCLUDE 'mpif.h'
      INTEGER ME, NP, IERR, N, K, STATUS(MPI_STATUS_SIZE)
      DOUBLE PRECISION BUF(1000)
      CALL MPI_INIT(IERR)
      CALL MPI_COMM_RANK(MPI_COMM_WORLD, ME, IERR)
      CALL MPI_COMM_SIZE(MPI_COMM_WORLD, NP, IERR)
      IF (ME .EQ. 0) THEN
         DO 10 K = 1, NP - 1
            CALL MPI_PROBE(MPI_ANY_SOURCE, 7, MPI_COMM_WORLD, STATUS,
     &                     IERR)
            CALL MPI_GET_COUNT(STATUS, MPI_DOUBLE_PRECISION, N, IERR)
            CALL MPI_RECV(BUF, N, MPI_DOUBLE_PRECISION,
     &                    STATUS(MPI_SOURCE), 7, MPI_COMM_WORLD,
     &                    STATUS, IERR)
   10    CONTINUE
      ELSE
         N = 100 * ME
         CALL MPI_SEND(BUF, N, MPI_DOUBLE_PRECISION, 0, 7,
     &                 MPI_COMM_WORLD, IERR)
      END IF
      CALL MPI_FINALIZE(IERR)
      END
