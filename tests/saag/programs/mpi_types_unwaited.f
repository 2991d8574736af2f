C     MPI_TYPES_UNWAITED -- rank 0 sends 10 integers that rank 1
C     receives as 10 doubles (type signatures differ, sizes fit), with
C     an MPI_ISEND whose request is never completed.  Run on P = 2.
      PROGRAM TYPESU
      INCLUDE 'mpif.h'
      INTEGER ME, IERR, REQ
      INTEGER STATUS(MPI_STATUS_SIZE)
      DOUBLE PRECISION A(10)
      CALL MPI_INIT(IERR)
      CALL MPI_COMM_RANK(MPI_COMM_WORLD, ME, IERR)
      IF (ME .EQ. 0) THEN
         CALL MPI_ISEND(A, 10, MPI_INTEGER, 1, 2, MPI_COMM_WORLD,
     &                  REQ, IERR)
      ELSE IF (ME .EQ. 1) THEN
         CALL MPI_RECV(A, 10, MPI_DOUBLE_PRECISION, 0, 2,
     &                 MPI_COMM_WORLD, STATUS, IERR)
      END IF
      CALL MPI_FINALIZE(IERR)
      END
