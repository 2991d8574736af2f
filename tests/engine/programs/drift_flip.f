C     The root of a reduce starts late (NSTART additions) and then works less per iteration
C     (N0) than the leaf (N1): at first it never waits, its clock drifting back towards the
C     leaf's by (N1 - N0) additions an iteration, until it waits for the leaf every time.
      PROGRAM FLIP
      INCLUDE 'mpif.h'
      INTEGER NSTART, N0, N1, NITER
      PARAMETER (NSTART = 20000, N0 = 100, N1 = 600, NITER = 80)
      DOUBLE PRECISION X, T
      CALL MPI_INIT(IERR)
      CALL MPI_COMM_RANK(MPI_COMM_WORLD, ME, IERR)
      X = 0.0D0
      IF (ME .EQ. 0) THEN
         DO I = 1, NSTART
            X = X + 1.0D0
         ENDDO
      ENDIF
      DO IT = 1, NITER
         IF (ME .EQ. 0) THEN
            DO I = 1, N0
               X = X + 1.0D0
            ENDDO
         ELSE
            DO I = 1, N1
               X = X + 1.0D0
            ENDDO
         ENDIF
         CALL MPI_REDUCE(X, T, 1, MPI_DOUBLE_PRECISION, MPI_SUM, 0,
     &                   MPI_COMM_WORLD, IERR)
      ENDDO
      CALL MPI_FINALIZE(IERR)
      END
