C     ANSWER_MPI -- every rank but 0 sends its rank to rank 0 (tag 5);
C     rank 0 receives from MPI_ANY_SOURCE and answers with tag
C     STATUS(MPI_TAG)+1 to the rank STATUS(MPI_SOURCE) names.
      PROGRAM ANSWRM
      INCLUDE 'mpif.h'
      INTEGER ME, NP, K, IBUF, IERR
      INTEGER STATUS(MPI_STATUS_SIZE)
      CALL MPI_INIT(IERR)
      CALL MPI_COMM_RANK(MPI_COMM_WORLD, ME, IERR)
      CALL MPI_COMM_SIZE(MPI_COMM_WORLD, NP, IERR)
      IF (ME .EQ. 0) THEN
         DO 10 K = 1, NP - 1
            CALL MPI_RECV(IBUF, 1, MPI_INTEGER, MPI_ANY_SOURCE, 5,
     &                    MPI_COMM_WORLD, STATUS, IERR)
            CALL MPI_SEND(IBUF, 1, MPI_INTEGER, STATUS(MPI_SOURCE),
     &                    STATUS(MPI_TAG) + 1, MPI_COMM_WORLD, IERR)
   10    CONTINUE
      ELSE
         CALL MPI_SEND(ME, 1, MPI_INTEGER, 0, 5, MPI_COMM_WORLD, IERR)
         CALL MPI_RECV(IBUF, 1, MPI_INTEGER, 0, 6, MPI_COMM_WORLD,
     &                 STATUS, IERR)
      END IF
      CALL MPI_FINALIZE(IERR)
      END
