C***********************************************************************
C     RING -- TOKEN RING (iPSC/860, NX/2)
C
C     A token is passed round the nodes NLAPS times.  Each node
C     receives it from its left neighbour MOD(ME-1+NP,NP), adds one to
C     the count, stamps its own number on it and passes it to its
C     right neighbour MOD(ME+1,NP).  Node 0 starts every lap and checks
C     the count when the token comes home (NLAPS*NP hops).
C
C     EXTERNAL INPUTS: none (NLAPS is a PARAMETER).
C
C     NX/2 CALLS: MYNODE, NUMNODES, CSEND, CRECV
C***********************************************************************
      PROGRAM RING
      PARAMETER (NLAPS = 50, MTYPE = 7)
      INTEGER ITOK(2)
C
      ME = MYNODE()
      NP = NUMNODES()
      LEFT  = MOD(ME-1+NP, NP)
      IRIGHT = MOD(ME+1, NP)
      NBAD = 0
C
      IF (ME .EQ. 0) THEN
         ITOK(1) = 0
         DO 10 LAP = 1, NLAPS
            ITOK(1) = ITOK(1) + 1
            ITOK(2) = ME
            CALL CSEND(MTYPE, ITOK, 8, IRIGHT, 0)
            CALL CRECV(MTYPE, ITOK, 8)
            IF (ITOK(2) .NE. LEFT) NBAD = NBAD + 1
   10    CONTINUE
         NEXPCT = NLAPS*NP
         WRITE (6,100) NLAPS, NP, ITOK(1), NEXPCT, NBAD
      ELSE
         DO 20 LAP = 1, NLAPS
            CALL CRECV(MTYPE, ITOK, 8)
            IF (ITOK(2) .NE. LEFT) NBAD = NBAD + 1
            ITOK(1) = ITOK(1) + 1
            ITOK(2) = ME
            CALL CSEND(MTYPE, ITOK, 8, IRIGHT, 0)
   20    CONTINUE
      END IF
C
  100 FORMAT (1X,'RING:',I5,' LAPS ON',I4,' NODES, COUNT =',I8,
     &        ' (EXPECTED',I8,'), BAD SENDERS =',I4)
      STOP
      END
