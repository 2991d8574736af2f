      PROGRAM NXIRW
      INTEGER MID
      REAL A(10)
      IF (MYNODE() .EQ. 0) CALL CSEND(3, A, 40, 1, 0)
      IF (MYNODE() .EQ. 1) THEN
         MID = IRECV(3, A, 40)
      END IF
      END
