"""Whether link sharing delays a message at the inputs given, answered without a numeric run
where the symbolic run's flows show it cannot (``MessageModel.apart_at``).

A symbolic prediction leaves the link sharing of messages whose times are symbols unpriced;
it used to interpret the program once more with numbers every time, to see whether link
sharing delays any message there (then the inputs those times depend on are used with their
values). Now the flows' times are evaluated at the inputs given: when no two flows on a link,
and no two of one sender, are on the wire at once, the numeric run would price every flow
alone, and it is not made. The old path is ``predict(..., apart=False)``; the predictions
must be the same either way.

burstloop.f: rank 1 sends rank 0 an 8000-byte eager message after N additions, NITER
times. On the iPSC/860 spec the message takes 8000 × 0.36 us = 2.9 ms on the wire
(DYNAMIC_PER_BYTE, helpers.py), while N = 1 addition takes well under a microsecond: each
message leaves while the one before is still on the wire, and the sender's queue (channel
fifo) delays it. With N = 100000 additions (100000 × (add + loop step) ≈ 37 ms at mid
costs) each has the link to itself. The steady state jumps over most of the NITER
iterations, so the check must stand for the iterations no run interprets.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from interp import api
from interp.engine import predict as engine
from interp.engine.messages import _apart, _copies

from .helpers import DYNAMIC_PER_BYTE, program

ROOT = program("x").rsplit("/tests/", 1)[0]
TRAPEZOID = [f"{ROOT}/programs/trapezoid/host.f", f"{ROOT}/programs/trapezoid/node.f"]

# (files, machine, P, inputs, proven: no numeric run is needed, shared: the numeric run
# finds messages sharing links; None: no message's link sharing was left unpriced)
CASES = [
    (TRAPEZOID, "ipsc860", 16, {"N": 10**6, "NITER": 10}, True, False),
    ([f"{ROOT}/programs/halo/halo.f"], "ipsc860", 4, {}, True, False),
    ([f"{ROOT}/programs/halo/halo.f"], "cluster", 4, {}, True, False),
    # (its ranks shift apart from one iteration to the next: no proof, the run is made)
    ([f"{ROOT}/programs/mpi_trapezoid/trap_mpi.f"], "cluster", 8, {"N": 10**5, "NITER": 5},
     False, False),
    ([f"{ROOT}/programs/ring/ring.f"], "ipsc860", 4, {}, None, None),
    ([program("twoindata.f")], "ipsc860", 4, {"p_twoindata_f_14": 0.5}, False, True),
    ([program("burstloop.f")], "ipsc860", 2, {"N": 1, "NITER": 50}, False, True),
    ([program("burstloop.f")], "ipsc860", 2, {"N": 100000, "NITER": 50}, True, False),
    ([program("burstloop.f")], "cluster", 2, {"N": 1, "NITER": 50}, True, False),
    # NITER = 2 breaks what the symbolic run assumed of NITER (its jump): its flows are not
    # the numeric run's, no proof; the run is made
    ([program("burstloop.f")], "ipsc860", 2, {"N": 100000, "NITER": 2}, False, False),
]


_NUMERIC_RUN = engine._contended


def _predict(files, machine, nprocs, inputs, apart, monkeypatch):
    """The prediction, and how many numeric runs it made to decide link sharing."""
    runs = []

    def counted(*args, **kw):
        got = _NUMERIC_RUN(*args, **kw)
        runs.append(got[0])  # (delayed, the run)
        return got

    monkeypatch.setattr(engine, "_contended", counted)
    s = api.setup(files, machine, nprocs, inputs)
    pred = engine.predict(s.aag, s.sag, s.nprocs, dict(s.given), apart=apart)
    return pred, runs


@pytest.mark.parametrize("files, machine, nprocs, inputs, proven, shared", CASES)
def test_the_prediction_is_the_one_the_numeric_run_gives(files, machine, nprocs, inputs,
                                                         proven, shared, monkeypatch):
    """Formula, number and notes are those of the old path (a numeric run every time)."""
    new, new_runs = _predict(files, machine, nprocs, inputs, True, monkeypatch)
    old, old_runs = _predict(files, machine, nprocs, inputs, False, monkeypatch)
    assert (new.total, new.seconds, new.notes) == (old.total, old.seconds, old.notes)
    if proven is None:
        assert old_runs == new_runs == []
        return
    assert old_runs == [shared]
    assert new_runs == ([] if proven else [shared])
    assert any("which messages share links depends on" in n for n in new.notes) == shared


def test_burstloops_messages_overlap_only_with_few_additions():
    """The case split of burstloop.f, from the spec's numbers: 8000 bytes at 0.36 us a byte
    is 2.88 ms on the wire, the other end's gap between two sends."""
    wire = 8000 * DYNAMIC_PER_BYTE
    assert wire == pytest.approx(2.88e-3)
    s = api.setup([program("burstloop.f")], "ipsc860", 2, {"N": 1, "NITER": 50})
    pred = engine.predict(s.aag, s.sag, 2, dict(s.given), symbolic=False)
    assert pred.scheduler.msgs.delayed()  # a send every few microseconds: they queue
    assert pred.seconds > 50 * wire
    s = api.setup([program("burstloop.f")], "ipsc860", 2, {"N": 100000, "NITER": 50})
    pred = engine.predict(s.aag, s.sag, 2, dict(s.given), symbolic=False)
    assert not pred.scheduler.msgs.delayed()


# ---- the jump's copies: the ones checked stand for all of them ----

_time = st.integers(0, 60).map(float)
_flow = st.tuples(st.sampled_from([("a",), ("b",), ("a", "b")]), _time, st.integers(1, 30))


def _flows(raw):
    return [(keys, a, a + w) for keys, a, w in raw]


@settings(max_examples=300, deadline=None)
@given(st.lists(_flow, max_size=4), st.lists(_flow, min_size=1, max_size=4),
       st.lists(_flow, max_size=3), st.integers(1, 40), st.integers(1, 12))
def test_the_copies_checked_decide_as_all_copies(before, period, after, d, m):
    """A jump of m periods of d seconds stands for m shifted copies of the period's flows;
    ``_copies`` keeps only those near the flows before and after the jump and within one
    period's span of each other. On integer times (no round-off), the flows are apart with
    those copies exactly when they are apart with all m of them."""
    before = _flows(before)
    period = [(keys, a + 100, b + 100) for keys, a, b in _flows(period)]
    end = 100 + (m + 1) * d
    after = [(keys, a + end, b + end) for keys, a, b in _flows(after)]
    flows = before + period + after
    since, until = len(before), len(before) + len(period)
    some = _copies(flows, since, until, float(d), float(m))
    every = [(keys, a + k * d, b + k * d) for k in range(1, m + 1) for keys, a, b in period]
    assert _apart(flows + some) == _apart(flows + every)


def test_no_bound_without_a_positive_period():
    """A period of no time (or one not a number at the inputs) bounds nothing: no proof."""
    flows = [(("a",), 0.0, 1.0)]
    assert _copies(flows, 0, 1, 0.0, 5.0) is None
    assert _copies(flows, 0, 1, None, 5.0) is None
    assert _copies(flows, 0, 1, 2.0, None) is None


def test_the_numeric_run_is_the_prediction_when_every_input_gets_its_value(monkeypatch):
    """burstloop.f, N = 1 (sends every few microseconds, each 2.88 ms on the wire: they
    queue): link sharing delays messages at the inputs given, so every input the messages'
    times depend on (N, NITER) takes its value. Nothing symbolic is left, and the run again
    with those values would be the numeric run just made: it is used, two interpretations in
    all, not three, with the number of a purely numeric prediction."""
    s = api.setup([program("burstloop.f")], "ipsc860", 2, {"N": 1, "NITER": 50})
    numeric = engine.predict(s.aag, s.sag, 2, dict(s.given), symbolic=False)
    runs = []
    interpret = engine.interpret

    def counted(*args, **kw):
        runs.append(args[3].numeric)
        return interpret(*args, **kw)

    monkeypatch.setattr(engine, "interpret", counted)
    pred = engine.predict(s.aag, s.sag, 2, dict(s.given))
    assert runs == [False, True]  # the symbolic run, the numeric one; no third
    assert pred.total.is_number and not pred.total.free_symbols
    assert pred.seconds == pytest.approx(numeric.seconds, rel=1e-12)
    assert pred.seconds > 50 * 8000 * DYNAMIC_PER_BYTE  # the queue: 50 messages end to end
    assert any("which messages share links depends on N, NITER" in n for n in pred.notes)


def test_a_traced_prediction_is_interpreted_again_with_the_values():
    """The numeric run that found the delays records no trace: a prediction asked for one
    is interpreted a third time, with the values, tracing (its messages are there)."""
    s = api.setup([program("burstloop.f")], "ipsc860", 2, {"N": 1, "NITER": 50})
    pred = engine.predict(s.aag, s.sag, 2, dict(s.given), trace=True)
    assert pred.scheduler.trace
    assert not pred.total.free_symbols
