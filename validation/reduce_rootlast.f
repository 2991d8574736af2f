C***********************************************************************
C     REDUCE_ROOTLAST -- ONE MPI_REDUCE TO THE LAST RANK
C
C     300 doubles (2400 bytes) summed to rank NP-1: a binomial tree on
C     ranks (ME - ROOT) mod NP, lowest dimension first.  Children that
C     send at the same time share the links on their way to the root.
C***********************************************************************
      PROGRAM CREDUC
      IMPLICIT NONE
      INCLUDE 'mpif.h'
      INTEGER ME, NP, IERR, IROOT
      DOUBLE PRECISION A(300), B(300)
      CALL MPI_INIT(IERR)
      CALL MPI_COMM_RANK(MPI_COMM_WORLD, ME, IERR)
      CALL MPI_COMM_SIZE(MPI_COMM_WORLD, NP, IERR)
      IROOT = NP - 1
      CALL MPI_REDUCE(A, B, 300, MPI_DOUBLE_PRECISION, MPI_SUM, IROOT,
     & MPI_COMM_WORLD, IERR)
      CALL MPI_FINALIZE(IERR)
      END
