C***********************************************************************
C     RINGM -- TOKEN RING, MPI VERSION
C
C     A token is passed round the ranks of MPI_COMM_WORLD NLAPS times.
C     Each rank receives it from its left neighbour MOD(ME-1+NP,NP),
C     adds one and sends it to its right neighbour MOD(ME+1,NP).  Rank
C     0 starts every lap.  At the end all ranks synchronise and the
C     number of messages received is totalled with MPI_ALLREDUCE.
C
C     EXTERNAL INPUTS: none (NLAPS is a PARAMETER).
C
C     MPI CALLS: MPI_INIT, MPI_COMM_RANK, MPI_COMM_SIZE, MPI_SEND,
C                MPI_RECV, MPI_BARRIER, MPI_ALLREDUCE, MPI_FINALIZE
C***********************************************************************
      PROGRAM RINGM
      IMPLICIT NONE
      INCLUDE 'mpif.h'
      INTEGER NLAPS, ITAG
      PARAMETER (NLAPS = 50, ITAG = 17)
      INTEGER ME, NP, LEFT, RIGHT, LAP, ITOKEN, NRECV, NTOTAL, IERR
      INTEGER STATUS(MPI_STATUS_SIZE)
C
      CALL MPI_INIT(IERR)
      CALL MPI_COMM_RANK(MPI_COMM_WORLD, ME, IERR)
      CALL MPI_COMM_SIZE(MPI_COMM_WORLD, NP, IERR)
      LEFT  = MOD(ME-1+NP, NP)
      RIGHT = MOD(ME+1, NP)
      NRECV = 0
      ITOKEN = 0
C
      IF (ME .EQ. 0) THEN
         DO 10 LAP = 1, NLAPS
            ITOKEN = ITOKEN + 1
            CALL MPI_SEND(ITOKEN, 1, MPI_INTEGER, RIGHT, ITAG,
     &                    MPI_COMM_WORLD, IERR)
            CALL MPI_RECV(ITOKEN, 1, MPI_INTEGER, LEFT, ITAG,
     &                    MPI_COMM_WORLD, STATUS, IERR)
            NRECV = NRECV + 1
   10    CONTINUE
      ELSE
         DO 20 LAP = 1, NLAPS
            CALL MPI_RECV(ITOKEN, 1, MPI_INTEGER, LEFT, ITAG,
     &                    MPI_COMM_WORLD, STATUS, IERR)
            NRECV = NRECV + 1
            ITOKEN = ITOKEN + 1
            CALL MPI_SEND(ITOKEN, 1, MPI_INTEGER, RIGHT, ITAG,
     &                    MPI_COMM_WORLD, IERR)
   20    CONTINUE
      END IF
C
      CALL MPI_BARRIER(MPI_COMM_WORLD, IERR)
      CALL MPI_ALLREDUCE(NRECV, NTOTAL, 1, MPI_INTEGER, MPI_SUM,
     &                   MPI_COMM_WORLD, IERR)
C
      IF (ME .EQ. 0) WRITE (6,100) NLAPS, NP, ITOKEN, NTOTAL
  100 FORMAT (1X,'MPI RING:',I5,' LAPS ON',I4,' RANKS, TOKEN =',I8,
     &        ', MESSAGES =',I8)
      CALL MPI_FINALIZE(IERR)
      STOP
      END
