C***********************************************************************
C     MPISTB -- DUMMY STUBS FOR THE MPI FORTRAN 77 BINDING
C
C     For compile/link checks of the sample programs only.  They act
C     like MPI_COMM_WORLD with one process (rank 0): point-to-point
C     calls do nothing, MPI_BCAST leaves the buffer alone, and the
C     reductions copy the send buffer into the receive buffer.
C***********************************************************************
      SUBROUTINE MPI_INIT(IERR)
      IMPLICIT NONE
      INCLUDE 'mpif.h'
      INTEGER IERR
      IERR = MPI_SUCCESS
      RETURN
      END
C
      SUBROUTINE MPI_FINALIZE(IERR)
      IMPLICIT NONE
      INCLUDE 'mpif.h'
      INTEGER IERR
      IERR = MPI_SUCCESS
      RETURN
      END
C
      SUBROUTINE MPI_COMM_RANK(ICOMM, IRANK, IERR)
      IMPLICIT NONE
      INCLUDE 'mpif.h'
      INTEGER ICOMM, IRANK, IERR
      IRANK = 0
      IERR = MPI_SUCCESS
      RETURN
      END
C
      SUBROUTINE MPI_COMM_SIZE(ICOMM, ISIZE, IERR)
      IMPLICIT NONE
      INCLUDE 'mpif.h'
      INTEGER ICOMM, ISIZE, IERR
      ISIZE = 1
      IERR = MPI_SUCCESS
      RETURN
      END
C
      SUBROUTINE MPI_SEND(BUF, ICOUNT, ITYPE, IDEST, ITAG, ICOMM,
     &                    IERR)
      IMPLICIT NONE
      INCLUDE 'mpif.h'
      INTEGER BUF(*), ICOUNT, ITYPE, IDEST, ITAG, ICOMM, IERR
      IERR = MPI_SUCCESS
      RETURN
      END
C
      SUBROUTINE MPI_RECV(BUF, ICOUNT, ITYPE, ISRC, ITAG, ICOMM,
     &                    ISTAT, IERR)
      IMPLICIT NONE
      INCLUDE 'mpif.h'
      INTEGER BUF(*), ICOUNT, ITYPE, ISRC, ITAG, ICOMM, IERR
      INTEGER ISTAT(MPI_STATUS_SIZE)
      ISTAT(MPI_SOURCE) = ISRC
      ISTAT(MPI_TAG) = ITAG
      ISTAT(MPI_ERROR) = MPI_SUCCESS
      IERR = MPI_SUCCESS
      RETURN
      END
C
      SUBROUTINE MPI_BARRIER(ICOMM, IERR)
      IMPLICIT NONE
      INCLUDE 'mpif.h'
      INTEGER ICOMM, IERR
      IERR = MPI_SUCCESS
      RETURN
      END
C
      SUBROUTINE MPI_BCAST(BUF, ICOUNT, ITYPE, IROOT, ICOMM, IERR)
      IMPLICIT NONE
      INCLUDE 'mpif.h'
      INTEGER BUF(*), ICOUNT, ITYPE, IROOT, ICOMM, IERR
      IERR = MPI_SUCCESS
      RETURN
      END
C
      SUBROUTINE MPI_REDUCE(SBUF, RBUF, ICOUNT, ITYPE, IOP, IROOT,
     &                      ICOMM, IERR)
      IMPLICIT NONE
      INCLUDE 'mpif.h'
      INTEGER SBUF(*), RBUF(*), ICOUNT, ITYPE, IOP, IROOT, ICOMM, IERR
      CALL MPICPY(SBUF, RBUF, ICOUNT, ITYPE)
      IERR = MPI_SUCCESS
      RETURN
      END
C
      SUBROUTINE MPI_ALLREDUCE(SBUF, RBUF, ICOUNT, ITYPE, IOP, ICOMM,
     &                         IERR)
      IMPLICIT NONE
      INCLUDE 'mpif.h'
      INTEGER SBUF(*), RBUF(*), ICOUNT, ITYPE, IOP, ICOMM, IERR
      CALL MPICPY(SBUF, RBUF, ICOUNT, ITYPE)
      IERR = MPI_SUCCESS
      RETURN
      END
C
C     Copy ICOUNT items of type ITYPE word by word (a DOUBLE PRECISION
C     item is two INTEGER words).
      SUBROUTINE MPICPY(SBUF, RBUF, ICOUNT, ITYPE)
      IMPLICIT NONE
      INCLUDE 'mpif.h'
      INTEGER SBUF(*), RBUF(*), ICOUNT, ITYPE, NW, I
      NW = ICOUNT
      IF (ITYPE .EQ. MPI_DOUBLE_PRECISION) NW = 2*ICOUNT
      DO 10 I = 1, NW
         RBUF(I) = SBUF(I)
   10 CONTINUE
      RETURN
      END
