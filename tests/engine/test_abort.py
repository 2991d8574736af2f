"""MPI_ABORT ends every process of the job where it is called: `check` reports it (kind
"abort", with its location), `predict` gives the time until then and says so. On the size the
program needs, the branch is not taken and the run is clean."""

from __future__ import annotations

from interp.engine.saag import build_saag

from .helpers import aag_of, load, program, run


def test_abort_reached_is_reported_with_its_call():
    saag = build_saag(aag_of(program("abortcheck.f")), load(), 3)
    assert [p.kind for p in saag.problems] == ["abort"]
    assert saag.problems[0].locations[0].line == 11
    assert "rank 0 calls MPI_ABORT" in saag.problems[0].message


def test_abort_not_reached_is_clean():
    assert build_saag(aag_of(program("abortcheck.f")), load(), 4).problems == []


def test_predict_stops_every_process_at_the_abort():
    """Ranks 1 and 2 wait in the barrier, which never completes: they end where they are,
    not in a reported hang; the last to end is rank 0, at its MPI_ABORT."""
    pred = run(program("abortcheck.f"), 3)
    rows = {r["pid"]: float(r["finish"]) for r in pred.process_rows()}
    assert rows[0] == max(rows.values()) == float(pred.seconds)
    assert any("MPI_ABORT" in n for n in pred.notes)
