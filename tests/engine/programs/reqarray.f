C     REQARRAY -- ranks 0 and 1 exchange 1000 bytes with MPI_IRECV and
C     MPI_ISEND whose requests are elements of one array, then wait for
C     both with MPI_WAITALL.  Run on P = 2.
      PROGRAM REQARR
      INCLUDE 'mpif.h'
      INTEGER ME, NP, IERR, REQ(2)
      INTEGER STATS(MPI_STATUS_SIZE, 2)
      INTEGER A(250), B(250)
      CALL MPI_INIT(IERR)
      CALL MPI_COMM_RANK(MPI_COMM_WORLD, ME, IERR)
      CALL MPI_COMM_SIZE(MPI_COMM_WORLD, NP, IERR)
      CALL MPI_IRECV(B, 250, MPI_INTEGER, 1 - ME, 1, MPI_COMM_WORLD,
     &               REQ(1), IERR)
      CALL MPI_ISEND(A, 250, MPI_INTEGER, 1 - ME, 1, MPI_COMM_WORLD,
     &               REQ(2), IERR)
      CALL MPI_WAITALL(2, REQ, STATS, IERR)
      CALL MPI_FINALIZE(IERR)
      END
