C***********************************************************************
C     HALO2D -- 2-D HALO EXCHANGE ON A PX x PY GRID OF RANKS
C
C     PX is the largest power of two with PX*PX <= NP (NP up to 1023),
C     PY = NP/PX; rank
C     ME sits at column MOD(ME,PX), row ME/PX.  Each of NITER iterations
C     every rank sends an edge of NE = 50 doubles (400 bytes) to each
C     of its (up to four) neighbours, then receives from each.
C***********************************************************************
      PROGRAM HALO2
      IMPLICIT NONE
      INCLUDE 'mpif.h'
      INTEGER NITER, NE
      PARAMETER (NITER = 10, NE = 50)
      INTEGER ME, NP, PX, PY, IX, IY, IT, IERR
      INTEGER STATUS(MPI_STATUS_SIZE)
      DOUBLE PRECISION E(NE), G(NE)
C
      CALL MPI_INIT(IERR)
      CALL MPI_COMM_RANK(MPI_COMM_WORLD, ME, IERR)
      CALL MPI_COMM_SIZE(MPI_COMM_WORLD, NP, IERR)
      PX = 1
      IF (NP .GE. 4) PX = 2
      IF (NP .GE. 16) PX = 4
      IF (NP .GE. 64) PX = 8
      IF (NP .GE. 256) PX = 16
      PY = NP / PX
      IX = MOD(ME, PX)
      IY = ME / PX
      DO 10 IT = 1, NITER
         IF (IX .LT. PX - 1) CALL MPI_SEND(E, NE, MPI_DOUBLE_PRECISION,
     &      ME + 1, 1, MPI_COMM_WORLD, IERR)
         IF (IX .GT. 0) CALL MPI_SEND(E, NE, MPI_DOUBLE_PRECISION,
     &      ME - 1, 2, MPI_COMM_WORLD, IERR)
         IF (IY .LT. PY - 1) CALL MPI_SEND(E, NE, MPI_DOUBLE_PRECISION,
     &      ME + PX, 3, MPI_COMM_WORLD, IERR)
         IF (IY .GT. 0) CALL MPI_SEND(E, NE, MPI_DOUBLE_PRECISION,
     &      ME - PX, 4, MPI_COMM_WORLD, IERR)
         IF (IX .GT. 0) CALL MPI_RECV(G, NE, MPI_DOUBLE_PRECISION,
     &      ME - 1, 1, MPI_COMM_WORLD, STATUS, IERR)
         IF (IX .LT. PX - 1) CALL MPI_RECV(G, NE, MPI_DOUBLE_PRECISION,
     &      ME + 1, 2, MPI_COMM_WORLD, STATUS, IERR)
         IF (IY .GT. 0) CALL MPI_RECV(G, NE, MPI_DOUBLE_PRECISION,
     &      ME - PX, 3, MPI_COMM_WORLD, STATUS, IERR)
         IF (IY .LT. PY - 1) CALL MPI_RECV(G, NE, MPI_DOUBLE_PRECISION,
     &      ME + PX, 4, MPI_COMM_WORLD, STATUS, IERR)
   10 CONTINUE
      CALL MPI_FINALIZE(IERR)
      END
