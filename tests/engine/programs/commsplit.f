C     COMMSPLIT -- P = 4 ranks as a 2 x 2 grid, ROW = ME / 2 and
C     COL = MOD(ME, 2).  MPI_COMM_SPLIT makes a row and a column
C     communicator; in its column, rank 0 sends 1000 bytes to rank 1
C     (world 0 -> 2 and 1 -> 3).  A third split with key -ME ranks the
C     world backwards: its rank 0 (world 3) sends NR integers to its
C     rank 1 (world 2), NR = the size of the row communicator.
      PROGRAM CSPLIT
      INCLUDE 'mpif.h'
      INTEGER ME, NP, IERR, ROWC, COLC, REVC, MC, NC, MR, NR, MV
      INTEGER STAT(MPI_STATUS_SIZE), SRC
      INTEGER A(250), B(250)
      CALL MPI_INIT(IERR)
      CALL MPI_COMM_RANK(MPI_COMM_WORLD, ME, IERR)
      CALL MPI_COMM_SIZE(MPI_COMM_WORLD, NP, IERR)
      CALL MPI_COMM_SPLIT(MPI_COMM_WORLD, ME / 2, MOD(ME, 2), ROWC,
     &                    IERR)
      CALL MPI_COMM_SPLIT(MPI_COMM_WORLD, MOD(ME, 2), ME / 2, COLC,
     &                    IERR)
      CALL MPI_COMM_RANK(COLC, MC, IERR)
      CALL MPI_COMM_SIZE(COLC, NC, IERR)
      IF (MC .EQ. 0) THEN
         CALL MPI_SEND(A, 250, MPI_INTEGER, NC - 1, 7, COLC, IERR)
      ELSE
         CALL MPI_RECV(B, 250, MPI_INTEGER, 0, 7, COLC, STAT, IERR)
      END IF
      CALL MPI_COMM_SIZE(ROWC, NR, IERR)
      CALL MPI_COMM_RANK(ROWC, MR, IERR)
      CALL MPI_COMM_SPLIT(MPI_COMM_WORLD, 0, -ME, REVC, IERR)
      CALL MPI_COMM_RANK(REVC, MV, IERR)
      IF (MV .EQ. 0) THEN
         CALL MPI_SEND(A, NR, MPI_INTEGER, 1, 8, REVC, IERR)
      ELSE IF (MV .EQ. 1) THEN
         CALL MPI_RECV(B, 250, MPI_INTEGER, MPI_ANY_SOURCE, 8, REVC,
     &                 STAT, IERR)
         SRC = STAT(MPI_SOURCE)
         IF (SRC .NE. 0) CALL MPI_ABORT(MPI_COMM_WORLD, 1, IERR)
      END IF
      CALL MPI_FINALIZE(IERR)
      END
