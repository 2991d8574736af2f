C     Node 1 sends to the node whose number it received; node 0 sent
C     an element of IA that interp does not follow (IA is never set).
      PROGRAM UNFOL
      INTEGER ME, K, IA(4)
      ME = MYNODE()
      IF (ME .EQ. 0) THEN
         CALL CSEND(5, IA(2), 4, 1, 0)
      ELSE
         CALL CRECV(5, K, 4)
         CALL CSEND(6, K, 4, K, 0)
      END IF
      END
