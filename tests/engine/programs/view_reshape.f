C     A TWO-DIMENSIONAL ARRAY PASSED TO A ONE-DIMENSIONAL DUMMY: SETV
C     WRITES V(K) = K, SO T(I,J) = I + 3*(J-1) (COLUMN-MAJOR ORDER).
C     THE MESSAGE CARRIES T(2,2) = 5 DOUBLES.
      PROGRAM VRESH
      INCLUDE 'mpif.h'
      INTEGER ME, N, IERR, STAT(MPI_STATUS_SIZE)
      INTEGER T(3, 2)
      DOUBLE PRECISION X(10)
      CALL MPI_INIT(IERR)
      CALL MPI_COMM_RANK(MPI_COMM_WORLD, ME, IERR)
      CALL SETV(T, 6)
      N = T(2, 2)
      IF (ME .EQ. 0) CALL MPI_SEND(X, N, MPI_DOUBLE_PRECISION, 1, 1,
     &                             MPI_COMM_WORLD, IERR)
      IF (ME .EQ. 1) CALL MPI_RECV(X, N, MPI_DOUBLE_PRECISION, 0, 1,
     &                             MPI_COMM_WORLD, STAT, IERR)
      CALL MPI_FINALIZE(IERR)
      END

      SUBROUTINE SETV(V, M)
      INTEGER M
      INTEGER V(M)
      V(1) = 1
      V(2) = 2
      V(3) = 3
      V(4) = 4
      V(5) = 5
      V(6) = 6
      END
