      PROGRAM SPLA2A
C     NPB FT's setup at P = 16 (1-D layout), communication only: its two
C     MPI_COMM_SPLITs, then the first transpose, an MPI_ALLTOALL of 16 KiB
C     blocks (class S); arrays for P <= 16
      INCLUDE 'mpif.h'
      INTEGER IERR, ME, NP, C1, C2
      DOUBLE PRECISION A(32768), B(32768)
      CALL MPI_INIT(IERR)
      CALL MPI_COMM_RANK(MPI_COMM_WORLD, ME, IERR)
      CALL MPI_COMM_SIZE(MPI_COMM_WORLD, NP, IERR)
      CALL MPI_COMM_SPLIT(MPI_COMM_WORLD, 0, ME, C1, IERR)
      CALL MPI_COMM_SPLIT(MPI_COMM_WORLD, ME, 0, C2, IERR)
      CALL MPI_ALLTOALL(A, 2048, MPI_DOUBLE_PRECISION, B, 2048,
     &                  MPI_DOUBLE_PRECISION, MPI_COMM_WORLD, IERR)
      CALL MPI_FINALIZE(IERR)
      END
