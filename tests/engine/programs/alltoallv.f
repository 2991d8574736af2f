C     ALLTOALLV -- P = 3: every rank sends 10*J integers to rank J-1
C     (SENDCOUNTS(J) = 10*J) with MPI_ALLTOALLV.
      PROGRAM A2AV
      INCLUDE 'mpif.h'
      INTEGER ME, NP, IERR, J
      INTEGER SC(3), SD(3), RC(3), RD(3)
      INTEGER X(60), Y(60)
      CALL MPI_INIT(IERR)
      CALL MPI_COMM_RANK(MPI_COMM_WORLD, ME, IERR)
      CALL MPI_COMM_SIZE(MPI_COMM_WORLD, NP, IERR)
      SC(1) = 10
      SC(2) = 20
      SC(3) = 30
      DO 10 J = 1, 3
         SD(J) = 0
         RC(J) = 10 * (ME + 1)
         RD(J) = 0
   10 CONTINUE
      CALL MPI_ALLTOALLV(X, SC, SD, MPI_INTEGER, Y, RC, RD,
     &                   MPI_INTEGER, MPI_COMM_WORLD, IERR)
      CALL MPI_FINALIZE(IERR)
      END
