C     TINY -- a small node program for the output-level tests.
C     Node 0 does a loop and sends X to node 1; node 1 receives it.
      PROGRAM TINY
      INTEGER ME, I, N
      REAL X, Y
      INTEGER MYNODE
      ME = MYNODE()
      X = 1.0
      N = 100
      DO 10 I = 1, N
         X = X + 2.0
   10 CONTINUE
      CALL WORK(X, Y)
      IF (ME .EQ. 0) THEN
         CALL CSEND(7, Y, 4, 1, 0)
      ELSE
         CALL CRECV(7, Y, 4)
      END IF
      STOP
      END
C
      SUBROUTINE WORK(A, B)
      REAL A, B
      B = A * A
      B = B + A
      END
