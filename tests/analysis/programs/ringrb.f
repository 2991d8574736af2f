C     RINGRB -- a token of NB bytes passed round all nodes NR times
C     (NX/2).  Node 0 starts every round.  Inputs: NR, NB (unit 5).
      PROGRAM RINGRB
      INTEGER ME, NP, NR, NB, LAP, IRIGHT
      INTEGER MYNODE, NUMNODES
      DOUBLE PRECISION TOKEN(100000)
      READ (5,*) NR
      READ (5,*) NB
      ME = MYNODE()
      NP = NUMNODES()
      IRIGHT = MOD(ME+1, NP)
      DO 10 LAP = 1, NR
         IF (ME .EQ. 0) THEN
            CALL CSEND(7, TOKEN, NB, IRIGHT, 0)
            CALL CRECV(7, TOKEN, NB)
         ELSE
            CALL CRECV(7, TOKEN, NB)
            CALL CSEND(7, TOKEN, NB, IRIGHT, 0)
         END IF
   10 CONTINUE
      STOP
      END
