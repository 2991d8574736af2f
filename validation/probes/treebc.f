C***********************************************************************
C     TREEBC -- A BINOMIAL-TREE BROADCAST BY HAND AND MPI_BCAST IN ONE LOOP
C
C     NITER times: rank 0 sends NW doubles down a binomial tree with
C     MPI_SEND/MPI_RECV (tag 3; rank ME < MASK sends to ME + MASK), and
C     MPI_BCASTs NW doubles; ORDER = 1: the sends first, 2: the
C     MPI_BCAST first.  MPI sends are eager, so rank 0's messages of
C     both kinds share its links at once (docs/validation.md, "A
C     collective's messages among point-to-point messages").
C***********************************************************************
      PROGRAM TREEBC
      IMPLICIT NONE
      INCLUDE 'mpif.h'
      INTEGER NITER, NW, ORDER
      PARAMETER (NITER = 2, NW = 20000, ORDER = 1)
      INTEGER ME, NP, IT, K, D, MASK, IERR
      INTEGER STATUS(MPI_STATUS_SIZE)
      DOUBLE PRECISION A(NW)
C
      CALL MPI_INIT(IERR)
      CALL MPI_COMM_RANK(MPI_COMM_WORLD, ME, IERR)
      CALL MPI_COMM_SIZE(MPI_COMM_WORLD, NP, IERR)
      DO 30 IT = 1, NITER
         DO 20 K = 1, 2
            IF (K .EQ. ORDER) THEN
               MASK = 1
               DO 10 D = 1, 30
                  IF (MASK .LT. NP) THEN
                     IF (ME .LT. MASK) THEN
                        IF (ME + MASK .LT. NP) CALL MPI_SEND(A, NW,
     &                     MPI_DOUBLE_PRECISION, ME + MASK, 3,
     &                     MPI_COMM_WORLD, IERR)
                     ELSE IF (ME .LT. 2*MASK) THEN
                        CALL MPI_RECV(A, NW, MPI_DOUBLE_PRECISION,
     &                       ME - MASK, 3, MPI_COMM_WORLD, STATUS, IERR)
                     END IF
                     MASK = 2*MASK
                  END IF
   10          CONTINUE
            ELSE
               CALL MPI_BCAST(A, NW, MPI_DOUBLE_PRECISION, 0,
     &                        MPI_COMM_WORLD, IERR)
            END IF
   20    CONTINUE
   30 CONTINUE
      CALL MPI_FINALIZE(IERR)
      END
