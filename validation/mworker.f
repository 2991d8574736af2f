C***********************************************************************
C     MWORKER -- MASTER AND WORKERS, STATIC SCHEDULE
C
C     Rank 0 sends NTASK tasks of 10 integers (40 bytes) round-robin to
C     ranks 1..NP-1 (task K to rank 1 + MOD(K-1, NP-1)), then collects
C     the NTASK results (one double each) from MPI_ANY_SOURCE.  A worker
C     receives its tasks one by one and returns a result for each.
C     (mworker_dyn.f hands out tasks on demand; see docs/validation.md.)
C***********************************************************************
      PROGRAM MWORK
      IMPLICIT NONE
      INCLUDE 'mpif.h'
      INTEGER NTASK, NW
      PARAMETER (NTASK = 30, NW = 10)
      INTEGER ME, NP, K, NMINE, IERR
      INTEGER STATUS(MPI_STATUS_SIZE)
      INTEGER TASK(NW)
      DOUBLE PRECISION R
C
      CALL MPI_INIT(IERR)
      CALL MPI_COMM_RANK(MPI_COMM_WORLD, ME, IERR)
      CALL MPI_COMM_SIZE(MPI_COMM_WORLD, NP, IERR)
      IF (ME .EQ. 0) THEN
         DO 10 K = 1, NTASK
            CALL MPI_SEND(TASK, NW, MPI_INTEGER, 1 + MOD(K - 1, NP - 1),
     &                    1, MPI_COMM_WORLD, IERR)
   10    CONTINUE
         DO 20 K = 1, NTASK
            CALL MPI_RECV(R, 1, MPI_DOUBLE_PRECISION, MPI_ANY_SOURCE,
     &                    9, MPI_COMM_WORLD, STATUS, IERR)
   20    CONTINUE
      ELSE
         NMINE = 0
         IF (ME .LE. NTASK) NMINE = (NTASK - ME) / (NP - 1) + 1
         DO 30 K = 1, NMINE
            CALL MPI_RECV(TASK, NW, MPI_INTEGER, 0, 1,
     &                    MPI_COMM_WORLD, STATUS, IERR)
            R = 1.0D0
            CALL MPI_SEND(R, 1, MPI_DOUBLE_PRECISION, 0, 9,
     &                    MPI_COMM_WORLD, IERR)
   30    CONTINUE
      END IF
      CALL MPI_FINALIZE(IERR)
      END
