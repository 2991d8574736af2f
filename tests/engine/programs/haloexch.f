C     HALOEXCH -- a face exchange along one axis in the manner of a
C     multigrid solver: post MPI_IRECV from the neighbour into a
C     buffer column, its request in an element of a 3-D request array,
C     then MPI_SEND my face, then MPI_WAIT.  P = 2, faces of NF
C     doubles (NF is an input).
      PROGRAM HALO
      INCLUDE 'mpif.h'
      INTEGER ME, NP, IERR, NBR, NF, AX, DIR
      INTEGER MSGID(3, 2, 1), STAT(MPI_STATUS_SIZE)
      DOUBLE PRECISION BUF(20000, 2), FACE(20000)
      CALL MPI_INIT(IERR)
      CALL MPI_COMM_RANK(MPI_COMM_WORLD, ME, IERR)
      CALL MPI_COMM_SIZE(MPI_COMM_WORLD, NP, IERR)
      NBR = MOD(ME + 1, NP)
      AX = 1
      DIR = 2
      CALL MPI_IRECV(BUF(1, DIR), NF, MPI_DOUBLE_PRECISION, NBR,
     &               AX * 10 + DIR, MPI_COMM_WORLD, MSGID(AX, DIR, 1),
     &               IERR)
      CALL MPI_SEND(FACE, NF, MPI_DOUBLE_PRECISION, NBR, AX * 10 + DIR,
     &              MPI_COMM_WORLD, IERR)
      CALL MPI_WAIT(MSGID(AX, DIR, 1), STAT, IERR)
      CALL MPI_FINALIZE(IERR)
      END
