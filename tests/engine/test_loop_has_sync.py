"""Whether a loop communicates is asked of its AAU once (``omega._computing``, kept on the
AAU) instead of walking its sub-AAG at every closed form: the answer is ``has_sync``'s for
every loop, a loop that calls a communicating routine included, and the prediction is the
one a walk at every question gives."""

from __future__ import annotations

from interp.application import aau as A
from interp.application.aag import build_aag
from interp.engine import omega

from .helpers import run

SOURCE = """      PROGRAM LOOPS
      INCLUDE 'mpif.h'
      INTEGER IERR, I, J, ME
      DOUBLE PRECISION X(10), S
      CALL MPI_INIT(IERR)
      CALL MPI_COMM_RANK(MPI_COMM_WORLD, ME, IERR)
      S = 0.D0
      DO 20 J = 1, 3
         DO 10 I = 1, 10
            X(I) = I * 2.D0
            S = S + X(I)
 10      CONTINUE
         CALL SYNC
 20   CONTINUE
      DO 30 I = 1, 4
         CALL SYNC
 30   CONTINUE
      CALL MPI_FINALIZE(IERR)
      END
      SUBROUTINE SYNC
      INCLUDE 'mpif.h'
      INTEGER IERR
      CALL MPI_BARRIER(MPI_COMM_WORLD, IERR)
      END
"""


def _loops(aag) -> list[A.Iter]:
    return [a for u in aag.units.values() for a in u.aaus for a in a.walk()
            if isinstance(a, A.Iter)]


def test_kept_answer_is_has_syncs(tmp_path, monkeypatch):
    src = tmp_path / "loops.f"
    src.write_text(SOURCE)
    kept = run(str(src), 2)
    loops = _loops(build_aag([str(src)]))
    assert len(loops) == 3
    assert sorted(omega._computing(a) for a in loops) == [False, False, True]  # DO 10 only
    assert all(omega._computing(a) is (not a.has_sync()) for a in loops)
    monkeypatch.setattr(omega, "_computing", lambda a: not a.has_sync())  # walked every time
    walked = run(str(src), 2)
    assert str(kept.total) == str(walked.total)
