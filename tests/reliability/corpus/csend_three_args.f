      PROGRAM THREE
      REAL X(8)
      CALL CSEND(1, X, 32)
      END
