"""NPB SP's x/y/z pipelines at P = 9 (docs/validation.md "BT and SP at P = 9"): an eager
MPI_ISEND is complete after its startup; a sender that waits for a message already on its way
may still add to its burst; and a message received is not final while another process can
still send a message onto its links before it ends (channel fair, as SMPI shares links).

isend_wake.f, P = 3, iPSC/860 with computation off and channel fair (as validate predicts):
rank 1 sends A (1000 doubles) to rank 0 with MPI_ISEND, waits in MPI_RECV for rank 2's C
(100 doubles), then sends B (1000 doubles) to rank 0 and waits for both sends; rank 0 forwards
D (100 doubles) to rank 2 once it has A. Table 3, dynamic buffers: startup 175 us, per_byte
0.36 us, per_hop 33 us, receive 0. Routes on the cube: 1 -> 0 and 0 -> 2 one hop, 2 -> 1 two
(2 -> 3 -> 1). Times in microseconds; SMPI gives the same ends (704, 5935, 5968)."""

from __future__ import annotations

import pytest

from interp.application.aag import build_aag
from interp.engine.network import EVERYONE, SENDER, Network
from interp.engine.predict import predict
from interp.system import load_machine
from interp.system.simgrid import simgrid_channel, zero_computation

from .helpers import DYNAMIC_PER_BYTE, DYNAMIC_PER_HOP, DYNAMIC_STARTUP, PROGRAMS

US = 1e-6
STARTUP, PER_HOP = DYNAMIC_STARTUP / US, DYNAMIC_PER_HOP / US  # 175, 33
WIRE = 8000 * DYNAMIC_PER_BYTE / US  # A or B alone on a link: 8000 · 0.36 = 2880


def _ends(program: str, nprocs: int) -> dict[int, float]:
    sag = simgrid_channel(zero_computation(load_machine("ipsc860")))
    pred = predict(build_aag([str(PROGRAMS / program)]), sag, nprocs, {})
    return {r["pid"]: float(r["finish"]) / US for r in pred.process_rows()}


@pytest.fixture(scope="module")
def ends():
    return _ends("isend_wake.f", 3)


def test_the_isend_is_complete_after_its_startup(ends):
    """C arrives at 175 + 800 · 0.36 + 2 · 33 = 529; rank 1 sends B then and its MPI_WAITALL
    ends with B's startup: 529 + 175 = 704 (before: at B's arrival, 5968)."""
    c_arrives = STARTUP + 800 * DYNAMIC_PER_BYTE / US + 2 * PER_HOP
    assert c_arrives == pytest.approx(529.0)
    assert ends[1] == pytest.approx(c_arrives + STARTUP)  # 704


def test_a_message_on_its_way_to_the_sender_keeps_its_burst_open(ends):
    """A is on the link from 175 + 33 = 208; B from 529 + 175 + 33 = 737, while A has
    2880 − (737 − 208) = 2351 left: both at 1/2, A ends 737 + 2 · 2351 = 5439, B has 529 left
    then and ends at 5968 (208 + 2 · 2880: the link never idles). Rank 2 has D when A is in
    plus a message of 800 B over one hop: 5439 + 175 + 288 + 33 = 5935. Before, A was final
    when rank 0 asked for it (rank 1 then waited in MPI_RECV, so "could send nothing more"),
    ending alone at 208 + 2880 = 3088 and rank 2 at 3584."""
    a_on, b_on = STARTUP + PER_HOP, 529.0 + STARTUP + PER_HOP  # 208, 737
    a_left = WIRE - (b_on - a_on)  # 2351
    a_in = b_on + 2 * a_left
    assert a_in == pytest.approx(5439.0)
    assert ends[2] == pytest.approx(a_in + STARTUP + 800 * DYNAMIC_PER_BYTE / US + PER_HOP)
    assert ends[0] == pytest.approx(a_on + 2 * WIRE)  # 5968: B's arrival


def test_a_message_of_another_sender_joining_its_link_keeps_it_open():
    """cross_wake.f, P = 4: rank 2 sends A (8000 B) to rank 0 over the link 2 -> 0, on it
    from 175 + 33 = 208; rank 1's C (800 B, 1 -> 3) reaches rank 3 at 175 + 288 + 33 = 496,
    and rank 3 sends B (8000 B) to rank 0 through 3 -> 2 -> 0: on the wire at
    496 + 175 + 2 · 33 = 737. A has 2880 − 529 = 2351 left; max-min weighted by route
    length (CM02: a flow's share is inverse to its latency) gives A (1 hop) 2/3 of the link
    and B (2 hops) 1/3: A ends at 737 + 2351 · 3/2 = 4263.5. Rank 0 then sends D (800 B) to
    rank 1 over one hop: rank 1 ends at 4263.5 + 496 = 4759.5 (SMPI: 4759). B has had
    3526.5 / 3 = 1175.5 and ends alone 1704.5 later, at 5968. Before, A was final as soon
    as rank 0 asked for it (its sender had finished): 208 + 2880 = 3088, rank 1 at 3584."""
    ends = _ends("cross_wake.f", 4)
    c_in = STARTUP + 800 * DYNAMIC_PER_BYTE / US + PER_HOP  # 496
    a_on, b_on = STARTUP + PER_HOP, c_in + STARTUP + 2 * PER_HOP  # 208, 737
    a_in = b_on + (WIRE - (b_on - a_on)) * 3 / 2
    assert a_in == pytest.approx(4263.5)
    assert ends[1] == pytest.approx(a_in + c_in)  # 4759.5
    assert ends[0] == pytest.approx(a_on + 2 * WIRE)  # 5968: the link never idles


def test_a_flow_joining_a_final_flow_of_another_sender_asks_for_everyone():
    """The network says which deferring a run needed: a later flow of the same sender on a
    final flow's link, SENDER; of another sender, EVERYONE (docs/validation.md)."""
    link = (2, 0)
    net = Network("fair", defer=0)
    net.add(1, (link,), 208e-6, 2880e-6, sender=2)
    assert net.settle_one(1, {}.get) and net.needs == 0  # final at once, nothing joined
    net.add(2, ((3, 2), link), 737e-6, 2880e-6, sender=3)
    assert net.crossed and net.needs == EVERYONE
    own = Network("fair", defer=0)
    own.add(1, (link,), 208e-6, 2880e-6, sender=2)
    own.settle_one(1, {}.get)
    own.add(2, (link,), 737e-6, 2880e-6, sender=2)
    assert own.needs == SENDER and not own.crossed
    fifo = Network("fifo")  # fifo keeps its rule: final at once, later flows share what is left
    fifo.add(1, (link,), 208e-6, 2880e-6, sender=2)
    fifo.settle_one(1, {}.get)
    fifo.add(2, ((3, 2), link), 737e-6, 2880e-6, sender=3)
    assert fifo.needs == 0
