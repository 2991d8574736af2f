C     LOOPN -- an IterD loop with a symbolic trip count N (an external
C     input).  Body: S = S + 1.0D0 (fetch, add, store).
      PROGRAM LOOPN
      INTEGER N, I
      DOUBLE PRECISION S
      S = 0.0D0
      DO 10 I = 1, N
         S = S + 1.0D0
   10 CONTINUE
      END
