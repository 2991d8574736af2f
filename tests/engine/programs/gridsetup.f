C     GRIDSETUP -- a square process grid set up as block solvers do: NC
C     = the integer square root of P; ranks beyond NC*NC get color 1 and
C     stay idle.  The active ranks duplicate their communicator twice,
C     broadcast a size on the first copy and pass a token round a ring
C     of the active ranks on the second.
      PROGRAM GRIDS
      INCLUDE 'mpif.h'
      INTEGER NODE, TOTAL, NC, COLOR, CSET, CSOLVE, CRHS, NN, ME
      INTEGER IERR, N, TOKEN, STAT(MPI_STATUS_SIZE)
      LOGICAL ACTIVE
      CALL MPI_INIT(IERR)
      CALL MPI_COMM_SIZE(MPI_COMM_WORLD, TOTAL, IERR)
      CALL MPI_COMM_RANK(MPI_COMM_WORLD, NODE, IERR)
      NC = INT(SQRT(DBLE(TOTAL) + 0.00001D0))
      IF (NODE .GE. NC * NC) THEN
         ACTIVE = .FALSE.
         COLOR = 1
      ELSE
         ACTIVE = .TRUE.
         COLOR = 0
      END IF
      CALL MPI_COMM_SPLIT(MPI_COMM_WORLD, COLOR, NODE, CSET, IERR)
      IF (ACTIVE) THEN
         CALL MPI_COMM_SIZE(CSET, NN, IERR)
         CALL MPI_COMM_DUP(CSET, CSOLVE, IERR)
         CALL MPI_COMM_DUP(CSET, CRHS, IERR)
         CALL MPI_COMM_RANK(CRHS, ME, IERR)
         N = 0
         IF (ME .EQ. 0) N = 12
         CALL MPI_BCAST(N, 1, MPI_INTEGER, 0, CSOLVE, IERR)
         IF (ME .EQ. 0) THEN
            CALL MPI_SEND(TOKEN, 1, MPI_INTEGER, 1, N, CRHS, IERR)
            CALL MPI_RECV(TOKEN, 1, MPI_INTEGER, NN - 1, N, CRHS, STAT,
     &                    IERR)
         ELSE
            CALL MPI_RECV(TOKEN, 1, MPI_INTEGER, ME - 1, N, CRHS, STAT,
     &                    IERR)
            CALL MPI_SEND(TOKEN, 1, MPI_INTEGER, MOD(ME + 1, NN), N,
     &                    CRHS, IERR)
         END IF
      END IF
      CALL MPI_FINALIZE(IERR)
      END
