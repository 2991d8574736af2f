C     TWOINDATA -- twoin.f with a data-dependent IF on node 0 before its
C     send: nodes 0 and 1 each send 1000 bytes to node 2 at about the
C     same moment, and on the 4-node cube the routes 0 -> 2 and
C     1 -> 0 -> 2 share the link 0 -> 2.  Node 0's clock, and so its
C     message's times, depend on the IF's branch probability.  Run on P = 4.
      PROGRAM TWOIND
      INTEGER ME, K, BUF(250)
      INTEGER MYNODE, IFUN
      DOUBLE PRECISION X, Y, Z
      EXTERNAL IFUN
      ME = MYNODE()
      IF (ME .EQ. 0) THEN
         K = IFUN(1)
         IF (K .GT. 0) THEN
            X = 1.0D0
            Y = 2.0D0
            Z = 3.0D0
         ELSE
            X = 4.0D0
         END IF
      END IF
      IF (ME .LE. 1) THEN
         CALL CSEND(7, BUF, 1000, 2, 0)
      ELSE IF (ME .EQ. 2) THEN
         CALL CRECV(7, BUF, 1000)
         CALL CRECV(7, BUF, 1000)
      END IF
      END
