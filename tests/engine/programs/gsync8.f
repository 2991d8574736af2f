C     GSYNC8 -- one barrier on every node; no other work.  Run on
C     P = 8: 3 rounds of recursive doubling, one hop each.
      PROGRAM GSYNC8
      CALL GSYNC()
      END
