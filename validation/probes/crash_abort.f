      PROGRAM CRASH
C     Rank 1 calls ABORT (a gfortran intrinsic): SMPI's run dies.
      INCLUDE 'mpif.h'
      INTEGER ME, IERR
      CALL MPI_INIT(IERR)
      CALL MPI_COMM_RANK(MPI_COMM_WORLD, ME, IERR)
      IF (ME .EQ. 1) CALL ABORT()
      CALL MPI_BARRIER(MPI_COMM_WORLD, IERR)
      CALL MPI_FINALIZE(IERR)
      END
