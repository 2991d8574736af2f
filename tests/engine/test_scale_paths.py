"""Shortcuts taken at large P (docs/scale.md, halo2d and mworker at P = 1024): each gives what
the general path gives.

* ``Network._alone``: a new flow that meets nothing on its links is priced without
  ``_Reprice`` (checked here against ``_Reprice`` on a copy of the same network);
* ``timeval.earliest``: the earliest of many arrivals (an any-source receive), numbers
  compared without ``is_earlier``'s dispatch, the comparisons recorded alike;
* ``Scheduler._addressed``: the pass over the processes with a message in flight to them
  equals the exact mode's pass over every process (tests/engine/test_scale_exact.py:
  the exact mode keeps the full pass).
"""

from __future__ import annotations

import copy

import sympy as sp
from hypothesis import given, settings
from hypothesis import strategies as st

from interp.engine import timeval
from interp.engine.network import Network
from interp.engine.timeval import Lin, earliest, is_earlier, record_comparisons

from .flow_ops import ADD, CLOSE, SHIFT, close


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(["fifo", "fair"]),
       st.lists(st.one_of(ADD, ADD, ADD, CLOSE, SHIFT), min_size=1, max_size=16))
def test_a_flow_alone_is_priced_as_reprice_prices_it(channel, ops):
    """Random flows over four shared links, some received, the network shifted in between
    (a steady-state jump): whenever ``_alone`` prices a new flow, ``_Reprice`` on a copy of
    the network taken before gives the same ends, the same segments for the new flow and
    the same end for every open flow."""
    net = Network(channel)
    for n, op in enumerate(ops):
        if op[0] == "close":
            keys = sorted(net.open)
            if keys:
                net.close(keys[op[1] % len(keys)])
            continue
        if op[0] == "shift":
            net.shift(op[1])
            continue
        _, links, start, demand, weight, sender = op
        links = tuple(sorted(links))
        twin = copy.deepcopy(net)
        twin._alone = lambda flow: None  # the general path only
        got = net.add(n, links, start, demand, weight, sender)
        want = twin.add(n, links, start, demand, weight, sender)
        assert got.keys() == want.keys()
        assert all(close(got[k], want[k]) for k in got)
        new, ref = net.open[n], twin.open[n]
        assert len(new.segments) == len(ref.segments) and all(
            close(a, b) for s, r in zip(new.segments, ref.segments) for a, b in zip(s, r))
        assert all(close(net.open[k].end, f.end) for k, f in twin.open.items()), n


def test_alone_by_hand():
    """Flow 1 on link a from 0 to 300 (its wire time, alone). Flow 2 on a from 500 meets
    nothing: it goes at full rate, 500 + 100 = 600, without ``_Reprice``. Flow 3 on a from
    550 meets flow 2 (open until 600): ``_alone`` declines, and both share a from 550:
    at 1/2 each, flow 2 has 50 left (ends 550 + 2·50 = 650), flow 3 has 100 − 50 = 50 left
    at 650, then alone: 700."""
    net = Network()
    seen = []
    alone = net._alone
    net._alone = lambda flow: seen.append(alone(flow)) or seen[-1]
    assert net.add(1, ("a",), 0.0, 300.0) == {1: 300.0}
    assert net.add(2, ("a",), 500.0, 100.0) == {2: 600.0}
    assert net.open[2].segments == [(500.0, 600.0, 1.0)]
    ends = net.add(3, ("a",), 550.0, 100.0)
    assert close(ends[2], 650.0) and close(ends[3], 700.0)
    assert seen == [{1: 300.0}, {2: 600.0}, None]


_NUMBERS = st.lists(st.floats(-1e3, 1e3, allow_nan=False), min_size=1, max_size=12)


@settings(max_examples=200, deadline=None)
@given(_NUMBERS, st.booleans())
def test_earliest_is_the_chain_of_is_earlier(times, symbolic):
    """The index of the first earliest, and the comparisons recorded, as a chain of
    ``is_earlier`` (each time against the earliest before it) gives them; with a symbol in
    one time the general path is taken, with the same result."""
    if symbolic:
        times = [Lin.of(sp.Symbol("N", positive=True) + t) if i == 0 else Lin.of(t)
                 for i, t in enumerate(times)]
    want_log: list = []
    record_comparisons(want_log)
    best = 0
    for i in range(1, len(times)):
        if is_earlier(times[i], times[best]):
            best = i
    got_log: list = []
    record_comparisons(got_log)
    try:
        got = earliest(times)
    finally:
        record_comparisons(None)
    assert got == best
    assert len(got_log) == len(want_log)
    assert all(g[1] == w[1] and (g[0] == w[0] or timeval.same(g[0], w[0]))
               for g, w in zip(got_log, want_log))


def test_earliest_by_hand():
    """3.0, 1.0, 2.0, 1.0: the first 1.0 (index 1) is the earliest; three comparisons,
    margins 1 − 3 = −2 (earlier), 2 − 1 = 1, 1 − 1 = 0 (not earlier: the first stays)."""
    log: list = []
    record_comparisons(log)
    try:
        assert earliest([3.0, 1.0, 2.0, 1.0]) == 1
    finally:
        record_comparisons(None)
    assert log == [(-2.0, False), (1.0, True), (0.0, True)]
