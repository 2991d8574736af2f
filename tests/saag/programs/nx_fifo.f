      PROGRAM FIFO
      INTEGER ME, MYNODE
      DOUBLE PRECISION A(4)
      ME = MYNODE()
      IF (ME .EQ. 0) THEN
         CALL CSEND(5, A, 8, 1, 0)
         CALL CSEND(5, A, 24, 1, 0)
      ELSE IF (ME .EQ. 1) THEN
         CALL CRECV(5, A, 32)
         CALL CRECV(5, A, 32)
      END IF
      END
