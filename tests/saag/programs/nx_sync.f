      PROGRAM NXSYNC
      INTEGER ME, MYNODE
      DOUBLE PRECISION A(10), B(4)
      ME = MYNODE()
      IF (ME .EQ. 0) THEN
         CALL CSEND(10, A, 80, 1, 0)
         CALL CSEND(20, B, 32, 1, 0)
      ELSE IF (ME .EQ. 1) THEN
         CALL CRECV(10, A, 80)
         CALL CRECV(20, B, 32)
      END IF
      END
