C***********************************************************************
C     RING -- A TOKEN PASSED ROUND ALL RANKS NLAPS TIMES
C
C     Rank 0 starts each lap; every rank receives the token (one
C     integer) from its left neighbour and sends it on to the right.
C     On the hypercube the step from rank k to k+1 crosses as many
C     links as k and k+1 differ in bits.
C***********************************************************************
      PROGRAM RING
      IMPLICIT NONE
      INCLUDE 'mpif.h'
      INTEGER NLAPS
      PARAMETER (NLAPS = 20)
      INTEGER ME, NP, LEFT, RIGHT, LAP, ITOKEN, IERR
      INTEGER STATUS(MPI_STATUS_SIZE)
C
      CALL MPI_INIT(IERR)
      CALL MPI_COMM_RANK(MPI_COMM_WORLD, ME, IERR)
      CALL MPI_COMM_SIZE(MPI_COMM_WORLD, NP, IERR)
      LEFT = MOD(ME - 1 + NP, NP)
      RIGHT = MOD(ME + 1, NP)
      ITOKEN = 0
      DO 10 LAP = 1, NLAPS
         IF (ME .EQ. 0) THEN
            ITOKEN = ITOKEN + 1
            CALL MPI_SEND(ITOKEN, 1, MPI_INTEGER, RIGHT, 7,
     &                    MPI_COMM_WORLD, IERR)
            CALL MPI_RECV(ITOKEN, 1, MPI_INTEGER, LEFT, 7,
     &                    MPI_COMM_WORLD, STATUS, IERR)
         ELSE
            CALL MPI_RECV(ITOKEN, 1, MPI_INTEGER, LEFT, 7,
     &                    MPI_COMM_WORLD, STATUS, IERR)
            ITOKEN = ITOKEN + 1
            CALL MPI_SEND(ITOKEN, 1, MPI_INTEGER, RIGHT, 7,
     &                    MPI_COMM_WORLD, IERR)
         END IF
   10 CONTINUE
      IF (ME .EQ. 0) WRITE (6,*) 'RING TOKEN', ITOKEN
      CALL MPI_FINALIZE(IERR)
      END
