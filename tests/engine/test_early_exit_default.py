"""An IF on data whose arm leaves a counted DO loop early (a convergence test: GO TO past the
loop's end) must be decided while the loop is stepped. It used to be an error ("decides whether
to leave its loop or routine on values interp does not follow"). Its branch probability
``p_early_f_8`` now defaults to 0 — the loop runs its full count — is named with that reason,
and --set changes it: the IF is decided by error diffusion (p = 1: the first test leaves;
p = 0.5: the second).

Hand arithmetic (iPSC/860 Tables 1 and 2): one iteration of the DO (no step) costs
NOSTEP_ITER + STORE (X = 1.0D0) + the IF falling through, COND + FETCH (R(I)) + ADD (the
comparison) = 275 + 50 + 75 = 400 ns; the IF whose arm is taken costs TAKEN = 25 ns more. So
T(p=0) − T(p=1) = 9 · 400 ns − 25 ns = 3575 ns, and T(p=0.5) − T(p=1) = 400 ns.
"""

from __future__ import annotations

import json

import sympy as sp
from click.testing import CliRunner
from pytest import approx

from interp.cli import main

from .helpers import ADD, COND, FETCH, NOSTEP_ITER, STORE, TAKEN, run

SOURCE = """\
      PROGRAM EARLY
      INTEGER I
      DOUBLE PRECISION R(10), X
      EXTERNAL FILL
      CALL FILL(R)
      DO 10 I = 1, 10
         X = 1.0D0
         IF (R(I) .LT. 0.0D0) GO TO 900
   10 CONTINUE
  900 CONTINUE
      END
"""
ITER = NOSTEP_ITER + STORE + COND + FETCH + ADD


def _path(tmp_path) -> str:
    p = tmp_path / "early.f"
    p.write_text(SOURCE)
    return str(p)


def _body_runs(pred) -> int:
    return int(next(r["count"] for r in pred.aau_rows() if r["type"] == "Seq" and r["line"] == 7))


def test_the_hand_arithmetic():
    assert ITER == approx(400e-9) and TAKEN == approx(25e-9)


def test_the_early_exit_defaults_to_0_and_the_loop_runs_its_full_count(tmp_path):
    pred = run(_path(tmp_path), 1)
    s = pred.data["p_early_f_8"]
    assert s.default == 0.0
    assert "leaves the DO I loop (line 6) early" in s.what and "full count" in s.what
    assert _body_runs(pred) == 10


def test_set_makes_it_leave_and_the_times_follow(tmp_path):
    path = _path(tmp_path)
    t0 = run(path, 1).seconds
    p1 = run(path, 1, {"P_EARLY_F_8": sp.Float(1)})
    half = run(path, 1, {"P_EARLY_F_8": sp.Float(0.5)})
    assert (_body_runs(p1), _body_runs(half)) == (1, 2)
    assert t0 - p1.seconds == approx(9 * ITER - TAKEN)
    assert half.seconds - p1.seconds == approx(ITER)


def test_predict_names_it_and_notes_its_number(tmp_path):
    path = _path(tmp_path)
    out = CliRunner().invoke(main, ["predict", path, "-P", "1"])
    assert out.exit_code == 0, out.output
    assert "p_early_f_8 = 0 (default)" in out.output
    assert "the formula has its number" in " ".join(out.output.split())
    out = CliRunner().invoke(main, ["predict", path, "-P", "1", "--format", "json",
                                    "--set", "p_early_f_8=1"])
    rows = json.loads(out.output)["data_dependent"]
    assert [(r["name"], r["default"], r["value"]) for r in rows] == [("p_early_f_8", 0.0, 1.0)]
