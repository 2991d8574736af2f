C     NEEDTWO -- node 0 sends NREP messages to node IDEST, which
C     receives them.  Both NREP and IDEST are external inputs that
C     the interpretation cannot do without (a partner and the trip
C     count of a loop that communicates).  Run on P = 4.
      PROGRAM NEEDTW
      INTEGER ME, IBUF, I, NREP, IDEST
      INTEGER MYNODE
      ME = MYNODE()
      IF (ME .EQ. 0) THEN
         DO 10 I = 1, NREP
            CALL CSEND(1, IBUF, 4, IDEST, 0)
   10    CONTINUE
      ELSE IF (ME .EQ. IDEST) THEN
         DO 20 I = 1, NREP
            CALL CRECV(1, IBUF, 4)
   20    CONTINUE
      END IF
      END
