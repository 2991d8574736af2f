      PROGRAM GOTOS
      INTEGER ME, NP, MYNODE, NUMNODES, K
      REAL X(8)
      ME = MYNODE()
      NP = NUMNODES()
      K = 0
   10 CALL CSEND(1, X, 32, MOD(ME + 1, NP), 0)
      CALL CRECV(1, X, 32)
      CALL DONE(K)
      GO TO 10
      END
      SUBROUTINE DONE(K)
      INTEGER K
      K = K + 1
      IF (K .GE. 5) STOP
      END
