C***********************************************************************
C     JACOBM -- 1-D JACOBI RELAXATION WITH HALO EXCHANGE (MPI), THE
C     PROBLEM SIZE AN INPUT
C
C     The MPI counterpart of HALO (programs/halo/halo.f), but the
C     line has N points in all (read on rank 0 and broadcast), NLOC =
C     N/NP of them per rank, so that N can be scaled (interp run,
C     semiemp, scalability, latency-metric).  Every step
C     the ghost cells are refreshed with MPI_SENDRECV from both
C     neighbours, one Jacobi sweep runs, and the largest change is
C     found with MPI_ALLREDUCE (MPI_MAX).
C
C     EXTERNAL INPUTS (unit 5 on rank 0): N, the number of points.
C     NSTEP = 100 steps (PARAMETER); at most NMAX points per rank.
C
C     MPI CALLS: MPI_INIT, MPI_COMM_RANK, MPI_COMM_SIZE, MPI_BCAST,
C                MPI_SENDRECV, MPI_ALLREDUCE, MPI_FINALIZE
C***********************************************************************
      PROGRAM JACOBM
      INCLUDE 'mpif.h'
      INTEGER NMAX, NSTEP
      PARAMETER (NMAX = 4000000, NSTEP = 100)
      INTEGER STATUS(MPI_STATUS_SIZE), LEFT, RIGHT
      DOUBLE PRECISION U(0:NMAX+1), UNEW(NMAX), RES, GRES, DIFF
C
      CALL MPI_INIT(IERR)
      CALL MPI_COMM_RANK(MPI_COMM_WORLD, ME, IERR)
      CALL MPI_COMM_SIZE(MPI_COMM_WORLD, NP, IERR)
      IF (ME .EQ. 0) READ (5,*) N
      CALL MPI_BCAST(N, 1, MPI_INTEGER, 0, MPI_COMM_WORLD, IERR)
      NLOC = N/NP
      LEFT = ME - 1
      RIGHT = ME + 1
      IF (LEFT .LT. 0) LEFT = MPI_PROC_NULL
      IF (RIGHT .GE. NP) RIGHT = MPI_PROC_NULL
C
      DO I = 0, NLOC+1
         U(I) = 0.0D0
      ENDDO
      IF (ME .EQ. 0) U(0) = 1.0D0
C
      DO ISTEP = 1, NSTEP
C        My U(NLOC) to the right, my U(0) from the left
         CALL MPI_SENDRECV(U(NLOC), 1, MPI_DOUBLE_PRECISION, RIGHT, 40,
     &                     U(0), 1, MPI_DOUBLE_PRECISION, LEFT, 40,
     &                     MPI_COMM_WORLD, STATUS, IERR)
C        My U(1) to the left, my U(NLOC+1) from the right
         CALL MPI_SENDRECV(U(1), 1, MPI_DOUBLE_PRECISION, LEFT, 50,
     &                     U(NLOC+1), 1, MPI_DOUBLE_PRECISION, RIGHT,
     &                     50,
     &                     MPI_COMM_WORLD, STATUS, IERR)
         RES = 0.0D0
         DO I = 1, NLOC
            UNEW(I) = 0.5D0*(U(I-1) + U(I+1))
            DIFF = DABS(UNEW(I) - U(I))
            RES = DMAX1(RES, DIFF)
         ENDDO
         DO I = 1, NLOC
            U(I) = UNEW(I)
         ENDDO
         CALL MPI_ALLREDUCE(RES, GRES, 1, MPI_DOUBLE_PRECISION, MPI_MAX,
     &                      MPI_COMM_WORLD, IERR)
      ENDDO
C
      IF (ME .EQ. 0) WRITE (6,200) N, NSTEP, NP, GRES
  200 FORMAT (1X,'JACOBI N =',I9,':',I6,' STEPS ON',I4,
     &        ' RANKS, MAX CHANGE =',1PE12.4)
      CALL MPI_FINALIZE(IERR)
      END
