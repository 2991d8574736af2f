C***********************************************************************
C     BCAST_ROOT0 -- ONE MPI_BCAST FROM RANK 0
C
C     300 doubles (2400 bytes) from rank 0.  For NP not a power of two
C     the order of the root's sends (farthest child first) decides
C     which rank finishes last.
C***********************************************************************
      PROGRAM DBCAST
      IMPLICIT NONE
      INCLUDE 'mpif.h'
      INTEGER ME, NP, IERR, IROOT
      DOUBLE PRECISION A(300), B(300)
      CALL MPI_INIT(IERR)
      CALL MPI_COMM_RANK(MPI_COMM_WORLD, ME, IERR)
      CALL MPI_COMM_SIZE(MPI_COMM_WORLD, NP, IERR)
      IROOT = 0
      CALL MPI_BCAST(A, 300, MPI_DOUBLE_PRECISION, IROOT,
     & MPI_COMM_WORLD, IERR)
      CALL MPI_FINALIZE(IERR)
      END
