      PROGRAM GOTOX
      INTEGER ME, NP, MYNODE, NUMNODES
      REAL X(8)
      ME = MYNODE()
      NP = NUMNODES()
   10 CALL CSEND(1, X, 32, MOD(ME + 1, NP), 0)
      CALL CRECV(1, X, 32)
      IF (X(1) .LT. 0.0) GO TO 20
      GO TO 10
   20 CONTINUE
      END
