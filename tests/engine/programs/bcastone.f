C     Node 0 broadcasts (CSEND to -1) one REAL; the others receive it.
      PROGRAM BCONE
      REAL W(1)
      W(1) = 1.0
      IF (MYNODE() .EQ. 0) THEN
         CALL CSEND(10, W, 4, -1, 0)
      ELSE
         CALL CRECV(10, W, 4)
      END IF
      END
