      PROGRAM SPLITL
C     MPI_COMM_SPLIT in a loop, the colors changing with the iteration
C     (tests/engine/test_collective_numbers.py).
      INCLUDE 'mpif.h'
      INTEGER ME, NP, IERR, IT, NEWC
      CALL MPI_INIT(IERR)
      CALL MPI_COMM_RANK(MPI_COMM_WORLD, ME, IERR)
      CALL MPI_COMM_SIZE(MPI_COMM_WORLD, NP, IERR)
      DO 10 IT = 1, 3
         CALL MPI_COMM_SPLIT(MPI_COMM_WORLD, MOD(ME, IT + 1), ME, NEWC,
     &                       IERR)
   10 CONTINUE
      CALL MPI_FINALIZE(IERR)
      END
