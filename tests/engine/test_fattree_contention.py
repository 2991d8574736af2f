"""Link sharing on a fat tree: flows share a link only where their destination-mod-k routes
meet. A fat tree of 4-port switches (k = 2) over 8 leaves has 3 levels; ranks 0 and 1 hang on
leaf switch (1, 0, 0), whose up-port is picked by the destination's lowest bit. Times worked
by hand (microseconds of wire time in the Network tests)."""

from __future__ import annotations

import pytest

from interp.engine.network import Network, route_links
from interp.system import load_machine, route
from interp.system.simgrid import zero_computation

from .helpers import program, run

UP = (("sw", 1, 0, 0), ("sw", 2, 0, 0))  # leaf switch of ranks 0, 1 -> its first parent


def tree8():
    return load_machine("cluster").with_values({"core.cs.spec.switch_radix": 4}).with_runtime({"procs": 8})


def links(src, dst):
    return route_links(route(tree8(), src, dst, 8), crossbar=False)


def test_flows_through_one_up_link_share_it():
    # 0 -> 4 and 1 -> 6: 4 and 6 are even, both leave (1, 0, 0) by its first parent
    assert UP in links(0, 4) and UP in links(1, 6)
    assert set(links(0, 4)) & set(links(1, 6)) == {UP}  # and meet nowhere else
    net = Network()
    assert net.add(1, links(0, 4), 0.0, 300.0, weight=6) == {1: 300.0}
    # equal weights (6 links each): rate 1/2 each on the shared link, 2 · 300 us
    assert net.add(2, links(1, 6), 0.0, 300.0, weight=6) == {1: 600.0, 2: 600.0}


def test_flows_on_disjoint_paths_do_not_share():
    # 7 is odd: 1 -> 7 leaves by the second parent and goes down another subtree's switches
    assert not set(links(0, 4)) & set(links(1, 7))
    net = Network()
    net.add(1, links(0, 4), 0.0, 300.0, weight=6)
    assert net.add(2, links(1, 7), 0.0, 300.0, weight=6) == {2: 300.0}


def test_shorter_route_takes_the_larger_share():
    # 0 -> 2 (4 links) and 1 -> 4 (6 links) share UP: level λ with λ/4 + λ/6 = 1, λ = 12/5,
    # rates 3/5 and 2/5; 0 -> 2 ends 300 / (3/5) = 500 us, when 1 -> 4 has 200 done, its last
    # 100 at full rate: 600 us
    assert set(links(0, 2)) & set(links(1, 4)) == {UP}
    net = Network()
    net.add(1, links(0, 2), 0.0, 300.0, weight=4)
    ends = net.add(2, links(1, 4), 0.0, 300.0, weight=6)
    assert ends[1] == pytest.approx(500.0) and ends[2] == pytest.approx(600.0)


def test_the_engine_shares_the_up_link():
    """twoout.f on P = 8: both 1000-byte eager sends leave at the same moment over 6 links.
    Alone each takes 1000 · 0.08 ns = 0.08 us on the wire; sharing the up-link, 0.16 us, so the
    run ends 0.08 us later with D = 6 than with D = 7 (same hops: both 1 -> D cross the core)."""
    sag = zero_computation(tree8())
    shared = run(program("twoout.f"), 8, {"D": 6}, machine=sag)
    apart = run(program("twoout.f"), 8, {"D": 7}, machine=sag)
    assert shared.seconds - apart.seconds == pytest.approx(1000 * 0.08e-9, rel=1e-6)
    assert any("link contention: 2 messages" in n for n in shared.notes)
    assert not any("link contention" in n for n in apart.notes)
