      PROGRAM FL
      INTEGER N, I
      REAL Y, F
      Y = 0.0
      DO I = 1, N
         Y = Y + F(I)
      END DO
      END
      REAL FUNCTION F(M)
      INTEGER M, K
      F = 0.0
      DO K = 1, M
         F = F + 1.0
      END DO
      END
