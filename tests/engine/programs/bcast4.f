C     BCAST4 -- node 0 broadcasts 8 bytes (CSEND to node -1) and the
C     other nodes receive them.  Run on P = 4.
      PROGRAM BCAST4
      INTEGER ME
      INTEGER MYNODE
      DOUBLE PRECISION X
      ME = MYNODE()
      IF (ME .EQ. 0) THEN
         CALL CSEND(3, X, 8, -1, 0)
      ELSE
         CALL CRECV(3, X, 8)
      END IF
      END
