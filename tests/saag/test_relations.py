"""The three relations of the core paper's §3.3.1, built by the Level 2 parse.

* ⇔ (``sync``): Comm/SyncSeq AAUs that communicate with synchronization — csend/crecv,
  MPI_SEND/MPI_RECV;
* ⇒ (``async``): Comm AAUs that communicate without synchronization — isend/irecv + msgwait,
  MPI_ISEND/MPI_IRECV + MPI_WAIT;
* ⇐ (``collective``): Sync/SyncSeq AAUs that synchronize — gsync, gdsum, MPI_BARRIER,
  MPI_ALLREDUCE.

Every edge is pinned to (process, AAU id) at both ends, AAU ids taken from
``interp graph --format json`` by source line.
"""

from __future__ import annotations

import networkx as nx
import pytest

from .helpers import aau_at, edges, pairs, problems, prog, saag

# ---- ⇔: csend / crecv ---------------------------------------------------------------------------


def test_csend_crecv_is_a_sync_edge_per_pair_with_size_and_type():
    f = prog("nx_sync.f")
    s = saag(f, 2)
    assert problems(s) == []
    assert {e["kind"] for e in edges(s)} == {"sync"}
    assert pairs(s) == {
        ("node 0", aau_at(f, f, 6), "node 1", aau_at(f, f, 9), "80", 10),
        ("node 0", aau_at(f, f, 7), "node 1", aau_at(f, f, 10), "32", 20),
    }
    assert all(e["pattern"] == "point-to-point" and e["count"] == 1 for e in edges(s))


def test_nodes_without_a_part_add_no_edges():
    """nx_sync on P = 4: nodes 2 and 3 take no branch, so the edges are those of P = 2."""
    f = prog("nx_sync.f")
    assert pairs(saag(f, 4)) == pairs(saag(f, 2))
    assert problems(saag(f, 4)) == []


def test_type_selector_minus_one_takes_any_type_in_arrival_order():
    """crecv(-1, ...) takes the oldest message whatever its type; crecv(44, ...) passes over an
    older type-33 message, which the following crecv(-1, ...) then takes."""
    f = prog("nx_anytype.f")
    s = saag(f, 3)
    assert problems(s) == []
    assert pairs(s) == {
        ("node 0", aau_at(f, f, 6), "node 1", aau_at(f, f, 11), "16", 33),
        ("node 0", aau_at(f, f, 7), "node 1", aau_at(f, f, 12), "24", 44),
        ("node 0", aau_at(f, f, 9), "node 2", aau_at(f, f, 14), "24", 44),
        ("node 0", aau_at(f, f, 8), "node 2", aau_at(f, f, 15), "16", 33),
    }


def test_two_messages_of_one_type_from_one_sender_arrive_in_send_order():
    """Per-pair FIFO: the 8-byte message (sent first) goes to the first crecv, the 24-byte one
    to the second."""
    f = prog("nx_fifo.f")
    s = saag(f, 2)
    assert problems(s) == []
    assert pairs(s) == {
        ("node 0", aau_at(f, f, 6), "node 1", aau_at(f, f, 9), "8", 5),
        ("node 0", aau_at(f, f, 7), "node 1", aau_at(f, f, 10), "24", 5),
    }


@pytest.mark.parametrize("nprocs", [2, 4, 8])
def test_csend_to_minus_one_reaches_every_other_node_once(nprocs):
    """A node broadcast: each other node's crecv gets exactly one edge from node 0's csend
    (sent directly or relayed by the logarithmic algorithm), and every one of these edges is
    part of the broadcast."""
    f = prog("nx_bcast.f")
    s = saag(f, nprocs)
    assert problems(s) == []
    send, recv = aau_at(f, f, 6), aau_at(f, f, 8)
    got = edges(s)
    assert sorted(e["dst"] for e in got) == sorted(f"node {k}" for k in range(1, nprocs))
    for e in got:
        assert (e["src_aau"], e["dst_aau"], e["size"], e["tag"], e["kind"]) == \
            (send, recv, "8", 30, "sync"), e
        assert e["src"] == "node 0" or e["src"].endswith("(relaying for node 0)"), e
    assert {e["pattern"] for e in got} == {"broadcast"}, [
        (e["src"], e["dst"], e["pattern"]) for e in got]


# ---- ⇔: MPI_SEND / MPI_RECV, MPI_ANY_SOURCE, MPI_ANY_TAG ------------------------------------------


def test_mpi_send_recv_is_sync_and_isend_irecv_is_async():
    f = prog("mpi_p2p.f")
    s = saag(f, 2)
    assert problems(s) == []
    assert pairs(s, "sync") == {("rank 0", aau_at(f, f, 10), "rank 1", aau_at(f, f, 16), "80", 11)}
    # MPI_ISEND of 5 doubles into an MPI_IRECV of 10: 40 bytes, tag 12, edge to the IRECV's AAU
    assert pairs(s, "async") == {("rank 0", aau_at(f, f, 12), "rank 1", aau_at(f, f, 18), "40", 12)}
    assert len(edges(s)) == 2


@pytest.mark.parametrize("nprocs", [2, 4, 8])
def test_mpi_any_source_takes_one_message_from_every_rank(nprocs):
    f = prog("mpi_anysrc.f")
    s = saag(f, nprocs)
    assert problems(s) == []
    recv_any, recv_anytag = aau_at(f, f, 10), aau_at(f, f, 13)
    send3, send77 = aau_at(f, f, 16), aau_at(f, f, 17)
    expected = {(f"rank {k}", send3, "rank 0", recv_any, "4", 3) for k in range(1, nprocs)}
    expected.add(("rank 1", send77, "rank 0", recv_anytag, "4", 77))  # MPI_ANY_TAG from rank 1
    assert pairs(s) == expected
    assert all(e["kind"] == "sync" and e["count"] == 1 for e in edges(s))


# ---- ⇒: isend / irecv + msgwait -------------------------------------------------------------------


def test_isend_irecv_msgwait_is_an_async_edge_between_the_isend_and_the_irecv():
    f = prog("nx_async.f")
    s = saag(f, 2)
    assert problems(s) == []
    assert pairs(s) == {("node 0", aau_at(f, f, 6), "node 1", aau_at(f, f, 9), "128", 40)}
    assert edges(s)[0]["kind"] == "async"


def test_async_exchange_in_both_directions_counts_every_swap():
    f = prog("async_pairs.f")
    s = saag(f, 4)
    assert problems(s) == []
    snd, rcv = aau_at(f, f, 16), aau_at(f, f, 15)
    assert pairs(s) == {(f"node {a}", snd, f"node {a ^ 1}", rcv, "256", 60) for a in range(4)}
    assert {(e["kind"], e["count"]) for e in edges(s)} == {("async", 5)}


# ---- ⇐: gsync, gdsum, MPI_BARRIER, MPI_ALLREDUCE ------------------------------------------------


def _collective_edges(s, aau: int) -> list[dict]:
    return [e for e in edges(s) if e["kind"] == "collective" and e["src_aau"] == aau]


def _assert_synchronizes_everyone(s, aau: int, nprocs: int, size: str, pattern: str, label: str):
    got = _collective_edges(s, aau)
    assert got, "no ⇐ edges"
    graph = nx.Graph()
    graph.add_nodes_from(f"{label} {k}" for k in range(nprocs))
    for e in got:
        assert (e["dst_aau"], e["size"], e["tag"], e["pattern"]) == (aau, size, None, pattern), e
        assert e["src"] != e["dst"], e
        graph.add_edge(e["src"], e["dst"])
    assert set(graph.nodes) == {f"{label} {k}" for k in range(nprocs)}, sorted(graph.nodes)
    assert nx.is_connected(graph), sorted(graph.edges)


@pytest.mark.parametrize("nprocs", [2, 4, 8])
def test_gdsum_synchronizes_every_node(nprocs):
    f = prog("halo1d.f")  # gdsum(RES, 1, WORK) at line 30, once per step
    s = saag(f, nprocs)
    assert problems(s) == []
    _assert_synchronizes_everyone(s, aau_at(f, f, 30), nprocs, "8", "global operation", "node")


@pytest.mark.parametrize("nprocs", [2, 4])
def test_gsync_and_gdsum_of_three_doubles(nprocs):
    f = prog("nx_coll.f")
    s = saag(f, nprocs)
    assert problems(s) == []
    _assert_synchronizes_everyone(s, aau_at(f, f, 3), nprocs, "0", "barrier", "node")
    _assert_synchronizes_everyone(s, aau_at(f, f, 4), nprocs, "24", "global operation", "node")


@pytest.mark.parametrize("nprocs", [2, 4])
def test_mpi_barrier_and_allreduce(nprocs):
    f = prog("mpi_coll.f")
    s = saag(f, nprocs)
    assert problems(s) == []
    _assert_synchronizes_everyone(s, aau_at(f, f, 6), nprocs, "0", "barrier", "rank")
    _assert_synchronizes_everyone(s, aau_at(f, f, 8), nprocs, "4", "global operation", "rank")


def test_a_collective_on_one_node_has_no_edges_and_no_problem():
    s = saag(prog("halo1d.f"), 1)
    assert edges(s) == [] and problems(s) == []


# ---- edges whose partner depends on a loop index -------------------------------------------------


@pytest.mark.parametrize("nprocs", [2, 4, 8, 16])
def test_butterfly_partners_follow_the_loop_index(nprocs):
    """Stage K pairs ME with IEOR(ME, 2**K) with type 50+K: one send/receive AAU pair, a
    different partner in every iteration."""
    f = prog("butterfly.f")
    s = saag(f, nprocs)
    assert problems(s) == []
    snd, rcv = aau_at(f, f, 19), aau_at(f, f, 20)
    logp = nprocs.bit_length() - 1
    assert pairs(s) == {(f"node {a}", snd, f"node {a ^ (1 << k)}", rcv, "8", 50 + k)
                        for a in range(nprocs) for k in range(logp)}
    assert {e["count"] for e in edges(s)} == {1}


@pytest.mark.parametrize("nprocs", [2, 4, 16])
def test_ring_laps_one_edge_per_neighbour_counted_per_lap(nprocs):
    f = prog("ring_laps.f")
    s = saag(f, nprocs)
    assert problems(s) == []
    send0, recv0, recv, send = (aau_at(f, f, n) for n in (17, 18, 20, 22))
    expected = set()
    for a in range(nprocs):
        b = (a + 1) % nprocs
        expected.add((f"node {a}", send0 if a == 0 else send, f"node {b}",
                      recv0 if b == 0 else recv, "12", 21))
    assert pairs(s) == expected
    assert {e["count"] for e in edges(s)} == {6}  # NLAPS
