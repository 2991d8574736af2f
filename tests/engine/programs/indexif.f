C     INDEXIF -- an IF on the loop index inside a DO loop of known
C     trip count: the loop's closed form sums the arms' times over
C     the iterations where each runs (I = 1..10 the first arm, one
C     store; I = 11..100 the ELSE arm, two stores).
      PROGRAM INDEXIF
      INTEGER I
      DOUBLE PRECISION X, Y
      DO 10 I = 1, 100
         IF (I .LE. 10) THEN
            X = 1.0D0
         ELSE
            X = 2.0D0
            Y = 3.0D0
         END IF
   10 CONTINUE
      END
