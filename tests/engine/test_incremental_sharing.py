"""Incremental link sharing (network.py, ``_Reprice``): a new flow re-prices only the flows
whose rates it changes. The exact mode's reference re-simulates every open flow connected to
it through shared links (``Network(incremental=False)``); both must give the same ends."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from interp.engine.network import Network
from interp.engine.sync import GlobalSync
from interp.system import load_machine

from .flow_ops import ADD, CLOSE, close


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(["fifo", "fair"]), st.lists(st.one_of(ADD, ADD, ADD, CLOSE),
                                                  min_size=1, max_size=16))
def test_incremental_sharing_gives_the_reference_ends(channel, ops):
    """Random flows over four shared links, arriving at random times in any order (as ranks'
    clocks are), some received (closed) in between: every add reports the same ends, and
    every open flow ends at the same time, as the whole-component reference."""
    fast, ref = Network(channel), Network(channel, incremental=False)
    for n, op in enumerate(ops):
        if op[0] == "close":
            keys = sorted(ref.open)
            if keys:
                key = keys[op[1] % len(keys)]
                fast.close(key)
                ref.close(key)
            continue
        _, links, start, demand, weight, sender = op
        links = tuple(sorted(links))
        got = fast.add(n, links, start, demand, weight, sender)
        want = ref.add(n, links, start, demand, weight, sender)
        assert got.keys() == want.keys() or all(
            close(got.get(k, fast.open[k].end), want.get(k, ref.open[k].end))
            for k in got.keys() | want.keys())
        assert all(close(fast.open[k].end, f.end) for k, f in ref.open.items()), n


def test_one_link_two_flows_by_hand():
    """Flow 1 (300 us of wire time) alone on the link from 0; flow 2 (100 us) joins at 100.
    From 100 both at 1/2: flow 1 has 200 left, flow 2 100; flow 2 ends 100 + 2·100 = 300,
    flow 1 has 200 − 100 = 100 left, alone again: 300 + 100 = 400 (the link never idles:
    0 + 300 + 100 = 400). Both ways of pricing give it."""
    for incremental in (True, False):
        net = Network(incremental=incremental)
        assert net.add(1, (("a", "b"),), 0.0, 300.0) == {1: 300.0}
        assert net.add(2, (("a", "b"),), 100.0, 100.0) == {1: pytest.approx(400.0),
                                                           2: pytest.approx(300.0)}


def test_a_flow_elsewhere_is_not_re_priced():
    """Flows 1 and 2 share link a; flow 3 on link c touches neither: flow 2's arrival changes
    flow 1 only, and flow 3 keeps the segments it had (the same list, not re-simulated)."""
    net = Network()
    net.add(1, ("a",), 0.0, 100.0)
    net.add(3, ("c",), 0.0, 100.0)
    segments = net.open[3].segments
    assert net.add(2, ("a",), 0.0, 100.0) == {1: 200.0, 2: 200.0}
    assert net.open[3].segments is segments


def test_the_exact_mode_prices_by_the_reference():
    """``exact=True`` reaches the network: the slow path is the whole-component reference,
    so tests/engine/test_scale_exact.py compares the incremental sharing with it."""
    sag = load_machine("cluster")
    assert GlobalSync(sag, 4, "mid", exact=True).msgs.network.incremental is False
    assert GlobalSync(sag, 4, "mid").msgs.network.incremental is True


def test_a_flow_after_an_ended_one_goes_alone():
    """Flow 1 (100 us) on link a from 0 ends at 100 and stays open (not received yet); flow 2
    (50 us) starts at 150: nothing on a is on the wire then, so it goes at full rate,
    150 + 50 = 200, and flow 1 is not re-priced. Flow 3 (40 us, weight 2, a route twice as
    long) starts at 180, while flow 2 has 200 − 180 = 20 us left: equal levels (rate × weight)
    give flow 2 2/3 and flow 3 1/3 of the link; flow 2 ends at 180 + 20 / (2/3) = 210, flow 3
    has sent 30 · 1/3 = 10 of its 40 and goes alone from there: 210 + 30 = 240. Both ways of
    pricing give it."""
    for incremental in (True, False):
        net = Network(incremental=incremental)
        assert net.add(1, ("a",), 0.0, 100.0) == {1: 100.0}
        assert net.add(2, ("a",), 150.0, 50.0) == {2: 200.0}
        assert net.open[2].segments == [(150.0, 200.0, 1.0)]
        assert net.add(3, ("a",), 180.0, 40.0, weight=2.0) == {2: pytest.approx(210.0),
                                                                 3: pytest.approx(240.0)}
