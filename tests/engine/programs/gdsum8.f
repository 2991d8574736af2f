C     GDSUM8 -- one global sum of one DOUBLE on every node; no other
C     work.  Run on P = 8: 3 rounds of recursive doubling.
      PROGRAM GSUM8
      DOUBLE PRECISION X, WORK(1)
      CALL GDSUM(X, 1, WORK)
      END
