"""MPI_PROBE and MPI_GET_COUNT: a message matched, its status given, left for the receive.

probew.f at P = 3 on the iPSC/860: rank K (1, 2) sends 100·K doubles to rank 0, which takes
them in the order they come: MPI_PROBE(MPI_ANY_SOURCE), MPI_GET_COUNT for the length, then
MPI_RECV from STATUS(MPI_SOURCE). Ranks 1 and 2 are one hop from rank 0 on the cube (Table 3,
messages above 100 bytes): 800 B take 175 + 800 × 0.36 + 33 = 496 us, 1600 B take
175 + 576 + 33 = 784 us, so rank 1's comes first. The probe costs nothing of its own (the
receive after it pays the receive overhead, 0 on the iPSC/860), so rank 0 finishes exactly
when it does in probe_recv.f, which receives from rank 1 and then rank 2 by name.
"""

from __future__ import annotations

import pytest

from interp import api

from .helpers import DYNAMIC_PER_BYTE, DYNAMIC_PER_HOP, DYNAMIC_STARTUP, PROGRAMS, REL

PROBE = str(PROGRAMS / "probew.f")


def _message(nbytes: int, hops: int) -> float:
    return DYNAMIC_STARTUP + nbytes * DYNAMIC_PER_BYTE + hops * DYNAMIC_PER_HOP


def test_the_messages_by_hand():
    assert _message(800, 1) == pytest.approx(496e-6, rel=REL)
    assert _message(1600, 1) == pytest.approx(784e-6, rel=REL)


def test_probe_gives_the_source_and_get_count_the_length():
    pred = api.predict(PROBE, "ipsc860", 3, trace=True)
    taken = sorted((m.src, m.dst, int(m.size), m.arrival - m.depart)
                   for m in pred.scheduler.trace)
    # each taken once, by the receive (the probe leaves it), with its sender's length
    assert [t[:3] for t in taken] == [(1, 0, 800), (2, 0, 1600)]
    assert taken[0][3] == pytest.approx(_message(800, 1), rel=REL)
    assert taken[1][3] == pytest.approx(_message(1600, 1), rel=REL)


def test_probe_then_receive_costs_what_the_receive_alone_does():
    probed = api.predict(PROBE, "ipsc860", 3)
    named = api.predict(str(PROGRAMS / "probe_recv.f"), "ipsc860", 3)
    assert probed.seconds == pytest.approx(named.seconds, rel=1e-12)
    rows = {r["process"]: r for r in probed.process_rows()}
    # rank 0 waits in its probes: the first until rank 1's message is there
    assert rows["rank 0"]["waiting"] > _message(1600, 1) - 50e-6


def test_probe_for_a_message_nobody_sends_is_a_problem_at_the_probe():
    s = api.saag(str(PROGRAMS / "probe_none.f"), "ipsc860", 2)
    assert [p.kind for p in s.problems] == ["unmatched"]
    assert "waits in MPI_PROBE (from rank 1, tag 99)" in s.problems[0].message
    assert [(loc.line, loc.column) for loc in s.problems[0].locations] == [(8, 22)]


@pytest.mark.parametrize("nprocs", [4, 16])
def test_the_rank_classes_give_what_every_rank_interpreted_gives(nprocs):
    """On the cluster spec (the workers' messages share rank 0's port): the fast path equals
    the exact mode (every rank interpreted, no index of the messages in flight)."""
    fast = api.predict(PROBE, "cluster", nprocs)
    exact = api.predict(PROBE, "cluster", nprocs, exact=True)
    assert fast.seconds == pytest.approx(exact.seconds, rel=1e-9)
