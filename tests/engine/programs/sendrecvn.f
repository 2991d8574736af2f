C     SENDRECVN -- one NBYTES-byte message, node 0 -> node 3 (2 hops).
C     NBYTES is an external input (used, never defined), so the
C     message size stays a symbol until a value is given.  Run on P = 4.
      PROGRAM SNDRCN
      INTEGER ME, NBYTES
      INTEGER MYNODE
      DOUBLE PRECISION BUF(125)
      ME = MYNODE()
      IF (ME .EQ. 0) CALL CSEND(1, BUF, NBYTES, 3, 0)
      IF (ME .EQ. 3) CALL CRECV(1, BUF, NBYTES)
      END
