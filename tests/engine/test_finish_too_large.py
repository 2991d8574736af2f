"""The predicted time is the latest of the processes' ends; when those ends depend on a branch
probability in ways no comparison decides, that Max can pass the formula's size limit like any
other wait. It used to escape as an internal error (FormulaTooLarge, exit 3: NPB EP at class S
or B, P = 256 on the cluster spec); now, as for a wait inside the run, the probability takes
its default value (0.5) and the prediction says so.

Rank ME steps ME times through a loop of three stores (3·STORE = 150 ns beside the IFUN call
and the loop's overhead) and 8 − ME times through the probe IF on data interp does not follow
(with the iPSC/860's Tables 1 and 2: THEN 3·STORE + COND + TAKEN = 200 ns, ELSE STORE +
2·COND + TAKEN = 125 ns, weighted p and 1 − p), so rank ME ends at
c + ME·150 ns + (8 − ME)·(125 ns + p·75 ns): rank 7 ends last for p < 1/3, rank 0 above. Whether rank 0 or rank 7 ends last depends on p: no
comparison of two ranks' ends is decided for every p.
"""

from __future__ import annotations

import pytest
import sympy as sp
from pytest import approx

from interp.engine import predict as predict_mod
from interp.engine import timeval

from .helpers import probe_if, run

SOURCE = """\
      PROGRAM ENDS
      INCLUDE 'mpif.h'
      INTEGER I, K, ME, IERR, IFUN
      DOUBLE PRECISION X, Y, Z
      EXTERNAL IFUN
      CALL MPI_INIT(IERR)
      CALL MPI_COMM_RANK(MPI_COMM_WORLD, ME, IERR)
      DO 10 I = 1, ME
         K = IFUN(I)
         X = 1.0D0
         Y = 2.0D0
         Z = 3.0D0
   10 CONTINUE
      DO 20 I = 1, 8 - ME
         K = IFUN(I)
""" + probe_if("K .GT. 0") + """\
   20 CONTINUE
      CALL MPI_FINALIZE(IERR)
      END
"""
P = "p_ends_f_16"


@pytest.fixture
def path(tmp_path):
    p = tmp_path / "ends.f"
    p.write_text(SOURCE)
    return str(p)


def test_the_ends_cross_in_p(path):
    """Rank 0's end minus rank 7's changes sign between p = 0 and p = 1 (the premise)."""
    at = {p: run(path, 8, {P.upper(): sp.Float(p)}, symbolic=False) for p in (0.0, 1.0)}
    diff = {p: float(pred.processes[0].finish - pred.processes[7].finish) for p, pred in at.items()}
    assert diff[0.0] * diff[1.0] < 0, diff


def test_a_max_of_ends_too_large_takes_the_default(path, monkeypatch):
    """Here the engine decides the crossing by an assumption on p, so the Max stays small: the
    latest end is made to refuse a symbolic Max (as EP's 256 ends did), which is what reaches
    ``predict`` from there."""
    real = predict_mod.latest

    def refusing(values):
        if any(timeval.is_symbolic(v) for v in values):
            raise timeval.FormulaTooLarge({sp.Symbol(P)})
        return real(values)

    monkeypatch.setattr(predict_mod, "latest", refusing)
    pred = run(path, 8)
    numeric = run(path, 8, {P.upper(): sp.Float(0.5)}, symbolic=False)
    assert pred.seconds == approx(numeric.seconds, rel=1e-12)
    assert P not in {s.name for s in pred.total.free_symbols}
    assert any("too many ways" in n and P in n for n in pred.notes), pred.notes
