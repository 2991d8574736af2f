C     The midpoint rule, points dealt cyclically (rank I takes
C     I+1, I+1+P, ...), the partial sums reduced to rank 0 NITER
C     times. With N not a multiple of P the ranks' loops differ by
C     one point: in the formula the members reach the reduce at
C     times that differ by floors of N, and which enters last is
C     undecided until N is known.
      PROGRAM REDLEAF
      INCLUDE 'mpif.h'
      INTEGER N, NITER, ME, NP, I, IT, IERR
      DOUBLE PRECISION H, S, X, PART, TOTAL
      CALL MPI_INIT(IERR)
      CALL MPI_COMM_RANK(MPI_COMM_WORLD, ME, IERR)
      CALL MPI_COMM_SIZE(MPI_COMM_WORLD, NP, IERR)
      DO 20 IT = 1, NITER
         H = 1.0D0 / N
         S = 0.0D0
         DO 10 I = ME + 1, N, NP
            X = H * (DBLE(I) - 0.5D0)
            S = S + 4.0D0 / (1.0D0 + X * X)
 10      CONTINUE
         PART = H * S
         CALL MPI_REDUCE(PART, TOTAL, 1, MPI_DOUBLE_PRECISION, MPI_SUM,
     &                   0, MPI_COMM_WORLD, IERR)
 20   CONTINUE
      CALL MPI_FINALIZE(IERR)
      END
