C     PIPELINED GAUSS-SEIDEL: COLUMNS BLOCK-DISTRIBUTED; EACH ROW WAITS
C     FOR THE LEFT NEIGHBOUR'S BOUNDARY VALUE, UPDATES, PASSES IT RIGHT.
      PROGRAM GSWAVE
      INTEGER N, NITER, MAXC
      PARAMETER (MAXC = 512)
      DOUBLE PRECISION U(0:MAXC+1, 0:MAXC+1), LEFTV, RIGHTV
      INTEGER ME, NP, NCOL, I, J, IT, MYNODE, NUMNODES
      READ (5, *) N, NITER
      ME = MYNODE()
      NP = NUMNODES()
      NCOL = N / NP
      DO 5 J = 0, NCOL + 1
         DO 5 I = 0, N + 1
            U(I, J) = 0.0D0
    5 CONTINUE
      DO 100 IT = 1, NITER
         DO 50 I = 1, N
            IF (ME .GT. 0) THEN
               CALL CRECV(I, LEFTV, 8)
               U(I, 0) = LEFTV
            ENDIF
            DO 40 J = 1, NCOL
               U(I, J) = 0.25D0 * (U(I-1, J) + U(I+1, J) + U(I, J-1)
     &                 + U(I, J+1))
   40       CONTINUE
            IF (ME .LT. NP - 1) THEN
               RIGHTV = U(I, NCOL)
               CALL CSEND(I, RIGHTV, 8, ME + 1, 0)
            ENDIF
   50    CONTINUE
  100 CONTINUE
      END
