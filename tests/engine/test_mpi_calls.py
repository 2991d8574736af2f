"""MPI calls beyond send/recv: MPI_SENDRECV (an eager send, then a receive), MPI_WAITALL over
a request array, requests as array elements, MPI_PROC_NULL partners (the call does nothing).
Computation is switched off, so the times are the messages' alone (Table 3, dynamic class:
a 1000-byte message is over the 100-byte static buffers)."""

from __future__ import annotations

import pytest
import sympy as sp

from interp.engine.saag import build_saag
from interp.system.simgrid import zero_computation

from .helpers import DYNAMIC_PER_BYTE, DYNAMIC_PER_HOP, DYNAMIC_STARTUP, RECEIVE, aag_of, load, program, run

MSG = 1000 * DYNAMIC_PER_BYTE  # 360 us on the wire


def test_sendrecv_shift_with_proc_null_ends():
    """P = 4: ranks 0..2 send right, ranks 1..3 receive from the left. Each eager send costs
    the sender its startup, 175 us; the message arrives startup + wire + per_hop·hops after it
    left. Rank 0 receives from MPI_PROC_NULL (nothing) and is done after its send; rank 3
    sends to MPI_PROC_NULL (nothing) and waits for rank 2's message, 2 -> 3 one hop."""
    pred = run(program("shift_sr.f"), 4, machine=zero_computation(load()))
    finish = {r["pid"]: float(r["finish"]) for r in pred.process_rows()}
    one_hop = DYNAMIC_STARTUP + MSG + 1 * DYNAMIC_PER_HOP + RECEIVE  # 568 us
    two_hops = DYNAMIC_STARTUP + MSG + 2 * DYNAMIC_PER_HOP + RECEIVE  # 601 us: 1 -> 2 is 1-0-2
    assert finish[0] == pytest.approx(DYNAMIC_STARTUP, rel=1e-9)
    assert finish[1] == pytest.approx(one_hop, rel=1e-9)  # from rank 0 over link 0-1
    assert finish[2] == pytest.approx(two_hops, rel=1e-9)  # from rank 1 over 1-0-2
    assert finish[3] == pytest.approx(one_hop, rel=1e-9)  # from rank 2 over 2-3


def test_sendrecv_edges_and_proc_null_make_no_messages():
    saag = build_saag(aag_of(program("shift_sr.f")), load(), 4)
    assert saag.problems == []
    assert sorted((e.src, e.dst) for e in saag.edges) == [
        ("rank 0", "rank 1"), ("rank 1", "rank 2"), ("rank 2", "rank 3")]


def test_waitall_on_request_array_elements():
    """P = 2, both ranks: irecv (free), isend (startup 175 us), then MPI_WAITALL: the receive
    completes when the partner's message is in (175 + 360 + 33 us), the send is long done."""
    pred = run(program("reqarray.f"), 2, machine=zero_computation(load()))
    expected = DYNAMIC_STARTUP + MSG + DYNAMIC_PER_HOP + RECEIVE  # 568 us
    assert pred.seconds == pytest.approx(expected, rel=1e-9)
    assert expected == pytest.approx(568e-6)


def test_allreduce_result_lands_in_recvbuf_and_is_followed():
    """ISUM = 0 + 1 + 2 + 3 = 6 on P = 4: rank 0 sends 6 messages to rank 1 (the loop bound is
    the reduced value; the contribution IVAL keeps its own value)."""
    saag = build_saag(aag_of(program("allreduce_value.f")), load(), 4)
    assert saag.problems == []
    p2p = [e for e in saag.edges if e.kind == "sync"]
    assert [(e.src, e.dst, int(e.count)) for e in p2p] == [("rank 0", "rank 1", 6)]


def test_gather_family_is_communication_with_a_stated_approximation():
    """MPI_GATHER/SCATTER/ALLGATHER/ALLTOALL: collective messages (not a ~1 us library call),
    and the output says how they are priced."""
    saag = build_saag(aag_of(program("gatherfamily.f")), load(), 4)
    assert saag.problems == []
    assert {e.kind for e in saag.edges} == {"collective"}
    pred = run(program("gatherfamily.f"), 4, machine=zero_computation(load()))
    # at least one 80-byte static message (startup 70 us + 80·0.42 us + 11 us) per operation
    assert pred.seconds > 4 * (70e-6 + 80 * 0.42e-6 + 11e-6)
    assert any("MPI_GATHER is priced" in n for n in pred.notes)


def test_sendrecv_replace_one_buffer_both_ways():
    """MPI_SENDRECV_REPLACE (one buffer, sent then overwritten) is MPI_SENDRECV with the
    receive's buffer, count and type the send's; it was 'an MPI routine interp does not
    model'. P = 4, periodic shift right of 1000 bytes: rank k waits for rank k−1's message,
    0 -> 1 and 2 -> 3 one hop, 3 -> 0 (11 -> 00) and 1 -> 2 (01 -> 10) two. The received
    word is followed: rank 0 then sends 3 messages of 4 bytes to rank 1 (static buffers)."""
    saag = build_saag(aag_of(program("shift_replace.f")), load(), 4)
    assert saag.problems == []
    p2p = sorted((e.src, e.dst, int(e.count)) for e in saag.edges if e.kind == "sync")
    assert ("rank 0", "rank 1", 3) in p2p
    pred = run(program("shift_replace.f"), 4, machine=zero_computation(load()))
    finish = {r["pid"]: float(r["finish"]) for r in pred.process_rows()}
    one_hop = DYNAMIC_STARTUP + MSG + 1 * DYNAMIC_PER_HOP + RECEIVE  # 568 us
    two_hops = DYNAMIC_STARTUP + MSG + 2 * DYNAMIC_PER_HOP + RECEIVE  # 601 us
    assert finish[2] == pytest.approx(two_hops, rel=1e-9)
    assert finish[3] == pytest.approx(one_hop, rel=1e-9)
    # rank 0: its shift (two hops from rank 3), then 3 eager sends of 4 bytes, 70 us each
    # (Table 3's static startup: a message of at most 100 bytes)
    assert finish[0] == pytest.approx(two_hops + 3 * 70e-6, rel=1e-9)


def test_a_set_value_of_an_unfollowed_scalar_travels_in_its_message():
    """``--set NH=100`` fills NH, which interp does not follow (a split in place on data):
    the count message carries 100, so rank 1's NR is 100 and its receive takes 400 bytes.
    The message carried the unfollowed value ('the value of NR is not known'), so --set had
    to name every receiver's variable too (a hypercube quicksort's NR)."""
    saag = build_saag(aag_of(program("sent_count.f")), load(), 2, {"NH": sp.Integer(100)})
    assert saag.problems == []
    sizes = sorted(int(e.size) for e in saag.edges if e.kind == "sync")
    assert sizes == [4, 4 * 100]


def test_a_broadcast_root_spends_its_sends_startups_as_call_overhead(tmp_path):
    """MPI_BCAST of 1000 doubles (8000 bytes, dynamic buffers) from rank 0, P = 2, eager:
    the root is busy for its one send's startup, 175 us, and waits for nobody; it was all
    'waiting' (for the last member to enter). Rank 1 receives at 175 + 8000 · 0.36 + 33 =
    3088 us, all of it in the message (no send of its own)."""
    path = tmp_path / "bc.f"
    path.write_text("""\
      PROGRAM BC
      INCLUDE 'mpif.h'
      DOUBLE PRECISION BUF(1000)
      CALL MPI_INIT(IERR)
      CALL MPI_BCAST(BUF, 1000, MPI_DOUBLE_PRECISION, 0, MPI_COMM_WORLD,
     &               IERR)
      CALL MPI_FINALIZE(IERR)
      END
""")
    pred = run(str(path), 2, machine=zero_computation(load()))
    rows = {r["pid"]: r for r in pred.process_rows()}
    assert float(rows[0]["call"]) == pytest.approx(DYNAMIC_STARTUP, rel=1e-9)
    assert float(rows[0]["waiting"]) == pytest.approx(0.0, abs=1e-15)
    assert float(rows[0]["finish"]) == pytest.approx(DYNAMIC_STARTUP, rel=1e-9)
    one_hop = DYNAMIC_STARTUP + 8000 * DYNAMIC_PER_BYTE + DYNAMIC_PER_HOP + RECEIVE
    assert one_hop == pytest.approx(3088e-6)
    assert float(rows[1]["finish"]) == pytest.approx(one_hop, rel=1e-9)
    assert float(rows[1]["call"]) == pytest.approx(0.0, abs=1e-15)
