      PROGRAM UNMRCV
      INTEGER ME, MYNODE
      DOUBLE PRECISION A(4)
      ME = MYNODE()
      IF (ME .EQ. 1) THEN
         CALL CRECV(7, A, 32)
      END IF
      END
