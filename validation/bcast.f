C***********************************************************************
C     BCAST -- BINOMIAL-TREE BROADCAST WITH EXPLICIT SENDS, THEN MPI_BCAST
C
C     NITER times rank 0 broadcasts 16 doubles (128 bytes): in step D
C     (D = 0, 1, ...) every rank below 2**D that has the data sends it
C     to rank + 2**D, lowest dimension first, one hypercube link per
C     message.  Then the same data NITER times with MPI_BCAST.
C***********************************************************************
      PROGRAM BCAST
      IMPLICIT NONE
      INCLUDE 'mpif.h'
      INTEGER NITER, NW
      PARAMETER (NITER = 10, NW = 16)
      INTEGER ME, NP, IT, D, MASK, IERR
      INTEGER STATUS(MPI_STATUS_SIZE)
      DOUBLE PRECISION A(NW)
C
      CALL MPI_INIT(IERR)
      CALL MPI_COMM_RANK(MPI_COMM_WORLD, ME, IERR)
      CALL MPI_COMM_SIZE(MPI_COMM_WORLD, NP, IERR)
      DO 20 IT = 1, NITER
         MASK = 1
         DO 10 D = 1, 30
            IF (MASK .LT. NP) THEN
               IF (ME .LT. MASK) THEN
                  IF (ME + MASK .LT. NP) CALL MPI_SEND(A, NW,
     &               MPI_DOUBLE_PRECISION, ME + MASK, 3,
     &               MPI_COMM_WORLD, IERR)
               ELSE IF (ME .LT. 2*MASK) THEN
                  CALL MPI_RECV(A, NW, MPI_DOUBLE_PRECISION, ME - MASK,
     &                          3, MPI_COMM_WORLD, STATUS, IERR)
               END IF
               MASK = 2*MASK
            END IF
   10    CONTINUE
   20 CONTINUE
      DO 30 IT = 1, NITER
         CALL MPI_BCAST(A, NW, MPI_DOUBLE_PRECISION, 0, MPI_COMM_WORLD,
     &                  IERR)
   30 CONTINUE
      CALL MPI_FINALIZE(IERR)
      END
