C***********************************************************************
C     FFT2DP -- 2-D FFT, DATA PARALLEL (Crovella and LeBlanc 1994, DP)
C
C     NITER times: initialize an N x N double complex matrix, FFT its
C     columns, transpose it, FFT its rows.  Every rank does every step
C     on its own block: rank ME owns columns ME*NB .. ME*NB+NB-1 for
C     the column FFTs and the same rows for the row FFTs, NB = N/NP
C     rounded up (NB = 1 and ranks ME >= N own nothing when N < NP).
C     The transpose is one MPI_ALLTOALL: each rank packs the NB x NB
C     block of its columns that rank Q needs (loop 1), exchanges, and
C     unpacks the blocks it received into rows (loop 2).  A weighted
C     sum of |X(k1,k2)|**2 of the last transform is reduced to rank 0.
C
C     The 1-D FFTs are iterative radix-2 (decimation in time): a
C     bit-reversal permutation, then LOG2(N) stages of N/2 butterflies.
C
C     EXTERNAL INPUTS (unit 5 on rank 0, list directed):
C        N      side of the matrix, a power of two, 2 <= N <= NMAX
C        NITER  number of transforms
C
C     MPI CALLS: MPI_INIT, MPI_COMM_RANK, MPI_COMM_SIZE, MPI_BCAST,
C                MPI_ALLTOALL, MPI_REDUCE, MPI_FINALIZE
C***********************************************************************
      PROGRAM FFT2DP
      IMPLICIT NONE
      INCLUDE 'mpif.h'
      INTEGER NMAX, MAXLOC
      PARAMETER (NMAX = 1024, MAXLOC = NMAX*NMAX)
      DOUBLE COMPLEX A(0:MAXLOC-1), B(0:MAXLOC-1)
      DOUBLE COMPLEX W(0:NMAX/2-1), T(0:NMAX-1)
      INTEGER IREV(0:NMAX-1)
      DOUBLE PRECISION S2, TOTAL
      INTEGER ME, NP, IERR, N, NITER, LOGN, NB, NPAD, NMINE
      INTEGER IT, I, J, II, JJ, Q, R
C
      CALL MPI_INIT(IERR)
      CALL MPI_COMM_RANK(MPI_COMM_WORLD, ME, IERR)
      CALL MPI_COMM_SIZE(MPI_COMM_WORLD, NP, IERR)
      IF (ME .EQ. 0) THEN
         READ (5,*) N
         READ (5,*) NITER
      END IF
      CALL MPI_BCAST(N, 1, MPI_INTEGER, 0, MPI_COMM_WORLD, IERR)
      CALL MPI_BCAST(NITER, 1, MPI_INTEGER, 0, MPI_COMM_WORLD, IERR)
C
      LOGN = NINT(LOG(DBLE(N)) / LOG(2.0D0))
      NB = (N + NP - 1) / NP
      NPAD = NB * NP
      NMINE = MAX(0, MIN(NB, N - ME*NB))
      CALL SETUP(N, LOGN, W, IREV)
C
      DO IT = 1, NITER
C        initialize my columns
         DO JJ = 0, NMINE-1
            J = ME*NB + JJ
            DO I = 0, N-1
               A(I + JJ*NPAD) = DCMPLX(DBLE(MOD(I + 2*J + IT, 17)),
     &                                DBLE(MOD(3*I + J, 11)))
            ENDDO
         ENDDO
C        column FFTs
         DO JJ = 0, NMINE-1
            CALL FFT1(A(JJ*NPAD), T, N, LOGN, W, IREV)
         ENDDO
C        transpose, loop 1: the block for rank Q is rows Q*NB.. of my
C        columns
         DO Q = 0, NP-1
            DO JJ = 0, NB-1
               DO II = 0, NB-1
                  B(Q*NB*NB + JJ*NB + II) = A(Q*NB + II + JJ*NPAD)
               ENDDO
            ENDDO
         ENDDO
         CALL MPI_ALLTOALL(B, NB*NB, MPI_DOUBLE_COMPLEX,
     &                     A, NB*NB, MPI_DOUBLE_COMPLEX,
     &                     MPI_COMM_WORLD, IERR)
C        transpose, loop 2: rank R's block holds my rows II of its
C        columns JJ, which are global columns R*NB+JJ of row II
         DO R = 0, NP-1
            DO JJ = 0, NB-1
               DO II = 0, NB-1
                  B(II*NPAD + R*NB + JJ) = A(R*NB*NB + JJ*NB + II)
               ENDDO
            ENDDO
         ENDDO
C        row FFTs
         DO II = 0, NMINE-1
            CALL FFT1(B(II*NPAD), T, N, LOGN, W, IREV)
         ENDDO
      ENDDO
C
      CALL CHKSUM(B, N, NPAD, NMINE, ME*NB, S2)
      CALL MPI_REDUCE(S2, TOTAL, 1, MPI_DOUBLE_PRECISION, MPI_SUM, 0,
     &                MPI_COMM_WORLD, IERR)
      IF (ME .EQ. 0) THEN
         WRITE (6,100) N, NITER, NP
         WRITE (6,110) TOTAL
      END IF
  100 FORMAT (1X,'FFT2DP N =',I6,'   NITER =',I6,'   RANKS =',I4)
  110 FORMAT (1X,'CHECKSUM =',1PE24.16)
      CALL MPI_FINALIZE(IERR)
      END
C
C-----------------------------------------------------------------------
C     SETUP -- twiddle factors W(K) = EXP(-2 PI I K/N), K < N/2, and the
C     bit-reversal permutation IREV of 0 .. N-1 (LOGN bits).
C-----------------------------------------------------------------------
      SUBROUTINE SETUP(N, LOGN, W, IREV)
      IMPLICIT NONE
      INTEGER N, LOGN, IREV(0:N-1)
      DOUBLE COMPLEX W(0:N/2-1)
      DOUBLE PRECISION PI, ANG
      PARAMETER (PI = 3.14159265358979323846D0)
      INTEGER I, J, K, L, S
      DO K = 0, N/2-1
         ANG = 2.0D0*PI*DBLE(K)/DBLE(N)
         W(K) = DCMPLX(COS(ANG), -SIN(ANG))
      ENDDO
      DO I = 0, N-1
         J = 0
         L = I
         DO S = 1, LOGN
            J = 2*J + MOD(L, 2)
            L = L/2
         ENDDO
         IREV(I) = J
      ENDDO
      RETURN
      END
C
C-----------------------------------------------------------------------
C     FFT1 -- in-place radix-2 FFT of X(0:N-1), N = 2**LOGN: X goes to
C     T in bit-reversed order, LOGN stages of N/2 butterflies run on T,
C     and T is copied back.  In stage S the butterflies pair points M =
C     2**(S-1) apart: butterfly I is the K-th of group J (I = J*M + K)
C     with twiddle W(K*NG) = EXP(-2 PI I K/(2M)), NG = N/(2M) groups.
C-----------------------------------------------------------------------
      SUBROUTINE FFT1(X, T, N, LOGN, W, IREV)
      IMPLICIT NONE
      INTEGER N, LOGN, IREV(0:N-1)
      DOUBLE COMPLEX X(0:N-1), T(0:N-1), W(0:N/2-1), U, V
      INTEGER I, J, K, L, M, NG, S
      DO I = 0, N-1
         T(IREV(I)) = X(I)
      ENDDO
      DO S = 1, LOGN
         M = 2**(S-1)
         NG = N/(2*M)
         DO I = 0, N/2-1
            J = I/M
            K = I - J*M
            L = 2*M*J + K
            V = W(K*NG)*T(L+M)
            U = T(L)
            T(L) = U + V
            T(L+M) = U - V
         ENDDO
      ENDDO
      DO I = 0, N-1
         X(I) = T(I)
      ENDDO
      RETURN
      END
C
C-----------------------------------------------------------------------
C     CHKSUM -- S2 = sum over my rows K1 = K0 .. K0+NROW-1 and all K2 of
C     (1 + K1 + 2*K2) * |X(K1,K2)|**2; row II is X(II*LD .. II*LD+N-1).
C-----------------------------------------------------------------------
      SUBROUTINE CHKSUM(X, N, LD, NROW, K0, S2)
      IMPLICIT NONE
      INTEGER N, LD, NROW, K0
      DOUBLE COMPLEX X(0:*)
      DOUBLE PRECISION S2
      INTEGER II, K2
      S2 = 0.0D0
      DO II = 0, NROW-1
         DO K2 = 0, N-1
            S2 = S2 + DBLE(1 + K0 + II + 2*K2) *
     &           (DBLE(X(II*LD + K2))**2 + DIMAG(X(II*LD + K2))**2)
         ENDDO
      ENDDO
      RETURN
      END
