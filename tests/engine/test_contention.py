"""Link contention (interp/engine/network.py): messages that cross a directed link at the same
time share it by weighted max-min fairness, a flow's weight being its route length (SimGrid's
CM02 weighs by route latency). Times are in microseconds of wire time, worked by hand."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from interp.engine.network import Flow, Network, _max_min, route_links
from interp.system import load_machine

from .helpers import DYNAMIC_PER_BYTE, DYNAMIC_PER_HOP, DYNAMIC_STARTUP, REPO, program, run

L = ("a", "b")  # one directed link
US = 1e-6


def test_two_equal_flows_leaving_together_share_the_link_evenly():
    net = Network()
    assert net.add(1, (L,), 0.0, 300.0) == {1: 300.0}  # alone: its demand
    # together at rate 1/2 each: both need 2·300 us
    assert net.add(2, (L,), 0.0, 300.0) == {1: 600.0, 2: 600.0}


def test_a_later_flow_slows_the_one_on_the_wire():
    net = Network()
    net.add(1, (L,), 0.0, 288.0)
    ends = net.add(2, (L,), 142.0, 288.0)
    # flow 1 alone for 142 us (146 left), then both at 1/2: flow 1 ends 142 + 2·146 = 434;
    # flow 2 has 146 by then, its last 142 at full rate: 434 + 142 = 576
    assert ends[1] == pytest.approx(434.0)
    assert ends[2] == pytest.approx(576.0)


def test_a_longer_route_gets_a_smaller_share():
    net = Network()
    net.add(1, (("x", "a"), L), 0.0, 300.0, weight=2)  # two hops
    ends = net.add(2, (L,), 0.0, 300.0, weight=1)  # one hop
    # level λ with λ/2 + λ/1 = 1: rates 1/3 and 2/3; flow 2 ends 300/(2/3) = 450, when flow 1
    # has 150 done; its other 150 at full rate: 600
    assert ends[2] == pytest.approx(450.0)
    assert ends[1] == pytest.approx(600.0)


def test_flows_on_different_links_do_not_interact():
    net = Network()
    net.add(1, (("a", "b"),), 0.0, 100.0)
    assert net.add(2, (("b", "a"),), 0.0, 100.0) == {2: 100.0}  # the other direction


def test_a_received_message_keeps_its_times_and_later_flows_take_what_is_left():
    net = Network()
    net.add(1, (L,), 0.0, 100.0)
    net.close(1)  # received: its use of the link [0, 100) at rate 1 is final
    assert net.add(2, (L,), 50.0, 100.0) == {2: 200.0}  # waits until 100, then 100 us


def test_crossbar_ports_and_network_links():
    assert route_links([3, 1, 0, 2], crossbar=False) == ((3, 1), (1, 0), (0, 2))
    assert route_links([3, 2], crossbar=True) == (("up", 3), ("down", 2))
    assert route_links([5], crossbar=False) == ()


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.floats(0, 1000), st.floats(1, 500)), min_size=1, max_size=6))
def test_one_link_is_work_conserving(flows):
    """On one link, whatever the sharing, the last flow ends no earlier than all the work
    done back to back from the first start, and each flow no earlier than start + demand."""
    net = Network()
    ends = {}
    for k, (start, demand) in enumerate(flows):
        ends.update(net.add(k, (L,), start, demand))
    for k, (start, demand) in enumerate(flows):
        assert ends[k] >= start + demand - 1e-9
    # the link never carries more than 1: all work fits between the first start and last end
    first = min(s for s, _ in flows)
    assert max(ends.values()) >= first + sum(d for _, d in flows) - 1e-6


LINKS = ("a", "b", "c", "d", "e")


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(st.sets(st.sampled_from(LINKS), min_size=1, max_size=3),
                          st.sampled_from([1.0, 2.0, 3.0])), min_size=1, max_size=8),
       st.fixed_dictionaries({link: st.floats(0.05, 1.0) for link in LINKS}))
def test_rates_are_weighted_max_min_fair(flows, capacity):
    """The definition of weighted max-min fairness, for any flows (among them flows alone on
    their links, which get their rates without the filling): no link carries more than its
    capacity, and every flow has a bottleneck -- a full link on which no flow has a higher
    level (rate x weight)."""
    active = [Flow(k, tuple(sorted(links)), 0.0, 1.0, weight)
              for k, (links, weight) in enumerate(flows)]
    rates = _max_min(active, capacity)
    assert sorted(rates) == [f.key for f in active]
    load = {link: sum(rates[f.key] for f in active if link in f.links) for link in LINKS}
    for link in LINKS:
        assert load[link] <= capacity[link] * (1 + 1e-9)
    for f in active:
        level = rates[f.key] * f.weight
        assert any(load[link] >= capacity[link] * (1 - 1e-9)
                   and all(rates[g.key] * g.weight <= level * (1 + 1e-9)
                           for g in active if link in g.links)
                   for link in f.links), f


def _without_contention(tmp_path: Path):
    text = (REPO / "machine_specs" / "ipsc860.yaml").read_text()
    anchor = "              static_buffer_use: synchronous"
    assert anchor in text
    text = text.replace(anchor, "              contention: none\n" + anchor, 1)
    path = tmp_path / "ipsc860_free.yaml"
    path.write_text(text)
    return load_machine(str(path))


def test_two_senders_into_one_link_on_the_cube(tmp_path):
    """twoin.f, P = 4: node 0 → 2 (route 0-2, weight 1) and node 1 → 2 (route 1-0-2, weight 2)
    leave at the same moment t0 with 1000 bytes (dynamic buffers) and share link 0 → 2."""
    with_links = run(program("twoin.f"), 4)
    free = run(program("twoin.f"), 4, machine=_without_contention(tmp_path))
    wire = 1000 * DYNAMIC_PER_BYTE  # 360 us
    b_start = DYNAMIC_STARTUP + 1 * DYNAMIC_PER_HOP  # 0 → 2: on the wire at t0 + 208 us
    a_start = DYNAMIC_STARTUP + 2 * DYNAMIC_PER_HOP  # 1 → 2: at t0 + 241 us
    b_left = wire - (a_start - b_start)  # 327 us when the second flow joins
    b_end = a_start + b_left / (2 / 3)  # rates 2/3 (one hop) and 1/3 (two hops): 731.5 us
    a_end = b_end + (wire - (b_end - a_start) / 3)  # 928 us
    # node 2 finishes when the later message is in (Receive Ovhd 0); alone it would be a_start + wire
    assert with_links.seconds - free.seconds == pytest.approx(a_end - (a_start + wire), rel=1e-6)
    assert a_end - (a_start + wire) == pytest.approx(327 * US)
    assert any("link contention: 2 messages" in n for n in with_links.notes)
    assert not any("link contention" in n for n in free.notes)


def test_messages_that_never_overlap_are_not_delayed():
    """A ring of csends: each message leaves after the one before arrived."""
    pred = run(REPO / "programs" / "ring" / "ring.f", 4)
    assert not any("link contention" in n for n in pred.notes)
