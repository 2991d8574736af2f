      PROGRAM WHILER
      REAL X
      X = 0.0
      DO WHILE (X .GE. 0.0)
         X = X + 1.0
      END DO
      END
