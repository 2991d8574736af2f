      PROGRAM FA
      INTEGER N
      REAL Y, F
      Y = F(N)
      END
      REAL FUNCTION F(M)
      INTEGER M, K
      F = 0.0
      DO K = 1, M
         F = F + 1.0
      END DO
      END
