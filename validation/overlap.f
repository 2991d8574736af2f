C***********************************************************************
C     OVERLAP -- NON-BLOCKING HALO EXCHANGE ON A RING
C
C     Each of NITER iterations every rank posts MPI_IRECVs from both
C     ring neighbours, starts MPI_ISENDs of 1000 doubles (8000 bytes) to
C     both, and waits for all four requests.
C***********************************************************************
      PROGRAM OVERLP
      IMPLICIT NONE
      INCLUDE 'mpif.h'
      INTEGER NITER, NW
      PARAMETER (NITER = 10, NW = 1000)
      INTEGER ME, NP, LEFT, RIGHT, IT, IERR
      INTEGER R1, R2, R3, R4
      INTEGER STATUS(MPI_STATUS_SIZE)
      DOUBLE PRECISION SL(NW), SR(NW), RL(NW), RR(NW)
C
      CALL MPI_INIT(IERR)
      CALL MPI_COMM_RANK(MPI_COMM_WORLD, ME, IERR)
      CALL MPI_COMM_SIZE(MPI_COMM_WORLD, NP, IERR)
      LEFT = MOD(ME - 1 + NP, NP)
      RIGHT = MOD(ME + 1, NP)
      DO 10 IT = 1, NITER
         CALL MPI_IRECV(RL, NW, MPI_DOUBLE_PRECISION, LEFT, 1,
     &                  MPI_COMM_WORLD, R1, IERR)
         CALL MPI_IRECV(RR, NW, MPI_DOUBLE_PRECISION, RIGHT, 2,
     &                  MPI_COMM_WORLD, R2, IERR)
         CALL MPI_ISEND(SR, NW, MPI_DOUBLE_PRECISION, RIGHT, 1,
     &                  MPI_COMM_WORLD, R3, IERR)
         CALL MPI_ISEND(SL, NW, MPI_DOUBLE_PRECISION, LEFT, 2,
     &                  MPI_COMM_WORLD, R4, IERR)
         CALL MPI_WAIT(R1, STATUS, IERR)
         CALL MPI_WAIT(R2, STATUS, IERR)
         CALL MPI_WAIT(R3, STATUS, IERR)
         CALL MPI_WAIT(R4, STATUS, IERR)
   10 CONTINUE
      CALL MPI_FINALIZE(IERR)
      END
