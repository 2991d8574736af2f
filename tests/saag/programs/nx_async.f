      PROGRAM ASYNC
      INTEGER ME, MYNODE, ISEND, IRECV, ID
      DOUBLE PRECISION A(16)
      ME = MYNODE()
      IF (ME .EQ. 0) THEN
         ID = ISEND(40, A, 128, 1, 0)
         CALL MSGWAIT(ID)
      ELSE IF (ME .EQ. 1) THEN
         ID = IRECV(40, A, 128)
         CALL MSGWAIT(ID)
      END IF
      END
