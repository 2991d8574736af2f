      PROGRAM PAIRA2A
C     NPB FT's 2-D layout (class W at P = 64: np1 = P/2, np2 = 2): its
C     two MPI_COMM_SPLITs, then two MPI_ALLTOALLs of 64 KiB blocks on
C     the P/2 two-rank communicators at once; P even, P <= 64
      INCLUDE 'mpif.h'
      INTEGER IERR, ME, C1, C2, ME1, ME2
      DOUBLE PRECISION A(16384), B(16384)
      CALL MPI_INIT(IERR)
      CALL MPI_COMM_RANK(MPI_COMM_WORLD, ME, IERR)
      ME2 = MOD(ME, 2)
      ME1 = ME / 2
      CALL MPI_COMM_SPLIT(MPI_COMM_WORLD, ME1, ME2, C1, IERR)
      CALL MPI_COMM_SPLIT(MPI_COMM_WORLD, ME2, ME1, C2, IERR)
      CALL MPI_ALLTOALL(A, 8192, MPI_DOUBLE_PRECISION, B, 8192,
     &                  MPI_DOUBLE_PRECISION, C1, IERR)
      CALL MPI_ALLTOALL(A, 8192, MPI_DOUBLE_PRECISION, B, 8192,
     &                  MPI_DOUBLE_PRECISION, C1, IERR)
      CALL MPI_FINALIZE(IERR)
      END
