C***********************************************************************
C     NX2 -- DUMMY STUBS FOR THE INTEL iPSC/860 NX/2 FORTRAN LIBRARY
C
C     For compile/link checks of the sample programs only.  They act
C     like a one-node cube: MYNODE is 0, NUMNODES is 1, global
C     operations leave their argument unchanged, and message calls do
C     nothing.  Signatures follow NX/2:
C        CSEND(TYPE, BUF, LEN, NODE, PID)   CRECV(TYPESEL, BUF, LEN)
C        ID = ISEND(TYPE, BUF, LEN, NODE, PID)
C        ID = IRECV(TYPESEL, BUF, LEN)      MSGWAIT(ID)
C        GDSUM(X, N, WORK)   GDHIGH(X, N, WORK)   GSYNC()
C        LOAD(NAME, NODE, PID)
C        MYNODE()  NUMNODES()  MYHOST()  MYPID()
C***********************************************************************
      SUBROUTINE CSEND(ITYPE, BUF, LEN, NODE, IPID)
      IMPLICIT NONE
      INTEGER ITYPE, LEN, NODE, IPID
      INTEGER BUF(*)
      RETURN
      END
C
      SUBROUTINE CRECV(ITYPE, BUF, LEN)
      IMPLICIT NONE
      INTEGER ITYPE, LEN
      INTEGER BUF(*)
      RETURN
      END
C
      INTEGER FUNCTION ISEND(ITYPE, BUF, LEN, NODE, IPID)
      IMPLICIT NONE
      INTEGER ITYPE, LEN, NODE, IPID
      INTEGER BUF(*)
      ISEND = 1
      RETURN
      END
C
      INTEGER FUNCTION IRECV(ITYPE, BUF, LEN)
      IMPLICIT NONE
      INTEGER ITYPE, LEN
      INTEGER BUF(*)
      IRECV = 2
      RETURN
      END
C
      SUBROUTINE MSGWAIT(ID)
      IMPLICIT NONE
      INTEGER ID
      RETURN
      END
C
      SUBROUTINE GDSUM(X, N, WORK)
      IMPLICIT NONE
      INTEGER N
      DOUBLE PRECISION X(*), WORK(*)
      RETURN
      END
C
      SUBROUTINE GDHIGH(X, N, WORK)
      IMPLICIT NONE
      INTEGER N
      DOUBLE PRECISION X(*), WORK(*)
      RETURN
      END
C
      SUBROUTINE GSYNC()
      RETURN
      END
C
      SUBROUTINE LOAD(NAME, NODE, IPID)
      IMPLICIT NONE
      CHARACTER*(*) NAME
      INTEGER NODE, IPID
      RETURN
      END
C
      INTEGER FUNCTION MYNODE()
      MYNODE = 0
      RETURN
      END
C
      INTEGER FUNCTION NUMNODES()
      NUMNODES = 1
      RETURN
      END
C
      INTEGER FUNCTION MYHOST()
      MYHOST = -32768
      RETURN
      END
C
      INTEGER FUNCTION MYPID()
      MYPID = 0
      RETURN
      END
