      PROGRAM PNONE
C     Rank 0 probes for a tag nobody sends: a deadlock that names the
C     MPI_PROBE (tests/engine/test_mpi_probe.py).
      INCLUDE 'mpif.h'
      INTEGER ME, IERR, STATUS(MPI_STATUS_SIZE)
      CALL MPI_INIT(IERR)
      CALL MPI_COMM_RANK(MPI_COMM_WORLD, ME, IERR)
      IF (ME .EQ. 0) CALL MPI_PROBE(1, 99, MPI_COMM_WORLD, STATUS, IERR)
      CALL MPI_FINALIZE(IERR)
      END
