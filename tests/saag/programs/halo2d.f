C     HALO2 -- 2-D GHOST-CELL EXCHANGE ON A PX BY PY GRID OF NODES.
C     NODE ME SITS AT (IX, IY) = (MOD(ME,PX), ME/PX).  BLOCKS ARE
C     NX BY NY; EDGES GO EAST (11), WEST (12), NORTH (13), SOUTH (14).
C     NODES ON THE EDGE OF THE GRID SKIP THE MISSING NEIGHBOURS.
      PROGRAM HALO2
      INTEGER NX, NY, PX, NSTEP
      PARAMETER (NX = 16, NY = 8, PX = 2, NSTEP = 4)
      INTEGER ME, NP, PY, IX, IY, I, J, ISTEP, MYNODE, NUMNODES
      INTEGER IEAST, IWEST, NORTH, ISOUTH
      DOUBLE PRECISION U(0:NX+1,0:NY+1), ROW(NX), COL(NY), RES, W(1)
C
      ME = MYNODE()
      NP = NUMNODES()
      PY = NP / PX
      IX = MOD(ME, PX)
      IY = ME / PX
      IEAST = ME + 1
      IWEST = ME - 1
      NORTH = ME + PX
      ISOUTH = ME - PX
      DO 2 J = 0, NY+1
         DO 1 I = 0, NX+1
            U(I,J) = 0.0D0
    1    CONTINUE
    2 CONTINUE
C
      DO 100 ISTEP = 1, NSTEP
         IF (IX .LT. PX-1) CALL CSEND(11, COL, 8*NY, IEAST, 0)
         IF (IX .GT. 0) CALL CSEND(12, COL, 8*NY, IWEST, 0)
         IF (IY .LT. PY-1) CALL CSEND(13, ROW, 8*NX, NORTH, 0)
         IF (IY .GT. 0) CALL CSEND(14, ROW, 8*NX, ISOUTH, 0)
         IF (IX .GT. 0) CALL CRECV(11, COL, 8*NY)
         IF (IX .LT. PX-1) CALL CRECV(12, COL, 8*NY)
         IF (IY .GT. 0) CALL CRECV(13, ROW, 8*NX)
         IF (IY .LT. PY-1) CALL CRECV(14, ROW, 8*NX)
         RES = 0.0D0
         DO 20 J = 1, NY
            DO 10 I = 1, NX
               RES = RES + U(I,J)*U(I,J)
   10       CONTINUE
   20    CONTINUE
         CALL GDSUM(RES, 1, W)
  100 CONTINUE
      END
