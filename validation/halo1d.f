C***********************************************************************
C     HALO1D -- 1-D HALO EXCHANGE
C
C     A strip of NX = 100 doubles per boundary (800 bytes).  Each of
C     NITER iterations every rank sends its edge to the right and to
C     the left neighbour (ranks 0 and NP-1 have one neighbour), then
C     receives from the left and from the right.  The sends rely on
C     eager (buffered) delivery, as on the iPSC/860.
C***********************************************************************
      PROGRAM HALO1
      IMPLICIT NONE
      INCLUDE 'mpif.h'
      INTEGER NITER, NX
      PARAMETER (NITER = 10, NX = 100)
      INTEGER ME, NP, IT, IERR
      INTEGER STATUS(MPI_STATUS_SIZE)
      DOUBLE PRECISION EL(NX), ER(NX), GL(NX), GR(NX)
C
      CALL MPI_INIT(IERR)
      CALL MPI_COMM_RANK(MPI_COMM_WORLD, ME, IERR)
      CALL MPI_COMM_SIZE(MPI_COMM_WORLD, NP, IERR)
      DO 10 IT = 1, NITER
         IF (ME .LT. NP - 1) CALL MPI_SEND(ER, NX, MPI_DOUBLE_PRECISION,
     &      ME + 1, 1, MPI_COMM_WORLD, IERR)
         IF (ME .GT. 0) CALL MPI_SEND(EL, NX, MPI_DOUBLE_PRECISION,
     &      ME - 1, 2, MPI_COMM_WORLD, IERR)
         IF (ME .GT. 0) CALL MPI_RECV(GL, NX, MPI_DOUBLE_PRECISION,
     &      ME - 1, 1, MPI_COMM_WORLD, STATUS, IERR)
         IF (ME .LT. NP - 1) CALL MPI_RECV(GR, NX, MPI_DOUBLE_PRECISION,
     &      ME + 1, 2, MPI_COMM_WORLD, STATUS, IERR)
   10 CONTINUE
      CALL MPI_FINALIZE(IERR)
      END
