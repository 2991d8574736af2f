      PROGRAM SYMRED
C     N additions on every rank, then an MPI_ALLREDUCE of one double,
C     three times: the members enter with the same time in N
C     (tests/engine/test_collective_numbers.py).
      INCLUDE 'mpif.h'
      INTEGER ME, NP, IERR, I, N, IT
      DOUBLE PRECISION S, G
      CALL MPI_INIT(IERR)
      CALL MPI_COMM_RANK(MPI_COMM_WORLD, ME, IERR)
      CALL MPI_COMM_SIZE(MPI_COMM_WORLD, NP, IERR)
      READ (5,*) N
      S = 0.0D0
      DO 20 IT = 1, 3
         DO 10 I = 1, N
            S = S + 1.0D0
   10    CONTINUE
         CALL MPI_ALLREDUCE(S, G, 1, MPI_DOUBLE_PRECISION, MPI_SUM,
     &                      MPI_COMM_WORLD, IERR)
   20 CONTINUE
      CALL MPI_FINALIZE(IERR)
      END
