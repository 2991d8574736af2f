      PROGRAM NXIR
      INTEGER MID
      REAL A(10)
      IF (MYNODE() .EQ. 1) THEN
         MID = IRECV(3, A, 40)
      END IF
      END
