C     CUBE -- N**3 MULTIPLY-ADDS SHARED OUT OVER THE RANKS (MPI), THEN
C     ONE ALLREDUCE. Each rank does N**3/NP of them (whole division: the
C     ranks differ by at most one), so the one-rank time grows as N**3.
C     N is read on rank 0 and broadcast.
      PROGRAM CUBE
      INCLUDE 'mpif.h'
      DOUBLE PRECISION S, T
      CALL MPI_INIT(IERR)
      CALL MPI_COMM_RANK(MPI_COMM_WORLD, ME, IERR)
      CALL MPI_COMM_SIZE(MPI_COMM_WORLD, NP, IERR)
      IF (ME .EQ. 0) READ (5,*) N
      CALL MPI_BCAST(N, 1, MPI_INTEGER, 0, MPI_COMM_WORLD, IERR)
      NW = N*N*N/NP
      S = 0.0D0
      DO I = 1, NW
         S = S + 1.5D0*S
      ENDDO
      CALL MPI_ALLREDUCE(S, T, 1, MPI_DOUBLE_PRECISION, MPI_SUM,
     &                   MPI_COMM_WORLD, IERR)
      CALL MPI_FINALIZE(IERR)
      END
