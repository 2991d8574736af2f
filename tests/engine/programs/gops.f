C     The NX/2 global operations on REAL, INTEGER and LOGICAL values
C     (GSSUM, GSHIGH, GSLOW, GSPROD, GIPROD, GIAND, GIOR, GIXOR, GLAND,
C     GLOR) on 8 nodes; their results, followed, size one message.
      PROGRAM GOPS
      INTEGER ME, NB, IA(1), IO(1), IX(1), IP(1), IW(1)
      REAL SS(1), SH(1), SL(1), SP(1), SW(1)
      LOGICAL LA(1), LO(1), LW(1)
      DOUBLE PRECISION BUF(1000)
      ME = MYNODE()
      SS(1) = REAL(ME + 1)
      CALL GSSUM(SS, 1, SW)
      SH(1) = REAL(ME)
      CALL GSHIGH(SH, 1, SW)
      SL(1) = REAL(ME + 3)
      CALL GSLOW(SL, 1, SW)
      SP(1) = 2.0
      CALL GSPROD(SP, 1, SW)
      IP(1) = 2
      CALL GIPROD(IP, 1, IW)
      IA(1) = ME + 8
      CALL GIAND(IA, 1, IW)
      IO(1) = ME
      CALL GIOR(IO, 1, IW)
      IX(1) = ME + 1
      CALL GIXOR(IX, 1, IW)
      LA(1) = ME .GE. 0
      CALL GLAND(LA, 1, LW)
      LO(1) = ME .EQ. 3
      CALL GLOR(LO, 1, LW)
      NB = INT(SS(1)) + INT(SH(1)) + INT(SL(1)) + INT(SP(1))
     &     + IP(1) + IA(1) + IO(1) + IX(1)
      IF (LA(1) .AND. LO(1)) NB = NB + 1000
      IF (ME .EQ. 0) CALL CSEND(7, BUF, NB, 1, 0)
      IF (ME .EQ. 1) CALL CRECV(7, BUF, NB)
      END
