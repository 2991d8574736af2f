C***********************************************************************
C     PINGPONG -- PING-PONG ACROSS THE 100-BYTE STATIC-BUFFER THRESHOLD
C
C     Rank 0 and rank NP-1 (the farthest pair on the hypercube when NP
C     is a power of two) bounce a message NREP times for each of eight
C     sizes: 1, 64, 99, 100, 101, 102, 1024 and 4096 bytes.  Messages of
C     at most 100 bytes use the iPSC/860's static buffers, larger ones
C     the dynamic ones.  The other ranks only start and stop.
C***********************************************************************
      PROGRAM PINGPG
      IMPLICIT NONE
      INCLUDE 'mpif.h'
      INTEGER ME, NP, OTHER, IERR
C
      CALL MPI_INIT(IERR)
      CALL MPI_COMM_RANK(MPI_COMM_WORLD, ME, IERR)
      CALL MPI_COMM_SIZE(MPI_COMM_WORLD, NP, IERR)
      OTHER = NP - 1
      CALL BOUNCE(ME, OTHER, 1)
      CALL BOUNCE(ME, OTHER, 64)
      CALL BOUNCE(ME, OTHER, 99)
      CALL BOUNCE(ME, OTHER, 100)
      CALL BOUNCE(ME, OTHER, 101)
      CALL BOUNCE(ME, OTHER, 102)
      CALL BOUNCE(ME, OTHER, 1024)
      CALL BOUNCE(ME, OTHER, 4096)
      CALL MPI_FINALIZE(IERR)
      END
C
C     NREP ROUND TRIPS OF AN N-BYTE MESSAGE BETWEEN RANK 0 AND OTHER
      SUBROUTINE BOUNCE(ME, OTHER, N)
      IMPLICIT NONE
      INCLUDE 'mpif.h'
      INTEGER ME, OTHER, N
      INTEGER NREP
      PARAMETER (NREP = 5)
      INTEGER IREP, IERR
      INTEGER STATUS(MPI_STATUS_SIZE)
      INTEGER BUF(1024)
      DO 10 IREP = 1, NREP
         IF (ME .EQ. 0) THEN
            CALL MPI_SEND(BUF, N, MPI_BYTE, OTHER, N,
     &                    MPI_COMM_WORLD, IERR)
            CALL MPI_RECV(BUF, N, MPI_BYTE, OTHER, N,
     &                    MPI_COMM_WORLD, STATUS, IERR)
         ELSE IF (ME .EQ. OTHER) THEN
            CALL MPI_RECV(BUF, N, MPI_BYTE, 0, N,
     &                    MPI_COMM_WORLD, STATUS, IERR)
            CALL MPI_SEND(BUF, N, MPI_BYTE, 0, N,
     &                    MPI_COMM_WORLD, IERR)
         END IF
   10 CONTINUE
      RETURN
      END
