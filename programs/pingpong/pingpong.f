C***********************************************************************
C     PINGPG -- NODE-TO-NODE PING-PONG (iPSC/860, NX/2)
C
C     Node 0 sends a LEN byte message to node 1, which sends it
C     straight back; this is repeated NREP times.  All other nodes
C     have nothing to do.  Used to measure message latency and
C     bandwidth between two nodes.
C
C     EXTERNAL INPUTS: none (LEN and NREP are PARAMETERs); the number
C     of nodes comes from the cube allocation.
C
C     NX/2 CALLS: MYNODE, NUMNODES, CSEND, CRECV
C***********************************************************************
      PROGRAM PINGPG
      PARAMETER (LEN = 1000, NREP = 100)
      PARAMETER (NWORDS = LEN/8)
      DOUBLE PRECISION BUF(NWORDS)
C
      ME = MYNODE()
      NP = NUMNODES()
C
C     Need two nodes; the rest sit it out
      IF (NP .LT. 2) GO TO 900
      IF (ME .GT. 1) GO TO 900
C
      DO 10 I = 1, NWORDS
         BUF(I) = DBLE(I)
   10 CONTINUE
C
      IF (ME .EQ. 0) THEN
         DO 20 IREP = 1, NREP
            CALL CSEND(1, BUF, LEN, 1, 0)
            CALL CRECV(2, BUF, LEN)
   20    CONTINUE
         WRITE (6,100) NREP, LEN
      ELSE
         DO 30 IREP = 1, NREP
            CALL CRECV(1, BUF, LEN)
            CALL CSEND(2, BUF, LEN, 0, 0)
   30    CONTINUE
      END IF
C
  100 FORMAT (1X,'PINGPONG DONE:',I6,' ROUND TRIPS OF',I8,' BYTES')
  900 CONTINUE
      STOP
      END
