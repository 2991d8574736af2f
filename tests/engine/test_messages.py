"""Point-to-point messages, a token ring, broadcasts and global operations, worked by hand.

The message model is the paper's Figure 11: the sender's δ is startup + transmission, where
transmission = per_byte·size + per_hop·hops; the message arrives at τ_send + startup +
transmission; the receiver ends at max(τ_recv, arrival) + receive overhead (0 s on the iPSC).
Synchronous messages of at most 100 bytes use Table 3's static-buffer row, larger ones the
dynamic row. Hops on the hypercube are popcount(src XOR dst) (e-cube routing).

The little computation in the test programs is accounted for explicitly:

* ``ME = MYNODE()``: one mynode() call and one store (ME is a scalar reused within the cache
  window, so the store hits).
* ``IF (ME .EQ. k)``: one condition tested (the comparison itself is the condition overhead)
  plus the fetch of its operand ME; the branch-taken overhead when it is taken. An ELSE counts
  as one more condition tested (Algorithm 3).
"""

from __future__ import annotations

import pytest

from .helpers import (
    ADD, CLK, COND, DYNAMIC_PER_BYTE, DYNAMIC_PER_HOP, DYNAMIC_STARTUP, FETCH, MYNODE, NOSTEP_FIXED,
    NOSTEP_ITER, REL, STATIC_PER_BYTE, STATIC_PER_HOP, STATIC_STARTUP, STORE, SYNC_OVERHEAD, TAKEN,
    at, dynamic_msg, formula_at, program, rows_by_pid, run, static_msg,
)

PRELUDE = MYNODE + STORE  # ME = MYNODE()
IF_TAKEN = COND + TAKEN + FETCH  # IF (ME .EQ. k) on node k
IF_NOT_TAKEN = COND + FETCH  # IF (ME .EQ. k) elsewhere (no ELSE)


def approx(x):
    return pytest.approx(x, rel=REL)


# ---- 1. csend/crecv, node 0 -> node 3 on P = 4 (2 hops) -----------------------------------


class TestSendReceive:
    def test_1000_bytes_over_two_hops(self):
        pred = run(program("sendrecv.f"), 4)
        rows = rows_by_pid(pred)
        # node 0: ME = MYNODE(); IF (ME.EQ.0) taken -> CSEND at tau0
        tau0 = PRELUDE + IF_TAKEN
        message = 175e-6 + 1000 * 0.36e-6 + 2 * 33e-6  # dynamic: 1000 > 100 bytes
        assert message == approx(dynamic_msg(1000, 2))
        arrival = tau0 + message
        # node 3: first IF not taken, second taken, then waits for the message
        tau3 = PRELUDE + IF_NOT_TAKEN + IF_TAKEN
        assert arrival > tau3
        assert at(pred, rows[3]["finish"]) == approx(arrival + 0.0)  # receive overhead 0 s
        assert at(pred, rows[3]["waiting"]) == approx(arrival - tau3)
        assert at(pred, rows[3]["computation"]) == approx(tau3)
        # node 0 is done with the message when it arrives, then tests IF (ME .EQ. 3)
        assert at(pred, rows[0]["call"]) == approx(175e-6)
        assert at(pred, rows[0]["transmission"]) == approx(1000 * 0.36e-6 + 2 * 33e-6)
        assert at(pred, rows[0]["finish"]) == approx(arrival + IF_NOT_TAKEN)
        # nodes 1 and 2 only compute
        for k in (1, 2):
            assert at(pred, rows[k]["finish"]) == approx(PRELUDE + 2 * IF_NOT_TAKEN)
        assert pred.seconds == approx(arrival + IF_NOT_TAKEN)

    @pytest.mark.parametrize("symbolic", [True, False])
    @pytest.mark.parametrize("nbytes, message", [
        (100, 70e-6 + 100 * 0.42e-6 + 2 * 11e-6),  # at the static-buffer size: static
        (101, 175e-6 + 101 * 0.36e-6 + 2 * 33e-6),  # one byte more: dynamic
        (1000, 175e-6 + 1000 * 0.36e-6 + 2 * 33e-6),
        (1, 70e-6 + 1 * 0.42e-6 + 2 * 11e-6),
    ])
    def test_buffer_class_threshold(self, nbytes, message, symbolic):
        pred = run(program("sendrecvn.f"), 4, {"NBYTES": nbytes}, symbolic=symbolic)
        rows = rows_by_pid(pred)
        arrival = PRELUDE + IF_TAKEN + message
        assert at(pred, rows[3]["finish"]) == approx(arrival)
        assert pred.seconds == approx(arrival + IF_NOT_TAKEN)

    def test_symbolic_size_is_one_formula_for_both_classes(self):
        """NBYTES not given: the formula is piecewise over the 100-byte threshold."""
        pred = run(program("sendrecvn.f"), 4)
        assert {s.name for s in pred.total.free_symbols} == {"NBYTES"}
        tail = PRELUDE + IF_TAKEN + IF_NOT_TAKEN
        for n in (1, 50, 100):
            assert formula_at(pred.total, NBYTES=n) == approx(
                tail + STATIC_STARTUP + n * STATIC_PER_BYTE + 2 * STATIC_PER_HOP)
        for n in (101, 1000, 65536):
            assert formula_at(pred.total, NBYTES=n) == approx(
                tail + DYNAMIC_STARTUP + n * DYNAMIC_PER_BYTE + 2 * DYNAMIC_PER_HOP)


# ---- 2. token ring on 4 nodes -------------------------------------------------------------


def test_token_ring_four_nodes():
    """0 -> 1 -> 2 -> 3 -> 0, a 4-byte token (static buffers). Hops: 0->1 1, 1->2 2 (01 XOR
    10), 2->3 1, 3->0 2. Nodes 1 and 2 evaluate ME+1 (fetch + add) before they send."""
    pred = run(program("tokenring.f"), 4)
    rows = rows_by_pid(pred)
    # IF / ELSE IF / ELSE on ME: node 0 takes branch 1 (1 condition, 1 fetch), node 3 branch 2
    # (2 conditions, 2 fetches), nodes 1 and 2 the ELSE (3 conditions, 2 fetches).
    tau = {0: PRELUDE + 1 * COND + TAKEN + 1 * FETCH,
           3: PRELUDE + 2 * COND + TAKEN + 2 * FETCH,
           1: PRELUDE + 3 * COND + TAKEN + 2 * FETCH,
           2: PRELUDE + 3 * COND + TAKEN + 2 * FETCH}
    dest_me_plus_1 = FETCH + ADD
    a1 = tau[0] + (70e-6 + 4 * 0.42e-6 + 1 * 11e-6)  # 0 -> 1 arrives at node 1
    assert a1 > tau[1]
    a2 = a1 + dest_me_plus_1 + (70e-6 + 4 * 0.42e-6 + 2 * 11e-6)  # 1 -> 2
    a3 = a2 + dest_me_plus_1 + (70e-6 + 4 * 0.42e-6 + 1 * 11e-6)  # 2 -> 3
    a0 = a3 + (70e-6 + 4 * 0.42e-6 + 2 * 11e-6)  # 3 -> 0 (destination a literal)
    assert a2 == approx(a1 + FETCH + ADD + static_msg(4, 2))
    assert at(pred, rows[1]["finish"]) == approx(a2)  # a sender is done when its message arrives
    assert at(pred, rows[2]["finish"]) == approx(a3)
    assert at(pred, rows[3]["finish"]) == approx(a0)
    assert at(pred, rows[0]["finish"]) == approx(a0)  # node 0 receives the token back
    assert at(pred, rows[0]["waiting"]) == approx(a0 - a1)  # it waits from its send's end
    assert at(pred, rows[2]["waiting"]) == approx(a2 - tau[2])
    assert at(pred, rows[1]["call"]) == approx(70e-6)
    assert at(pred, rows[1]["transmission"]) == approx(4 * 0.42e-6 + 2 * 11e-6)
    assert pred.seconds == approx(a0)


# ---- broadcast: csend to node -1 ----------------------------------------------------------


def test_node_broadcast_binomial_tree():
    """Node 0 csends 8 bytes to -1 on P = 4: round 0 0->1, round 1 0->2 and 1->3 (one hop
    each). The root sends its messages one after the other; node 1 relays to node 3."""
    pred = run(program("bcast4.f"), 4)
    rows = rows_by_pid(pred)
    m = 70e-6 + 8 * 0.42e-6 + 1 * 11e-6
    tau0 = PRELUDE + IF_TAKEN  # IF (ME .EQ. 0) THEN taken
    arrive = {1: tau0 + m, 2: tau0 + m + m, 3: tau0 + m + m}
    for k, a in arrive.items():
        assert at(pred, rows[k]["finish"]) == approx(a), f"node {k}"
    assert at(pred, rows[0]["finish"]) == approx(tau0 + 2 * m)
    assert pred.seconds == approx(tau0 + 2 * m)


# ---- 3. global operations on 8 nodes: recursive doubling, 3 rounds ------------------------


def test_gdsum_eight_nodes_three_rounds():
    """All nodes enter at τ = 0 (no computation before). Each round every node sends its
    8-byte partial sum one hop (k XOR 2^d), receives the partner's and adds it (1 element:
    one add)."""
    pred = run(program("gdsum8.f"), 8)
    per_round = (70e-6 + 8 * 0.42e-6 + 1 * 11e-6) + 0.0 + 1 * ADD  # message + receive + combine
    expected = 3 * per_round
    assert expected == approx(3 * (84.36e-6 + 25e-9))
    for k, row in rows_by_pid(pred).items():
        assert at(pred, row["finish"]) == approx(expected), f"node {k}"
        assert at(pred, row["waiting"]) == approx(0.0)
    assert pred.seconds == approx(expected)


def test_gdsum_with_a_late_node():
    """Node 5 first runs a 1000-iteration loop. In every round a node sends its partial sum,
    receives its partner's and adds it, so after round d it holds max(own, partner) +
    message + combine. Node 5 is the latest in every round it takes part in (directly or
    through a partner that heard from it), so every node ends at L + 3·(message + combine),
    L being node 5's arrival at GDSUM."""
    pred = run(program("gdsumlate.f"), 8)
    rows = rows_by_pid(pred)
    x_store = STORE  # X = 1.0D0 (a literal: no conversion)
    loop = NOSTEP_FIXED + 1000 * (NOSTEP_ITER + FETCH + ADD + STORE)  # X = X + 1.0D0
    late = PRELUDE + x_store + IF_TAKEN + loop  # node 5
    early = PRELUDE + x_store + IF_NOT_TAKEN  # everyone else
    assert at(pred, rows[5]["computation"]) == approx(late)
    assert at(pred, rows[0]["computation"]) == approx(early)
    per_round = static_msg(8, 1) + 1 * ADD
    expected = late + 3 * per_round
    # waiting: until node 5 comes, less the round-1 send every node makes on entering (its
    # 70 us startup is call overhead, as a point-to-point send's); node 5 waits for nobody.
    # The 3 startups are each node's call overhead; the rest, transmission and combines.
    for k in range(8):
        waited = late - at(pred, rows[k]["computation"]) - (STATIC_STARTUP if k != 5 else 0)
        assert at(pred, rows[k]["waiting"]) == approx(waited)
        assert at(pred, rows[k]["call"]) == approx(3 * STATIC_STARTUP)
    finishes = {k: at(pred, rows[k]["finish"]) for k in range(8)}
    early_by = {k: f"{(expected - f) / CLK:.2f} clk" for k, f in finishes.items()
                if f != approx(expected)}
    assert not early_by, f"nodes that end the GDSUM before L + 3 rounds, and by how much: {early_by}"
    assert pred.seconds == approx(expected)


def test_gsync_eight_nodes():
    """A barrier: per round sync overhead + one static hop (Table 3), 3 rounds on 8 nodes."""
    pred = run(program("gsync8.f"), 8)
    expected = 3 * (67e-6 + 1 * 11e-6)
    assert expected == approx(3 * (SYNC_OVERHEAD + STATIC_PER_HOP))
    for k, row in rows_by_pid(pred).items():
        assert at(pred, row["finish"]) == approx(expected), f"node {k}"
    assert pred.seconds == approx(expected)
