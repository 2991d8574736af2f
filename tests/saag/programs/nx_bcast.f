      PROGRAM BCAST
      INTEGER ME, MYNODE
      DOUBLE PRECISION X
      ME = MYNODE()
      IF (ME .EQ. 0) THEN
         CALL CSEND(30, X, 8, -1, 0)
      ELSE
         CALL CRECV(30, X, 8)
      END IF
      END
