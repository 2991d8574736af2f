C     COUNTMISMATCH -- node 0 sends NMSG messages, node 1 waits for
C     NMSG+1: the last receive never completes.  NMSG is an external
C     input.  Run on P = 2.
      PROGRAM CNTMIS
      INTEGER ME, IBUF, I, NMSG
      INTEGER MYNODE
      ME = MYNODE()
      IF (ME .EQ. 0) THEN
         DO 10 I = 1, NMSG
            CALL CSEND(1, IBUF, 4, 1, 0)
   10    CONTINUE
      ELSE
         DO 20 I = 1, NMSG+1
            CALL CRECV(1, IBUF, 4)
   20    CONTINUE
      END IF
      END
