C***********************************************************************
C     MWORKER -- MASTER AND WORKERS
C
C     Rank 0 hands out NTASK tasks of 10 integers (40 bytes): one to
C     each worker first, then, for each of the NTASK results (one
C     double, from MPI_ANY_SOURCE), the next task or, when none is
C     left, a stop message (tag 2) to the worker that returned it.
C     Workers receive tasks until told to stop.  NTASK >= NP - 1.
C***********************************************************************
      PROGRAM MWORK
      IMPLICIT NONE
      INCLUDE 'mpif.h'
      INTEGER NTASK, NW
      PARAMETER (NTASK = 30, NW = 10)
      INTEGER ME, NP, K, W, NSENT, ITAG, IERR
      INTEGER STATUS(MPI_STATUS_SIZE)
      INTEGER TASK(NW)
      DOUBLE PRECISION R
C
      CALL MPI_INIT(IERR)
      CALL MPI_COMM_RANK(MPI_COMM_WORLD, ME, IERR)
      CALL MPI_COMM_SIZE(MPI_COMM_WORLD, NP, IERR)
      IF (ME .EQ. 0) THEN
         NSENT = 0
         DO 10 W = 1, NP - 1
            CALL MPI_SEND(TASK, NW, MPI_INTEGER, W, 1, MPI_COMM_WORLD,
     &                    IERR)
            NSENT = NSENT + 1
   10    CONTINUE
         DO 20 K = 1, NTASK
            CALL MPI_RECV(R, 1, MPI_DOUBLE_PRECISION, MPI_ANY_SOURCE,
     &                    9, MPI_COMM_WORLD, STATUS, IERR)
            W = STATUS(MPI_SOURCE)
            IF (NSENT .LT. NTASK) THEN
               CALL MPI_SEND(TASK, NW, MPI_INTEGER, W, 1,
     &                       MPI_COMM_WORLD, IERR)
               NSENT = NSENT + 1
            ELSE
               CALL MPI_SEND(TASK, NW, MPI_INTEGER, W, 2,
     &                       MPI_COMM_WORLD, IERR)
            END IF
   20    CONTINUE
      ELSE
   30    CONTINUE
         CALL MPI_RECV(TASK, NW, MPI_INTEGER, 0, MPI_ANY_TAG,
     &                 MPI_COMM_WORLD, STATUS, IERR)
         ITAG = STATUS(MPI_TAG)
         IF (ITAG .EQ. 1) THEN
            R = 1.0D0
            CALL MPI_SEND(R, 1, MPI_DOUBLE_PRECISION, 0, 9,
     &                    MPI_COMM_WORLD, IERR)
         END IF
         IF (ITAG .EQ. 1) GO TO 30
      END IF
      CALL MPI_FINALIZE(IERR)
      END
