      PROGRAM FW
      REAL X, F
      X = F(3.0)
      END
      REAL FUNCTION F(Y)
      REAL Y
      F = Y
      DO WHILE (F .GT. 1.0)
         F = F / 2.0
      END DO
      END
