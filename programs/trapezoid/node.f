C***********************************************************************
C     TRAPN -- NODE PROGRAM, TRAPEZOIDAL RULE INTEGRATION (iPSC/860)
C
C     Loaded by the host program TRAPH.  Receives the iteration count
C     once, then for each iteration receives A, B and N, sums f(x) over
C     the interior points assigned to it cyclically (I = ME+1, ME+1+NP,
C     ...), adds the end-point terms on node 0, and forms the global
C     sum.  Node 0 sends the integral back to the host.
C
C        T = H * ( f(A)/2 + SUM(I=1,N-1) f(A+I*H) + f(B)/2 )
C        f(x) = 4/(1+x*x)    (computed inline)
C
C     EXTERNAL INPUTS: none directly; NITER, A, B and N come from the
C     host by messages (types 5 and 10).
C
C     NX/2 CALLS: MYNODE, NUMNODES, MYHOST, CRECV, CSEND, GDSUM
C***********************************************************************
      PROGRAM TRAPN
      IMPLICIT NONE
      INTEGER ME, NP, N, NITER, ITER, I
      INTEGER MYNODE, NUMNODES, MYHOST
      DOUBLE PRECISION A, B, H, X, SUM, FA, FB
      DOUBLE PRECISION PARAMS(3), WORK(1)
C
      ME = MYNODE()
      NP = NUMNODES()
C
      CALL CRECV(5, NITER, 4)
C
      DO 100 ITER = 1, NITER
         CALL CRECV(10, PARAMS, 24)
         A = PARAMS(1)
         B = PARAMS(2)
         N = NINT(PARAMS(3))
         H = (B - A) / DBLE(N)
C
C        Interior points, cyclic distribution over the nodes
         SUM = 0.0D0
         DO 10 I = ME+1, N-1, NP
            X = A + DBLE(I)*H
            SUM = SUM + 4.0D0/(1.0D0 + X*X)
   10    CONTINUE
C
C        End points are done once, on node 0
         IF (ME .EQ. 0) THEN
            FA = 4.0D0/(1.0D0 + A*A)
            FB = 4.0D0/(1.0D0 + B*B)
            SUM = SUM + 0.5D0*(FA + FB)
         END IF
         SUM = SUM*H
C
C        Global sum; every node gets the total
         CALL GDSUM(SUM, 1, WORK)
C
         IF (ME .EQ. 0) CALL CSEND(20, SUM, 8, MYHOST(), 0)
  100 CONTINUE
C
      STOP
      END
