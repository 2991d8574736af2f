C***********************************************************************
C     REDUCE_ROOT0 -- ONE MPI_REDUCE TO RANK 0
C
C     300 doubles (2400 bytes) summed to rank 0 over a binomial tree,
C     lowest dimension first; on a crossbar the root's receive port is
C     shared by children that send at the same time.
C***********************************************************************
      PROGRAM DREDUC
      IMPLICIT NONE
      INCLUDE 'mpif.h'
      INTEGER ME, NP, IERR, IROOT
      DOUBLE PRECISION A(300), B(300)
      CALL MPI_INIT(IERR)
      CALL MPI_COMM_RANK(MPI_COMM_WORLD, ME, IERR)
      CALL MPI_COMM_SIZE(MPI_COMM_WORLD, NP, IERR)
      IROOT = 0
      CALL MPI_REDUCE(A, B, 300, MPI_DOUBLE_PRECISION, MPI_SUM, IROOT,
     & MPI_COMM_WORLD, IERR)
      CALL MPI_FINALIZE(IERR)
      END
