C     RINGDEADLOCK -- every node receives from its left neighbour
C     before sending to its right one: nobody ever sends.  Run on any
C     P >= 2.
      PROGRAM RINGDL
      INTEGER ME, NP, ITOK, IRIGHT
      INTEGER MYNODE, NUMNODES
      ME = MYNODE()
      NP = NUMNODES()
      IRIGHT = MOD(ME+1, NP)
      CALL CRECV(7, ITOK, 4)
      CALL CSEND(7, ITOK, 4, IRIGHT, 0)
      END
