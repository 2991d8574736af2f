C     SENDRECV -- one 1000-byte message, node 0 -> node 3 (2 hops on
C     the hypercube).  Run on P = 4.  The only computation is
C     ME = MYNODE() and the two IF tests.
      PROGRAM SNDRCV
      INTEGER ME
      INTEGER MYNODE
      DOUBLE PRECISION BUF(125)
      ME = MYNODE()
      IF (ME .EQ. 0) CALL CSEND(1, BUF, 1000, 3, 0)
      IF (ME .EQ. 3) CALL CRECV(1, BUF, 1000)
      END
