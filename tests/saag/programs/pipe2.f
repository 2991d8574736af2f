C     PIPE2 -- BLOCKS FLOW DOWN THE NODES 0 .. NP-1.  EACH BLOCK IS A
C     HEADER (TYPE 1, 8 BYTES) AND A BODY (TYPE 2, 8*NB BYTES); THE LAST
C     STAGE ACKNOWLEDGES EVERY BLOCK TO NODE 0 (TYPE 3).
      PROGRAM PIPE2
      INTEGER NB, NBLK
      PARAMETER (NB = 64, NBLK = 7)
      INTEGER ME, NP, IB, I, MYNODE, NUMNODES
      INTEGER IHDR(2)
      DOUBLE PRECISION X(NB), ACK
C
      ME = MYNODE()
      NP = NUMNODES()
      DO 30 IB = 1, NBLK
         IF (ME .EQ. 0) THEN
            IHDR(1) = IB
            IHDR(2) = NB
            DO 10 I = 1, NB
               X(I) = DBLE(I*IB)
   10       CONTINUE
         ELSE
            CALL CRECV(1, IHDR, 8)
            CALL CRECV(2, X, 8*NB)
         END IF
         DO 20 I = 1, NB
            X(I) = X(I)*0.5D0 + 1.0D0
   20    CONTINUE
         IF (ME .LT. NP-1) THEN
            CALL CSEND(1, IHDR, 8, ME+1, 0)
            CALL CSEND(2, X, 8*NB, ME+1, 0)
         ELSE
            ACK = X(1)
            CALL CSEND(3, ACK, 8, 0, 0)
         END IF
         IF (ME .EQ. 0) CALL CRECV(3, ACK, 8)
   30 CONTINUE
      END
