C     SENT_COUNT -- rank 0 splits its keys by a pivot in place (run-time
C     data: interp does not follow NH), sends the count, then the keys;
C     rank 1 receives the count into NR and the keys with it.
      PROGRAM SCOUNT
      INCLUDE 'mpif.h'
      INTEGER KEYS(1000), HIGH(1000), STATUS(MPI_STATUS_SIZE)
      CALL MPI_INIT(IERR)
      CALL MPI_COMM_RANK(MPI_COMM_WORLD, ME, IERR)
      IF (ME .EQ. 0) THEN
         DO 5 I = 1, 1000
            KEYS(I) = MOD(I*7919, 1000)
    5    CONTINUE
         NH = 0
         NL = 0
         DO 10 I = 1, 1000
            IF (KEYS(I) .GE. 500) THEN
               NH = NH + 1
               HIGH(NH) = KEYS(I)
            ELSE
               NL = NL + 1
               KEYS(NL) = KEYS(I)
            END IF
   10    CONTINUE
         CALL MPI_SEND(NH, 1, MPI_INTEGER, 1, 1, MPI_COMM_WORLD, IERR)
         CALL MPI_SEND(HIGH, NH, MPI_INTEGER, 1, 2, MPI_COMM_WORLD,
     &                 IERR)
      ELSE IF (ME .EQ. 1) THEN
         CALL MPI_RECV(NR, 1, MPI_INTEGER, 0, 1, MPI_COMM_WORLD,
     &                 STATUS, IERR)
         CALL MPI_RECV(HIGH, NR, MPI_INTEGER, 0, 2, MPI_COMM_WORLD,
     &                 STATUS, IERR)
      END IF
      CALL MPI_FINALIZE(IERR)
      END
