"""Bounded work: a GO TO or DO WHILE loop is counted by its induction variable, a loop that
never ends is an error naming it, and the step budget stops the rest (issue 15's hangs).

The hangs run in a subprocess with a timeout: before the fix each of them ran for minutes
(still running at 300 s, 1.3-1.7 GB); a timeout there is a failure, not a slow pass.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

CORPUS = Path(__file__).parent / "corpus"
ROOT = Path(__file__).resolve().parents[2]
TIMEOUT = 120  # s: far beyond what any of these takes now, far short of a hang


def interp(*args: str) -> subprocess.CompletedProcess:
    """``interp ARGS`` in a subprocess, killed (a test failure) past TIMEOUT."""
    return subprocess.run([sys.executable, "-m", "interp", *args], cwd=ROOT, capture_output=True,
                          text=True, timeout=TIMEOUT, stdin=subprocess.DEVNULL)


def predicted(*args: str) -> dict:
    done = interp("predict", *args, "--format", "json")
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def executions(pred: dict, line: int) -> float:
    return next(a["count"] for a in pred["aaus"] if a["type"] == "Seq" and a["line"] == line)


def test_goto_loop_counted_by_its_induction_variable_at_a_billion():
    # I = 0; 10 I = I + 1; IF (I .LT. N) GO TO 10: the body runs with I = 1, 2, ..., N and
    # the test after it fails first at I = N: N executions, 10^9 of them without unrolling
    pred = predicted(str(CORPUS / "goto_counted.f"), "--set", "N=1000000000")
    assert executions(pred, 5) == 1_000_000_000
    assert pred["formula_text"].count("N") == 1  # linear in N: a closed form, not a number


def test_counted_goto_loop_costs_what_the_same_count_given_by_hand_costs():
    # --iterations FILE:5=1000 prices the loop as 1000 iterations of its body (the user's
    # count); the induction variable finds the same 1000 for N = 1000
    f = str(CORPUS / "goto_counted.f")
    found = predicted(f, "--set", "N=1000")
    given = predicted(f, "--set", "N=1000", "--iterations", "goto_counted.f:5=1000")
    assert executions(found, 5) == 1000
    assert found["total_seconds"] == pytest.approx(given["total_seconds"], rel=1e-12)


def test_do_while_with_step_three_and_le(tmp_path):
    # I = 1; DO WHILE (I .LE. 10): I = I + 3 -> tests at I = 1, 4, 7, 10 hold, at 13 it fails:
    # 4 executions; then IF (I .EQ. 13) J = 1 is decided on the value the loop leaves
    src = tmp_path / "w.f"
    src.write_text("      PROGRAM W\n      INTEGER I, J\n      I = 1\n      J = 0\n"
                   "      DO WHILE (I .LE. 10)\n         I = I + 3\n      END DO\n"
                   "      IF (I .EQ. 13) THEN\n         J = 1\n      END IF\n      END\n")
    pred = predicted(str(src))
    assert executions(pred, 6) == 4
    assert executions(pred, 9) == 1  # the arm taken: I = 1 + 4 * 3 = 13


def test_do_while_counting_down_with_ge(tmp_path):
    # I = 20; DO WHILE (I .GE. 3): I = I - 5 -> tests at 20, 15, 10, 5 hold, at 0 fails: 4
    src = tmp_path / "d.f"
    src.write_text("      PROGRAM D\n      INTEGER I\n      I = 20\n"
                   "      DO WHILE (I .GE. 3)\n         I = I - 5\n      END DO\n      END\n")
    assert executions(predicted(str(src)), 5) == 4


def test_do_while_that_never_ends_is_an_error_naming_it():
    # I = 0; DO WHILE (I .GE. 0): I = I + 1 -- I only grows, the test always holds
    done = interp("predict", str(CORPUS / "while_forever.f"))
    assert done.returncode == 2
    assert "while_forever.f:4" in done.stderr and "never ends" in done.stderr
    assert "--iterations while_forever.f:4=COUNT" in done.stderr
    assert "Traceback" not in done.stderr


@pytest.mark.parametrize("command", ["predict", "check"])
def test_goto_loop_with_no_way_out_is_an_error_at_once(command):
    # 10 CALL CSEND(...); CALL CRECV(...); GO TO 10 on 2 nodes: nothing in the loop leaves it.
    # Before, it ran to the default step budget (500 000 AAU executions a node: 92 s predict,
    # 46 s check); now the loop is seen to have no way out before it is stepped
    done = interp(command, str(CORPUS / "goto_comm_forever.f"), "-P", "2")
    assert done.returncode == 2, done.stdout + done.stderr
    assert "goto_comm_forever.f:6" in done.stderr and "never ends" in done.stderr
    assert "nothing in it leaves it" in done.stderr
    assert "--iterations goto_comm_forever.f:6=COUNT" in done.stderr


def test_goto_loop_left_by_a_stop_in_a_called_routine_is_stepped():
    # 10 CSEND; CRECV; CALL DONE(K); GO TO 10 where DONE does K = K + 1 and STOPs at K = 5:
    # a way out (the STOP in the callee), so no error: five rounds are interpreted
    pred = predicted(str(CORPUS / "goto_stop_in_callee.f"), "-P", "2")
    assert executions(pred, 14) == 2 * 5  # K = K + 1, five times on each of the 2 nodes


@pytest.mark.parametrize("command", ["predict", "check"])
def test_goto_loop_that_communicates_until_data_says_stops_at_the_step_budget(command):
    # the same ring with IF (X(1) .LT. 0.0) GO TO 20 on data: with its branch probability set
    # to 0 it never leaves; with a budget of 3000 AAU executions a node it stops naming line 6
    done = interp(command, str(CORPUS / "goto_comm_data_exit.f"), "-P", "2", "--max-steps",
                  "3000", "--set", "p_goto_comm_data_exit_f_8=0")
    assert done.returncode == 2, done.stdout + done.stderr
    assert "goto_comm_data_exit.f:6" in done.stderr and "3,000 AAU executions" in done.stderr
    assert "--iterations goto_comm_data_exit.f:6=COUNT" in done.stderr


def test_real_while_loop_stops_at_the_default_step_budget():
    # X = 0.0; DO WHILE (X .GE. 0.0): X = X + 1.0 -- a REAL is no induction variable: it is
    # stepped, and the default budget (1 000 000) stops it
    done = interp("predict", str(CORPUS / "while_real.f"))
    assert done.returncode == 2
    assert "while_real.f:4" in done.stderr and "1,000,000 AAU executions" in done.stderr


def test_given_count_is_used_instead_of_the_budget():
    done = interp("predict", str(CORPUS / "goto_comm_forever.f"), "-P", "2",
                  "--iterations", "goto_comm_forever.f:6=50", "--max-steps", "3000")
    assert done.returncode == 0, done.stderr


def test_do_loop_past_the_budget_is_not_called_endless():
    # a DO loop's count is fixed when it starts (1 to 5000): it does end, so the error must not
    # say it never ends, nor offer --iterations, which predict refuses on a DO loop
    done = interp("predict", str(CORPUS / "do_comm_long.f"), "-P", "2", "--max-steps", "3000")
    assert done.returncode == 2, done.stdout + done.stderr
    assert "do_comm_long.f:8" in done.stderr and "3,000 AAU executions" in done.stderr
    assert "never ends" not in done.stderr and "--iterations" not in done.stderr
    assert "--max-steps" in done.stderr
    whole = interp("predict", str(CORPUS / "do_comm_long.f"), "-P", "2")
    assert whole.returncode == 0, whole.stderr
