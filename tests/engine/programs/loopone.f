C     LOOPONE -- a step written out as the literal 1 is no step: the
C     no-step overheads of Table 1 apply.
      PROGRAM LOOPON
      INTEGER N, I
      DOUBLE PRECISION S
      S = 0.0D0
      DO 10 I = 1, N, 1
         S = S + 1.0D0
   10 CONTINUE
      END
