"""A DO WHILE or GO TO loop whose condition reads run-time data interp does not follow — the
ordinary convergence loop ``IF (DIFF .GT. TOL .AND. IT .LT. MAXIT) GO TO 100`` with DIFF
from a reduction — used to be an error ("the condition of the loop at line 24: the value of
DIFF is not known … give the variable's value with --set"). Its condition is now decided by
its followed parts where they settle it (the counter) and otherwise by the loop's branch
probability ``p_<file>_<line>`` (the condition's line), by error diffusion:

* a condition with a followed conjunct (``… .AND. IT .LT. 10``) defaults to 1: the data
  lets the loop go on and the counter ends it, as a counted DO loop's early-exit test;
* a condition on data alone defaults to 0: the loop leaves at its first test;
* ``--set p_…=q`` makes it run 1/(1 − q) times (error diffusion takes the stop outcome,
  probability 1 − q, first at the 1/(1 − q)-th test): q = 0.75 → 4 iterations.

Each iteration costs the same (the loop overhead, IT = IT + 1, DIFF = R(IT), the test), so
T(10 iterations) − T(4) = 2·(T(4) − T(1)): 6 and 3 iterations more.
"""

from __future__ import annotations

import sympy as sp
from click.testing import CliRunner
from pytest import approx

from interp.cli import main

from .helpers import run

LOOP = """\
      PROGRAM CONVRG
      DOUBLE PRECISION R(10), DIFF
      EXTERNAL FILL
      CALL FILL(R)
      IT = 0
  100 CONTINUE
      IT = IT + 1
      DIFF = R(IT)
      IF ({cond}) GO TO 100
      END
"""


def _path(tmp_path, cond: str) -> str:
    p = tmp_path / f"{abs(hash(cond))}" / "conv.f"  # a folder per source: aag_of caches by path
    p.parent.mkdir(exist_ok=True)
    p.write_text(LOOP.format(cond=cond))
    return str(p)


def _body_runs(pred) -> int:
    return int(next(r["count"] for r in pred.aau_rows() if r["type"] == "Seq" and r["line"] == 7))


def test_a_counter_bounds_it_and_the_loop_runs_its_full_count(tmp_path):
    pred = run(_path(tmp_path, "DIFF .GT. 1.0D-6 .AND. IT .LT. 10"), 1)
    assert _body_runs(pred) == 10
    s = pred.data["p_conv_f_9"]
    assert s.default == 1.0 and "full count" in s.what


def test_set_makes_it_leave_after_1_over_1_minus_q_tests(tmp_path):
    path = _path(tmp_path, "DIFF .GT. 1.0D-6 .AND. IT .LT. 10")
    full = run(path, 1)
    q75 = run(path, 1, {"P_CONV_F_9": sp.Float(0.75)})
    q0 = run(path, 1, {"P_CONV_F_9": sp.Float(0)})
    assert (_body_runs(q75), _body_runs(q0)) == (4, 1)
    assert full.seconds - q75.seconds == approx(2 * (q75.seconds - q0.seconds), rel=1e-9)


def test_data_alone_defaults_to_leaving_at_the_first_test(tmp_path):
    pred = run(_path(tmp_path, "DIFF .GT. 1.0D-6"), 1)
    assert _body_runs(pred) == 1
    assert pred.data["p_conv_f_9"].default == 0.0
    assert _body_runs(run(_path(tmp_path, "DIFF .GT. 1.0D-6"), 1,
                          {"P_CONV_F_9": sp.Float(0.9)})) == 10


def test_a_followed_disjunct_settles_the_test_alone(tmp_path):
    """``.OR. IT .LT. 3``: the first two tests go on whatever the data; the third is the
    data's (default 0: stop)."""
    assert _body_runs(run(_path(tmp_path, "DIFF .GT. 1.0D-6 .OR. IT .LT. 3"), 1)) == 3
    assert _body_runs(run(_path(tmp_path, ".NOT. (DIFF .LE. 1.0D-6) .AND. IT .LT. 5"), 1)) == 5


def test_do_while_on_data_and_the_cli(tmp_path):
    p = tmp_path / "dw.f"
    p.write_text("""\
      PROGRAM DW
      DOUBLE PRECISION R(10), DIFF
      EXTERNAL FILL
      CALL FILL(R)
      IT = 0
      DIFF = 1.0D0
      DO WHILE (DIFF .GT. 1.0D-6 .AND. IT .LT. 7)
         IT = IT + 1
         DIFF = R(IT)
      END DO
      END
""")
    out = CliRunner().invoke(main, ["predict", str(p), "-P", "1"])
    assert out.exit_code == 0, out.output
    text = " ".join(out.output.split())
    assert "p_dw_f_7 = 1 (default)" in text and "decides the test of the loop at dw.f:7" in text
    body = next(r for r in run(str(p), 1).aau_rows() if r["type"] == "Seq" and r["line"] == 8)
    assert body["count"] == 7


def test_a_loop_polling_msgdone_is_not_guessed(tmp_path):
    """``10 IF (.NOT. MSGDONE(ID)) GO TO 10`` stands for the wait of the message: a branch
    probability would skip it (p = 0: no wait at all). It was an error; it is now followed,
    poll by poll, until the message is there (tests/engine/test_msgdone_poll.py), not guessed.
    Hand-worked (iPSC/860, mid, 25 ns a clock): node 1 takes the ELSE (two conditions 50 ns,
    taken 25 ns, mynode() 536.15 ns) and sends 40 B (static: 70 + 40·0.42 + 11 = 97.8 us):
    they are there at 98,411.15 ns. Node 0 takes the IF (586.15 ns), IRECV costs nothing, the
    loop 187.5 ns fixed, each test 275 ns + ID fetched 25 ns + MSGDONE 5,000 ns + .NOT.
    25 ns = 5,325 ns: test k ends at 773.65 + 5,325·k ns, the first at or past the arrival is
    k = 19 (97,637.5 / 5,325 = 18.3): node 0 ends at 773.65 + 101,175 = 101,948.65 ns."""
    p = tmp_path / "poll.f"
    p.write_text("""\
      PROGRAM POLL
      REAL B(10)
      LOGICAL MSGDONE
      IF (MYNODE() .EQ. 0) THEN
         ID = IRECV(7, B, 40)
   10    IF (.NOT. MSGDONE(ID)) GO TO 10
      ELSE
         CALL CSEND(7, B, 40, 0, 0)
      END IF
      END
""")
    assert run(str(p), 2).seconds == approx(101.94865e-6, rel=1e-9)


def test_a_function_interp_cannot_compute_is_not_guessed(tmp_path):
    """A value interp cannot compute from the source (here a FUNCTION the program does not
    define) is not data a branch probability may stand for: the loop stays an error. ISHFT, which a hypercube code's dimension count uses, is
    computed: NDIM = 3 on P = 8 (the body runs three times)."""
    p = tmp_path / "dims.f"
    p.write_text("""\
      PROGRAM DIMS
      NP = NUMNODES()
      NDIM = 0
    5 IF (ISHFT(1, NDIM) .LT. NP) THEN
         NDIM = NDIM + 1
         GO TO 5
      END IF
   10 IF (NEXTW(NDIM) .GT. NDIM) GO TO 10
      END
""")
    out = CliRunner().invoke(main, ["predict", str(p), "-P", "8"])
    assert out.exit_code == 2, out.output
    assert "NEXTW() is not known before run time" in " ".join(out.output.split())
    q = tmp_path / "dims2.f"
    q.write_text(p.read_text().replace("   10 IF (NEXTW(NDIM) .GT. NDIM) GO TO 10\n", ""))
    body = next(r for r in run(str(q), 8).aau_rows() if r["type"] == "Seq" and r["line"] == 5)
    assert body["count"] == 3 * 8  # three times on each of the 8 nodes
