C     UNROLLED -- a GO TO loop runs while J = 1, 3, 7, ... is below K (J
C     doubles: no induction variable counts it, interp unrolls it, so an
C     interpretation needs K's value: a sweep over K falls back to one
C     interpretation per value); the DO loop's count M stays a symbol.
      PROGRAM UNROLL
      INTEGER K, M, I, J
      REAL X
      READ (5,*) K
      READ (5,*) M
      X = 0.0
      J = 0
   10 J = 2*J + 1
      DO 20 I = 1, M
         X = X + 1.0/REAL(I)
   20 CONTINUE
      IF (J .LT. K) GO TO 10
      WRITE (6,*) X
      END
