      PROGRAM GOTOC
      INTEGER I, N
      READ(*,*) N
      I = 0
   10 I = I + 1
      IF (I .LT. N) GO TO 10
      END
