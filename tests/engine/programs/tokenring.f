C     TOKENRING -- one lap of a 4-byte token round 4 nodes:
C     0 -> 1 -> 2 -> 3 -> 0.  Run on P = 4.  Hops on the hypercube:
C     0->1: 1, 1->2: 2, 2->3: 1, 3->0: 2.
      PROGRAM TRING
      INTEGER ME, ITOK
      INTEGER MYNODE
      ME = MYNODE()
      IF (ME .EQ. 0) THEN
         CALL CSEND(7, ITOK, 4, 1, 0)
         CALL CRECV(7, ITOK, 4)
      ELSE IF (ME .EQ. 3) THEN
         CALL CRECV(7, ITOK, 4)
         CALL CSEND(7, ITOK, 4, 0, 0)
      ELSE
         CALL CRECV(7, ITOK, 4)
         CALL CSEND(7, ITOK, 4, ME+1, 0)
      END IF
      END
