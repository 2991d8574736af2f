      PROGRAM TOOLNG
      INTEGER ME, MYNODE
      DOUBLE PRECISION A(10)
      ME = MYNODE()
      IF (ME .EQ. 0) THEN
         CALL CSEND(10, A, 80, 1, 0)
      ELSE IF (ME .EQ. 1) THEN
         CALL CRECV(10, A, 40)
      END IF
      END
