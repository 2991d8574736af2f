C***********************************************************************
C     ALLREDUCE -- RECURSIVE DOUBLING WITH IEOR PARTNERS, THEN MPI_ALLREDUCE
C
C     NITER global sums of one double: in step D every rank swaps its
C     partial sum with rank IEOR(ME, 2**D) (one hypercube link) and
C     adds.  NP must be a power of two.  Then NITER MPI_ALLREDUCEs of
C     the same value.
C***********************************************************************
      PROGRAM ALLRED
      IMPLICIT NONE
      INCLUDE 'mpif.h'
      INTEGER NITER
      PARAMETER (NITER = 10)
      INTEGER ME, NP, IT, D, MASK, PARTNR, IERR
      INTEGER STATUS(MPI_STATUS_SIZE)
      DOUBLE PRECISION S, T, U
C
      CALL MPI_INIT(IERR)
      CALL MPI_COMM_RANK(MPI_COMM_WORLD, ME, IERR)
      CALL MPI_COMM_SIZE(MPI_COMM_WORLD, NP, IERR)
      S = 1.0D0
      DO 20 IT = 1, NITER
         MASK = 1
         DO 10 D = 1, 30
            IF (MASK .LT. NP) THEN
               PARTNR = IEOR(ME, MASK)
               CALL MPI_SEND(S, 1, MPI_DOUBLE_PRECISION, PARTNR, 5,
     &                       MPI_COMM_WORLD, IERR)
               CALL MPI_RECV(T, 1, MPI_DOUBLE_PRECISION, PARTNR, 5,
     &                       MPI_COMM_WORLD, STATUS, IERR)
               S = S + T
               MASK = 2*MASK
            END IF
   10    CONTINUE
   20 CONTINUE
      DO 30 IT = 1, NITER
         CALL MPI_ALLREDUCE(S, U, 1, MPI_DOUBLE_PRECISION, MPI_SUM,
     &                      MPI_COMM_WORLD, IERR)
   30 CONTINUE
      IF (ME .EQ. 0) WRITE (6,*) 'ALLREDUCE', S, U
      CALL MPI_FINALIZE(IERR)
      END
