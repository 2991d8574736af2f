      PROGRAM IRORD
C     Two MPI_IRECVs from the partner (tags 1, 2), then rendezvous sends in the other order
C     (tag 2 first), as NPB MG's comm3 does: the tag-2 message goes to the second posted
C     receive; the first, still unmatched, does not hold it back. N words per message.
      INCLUDE 'mpif.h'
      INTEGER D, S, ME, NP, IERR, R1, R2, ST(MPI_STATUS_SIZE), N
      DOUBLE PRECISION A(100000), B(100000), C(100000)
      CALL MPI_INIT(IERR)
      CALL MPI_COMM_RANK(MPI_COMM_WORLD, ME, IERR)
      CALL MPI_COMM_SIZE(MPI_COMM_WORLD, NP, IERR)
      D = MOD(ME + 1, NP)
      S = MOD(ME + NP - 1, NP)
      CALL MPI_IRECV(B, N, MPI_DOUBLE_PRECISION, S, 1,
     &   MPI_COMM_WORLD, R1, IERR)
      CALL MPI_IRECV(C, N, MPI_DOUBLE_PRECISION, S, 2,
     &   MPI_COMM_WORLD, R2, IERR)
      CALL MPI_SEND(A, N, MPI_DOUBLE_PRECISION, D, 2,
     &   MPI_COMM_WORLD, IERR)
      CALL MPI_SEND(A, N, MPI_DOUBLE_PRECISION, D, 1,
     &   MPI_COMM_WORLD, IERR)
      CALL MPI_WAIT(R1, ST, IERR)
      CALL MPI_WAIT(R2, ST, IERR)
      CALL MPI_FINALIZE(IERR)
      END
