C     HALO1 WITH A BUG: THE LAST NODE NEVER SENDS ITS LEFT GHOST CELL.
      PROGRAM HALO1B
      INTEGER NLOC, NSTEP
      PARAMETER (NLOC = 50, NSTEP = 8)
      INTEGER ME, NP, LEFT, RIGHT, I, ISTEP, MYNODE, NUMNODES
      DOUBLE PRECISION U(0:NLOC+1), V(NLOC)
C
      ME = MYNODE()
      NP = NUMNODES()
      LEFT = ME - 1
      RIGHT = ME + 1
      DO 5 I = 0, NLOC+1
         U(I) = 0.0D0
    5 CONTINUE
      DO 100 ISTEP = 1, NSTEP
         IF (ME .LT. NP-1) CALL CSEND(1, U(NLOC), 8, RIGHT, 0)
         IF (ME .GT. 0 .AND. ME .LT. NP-1) CALL CSEND(2, U(1), 8,
     &                                               LEFT, 0)
         IF (ME .GT. 0) CALL CRECV(1, U(0), 8)
         IF (ME .LT. NP-1) CALL CRECV(2, U(NLOC+1), 8)
         DO 20 I = 1, NLOC
            V(I) = 0.5D0*(U(I-1) + U(I+1))
   20    CONTINUE
         DO 30 I = 1, NLOC
            U(I) = V(I)
   30    CONTINUE
  100 CONTINUE
      END
