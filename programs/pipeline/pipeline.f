C***********************************************************************
C     PIPE -- SOFTWARE PIPELINE OF BLOCKS THROUGH THE NODES (NX/2)
C
C     Node 0 makes NBLK blocks of NB double precision words.  Each
C     block flows through the nodes in order 0, 1, ..., NP-1: node K
C     receives it from node K-1 (node 0 makes it instead), applies one
C     relaxation sweep to every word, and passes it on to node K+1.
C     The last node keeps a checksum of what comes out of the pipe.
C
C     EXTERNAL INPUTS: none (NB and NBLK are PARAMETERs).
C
C     NX/2 CALLS: MYNODE, NUMNODES, CRECV, CSEND
C***********************************************************************
      PROGRAM PIPE
      IMPLICIT NONE
      INTEGER NB, NBLK, LBYTES, MTYPE
      PARAMETER (NB = 256, NBLK = 20)
      PARAMETER (LBYTES = 8*NB, MTYPE = 30)
      INTEGER ME, NP, IB, I
      INTEGER MYNODE, NUMNODES
      DOUBLE PRECISION X(NB), CHKSUM
C
      ME = MYNODE()
      NP = NUMNODES()
      CHKSUM = 0.0D0
C
      DO IB = 1, NBLK
C
C        Get the block: make it on node 0, else from the left
         IF (ME .EQ. 0) THEN
            DO I = 1, NB
               X(I) = DBLE(I + IB) / DBLE(NB)
            ENDDO
         ELSE
            CALL CRECV(MTYPE, X, LBYTES)
         ENDIF
C
C        This stage's work on the block
         DO I = 1, NB
            X(I) = 0.5D0*X(I) + 1.0D0/(1.0D0 + X(I)*X(I))
         ENDDO
C
C        Pass it down the pipe, or sum it up at the end
         IF (ME .LT. NP-1) THEN
            CALL CSEND(MTYPE, X, LBYTES, ME+1, 0)
         ELSE
            DO I = 1, NB
               CHKSUM = CHKSUM + X(I)
            ENDDO
         ENDIF
      ENDDO
C
      IF (ME .EQ. NP-1) WRITE (6,100) NBLK, NP, CHKSUM
  100 FORMAT (1X,'PIPELINE:',I5,' BLOCKS THROUGH',I4,' STAGES,',
     &        ' CHECKSUM =',1PE22.14)
      STOP
      END
