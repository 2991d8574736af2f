C     REDUCEOPS -- MPI_REDUCE with MPI_MAX and MPI_MIN of ME + 1 to
C     rank 0, and MPI_ALLREDUCE with MPI_SUM.  On P = 4: MX = 4, MN = 1,
C     IS = 1 + 2 + 3 + 4 = 10; rank 0 sends MX - MN + 1 = 4 messages to
C     rank 1, which receives IS - 6 = 4 of them.
      PROGRAM REDOPS
      INCLUDE 'mpif.h'
      INTEGER ME, NP, IERR, V, MX, MN, IS, I
      INTEGER STAT(MPI_STATUS_SIZE)
      CALL MPI_INIT(IERR)
      CALL MPI_COMM_RANK(MPI_COMM_WORLD, ME, IERR)
      CALL MPI_COMM_SIZE(MPI_COMM_WORLD, NP, IERR)
      V = ME + 1
      CALL MPI_REDUCE(V, MX, 1, MPI_INTEGER, MPI_MAX, 0,
     &                MPI_COMM_WORLD, IERR)
      CALL MPI_REDUCE(V, MN, 1, MPI_INTEGER, MPI_MIN, 0,
     &                MPI_COMM_WORLD, IERR)
      CALL MPI_ALLREDUCE(V, IS, 1, MPI_INTEGER, MPI_SUM,
     &                   MPI_COMM_WORLD, IERR)
      IF (ME .EQ. 0) THEN
         DO 10 I = 1, MX - MN + 1
            CALL MPI_SEND(V, 1, MPI_INTEGER, 1, 5, MPI_COMM_WORLD, IERR)
   10    CONTINUE
      ELSE IF (ME .EQ. 1) THEN
         DO 20 I = 1, IS - 6
            CALL MPI_RECV(V, 1, MPI_INTEGER, 0, 5, MPI_COMM_WORLD, STAT,
     &                    IERR)
   20    CONTINUE
      END IF
      CALL MPI_FINALIZE(IERR)
      END
