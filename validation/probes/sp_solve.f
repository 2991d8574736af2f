      PROGRAM SPSOLV
C     NPB SP's x, y and z solves, communication only: the multipartition
C     of make_set.f (P = NC*NC ranks, NC cells each, 4 points a cell as
C     at class S), and each solve's forward and backward pipelines
C     (MPI_IRECV from the predecessor, MPI_WAITALL of it with the
C     previous stage's MPI_ISEND, MPI_ISEND to the successor) with SP's
C     buffer sizes: 22 and 10 doubles a point of the cell's face.
      INCLUDE 'mpif.h'
      INTEGER ME, NP, IERR, NC, I, J, C, D, DIR, STEP, NSTEP
      INTEGER CC(3,3), SLICE(3,3), ISTART(3,3), IEND(3,3)
      INTEGER PRED(3), SUCC(3), CSIZE
      PARAMETER (CSIZE = 4, NSTEP = 2)
      CALL MPI_INIT(IERR)
      CALL MPI_COMM_RANK(MPI_COMM_WORLD, ME, IERR)
      CALL MPI_COMM_SIZE(MPI_COMM_WORLD, NP, IERR)
      NC = INT(SQRT(DBLE(NP) + 0.00001D0))
      CC(1,1) = MOD(ME, NC)
      CC(2,1) = ME / NC
      CC(3,1) = 0
      DO 10 C = 2, NC
         CC(1,C) = MOD(CC(1,C-1) + 1, NC)
         CC(2,C) = MOD(CC(2,C-1) - 1 + NC, NC)
         CC(3,C) = C - 1
   10 CONTINUE
      DO 20 DIR = 1, 3
         DO 20 C = 1, NC
            CC(DIR,C) = CC(DIR,C) + 1
            SLICE(DIR,CC(DIR,C)) = C
            ISTART(DIR,C) = 0
            IEND(DIR,C) = 0
            IF (CC(DIR,C) .EQ. 1) ISTART(DIR,C) = 1
            IF (CC(DIR,C) .EQ. NC) IEND(DIR,C) = 1
   20 CONTINUE
      I = CC(1,1) - 1
      J = CC(2,1) - 1
      PRED(1) = MOD(I-1+NC, NC) + NC*J
      PRED(2) = I + NC*MOD(J-1+NC, NC)
      PRED(3) = MOD(I+1, NC) + NC*MOD(J-1+NC, NC)
      SUCC(1) = MOD(I+1, NC) + NC*J
      SUCC(2) = I + NC*MOD(J+1, NC)
      SUCC(3) = MOD(I-1+NC, NC) + NC*MOD(J+1, NC)
      DO 40 STEP = 1, NSTEP
         DO 30 D = 1, 3
            CALL SOLVE(D, NC, SLICE, ISTART, IEND, CSIZE, PRED, SUCC)
   30    CONTINUE
   40 CONTINUE
      CALL MPI_FINALIZE(IERR)
      END

      SUBROUTINE SOLVE(D, NC, SLICE, ISTART, IEND, CSIZE, PRED, SUCC)
      INCLUDE 'mpif.h'
      INTEGER D, NC, SLICE(3,3), ISTART(3,3), IEND(3,3), CSIZE
      INTEGER PRED(3), SUCC(3)
      INTEGER STAGE, C, A, B, BS, REQ(2), ST(MPI_STATUS_SIZE,2), IERR
      DOUBLE PRECISION INB(22*16), OUTB(22*16)
C     the two directions of the cell's face across direction D
      A = 2
      B = 3
      IF (D .EQ. 2) THEN
         A = 1
         B = 3
      ELSE IF (D .EQ. 3) THEN
         A = 1
         B = 2
      END IF
      DO 10 STAGE = 1, NC
         C = SLICE(D,STAGE)
         BS = (CSIZE-ISTART(A,C)-IEND(A,C))
     &      * (CSIZE-ISTART(B,C)-IEND(B,C))
         IF (STAGE .NE. 1) THEN
            CALL MPI_IRECV(INB, 22*BS, MPI_DOUBLE_PRECISION, PRED(D),
     &                     0, MPI_COMM_WORLD, REQ(1), IERR)
            CALL MPI_WAITALL(2, REQ, ST, IERR)
         END IF
         IF (STAGE .NE. NC) THEN
            CALL MPI_ISEND(OUTB, 22*BS, MPI_DOUBLE_PRECISION, SUCC(D),
     &                     0, MPI_COMM_WORLD, REQ(2), IERR)
         END IF
   10 CONTINUE
      DO 20 STAGE = NC, 1, -1
         C = SLICE(D,STAGE)
         BS = (CSIZE-ISTART(A,C)-IEND(A,C))
     &      * (CSIZE-ISTART(B,C)-IEND(B,C))
         IF (STAGE .NE. NC) THEN
            CALL MPI_IRECV(INB, 10*BS, MPI_DOUBLE_PRECISION, SUCC(D),
     &                     0, MPI_COMM_WORLD, REQ(1), IERR)
            CALL MPI_WAITALL(2, REQ, ST, IERR)
         END IF
         IF (STAGE .NE. 1) THEN
            CALL MPI_ISEND(OUTB, 10*BS, MPI_DOUBLE_PRECISION, PRED(D),
     &                     0, MPI_COMM_WORLD, REQ(2), IERR)
         END IF
   20 CONTINUE
      END
