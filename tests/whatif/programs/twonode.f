C     TWONOD -- node 0 sends one 1000-byte message to node 1 (csend /
C     crecv, dynamic buffers: more than 100 bytes).  Run on P = 2.
C     The what-if tests check its transmission time by hand.
      PROGRAM TWONOD
      INTEGER ME, MYNODE
      DOUBLE PRECISION BUF(125)
      ME = MYNODE()
      IF (ME .EQ. 0) CALL CSEND(7, BUF, 1000, 1, 0)
      IF (ME .EQ. 1) CALL CRECV(7, BUF, 1000)
      STOP
      END
