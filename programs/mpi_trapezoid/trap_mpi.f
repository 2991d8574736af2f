C***********************************************************************
C     TRAPM -- TRAPEZOIDAL RULE INTEGRATION, MPI VERSION
C
C     The MPI counterpart of the TRAPH/TRAPN host-node benchmark.  Rank
C     0 reads N and NITER and broadcasts them.  NITER times, every rank
C     sums f(x) over its cyclic share of the interior points (I = ME+1,
C     ME+1+NP, ...), rank 0 adds the end-point terms, and the partial
C     integrals are summed onto rank 0 with MPI_REDUCE.
C
C        T = H * ( f(A)/2 + SUM(I=1,N-1) f(A+I*H) + f(B)/2 )
C        f(x) = 4/(1+x*x) on [0,1]   (computed inline; T -> pi)
C
C     EXTERNAL INPUTS (unit 5 on rank 0, list directed):
C        N      number of intervals
C        NITER  number of times the integration is repeated
C
C     MPI CALLS: MPI_INIT, MPI_COMM_RANK, MPI_COMM_SIZE, MPI_BCAST,
C                MPI_REDUCE, MPI_FINALIZE
C***********************************************************************
      PROGRAM TRAPM
      INCLUDE 'mpif.h'
      DOUBLE PRECISION A, B, H, X, SUM, TOTAL, FA, FB, PI
      PARAMETER (PI = 3.14159265358979D0)
C
      CALL MPI_INIT(IERR)
      CALL MPI_COMM_RANK(MPI_COMM_WORLD, ME, IERR)
      CALL MPI_COMM_SIZE(MPI_COMM_WORLD, NP, IERR)
C
      IF (ME .EQ. 0) THEN
         READ (5,*) N
         READ (5,*) NITER
      END IF
      CALL MPI_BCAST(N, 1, MPI_INTEGER, 0, MPI_COMM_WORLD, IERR)
      CALL MPI_BCAST(NITER, 1, MPI_INTEGER, 0, MPI_COMM_WORLD, IERR)
C
      A = 0.0D0
      B = 1.0D0
C
      DO ITER = 1, NITER
         H = (B - A) / DBLE(N)
         SUM = 0.0D0
         DO I = ME+1, N-1, NP
            X = A + DBLE(I)*H
            SUM = SUM + 4.0D0/(1.0D0 + X*X)
         ENDDO
         IF (ME .EQ. 0) THEN
            FA = 4.0D0/(1.0D0 + A*A)
            FB = 4.0D0/(1.0D0 + B*B)
            SUM = SUM + 0.5D0*(FA + FB)
         END IF
         SUM = SUM*H
         CALL MPI_REDUCE(SUM, TOTAL, 1, MPI_DOUBLE_PRECISION, MPI_SUM,
     &                   0, MPI_COMM_WORLD, IERR)
      ENDDO
C
      IF (ME .EQ. 0) THEN
         WRITE (6,100) N, NITER, NP
         WRITE (6,110) TOTAL, TOTAL - PI
      END IF
  100 FORMAT (1X,'N =',I10,'   NITER =',I6,'   RANKS =',I4)
  110 FORMAT (1X,'INTEGRAL =',F18.14,'   ERROR =',1PE12.4)
      CALL MPI_FINALIZE(IERR)
      STOP
      END
