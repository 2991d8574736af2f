      PROGRAM PHASE2
C     IPH = 1: node 0 sends NBIG bytes to node 1; IPH = 0: node 1
C     sends NSMALL bytes back. IPH flips: the iterations repeat in twos.
      INTEGER NITER, NBIG, NSMALL
      PARAMETER (NITER = 101, NBIG = 1000, NSMALL = 8)
      INTEGER IT, ME, IPH
      DOUBLE PRECISION BUF(125)
      ME = MYNODE()
      IPH = 1
      DO 10 IT = 1, NITER
         IF (IPH .EQ. 1) THEN
            IF (ME .EQ. 0) CALL CSEND(1, BUF, NBIG, 1, 0)
            IF (ME .EQ. 1) CALL CRECV(1, BUF, NBIG)
         ELSE
            IF (ME .EQ. 1) CALL CSEND(2, BUF, NSMALL, 0, 0)
            IF (ME .EQ. 0) CALL CRECV(2, BUF, NSMALL)
         END IF
         IPH = 1 - IPH
   10 CONTINUE
      END
