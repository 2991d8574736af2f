      PROGRAM DEADL
      INTEGER ME, MYNODE
      REAL X(8)
      ME = MYNODE()
      CALL CRECV(1, X, 32)
      CALL CSEND(1, X, 32, ME, 0)
      END
