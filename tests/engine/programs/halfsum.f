C     HALFSUM -- only node 0 takes part in the global sum; node 1
C     finishes without it, so node 0 waits for ever.  Run on P = 2.
      PROGRAM HALFSM
      INTEGER ME
      INTEGER MYNODE
      DOUBLE PRECISION X, WORK(1)
      ME = MYNODE()
      IF (ME .EQ. 0) CALL GDSUM(X, 1, WORK)
      END
