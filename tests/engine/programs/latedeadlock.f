C     LATEDEADLOCK -- nodes 0 and 1 exchange a token NITER times; in
C     iteration KBAD both receive first and the exchange deadlocks.
C     NITER and KBAD are external inputs.  Run on P = 2.
      PROGRAM LATEDL
      INTEGER ME, ITOK, I, NITER, KBAD, IOTHER
      INTEGER MYNODE
      ME = MYNODE()
      IOTHER = 1 - ME
      DO 10 I = 1, NITER
         IF (I .EQ. KBAD) THEN
            CALL CRECV(2, ITOK, 4)
            CALL CSEND(2, ITOK, 4, IOTHER, 0)
         ELSE IF (ME .EQ. 0) THEN
            CALL CSEND(1, ITOK, 4, IOTHER, 0)
            CALL CRECV(1, ITOK, 4)
         ELSE
            CALL CRECV(1, ITOK, 4)
            CALL CSEND(1, ITOK, 4, IOTHER, 0)
         END IF
   10 CONTINUE
      END
