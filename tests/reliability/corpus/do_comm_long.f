C     A DO loop that communicates with a tag that changes every iteration: stepped, not folded;
C     5000 iterations end, but take more AAU executions than a small --max-steps allows
      PROGRAM DOLONG
      INTEGER I, K, ME, X
      INTEGER MYNODE
      ME = MYNODE()
      X = 0
      DO 10 I = 1, 5000
         K = MOD(I, 7) + 1
         IF (ME .EQ. 0) CALL CSEND(K, X, 4, 1, 0)
         IF (ME .EQ. 1) CALL CRECV(K, X, 4)
   10 CONTINUE
      END
