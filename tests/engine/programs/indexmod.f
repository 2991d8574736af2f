C     INDEXMOD -- an IF on the loop index's place in a cycle, MOD(5*I,
C     64) .LE. 31, in a loop of 4096 iterations (more than the 2048 an
C     index sum takes exactly in SymPy): 5 is odd, so 5*I runs through
C     every residue mod 64 once in any 64 iterations, and each arm runs
C     4096 / 2 = 2048 times.
      PROGRAM INDEXMOD
      INTEGER I
      DOUBLE PRECISION X, Y
      DO 10 I = 1, 4096
         IF (MOD(5*I, 64) .LE. 31) THEN
            X = 1.0D0
         ELSE
            X = 2.0D0
            Y = 3.0D0
         END IF
   10 CONTINUE
      END
