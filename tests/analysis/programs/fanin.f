C     TREE REDUCTION BY HAND OVER THE HYPERCUBE DIMENSIONS, THEN THE
C     SAME WITH GDSUM/GISUM/GDHIGH AND A GSYNC, TO COMPARE.
      PROGRAM TREE
      INTEGER ME, NP, D, NDIM, PARTNR, MASK, I, ICNT
      INTEGER MYNODE, NUMNODES, NODEDIM
      DOUBLE PRECISION V(64), W(64), WORK(64), BIG
      INTEGER IV(4), IWORK(4)
      ME = MYNODE()
      NP = NUMNODES()
      NDIM = NODEDIM()
      DO 10 I = 1, 64
         V(I) = DBLE(ME + I)
   10 CONTINUE
C     FAN-IN TO NODE 0
      MASK = 0
      DO 30 D = 0, NDIM-1
         PARTNR = IEOR(ME, 2**D)
         IF (IAND(ME, MASK) .EQ. 0) THEN
            IF (IAND(ME, 2**D) .NE. 0) THEN
               CALL CSEND(10+D, V, 512, PARTNR, 0)
            ELSE
               CALL CRECV(10+D, W, 512)
               DO 20 I = 1, 64
                  V(I) = V(I) + W(I)
   20          CONTINUE
            ENDIF
         ENDIF
         MASK = IOR(MASK, 2**D)
   30 CONTINUE
C     FAN-OUT FROM NODE 0
      DO 40 D = NDIM-1, 0, -1
         MASK = 2**D - 1
         IF (IAND(ME, MASK) .EQ. 0) THEN
            PARTNR = IEOR(ME, 2**D)
            IF (IAND(ME, 2**D) .EQ. 0) THEN
               CALL CSEND(50+D, V, 512, PARTNR, 0)
            ELSE
               CALL CRECV(50+D, V, 512)
            ENDIF
         ENDIF
   40 CONTINUE
      CALL GSYNC()
      CALL GDSUM(V, 64, WORK)
      IV(1) = ME
      IV(2) = 1
      IV(3) = 2
      IV(4) = 3
      CALL GISUM(IV, 4, IWORK)
      BIG = V(1)
      CALL GDHIGH(BIG, 1, WORK)
      IF (ME .EQ. 0) PRINT *, 'SUM ', V(1), ' HIGH ', BIG, IV(1)
      END
