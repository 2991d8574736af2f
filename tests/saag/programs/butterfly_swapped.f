C     BFLY WITH A BUG: EVERY NODE RECEIVES BEFORE IT SENDS.
      PROGRAM BFLYS
      INTEGER ME, NP, K, LOGP, N2, IPART, MYNODE, NUMNODES
      DOUBLE PRECISION X, Y
C
      ME = MYNODE()
      NP = NUMNODES()
      LOGP = 0
      N2 = 1
      DO WHILE (N2 .LT. NP)
         N2 = 2*N2
         LOGP = LOGP + 1
      END DO
      X = DBLE(ME)
      DO 10 K = 0, LOGP-1
         IPART = IEOR(ME, 2**K)
         CALL CRECV(50+K, Y, 8)
         CALL CSEND(50+K, X, 8, IPART, 0)
         X = X + Y
   10 CONTINUE
      END
