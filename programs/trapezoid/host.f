C***********************************************************************
C     TRAPH -- HOST PROGRAM, TRAPEZOIDAL RULE INTEGRATION (iPSC/860)
C
C     Loads the node program 'node' on all nodes of the cube, then
C     NITER times broadcasts the integration parameters (A, B, N) to
C     the nodes and receives the integral back from node 0.  The
C     integrand, 4/(1+x*x) on [0,1], gives pi.
C
C     EXTERNAL INPUTS (unit 5, list directed):
C        N      number of intervals
C        NITER  number of times the integration is repeated
C
C     NX/2 CALLS: LOAD, NUMNODES, CSEND, CRECV
C***********************************************************************
      PROGRAM TRAPH
      IMPLICIT NONE
      INTEGER N, NITER, NP, ITER
      INTEGER NUMNODES
      DOUBLE PRECISION A, B, RESULT, PI
      DOUBLE PRECISION PARAMS(3)
      PARAMETER (PI = 3.14159265358979D0)
C
      READ (5,*) N
      READ (5,*) NITER
C
C     Integration interval
      A = 0.0D0
      B = 1.0D0
C
C     Load the node program on all nodes, process id 0
      CALL LOAD('node', -1, 0)
      NP = NUMNODES()
C
C     Tell the nodes how many times to go round
      CALL CSEND(5, NITER, 4, -1, 0)
C
      DO 100 ITER = 1, NITER
         PARAMS(1) = A
         PARAMS(2) = B
         PARAMS(3) = DBLE(N)
         CALL CSEND(10, PARAMS, 24, -1, 0)
         CALL CRECV(20, RESULT, 8)
  100 CONTINUE
C
      WRITE (6,200) N, NITER, NP
      WRITE (6,210) RESULT, RESULT - PI
  200 FORMAT (1X,'N =',I10,'   NITER =',I6,'   NODES =',I4)
  210 FORMAT (1X,'INTEGRAL =',F18.14,'   ERROR =',1PE12.4)
      STOP
      END
