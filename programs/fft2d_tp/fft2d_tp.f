C***********************************************************************
C     FFT2TP -- 2-D FFT, TASK PARALLEL (Crovella and LeBlanc 1994, TP)
C
C     The ranks form two groups of NH = NP/2 in a pipeline.  Group 1
C     (ranks 0 .. NH-1) initializes each of the NITER matrices and FFTs
C     its columns; group 2 (ranks NH .. NP-1) receives them, transposes
C     them and FFTs their rows, while group 1 goes on with the next
C     matrix.  Group rank G owns columns (group 1) or rows (group 2)
C     G*NB .. G*NB+NB-1, NB = N/NH rounded up (ranks with G*NB >= N own
C     nothing when N < NH).  Group 1's rank G sends group 2's rank Q
C     the NB x NB block of its columns that Q needs, as one MPI_SEND,
C     in the order Q = G, G+1, ... (mod NH); group 2's rank H receives
C     them in the matching order R = H, H-1, ... (mod NH), so that in
C     step K every sender has a receiver of its own.  The pipeline
C     holds one matrix between the groups (the paper's pair of spin
C     locks): once group 2's rank H has all blocks of matrix IT it
C     sends rank H of group 1 a credit (one double complex), and group
C     1's rank G sends the blocks of matrix IT+1 only after the credit
C     for IT.  A weighted sum of |X(k1,k2)|**2 of the last transform is
C     reduced to rank 0.
C
C     The 1-D FFTs are those of FFT2DP (iterative radix-2).
C
C     EXTERNAL INPUTS (unit 5 on rank 0, list directed):
C        N      side of the matrix, a power of two, 2 <= N <= NMAX
C        NITER  number of transforms
C     The number of ranks must be even.
C
C     MPI CALLS: MPI_INIT, MPI_COMM_RANK, MPI_COMM_SIZE, MPI_BCAST,
C                MPI_SEND, MPI_RECV, MPI_REDUCE, MPI_ABORT,
C                MPI_FINALIZE
C***********************************************************************
      PROGRAM FFT2TP
      IMPLICIT NONE
      INCLUDE 'mpif.h'
      INTEGER NMAX, MAXLOC
      PARAMETER (NMAX = 1024, MAXLOC = NMAX*NMAX)
      DOUBLE COMPLEX A(0:MAXLOC-1), B(0:MAXLOC-1)
      DOUBLE COMPLEX W(0:NMAX/2-1), T(0:NMAX-1), CRED(1)
      INTEGER IREV(0:NMAX-1), STATUS(MPI_STATUS_SIZE)
      DOUBLE PRECISION S2, TOTAL
      INTEGER ME, NP, IERR, N, NITER, LOGN, NH, NB, NPAD, NMINE
      INTEGER IT, I, J, II, JJ, G, K, Q, R
C
      CALL MPI_INIT(IERR)
      CALL MPI_COMM_RANK(MPI_COMM_WORLD, ME, IERR)
      CALL MPI_COMM_SIZE(MPI_COMM_WORLD, NP, IERR)
      IF (MOD(NP, 2) .NE. 0) THEN
         IF (ME .EQ. 0) WRITE (6,*) 'FFT2TP needs an even number',
     &                              ' of ranks'
         CALL MPI_ABORT(MPI_COMM_WORLD, 1, IERR)
      END IF
      IF (ME .EQ. 0) THEN
         READ (5,*) N
         READ (5,*) NITER
      END IF
      CALL MPI_BCAST(N, 1, MPI_INTEGER, 0, MPI_COMM_WORLD, IERR)
      CALL MPI_BCAST(NITER, 1, MPI_INTEGER, 0, MPI_COMM_WORLD, IERR)
C
      LOGN = NINT(LOG(DBLE(N)) / LOG(2.0D0))
      NH = NP / 2
      NB = (N + NH - 1) / NH
      NPAD = NB * NH
      G = MOD(ME, NH)
      NMINE = MAX(0, MIN(NB, N - G*NB))
      CALL SETUP(N, LOGN, W, IREV)
      S2 = 0.0D0
C
      IF (ME .LT. NH) THEN
C        group 1: initialize, column FFTs, send the blocks
         DO IT = 1, NITER
            DO JJ = 0, NMINE-1
               J = G*NB + JJ
               DO I = 0, N-1
                  A(I + JJ*NPAD) = DCMPLX(DBLE(MOD(I + 2*J + IT, 17)),
     &                                   DBLE(MOD(3*I + J, 11)))
               ENDDO
            ENDDO
            DO JJ = 0, NMINE-1
               CALL FFT1(A(JJ*NPAD), T, N, LOGN, W, IREV)
            ENDDO
            IF (IT .GT. 1) CALL MPI_RECV(CRED, 1, MPI_DOUBLE_COMPLEX,
     &                     NH + G, IT - 1, MPI_COMM_WORLD, STATUS, IERR)
            DO K = 0, NH-1
               Q = MOD(G + K, NH)
               DO JJ = 0, NB-1
                  DO II = 0, NB-1
                     B(JJ*NB + II) = A(Q*NB + II + JJ*NPAD)
                  ENDDO
               ENDDO
               CALL MPI_SEND(B, NB*NB, MPI_DOUBLE_COMPLEX, NH + Q, IT,
     &                       MPI_COMM_WORLD, IERR)
            ENDDO
         ENDDO
      ELSE
C        group 2: receive the blocks into rows (the transpose), row FFTs
         DO IT = 1, NITER
            DO K = 0, NH-1
               R = MOD(G - K + NH, NH)
               CALL MPI_RECV(A, NB*NB, MPI_DOUBLE_COMPLEX, R, IT,
     &                       MPI_COMM_WORLD, STATUS, IERR)
               DO JJ = 0, NB-1
                  DO II = 0, NB-1
                     B(II*NPAD + R*NB + JJ) = A(JJ*NB + II)
                  ENDDO
               ENDDO
            ENDDO
            CRED(1) = DCMPLX(DBLE(IT), 0.0D0)
            IF (IT .LT. NITER) CALL MPI_SEND(CRED, 1,
     &         MPI_DOUBLE_COMPLEX, G, IT, MPI_COMM_WORLD, IERR)
            DO II = 0, NMINE-1
               CALL FFT1(B(II*NPAD), T, N, LOGN, W, IREV)
            ENDDO
         ENDDO
         CALL CHKSUM(B, N, NPAD, NMINE, G*NB, S2)
      END IF
C
      CALL MPI_REDUCE(S2, TOTAL, 1, MPI_DOUBLE_PRECISION, MPI_SUM, 0,
     &                MPI_COMM_WORLD, IERR)
      IF (ME .EQ. 0) THEN
         WRITE (6,100) N, NITER, NP
         WRITE (6,110) TOTAL
      END IF
  100 FORMAT (1X,'FFT2TP N =',I6,'   NITER =',I6,'   RANKS =',I4)
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
