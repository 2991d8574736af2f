      PROGRAM WHILEF
      INTEGER I
      I = 0
      DO WHILE (I .GE. 0)
         I = I + 1
      END DO
      END
