      PROGRAM TRAPL
      INTEGER I, N
      REAL X
      READ(*,*) N
      X = 0.0
      DO 10 I = 1, N
         X = X + 1.0
   10 CONTINUE
      END
