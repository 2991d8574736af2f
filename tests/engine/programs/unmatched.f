C     UNMATCHED -- node 1 waits for a message of type 9 that no node
C     ever sends.  Run on P = 2.
      PROGRAM UNMTCH
      INTEGER ME, IBUF
      INTEGER MYNODE
      ME = MYNODE()
      IF (ME .EQ. 1) CALL CRECV(9, IBUF, 4)
      END
