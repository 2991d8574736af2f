C     LOOPTRI -- a triangular loop nest: the inner trip count is the
C     outer index, so the body runs N*(N+1)/2 times.
      PROGRAM LOOPTR
      INTEGER N, I, J
      DOUBLE PRECISION S
      S = 0.0D0
      DO 20 I = 1, N
         DO 10 J = 1, I
            S = S + 1.0D0
   10    CONTINUE
   20 CONTINUE
      END
