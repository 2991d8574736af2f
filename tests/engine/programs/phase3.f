      PROGRAM PHASE3
C     A ring of three phases: IPH = 0 sends right, 1 sends left, 2
C     exchanges nothing but computes; IPH = MOD(IPH + 1, 3) each
C     iteration, so the iterations repeat in threes.
      INTEGER NITER, NB
      PARAMETER (NITER = 100, NB = 800)
      INTEGER IT, ME, NP, IPH, I
      DOUBLE PRECISION BUF(100), S
      ME = MYNODE()
      NP = NUMNODES()
      IPH = 0
      S = 0.0D0
      DO 10 IT = 1, NITER
         IF (IPH .EQ. 0) THEN
            CALL CSEND(1, BUF, NB, MOD(ME + 1, NP), 0)
            CALL CRECV(1, BUF, NB)
         ELSE IF (IPH .EQ. 1) THEN
            CALL CSEND(2, BUF, NB / 2, MOD(ME + NP - 1, NP), 0)
            CALL CRECV(2, BUF, NB / 2)
         ELSE
            DO 20 I = 1, 100
               S = S + BUF(I)
   20       CONTINUE
         END IF
         IPH = MOD(IPH + 1, 3)
   10 CONTINUE
      END
