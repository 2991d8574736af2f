C     DEADLOCK -- nodes 0 and 1 both receive first, then send: each
C     waits for the other for ever.  Run on P = 2.
      PROGRAM DEADLK
      INTEGER ME, IBUF
      INTEGER MYNODE
      ME = MYNODE()
      IF (ME .EQ. 0) THEN
         CALL CRECV(1, IBUF, 4)
         CALL CSEND(1, IBUF, 4, 1, 0)
      ELSE
         CALL CRECV(1, IBUF, 4)
         CALL CSEND(1, IBUF, 4, 0, 0)
      END IF
      END
