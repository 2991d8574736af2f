C***********************************************************************
C     BCAST_ROOTLAST -- ONE MPI_BCAST FROM THE LAST RANK
C
C     300 doubles (2400 bytes, dynamic buffers) from rank NP-1.  SMPI's
C     binomial tree works on ranks relative to the root, (ME - ROOT) mod
C     NP, and serves the farthest child first; with a root other than 0
C     some messages cross several hypercube links and share them.
C***********************************************************************
      PROGRAM CBCAST
      IMPLICIT NONE
      INCLUDE 'mpif.h'
      INTEGER ME, NP, IERR, IROOT
      DOUBLE PRECISION A(300), B(300)
      CALL MPI_INIT(IERR)
      CALL MPI_COMM_RANK(MPI_COMM_WORLD, ME, IERR)
      CALL MPI_COMM_SIZE(MPI_COMM_WORLD, NP, IERR)
      IROOT = NP - 1
      CALL MPI_BCAST(A, 300, MPI_DOUBLE_PRECISION, IROOT,
     & MPI_COMM_WORLD, IERR)
      CALL MPI_FINALIZE(IERR)
      END
