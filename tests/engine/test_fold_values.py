"""The values a folded loop leaves behind (engine/foldvalues.py).

The steady state adds a communicating loop's later iterations in closed form; the values those
iterations would have assigned stayed as the last interpreted one left them. foldvals.f counts
(NC = NC + 2), flips a phase (IPH = 1 − IPH) and scrambles a value (IX = MOD(3·IX, 7)) in a
ring loop of NSTEP = 1000 steps, then makes an exchange only when NC = 2·NSTEP, another only
when IPH = 0 and a barrier only when IX = 4. By hand, after 1000 steps: NC = 2000; IPH = 0
(even); IX = 3^1000 mod 7 = 4 (3^6 ≡ 1 mod 7, 1000 = 6·166 + 4, 3^4 = 81 ≡ 4). All three run.
Before, the fold jumped after 3 steps and left NC = 6: the first exchange was skipped, 2.2446
for 2.3125 ms (foldcount.f below, cluster spec, P = 4).

Now NC moves on by (m periods)·2, IPH by the parity of m, and IX, which follows no such rule,
is not known after the fold: the decision that reads it makes the interpretation step that
loop to the end instead (``Inputs.unfolded``), with a note.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from interp.engine import foldvalues, steady

from .helpers import load, program, run

FOLDVALS = program("foldvals.f")


def _count_only(tmp_path: Path) -> str:
    """foldvals.f without the barrier on IX (the fold keeps going)."""
    text = Path(FOLDVALS).read_text().replace(
        "      IF (IX .EQ. 4) CALL MPI_BARRIER(MPI_COMM_WORLD, IERR)\n", "")
    out = tmp_path / "foldcount.f"
    out.write_text(text)
    return str(out)


def _predict(files, **kw):
    return run(files, 4, {"NSTEP": 1000}, machine=load("cluster"), **kw)


def _runs(pred, line: int) -> int:
    return sum(r["count"] for r in pred.aau_rows()
               if r["line"] == line and r["type"] in ("Comm", "Sync", "SyncSeq"))


def test_a_by_hand():
    assert pow(3, 1000, 7) == 4 and 1000 % 2 == 0


def test_the_heads_kept_cover_every_period_the_steady_state_jumps_by():
    assert foldvalues.HEADS >= 2 * steady.PERIODS + 1


def test_counter_and_phase_move_on_with_the_fold(tmp_path):
    files = _count_only(tmp_path)
    pred = _predict(files)
    assert any(n.startswith("steady state reached after") for n in pred.notes)
    assert _runs(pred, 24) == 4  # NC = 2000: every rank's exchange (tag 8)
    assert _runs(pred, 28) == 4  # IPH = 0 (tag 9)
    stepped = _predict(files, symbolic=False, extend=False)
    assert pred.seconds == pytest.approx(stepped.seconds, rel=1e-12)


def test_a_value_no_rule_gives_steps_the_loop_to_the_end():
    pred = _predict(FOLDVALS)
    assert _runs(pred, 24) == _runs(pred, 28) == _runs(pred, 32) == 4
    assert any("IX, which they change" in n and n.startswith("line 16:") for n in pred.notes)
    assert not any(n.startswith("steady state reached after") for n in pred.notes)
    stepped = _predict(FOLDVALS, symbolic=False, extend=False)
    assert pred.seconds == pytest.approx(stepped.seconds, rel=1e-12)


def test_through_an_argument_and_an_if_that_only_computes():
    """foldarg.f: IX passed to LATE, whose IF (J .EQ. 4) runs a 100,000-iteration loop (no
    communication under it: it would have become a branch probability). The loop runs on
    every rank, as when every step is interpreted."""
    pred = run(program("foldarg.f"), 4, {}, machine=load("cluster"))
    assert any(n.startswith("line 12:") and "IX, which they change" in n for n in pred.notes)
    inner = next(r for r in pred.aau_rows() if r["line"] == 26 and r["type"] == "IterD")
    assert inner["count"] == 4
    stepped = run(program("foldarg.f"), 4, {}, machine=load("cluster"), symbolic=False,
                  extend=False)
    assert pred.seconds == pytest.approx(stepped.seconds, rel=1e-12)
