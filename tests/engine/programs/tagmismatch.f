C     TAGMISMATCH -- node 0 sends type 1, node 1 waits for type 2.
C     Run on P = 2.
      PROGRAM TAGMIS
      INTEGER ME, IBUF
      INTEGER MYNODE
      ME = MYNODE()
      IF (ME .EQ. 0) CALL CSEND(1, IBUF, 4, 1, 0)
      IF (ME .EQ. 1) CALL CRECV(2, IBUF, 4)
      END
