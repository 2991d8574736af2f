C     BIGMSG -- node 0 sends NREP messages of LEN bytes to node 1, which
C     receives them: a program whose time is mostly transmission.  Run on
C     P = 2 (the run-time parameter `load` of the cluster spec scales it).
      PROGRAM BIGMSG
      PARAMETER (LEN = 1000000, NREP = 10)
      INTEGER ME, MYNODE, IREP
      DOUBLE PRECISION BUF(125000)
      ME = MYNODE()
      IF (ME .EQ. 0) THEN
         DO 10 IREP = 1, NREP
            CALL CSEND(7, BUF, LEN, 1, 0)
   10    CONTINUE
      ELSE
         DO 20 IREP = 1, NREP
            CALL CRECV(7, BUF, LEN)
   20    CONTINUE
      END IF
      STOP
      END
