C     OPAQUEEXIT -- a GO TO loop whose exit test reads M, which the
C     external routine FOO (not in the file) may change.
      PROGRAM OPAQUE
      INTEGER M
      M = 1
   10 IF (M .GE. 8) GO TO 20
         CALL FOO(M)
         M = M * 2
         GO TO 10
   20 CONTINUE
      END
