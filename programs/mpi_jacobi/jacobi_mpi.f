C***********************************************************************
C     JACOBM -- 1-D JACOBI RELAXATION WITH HALO EXCHANGE, MPI VERSION
C
C     The MPI counterpart of programs/halo/halo.f.  Solves u'' = 0 on N
C     points split into blocks of NLOC = N/NP per rank (N a multiple of
C     the number of ranks), u = 1 at the left end and 0 at the right.
C     Each of NSTEP steps refreshes the ghost cells U(0) and U(NLOC+1)
C     from the neighbours with MPI_SENDRECV (MPI_PROC_NULL at the ends),
C     does one Jacobi sweep, and finds the largest change over all
C     ranks with MPI_ALLREDUCE.
C
C     EXTERNAL INPUTS: none (N and NSTEP are PARAMETERs).
C
C     MPI CALLS: MPI_INIT, MPI_COMM_RANK, MPI_COMM_SIZE, MPI_SENDRECV,
C                MPI_ALLREDUCE, MPI_FINALIZE
C***********************************************************************
      PROGRAM JACOBM
      IMPLICIT NONE
      INCLUDE 'mpif.h'
      INTEGER N, NSTEP
      PARAMETER (N = 100000, NSTEP = 100)
      INTEGER ME, NP, NLOC, LEFT, RIGHT, I, ISTEP, IERR
      INTEGER STATUS(MPI_STATUS_SIZE)
      DOUBLE PRECISION U(0:N+1), UNEW(N)
      DOUBLE PRECISION RES, GRES, DIFF
C
      CALL MPI_INIT(IERR)
      CALL MPI_COMM_RANK(MPI_COMM_WORLD, ME, IERR)
      CALL MPI_COMM_SIZE(MPI_COMM_WORLD, NP, IERR)
      NLOC = N / NP
      LEFT = ME - 1
      RIGHT = ME + 1
      IF (ME .EQ. 0) LEFT = MPI_PROC_NULL
      IF (ME .EQ. NP-1) RIGHT = MPI_PROC_NULL
C
C     Initial guess zero; fixed values at the two ends of the line
      DO 10 I = 0, NLOC+1
         U(I) = 0.0D0
   10 CONTINUE
      IF (ME .EQ. 0) U(0) = 1.0D0
C
      DO 100 ISTEP = 1, NSTEP
C        my U(NLOC) to the right neighbour's U(0), and back the other way
         CALL MPI_SENDRECV(U(NLOC), 1, MPI_DOUBLE_PRECISION, RIGHT, 1,
     &                     U(0), 1, MPI_DOUBLE_PRECISION, LEFT, 1,
     &                     MPI_COMM_WORLD, STATUS, IERR)
         CALL MPI_SENDRECV(U(1), 1, MPI_DOUBLE_PRECISION, LEFT, 2,
     &                     U(NLOC+1), 1, MPI_DOUBLE_PRECISION, RIGHT, 2,
     &                     MPI_COMM_WORLD, STATUS, IERR)
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
C        Largest change over all ranks
         CALL MPI_ALLREDUCE(RES, GRES, 1, MPI_DOUBLE_PRECISION, MPI_MAX,
     &                      MPI_COMM_WORLD, IERR)
  100 CONTINUE
C
      IF (ME .EQ. 0) WRITE (6,200) NSTEP, NP, GRES
  200 FORMAT (1X,'JACOBI:',I6,' STEPS ON',I4,' RANKS, MAX CHANGE =',
     &        1PE12.4)
      CALL MPI_FINALIZE(IERR)
      END
