C     A ring exchange NSTEP times; the loop also counts (NC), flips a
C     phase (IPH) and scrambles a value (IX). After it, three exchanges
C     that each run only when one of those values is what the NSTEP
C     iterations leave (NSTEP = 1000: NC = 2000, IPH = 0, IX = 4).
      PROGRAM FOLDV
      INCLUDE 'mpif.h'
      INTEGER ME, NP, IERR, K, NSTEP, NC, IPH, IX
      INTEGER STATUS(MPI_STATUS_SIZE)
      DOUBLE PRECISION SBUF(128), RBUF(128), BIG(10000), BIG2(10000)
      CALL MPI_INIT(IERR)
      CALL MPI_COMM_RANK(MPI_COMM_WORLD, ME, IERR)
      CALL MPI_COMM_SIZE(MPI_COMM_WORLD, NP, IERR)
      NC = 0
      IPH = 0
      IX = 1
      DO 5 K = 1, NSTEP
         NC = NC + 2
         IPH = 1 - IPH
         IX = MOD(IX * 3, 7)
         CALL MPI_SENDRECV(SBUF, 128, MPI_DOUBLE_PRECISION,
     &        MOD(ME + 1, NP), 7, RBUF, 128, MPI_DOUBLE_PRECISION,
     &        MOD(ME - 1 + NP, NP), 7, MPI_COMM_WORLD, STATUS, IERR)
 5    CONTINUE
      IF (NC .EQ. 2 * NSTEP) CALL MPI_SENDRECV(BIG, 10000,
     &     MPI_DOUBLE_PRECISION, MOD(ME + 1, NP), 8, BIG2, 10000,
     &     MPI_DOUBLE_PRECISION, MOD(ME - 1 + NP, NP), 8,
     &     MPI_COMM_WORLD, STATUS, IERR)
      IF (IPH .EQ. 0) CALL MPI_SENDRECV(BIG, 5000,
     &     MPI_DOUBLE_PRECISION, MOD(ME + 1, NP), 9, BIG2, 5000,
     &     MPI_DOUBLE_PRECISION, MOD(ME - 1 + NP, NP), 9,
     &     MPI_COMM_WORLD, STATUS, IERR)
      IF (IX .EQ. 4) CALL MPI_BARRIER(MPI_COMM_WORLD, IERR)
      CALL MPI_FINALIZE(IERR)
      END
