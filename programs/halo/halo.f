C***********************************************************************
C     HALO -- 1-D JACOBI RELAXATION WITH HALO EXCHANGE (NX/2)
C
C     Solves u'' = 0 on a line of NLOC*NP points, u = 1 at the left
C     end and u = 0 at the right end, by Jacobi iteration.  Each node
C     owns NLOC points in U(1:NLOC), with ghost cells U(0) and
C     U(NLOC+1).  Every step the ghost cells are refreshed from the
C     neighbours (the end nodes keep their fixed boundary values):
C        - left-to-right traffic uses IRECV/ISEND/MSGWAIT (type 40)
C        - right-to-left traffic uses CSEND/CRECV          (type 50)
C     The largest change in any point is found with GDHIGH each step.
C
C     EXTERNAL INPUTS: none (NLOC and NSTEP are PARAMETERs).
C
C     NX/2 CALLS: MYNODE, NUMNODES, IRECV, ISEND, MSGWAIT, CSEND,
C                 CRECV, GDHIGH
C***********************************************************************
      PROGRAM HALO
      IMPLICIT NONE
      INTEGER NLOC, NSTEP
      PARAMETER (NLOC = 1000, NSTEP = 100)
      INTEGER ME, NP, LEFT, RIGHT, I, ISTEP, IDR, IDS
      INTEGER MYNODE, NUMNODES, IRECV, ISEND
      DOUBLE PRECISION U(0:NLOC+1), UNEW(NLOC)
      DOUBLE PRECISION RES, DIFF, WORK(1)
C
      ME = MYNODE()
      NP = NUMNODES()
      LEFT  = ME - 1
      RIGHT = ME + 1
C
C     Initial guess zero; fixed values at the two ends of the line
      DO 10 I = 0, NLOC+1
         U(I) = 0.0D0
   10 CONTINUE
      IF (ME .EQ. 0) U(0) = 1.0D0
C
      DO 100 ISTEP = 1, NSTEP
C
C        Left to right: my U(NLOC) becomes right neighbour's U(0)
         IF (ME .GT. 0) IDR = IRECV(40, U(0), 8)
         IF (ME .LT. NP-1) IDS = ISEND(40, U(NLOC), 8, RIGHT, 0)
C
C        Right to left: my U(1) becomes left neighbour's U(NLOC+1)
         IF (ME .GT. 0) CALL CSEND(50, U(1), 8, LEFT, 0)
         IF (ME .LT. NP-1) CALL CRECV(50, U(NLOC+1), 8)
C
         IF (ME .GT. 0) CALL MSGWAIT(IDR)
         IF (ME .LT. NP-1) CALL MSGWAIT(IDS)
C
C        Jacobi sweep and local residual
         RES = 0.0D0
         DO 20 I = 1, NLOC
            UNEW(I) = 0.5D0*(U(I-1) + U(I+1))
            DIFF = DABS(UNEW(I) - U(I))
            IF (DIFF .GT. RES) RES = DIFF
   20    CONTINUE
         DO 30 I = 1, NLOC
            U(I) = UNEW(I)
   30    CONTINUE
C
C        Largest change over all nodes
         CALL GDHIGH(RES, 1, WORK)
  100 CONTINUE
C
      IF (ME .EQ. 0) WRITE (6,200) NSTEP, NP, RES
  200 FORMAT (1X,'JACOBI:',I6,' STEPS ON',I4,' NODES, MAX CHANGE =',
     &        1PE12.4)
      STOP
      END
