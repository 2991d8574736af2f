      PROGRAM TYPMIS
      INTEGER ME, MYNODE
      DOUBLE PRECISION A(4)
      ME = MYNODE()
      IF (ME .EQ. 0) THEN
         CALL CSEND(10, A, 32, 1, 0)
      ELSE IF (ME .EQ. 1) THEN
         CALL CRECV(20, A, 32)
      END IF
      END
