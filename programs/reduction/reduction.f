C***********************************************************************
C     DOTPRD -- DISTRIBUTED DOT PRODUCT (iPSC/860, NX/2)
C
C     Two vectors of global length N are split into contiguous slices
C     of NLOC = N/NP elements, one slice per node.  Each node fills its
C     slice, forms the partial dot product, and GDSUM combines the
C     partial sums.  Node 0 prints the result and the exact value.
C
C        X(i) = 1/i,  Y(i) = i   so  X.Y = (number of terms)
C
C     EXTERNAL INPUTS: none (N is a PARAMETER; it should be a multiple
C     of the number of nodes).
C
C     NX/2 CALLS: MYNODE, NUMNODES, GDSUM
C***********************************************************************
      PROGRAM DOTPRD
      PARAMETER (N = 65536)
      DOUBLE PRECISION X(N), Y(N), DOT, WORK(1)
C
      ME = MYNODE()
      NP = NUMNODES()
      NLOC = N/NP
      IOFF = ME*NLOC
C
C     Set up this node's slice (global index IG = IOFF + I)
      DO 10 I = 1, NLOC
         IG = IOFF + I
         X(I) = 1.0D0 / DBLE(IG)
         Y(I) = DBLE(IG)
   10 CONTINUE
C
C     Local partial dot product
      DOT = 0.0D0
      DO 20 I = 1, NLOC
         DOT = DOT + X(I)*Y(I)
   20 CONTINUE
C
C     Combine over all nodes
      CALL GDSUM(DOT, 1, WORK)
C
      IF (ME .EQ. 0) THEN
         WRITE (6,100) N, NP, DOT, DBLE(NLOC*NP)
      END IF
  100 FORMAT (1X,'N =',I8,'  NODES =',I4,'  X.Y =',F14.4,
     &        '  EXACT =',F14.4)
      STOP
      END
