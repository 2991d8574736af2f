"""How one sender's messages in flight share its links, ``cs.spec.channel`` (network.py):
``fifo`` -- they leave one after another in the order sent; ``fair`` -- they share by max-min,
as SimGrid's CM02 does. Worked by hand with the iPSC/860's dynamic-buffer numbers (Table 3):
startup 175 us, per_byte 0.36 us, per_hop 33 us; 256 doubles (2048 B) take
2048 · 0.36 = 737.28 us on a link. Times in microseconds."""

from __future__ import annotations

import pytest

from interp.application.aag import build_aag
from interp.engine.network import SENDER, Network
from interp.engine.predict import predict
from interp.system import channel, load_machine
from interp.system.simgrid import simgrid_channel, zero_computation

from .helpers import DYNAMIC_PER_BYTE, DYNAMIC_PER_HOP, DYNAMIC_STARTUP, PROGRAMS

US = 1e-6
L = (0, 1)  # the link 0 → 1 of the cube
STARTUP, PER_HOP = DYNAMIC_STARTUP / US, DYNAMIC_PER_HOP / US  # 175, 33
WIRE = 2048 * DYNAMIC_PER_BYTE / US  # 737.28
START = STARTUP + 1 * PER_HOP  # 208: a message sent at 0 is on the wire after startup and hop


def test_fifo_two_messages_leaving_together_go_one_after_the_other():
    net = Network("fifo")
    net.add(1, (L,), START, WIRE, sender=0)
    assert net.add(2, (L,), START, WIRE, sender=0) == {2: pytest.approx(START + 2 * WIRE)}
    # 945.28: the first keeps the link alone; 1682.56: the second one full transmission later
    assert net.open[1].end == pytest.approx(START + WIRE)


def test_fair_two_messages_leaving_together_end_together():
    net = Network("fair")
    net.add(1, (L,), START, WIRE, sender=0)
    ends = net.add(2, (L,), START, WIRE, sender=0)
    # each at rate 1/2 all the way: both end at 208 + 2 · 737.28 = 1682.56
    assert ends == {1: pytest.approx(START + 2 * WIRE), 2: pytest.approx(START + 2 * WIRE)}


def test_three_eager_sends_one_startup_apart():
    """MPI_SEND is eager: the sender is free after its startup, so message k leaves 175 us
    after message k-1 and is on the wire at 208 + 175(k-1) = 208, 383, 558."""
    starts = [START + k * STARTUP for k in range(3)]
    fifo, fair = Network("fifo"), Network("fair")
    for k, s in enumerate(starts, 1):
        fifo.add(k, (L,), s, WIRE, sender=0)
        fair.add(k, (L,), s, WIRE, sender=0)
    # fifo: each waits for the one before: 945.28, 1682.56, 2419.84
    assert [fifo.open[k].end for k in (1, 2, 3)] == pytest.approx(
        [START + WIRE, START + 2 * WIRE, START + 3 * WIRE])
    # fair: [208, 383) message 1 alone: 175 done, 562.28 left;
    # [383, 558) two at 1/2: 87.5 each: 474.78 and 649.78 left;
    # from 558 three at 1/3: message 1 ends 558 + 3 · 474.78 = 1982.34, leaving 175 and 262.5;
    # then two at 1/2: message 2 ends 1982.34 + 2 · 175 = 2332.34, message 3 has 87.5 left:
    # 2332.34 + 87.5 = 2419.84 (the link never idles: 208 + 3 · 737.28 either way)
    left1 = WIRE - 175 - 87.5  # 474.78 at 558
    e1 = 558 + 3 * left1
    e2 = e1 + 2 * (WIRE - 87.5 - left1)  # message 2's 175 left, at 1/2
    e3 = e2 + (WIRE - left1 - (e2 - e1) / 2)  # message 3's 87.5 left, alone
    assert (e1, e2, e3) == pytest.approx((1982.34, 2332.34, 2419.84))
    assert [fair.open[k].end for k in (1, 2, 3)] == pytest.approx([e1, e2, e3])


def test_fifo_queues_only_one_senders_messages():
    """Another sender's message on the same link still shares it by max-min: at 1/2 each from
    208, the other sender's message and the head of sender 0's queue both end at
    208 + 2 · 737.28 = 1682.56; sender 0's second message then has the link: 2419.84."""
    net = Network("fifo")
    net.add(1, (L,), START, WIRE, sender=0)
    net.add(2, (L,), START, WIRE, sender=0)
    ends = net.add(3, ((5, 0), L), START, WIRE, sender=5)
    assert ends[1] == pytest.approx(START + 2 * WIRE)
    assert ends[3] == pytest.approx(START + 2 * WIRE)
    assert ends[2] == pytest.approx(START + 3 * WIRE)


def test_an_end_is_final_only_when_no_new_flow_can_reach_it():
    net = Network("fair")
    net.add(1, (L,), START, WIRE, sender=0)
    # its sender can still send at 500 us < 945.28: a message it sends could slow flow 1
    assert not net.settle_one(1, {0: 500.0}.get) and 1 in net.open
    # another process's clock does not hold it (its flows take what flow 1 leaves)
    assert net.settle_one(1, {0: 950.0, 3: 100.0}.get) and 1 not in net.open
    # later flows take what it left: the link is free from 945.28
    assert net.add(2, (L,), 900.0, WIRE, sender=0) == {2: pytest.approx(START + 2 * WIRE)}


@pytest.fixture(scope="module")
def cube():
    return zero_computation(load_machine("ipsc860"))


def _ends(sag, nprocs):
    pred = predict(build_aag([str(PROGRAMS / "burst3.f")]), sag, nprocs, {})
    return pred.seconds / US, [float(r["finish"]) / US for r in pred.process_rows()]


def test_the_specs_default_is_fifo_and_validation_uses_fair(cube):
    assert channel(cube) == "fifo"
    assert channel(simgrid_channel(cube)) == "fair"


def test_burst_through_three_ranks(cube):
    """burst3.f, P = 3: rank 0 sends three 2048-byte messages to rank 1 (link 0 → 1), which
    forwards each to rank 2 (route 1 → 0 → 2: two hops, on the wire 175 + 2 · 33 = 241 us
    after it is sent). Receive Ovhd is 0, computation is off."""
    fwd = STARTUP + 2 * PER_HOP  # 241
    # fifo: rank 1 receives at 945.28, 1682.56, 2419.84 (each after its own send of 175 us is
    # done) and forwards at once; its messages go back to back: the last ends 2419.84 + 241 +
    # 737.28 = 3398.12
    total, ends = _ends(cube, 3)
    assert ends[1] == pytest.approx(START + 3 * WIRE + STARTUP)  # 2594.84
    assert total == pytest.approx(START + 3 * WIRE + fwd + WIRE)  # 3398.12
    # fair: rank 1 receives at 1982.34 and 2332.34 (test above) and forwards at once, then at
    # 2419.84 while still sending until 2332.34 + 175 = 2507.34: its messages are on the wire
    # at 2223.34, 2573.34, 2748.34 and share links 1 → 0 → 2 as rank 0's did: g1 alone 350
    # (387.28 left), two at 1/2 for 175 (299.78, 649.78 left), three at 1/3: g1 ends
    # 2748.34 + 3 · 299.78; g2 has 350 left, ends 2 · 350 later; g3 87.5 after that
    r1 = [1982.34, 2332.34, 2332.34 + STARTUP]
    g = [r + fwd for r in r1]  # 2223.34, 2573.34, 2748.34
    g1 = g[2] + 3 * (WIRE - (g[1] - g[0]) - (g[2] - g[1]) / 2)
    g2 = g1 + 2 * 350
    g3 = g2 + 87.5
    total, ends = _ends(simgrid_channel(cube), 3)
    assert ends[1] == pytest.approx(r1[2] + STARTUP)  # 2682.34
    assert total == pytest.approx(g3)
    assert g3 == pytest.approx(g[0] + 3 * WIRE)  # 4435.18: the links never idle


def test_two_ranks_end_alike_whatever_the_channel(cube):
    """P = 2: the last message ends when the link has carried all three back to back."""
    assert _ends(cube, 2)[0] == pytest.approx(START + 3 * WIRE)  # 2419.84
    assert _ends(simgrid_channel(cube), 2)[0] == pytest.approx(START + 3 * WIRE)


def test_fifo_ends_are_final_at_once():
    """Under fifo a sender's later flows queue behind: nothing can change an end already
    computed by a flow of the same sender, so no flow waits to be received."""
    net = Network("fifo")
    net.add(1, (L,), START, WIRE, sender=0)
    assert net.settle_one(1, {0: 0.0}.get) and 1 not in net.open


def test_fair_without_deferring_detects_a_burst_it_received_too_early():
    """The optimistic fair network receives at once; a later flow of the same sender that
    would have shared the link with a final one marks the run to be repeated, deferring."""
    net = Network("fair", defer=False)
    net.add(1, (L,), START, WIRE, sender=0)
    # final at once, although its sender is free
    assert net.settle_one(1, {0: 0.0}.get) and 1 not in net.open
    net.add(2, (L,), START + WIRE + 1.0, WIRE, sender=0)  # starts after flow 1 ended
    assert not net.violated
    assert net.settle_one(2, {}.get)
    net.add(3, (L,), START + WIRE + 2.0, WIRE, sender=0)  # overlaps flow 2, already final
    assert net.violated


def test_the_burst_is_received_too_early_then_deferred(cube):
    """burst3 through three ranks under fair: the first run receives rank 0's messages at
    once, sees the burst, and is repeated deferring (the hand-worked ends are in
    test_burst_through_three_ranks)."""
    from interp.engine.predict import interpret
    from interp.engine.values import Inputs

    aag = build_aag([str(PROGRAMS / "burst3.f")])
    sched, _, _ = interpret(aag, simgrid_channel(cube), 3, Inputs({}))
    net = sched.msgs.network  # the second run's: it deferred, and needed nothing more
    assert net.defer == SENDER and net.needs == 0
    # a ring's messages never overlap one sender's: received at once, no second run
    ring = build_aag([str(PROGRAMS.parents[2] / "programs" / "ring" / "ring.f")])
    sched, _, _ = interpret(ring, simgrid_channel(cube), 8, Inputs({}))
    assert not sched.msgs.network.defer


def test_fair_detects_a_burst_that_alternates_partners():
    """The sender's last flow is on another link (0 → 2) than the one a final flow of its
    own is still on (0 → 1): the run must be repeated too. It used to check the last flow
    alone, so a burst to ranks 1, 2, 1, 2 kept each link's messages one after the other."""
    net = Network("fair", defer=False)
    net.add(1, (L,), START, WIRE, sender=0)
    assert net.settle_one(1, {0: 0.0}.get)
    net.add(2, ((0, 2),), START + STARTUP, WIRE, sender=0)
    net.add(3, (L,), START + 2 * STARTUP, WIRE, sender=0)  # overlaps flow 1, already final
    assert net.violated


def test_burst_alternating_partners(cube):
    """burst2x2.f, P = 4, fair: rank 0's eager sends leave 175 us apart, to 1, 2, 1, 2; on
    the wire at 208, 383, 558, 733. Link 0 → 1: message a1 alone [208, 558) (350 done,
    387.28 left), then two at 1/2: a1 ends 558 + 2 · 387.28 = 1332.56, a2 350 later,
    1682.56 (= 208 + 2 · 737.28). Link 0 → 2 the same 175 later: 1507.56, 1857.56. Rank 1
    forwards at 1332.56 to rank 3 (one hop, 1 → 3): 1332.56 + 208 + 737.28 = 2277.84.
    (Each link's messages one after the other, as before: a1 at 945.28, rank 3 at 1890.56;
    SMPI agrees with the shared times: interp validate on tb_hand-like trees, -34% before.)"""
    pred = predict(build_aag([str(PROGRAMS / "burst2x2.f")]), simgrid_channel(cube), 4, {})
    ends = [float(r["finish"]) / US for r in pred.process_rows()]
    a1 = 558 + 2 * (WIRE - 350)
    assert a1 == pytest.approx(1332.56)
    assert ends[1] == pytest.approx(START + 2 * WIRE)  # 1682.56
    assert ends[2] == pytest.approx(START + STARTUP + 2 * WIRE)  # 1857.56
    assert ends[3] == pytest.approx(a1 + START + WIRE)  # 2277.84
