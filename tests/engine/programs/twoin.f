C     TWOIN -- nodes 0 and 1 each send 1000 bytes to node 2 at the
C     same moment.  On the 4-node cube (e-cube, lowest bit first) the
C     route 1 -> 0 -> 2 and the route 0 -> 2 share the link 0 -> 2.
C     Run on P = 4.
      PROGRAM TWOIN
      INTEGER ME, BUF(250)
      INTEGER MYNODE
      ME = MYNODE()
      IF (ME .LE. 1) THEN
         CALL CSEND(7, BUF, 1000, 2, 0)
      ELSE IF (ME .EQ. 2) THEN
         CALL CRECV(7, BUF, 1000)
         CALL CRECV(7, BUF, 1000)
      END IF
      END
