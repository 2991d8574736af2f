C     HEADON -- ranks 0 and 1 each MPI_SEND N integers to the other,
C     then MPI_RECV the partner's.  Safe while the sends are eager;
C     above the eager threshold both sends wait for a receive that is
C     never posted: a deadlock.  N is an input (--set N=...).
      PROGRAM HEADON
      INCLUDE 'mpif.h'
      INTEGER ME, IERR, N
      INTEGER STAT(MPI_STATUS_SIZE)
      INTEGER A(100000), B(100000)
      CALL MPI_INIT(IERR)
      CALL MPI_COMM_RANK(MPI_COMM_WORLD, ME, IERR)
      CALL MPI_SEND(A, N, MPI_INTEGER, 1 - ME, 1, MPI_COMM_WORLD, IERR)
      CALL MPI_RECV(B, N, MPI_INTEGER, 1 - ME, 1, MPI_COMM_WORLD, STAT,
     &              IERR)
      CALL MPI_FINALIZE(IERR)
      END
