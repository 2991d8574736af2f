      PROGRAM WORKER
      INTEGER MAXN
      PARAMETER (MAXN = 4096)
      DOUBLE PRECISION X(MAXN), S
      INTEGER NB, I, ME, MYNODE, MYHOST
      ME = MYNODE()
      CALL CRECV(100, NB, 4)
      DO 10 I = 1, NB
         X(I) = DBLE(I + ME) * 0.5D0
   10 CONTINUE
      S = 0.0D0
      DO 20 I = 1, NB
         S = S + X(I) * X(I)
   20 CONTINUE
      S = SQRT(S)
      CALL CSEND(200, S, 8, MYHOST(), 0)
      END
