      PROGRAM ANYTYP
      INTEGER ME, MYNODE
      DOUBLE PRECISION A(10)
      ME = MYNODE()
      IF (ME .EQ. 0) THEN
         CALL CSEND(33, A, 16, 1, 0)
         CALL CSEND(44, A, 24, 1, 0)
         CALL CSEND(33, A, 16, 2, 0)
         CALL CSEND(44, A, 24, 2, 0)
      ELSE IF (ME .EQ. 1) THEN
         CALL CRECV(-1, A, 80)
         CALL CRECV(-1, A, 80)
      ELSE IF (ME .EQ. 2) THEN
         CALL CRECV(44, A, 80)
         CALL CRECV(-1, A, 80)
      END IF
      END
