"""What a receive tells the program about its message: NX/2's infonode()/infotype()/
infocount() and MPI's STATUS(MPI_SOURCE)/STATUS(MPI_TAG). A program that answers whoever
wrote to it depends on them; before they were followed such programs could not be predicted
("depends on run-time data")."""

from __future__ import annotations

import pytest

from interp.engine.saag import build_saag

from interp.system.simgrid import zero_computation

from .helpers import STATIC_PER_BYTE, STATIC_PER_HOP, STATIC_STARTUP, aag_of, load, program, run


@pytest.mark.parametrize("name, first, answers", [
    ("answer.f", "node", "node"),
    ("answer_mpi.f", "rank", "rank"),
])
def test_the_answer_goes_to_the_sender_of_each_message(name, first, answers):
    saag = build_saag(aag_of(program(name)), load(), 4)
    assert saag.problems == []
    replies = sorted(e.dst for e in saag.edges if e.src == f"{first} 0")
    assert replies == [f"{answers} 1", f"{answers} 2", f"{answers} 3"]
    # the answers carry the tag the request had, plus one in the MPI program
    assert {e.tag for e in saag.edges if e.src == f"{first} 0"} == {6}


def test_answers_follow_arrival_order_and_time():
    """Computation off. A 4-byte csend is static: startup + per_byte·4 + per_hop·hops (Table 3),
    the sender busy until it is through; Receive Ovhd 0. Requests reach node 0 at 82.68 us
    (nodes 1 and 2: one hop) and 93.68 us (node 3: 3 -> 2 -> 0); node 0 answers in arrival
    order, each answer taking the same time again."""
    pred = run(program("answer.f"), 4, machine=zero_computation(load()))
    one_hop = STATIC_STARTUP + 4 * STATIC_PER_BYTE + 1 * STATIC_PER_HOP  # 82.68 us
    two_hops = STATIC_STARTUP + 4 * STATIC_PER_BYTE + 2 * STATIC_PER_HOP  # 93.68 us
    finish = {r["pid"]: float(r["finish"]) for r in pred.process_rows()}
    assert finish[1] == pytest.approx(one_hop + one_hop, rel=1e-9)  # 165.36 us
    assert finish[2] == pytest.approx(one_hop + 2 * one_hop, rel=1e-9)  # 248.04 us
    assert finish[3] == pytest.approx(3 * one_hop + two_hops, rel=1e-9)  # 341.72 us
    assert pred.seconds == pytest.approx(341.72e-6, rel=1e-9)
