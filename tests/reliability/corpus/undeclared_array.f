      PROGRAM UNDECL
      INTEGER I
      REAL X(4)
      DO 10 I = 1, 4
         Y(I) = 1.0
         X(1, 2) = 2.0
   10 CONTINUE
      END
