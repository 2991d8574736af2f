C     CONDTK -- Algorithm 3 of the paper on constant conditions
C     (PARAMETERs are folded: testing them costs only the condition
C     overheads).  The tests rewrite the PARAMETER line to pick the
C     branch.  Seq1 is one store, Seq2 two, Seq3 three.
      PROGRAM CONDTK
      INTEGER K1, K2, K3
      PARAMETER (K1 = 1, K2 = 1, K3 = 1)
      DOUBLE PRECISION X, Y, Z
      IF (K1 .EQ. 1 .AND. K2 .EQ. 1) THEN
         X = 1.0D0
      ELSE IF (K3 .EQ. 1) THEN
         X = 2.0D0
         Y = 3.0D0
      ELSE
         X = 4.0D0
         Y = 5.0D0
         Z = 6.0D0
      END IF
      END
