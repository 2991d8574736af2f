"""A loop head cut COLD_CUTS times without a jump there is cut no more (steady.py).

programs/step_print.f sweeps ``DO 20 STAGE = 1, 2`` (a SENDRECV each) inside its 100-step
loop, as BT's and SP's solvers sweep their cells: every stage head is a cut of every rank's
statistics, and a loop of two iterations never folds. Those cuts stop after COLD_CUTS at each
stage place; the time-step loop's own head keeps its cuts and still folds, and the prediction
is the one made with every cut taken (the run that steps every iteration, too)."""

from __future__ import annotations

import collections

import pytest

from interp.engine import steady
from interp.system import load_machine

from .helpers import PROGRAMS, REL, run

STEP_PRINT = PROGRAMS / "step_print.f"


def _cuts(monkeypatch) -> collections.Counter:
    """Snapshots taken, by the line of the loop head the first paused rank is at."""
    taken: collections.Counter = collections.Counter()
    snapshot = steady.SteadyState._snapshot

    def counted(self, live):
        head = next(p.request.aau for p in live if p.state == "paused")
        taken[head.loc.line] += 1
        return snapshot(self, live)
    monkeypatch.setattr(steady.SteadyState, "_snapshot", counted)
    return taken


@pytest.mark.parametrize("machine", ["cluster", "ipsc860"])
def test_a_stage_loop_is_cut_cold_cuts_times_and_the_prediction_stays(machine, monkeypatch):
    spec = load_machine(machine)
    taken = _cuts(monkeypatch)
    cold = run(STEP_PRINT, 4, {}, spec)
    stage_cuts, step_cuts = taken[28], taken[18]  # DO 20 STAGE; DO 30 STEP
    # the STAGE head is one place (at STAGE = 1 and 2 alike): COLD_CUTS snapshots there;
    # without the limit, two for every step interpreted
    assert stage_cuts == steady.COLD_CUTS
    assert step_cuts > 0 and any(n.startswith("steady state reached") for n in cold.notes)
    taken.clear()
    monkeypatch.setattr(steady, "COLD_CUTS", 10**9)
    every = run(STEP_PRINT, 4, {}, spec)
    assert taken[28] > stage_cuts
    assert float(cold.seconds) == pytest.approx(float(every.seconds), rel=REL)
    stepped = run(STEP_PRINT, 4, {}, spec, extend=False, symbolic=False)
    assert float(cold.seconds) == pytest.approx(float(stepped.seconds), rel=REL)
    for p, q in zip(cold.processes, every.processes):
        assert float(p.finish) == pytest.approx(float(q.finish), rel=REL)
