C     LOOPSTEP -- an IterD loop with a step (3): Table 1's step
C     overheads, and floor((N - 1 + 3)/3) iterations.
      PROGRAM LOOPST
      INTEGER N, I
      DOUBLE PRECISION S
      S = 0.0D0
      DO 10 I = 1, N, 3
         S = S + 1.0D0
   10 CONTINUE
      END
