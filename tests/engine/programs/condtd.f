C     CONDTD -- Algorithm 3 of the paper, with C1 = (I1 .EQ. 1),
C     C2 = (I2 .EQ. 1), C3 = (I3 .EQ. 1).  I1, I2, I3 are external
C     inputs.  Seq1 is one store, Seq2 two, Seq3 three.
      PROGRAM CONDTD
      INTEGER I1, I2, I3
      DOUBLE PRECISION X, Y, Z
      IF (I1 .EQ. 1 .AND. I2 .EQ. 1) THEN
         X = 1.0D0
      ELSE IF (I3 .EQ. 1) THEN
         X = 2.0D0
         Y = 3.0D0
      ELSE
         X = 4.0D0
         Y = 5.0D0
         Z = 6.0D0
      END IF
      END
