C     ANSWER -- every node but 0 sends its number to node 0 (type 5);
C     node 0 answers each message, in the order they arrive, to the
C     node infonode() names.  Run on P = 4.
      PROGRAM ANSWER
      INTEGER ME, NP, K, IBUF, IWHO
      INTEGER MYNODE, NUMNODES, INFONODE
      ME = MYNODE()
      NP = NUMNODES()
      IF (ME .EQ. 0) THEN
         DO 10 K = 1, NP - 1
            CALL CRECV(5, IBUF, 4)
            IWHO = INFONODE()
            CALL CSEND(6, IBUF, 4, IWHO, 0)
   10    CONTINUE
      ELSE
         CALL CSEND(5, ME, 4, 0, 0)
         CALL CRECV(6, IBUF, 4)
      END IF
      END
