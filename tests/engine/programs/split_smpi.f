      PROGRAM SPLITS
C     NPB FT's two splits (one group of all ranks, then one group per
C     rank), nothing else: their cost as SMPI implements them
      INCLUDE 'mpif.h'
      INTEGER IERR, ME, C1, C2
      CALL MPI_INIT(IERR)
      CALL MPI_COMM_RANK(MPI_COMM_WORLD, ME, IERR)
      CALL MPI_COMM_SPLIT(MPI_COMM_WORLD, 0, ME, C1, IERR)
      CALL MPI_COMM_SPLIT(MPI_COMM_WORLD, ME, 0, C2, IERR)
      CALL MPI_FINALIZE(IERR)
      END
