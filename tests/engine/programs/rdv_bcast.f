C     MPI_BCAST of 16384 doubles (131072 bytes, above the cluster's
C     64 KiB eager threshold) from the last rank.
      PROGRAM RDVBC
      IMPLICIT NONE
      INCLUDE 'mpif.h'
      INTEGER ME, NP, IERR
      DOUBLE PRECISION A(16384)
      CALL MPI_INIT(IERR)
      CALL MPI_COMM_RANK(MPI_COMM_WORLD, ME, IERR)
      CALL MPI_COMM_SIZE(MPI_COMM_WORLD, NP, IERR)
      CALL MPI_BCAST(A, 16384, MPI_DOUBLE_PRECISION, NP - 1,
     &     MPI_COMM_WORLD, IERR)
      CALL MPI_FINALIZE(IERR)
      END
