C     GDSUMLATE -- a global sum where node 5 arrives late: it first
C     runs a 1000-iteration loop.  Run on P = 8.
      PROGRAM GSUML
      INTEGER ME, I
      INTEGER MYNODE
      DOUBLE PRECISION X, WORK(1)
      ME = MYNODE()
      X = 1.0D0
      IF (ME .EQ. 5) THEN
         DO 10 I = 1, 1000
            X = X + 1.0D0
   10    CONTINUE
      END IF
      CALL GDSUM(X, 1, WORK)
      END
