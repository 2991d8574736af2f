"""Ordinary NX/2 programs written for these tests (not tuned to the engine): they must check
clean for several P, with the edges a reader of the source expects, and their broken variants
must be caught at the right lines."""

from __future__ import annotations

import pytest

from .helpers import aau_at, cli, cycle_of, edges, loc, pairs, problems, prog, saag, summary

MW = (prog("mw_host.f"), prog("mw_node.f"))
MW_BAD = (prog("mw_host.f"), prog("mw_node_badtype.f"))

CLEAN = [
    ((prog("ring_laps.f"),), [1, 2, 4, 16]),
    ((prog("halo1d.f"),), [1, 2, 3, 4, 16]),
    ((prog("halo2d.f"),), [2, 4, 8, 16]),
    (MW, [1, 2, 4, 16]),
    ((prog("async_pairs.f"),), [1, 2, 3, 4, 16]),
    ((prog("butterfly.f"),), [1, 2, 4, 8, 16]),
    ((prog("pipe2.f"),), [1, 2, 4, 16]),
]


@pytest.mark.parametrize("files, nprocs", [
    pytest.param(files, p, id=f"{files[-1].split('/')[-1]}-P{p}") for files, ps in CLEAN for p in ps])
def test_heldout_program_checks_clean(files, nprocs):
    result = cli("check", *files, "-P", nprocs)
    assert result.exception is None or isinstance(result.exception, SystemExit), \
        repr(result.exception)
    assert result.exit_code == 0, result.output
    assert result.stdout.startswith("ok: "), result.output


# ---- the edges of the clean programs -------------------------------------------------------------


@pytest.mark.parametrize("nprocs", [2, 3, 4])
def test_halo1d_boundary_nodes_skip_their_missing_side(nprocs):
    f = prog("halo1d.f")
    s = saag(f, nprocs)
    right, left, from_left, from_right = (aau_at(f, f, n) for n in (18, 19, 20, 21))
    expected = set()
    for a in range(nprocs - 1):
        expected.add((f"node {a}", right, f"node {a + 1}", from_left, "8", 1))
        expected.add((f"node {a + 1}", left, f"node {a}", from_right, "8", 2))
    assert pairs(s, "sync") == expected
    assert {e["count"] for e in edges(s) if e["kind"] == "sync"} == {8}  # NSTEP


@pytest.mark.parametrize("nprocs", [4, 8])
def test_halo2d_neighbours_on_a_px_by_py_grid(nprocs):
    f = prog("halo2d.f")
    s = saag(f, nprocs)
    px, py = 2, nprocs // 2
    send = {t: aau_at(f, f, n) for t, n in ((11, 28), (12, 29), (13, 30), (14, 31))}
    recv = {t: aau_at(f, f, n) for t, n in ((11, 32), (12, 33), (13, 34), (14, 35))}
    size = {11: "64", 12: "64", 13: "128", 14: "128"}  # 8*NY, 8*NX
    expected = set()
    for me in range(nprocs):
        ix, iy = me % px, me // px
        for tag, ok, other in ((11, ix < px - 1, me + 1), (12, ix > 0, me - 1),
                               (13, iy < py - 1, me + px), (14, iy > 0, me - px)):
            if ok:
                expected.add((f"node {me}", send[tag], f"node {other}", recv[tag], size[tag], tag))
    assert pairs(s, "sync") == expected
    assert {e["count"] for e in edges(s)} == {4}  # NSTEP


@pytest.mark.parametrize("nprocs", [1, 4])
def test_master_worker_results_are_collected_by_type(nprocs):
    host, node = MW
    s = saag(MW, nprocs)
    assert problems(s) == []
    work, result = aau_at(MW, host, 17), aau_at(MW, host, 20)
    got_work, send_result = aau_at(MW, node, 12), aau_at(MW, node, 17)
    expected = set()
    for k in range(nprocs):
        expected.add(("host", work, f"node {k}", got_work, "80", 100))
        expected.add((f"node {k}", send_result, "host", result, "8", 200 + k))
    assert pairs(s) == expected
    assert {e["count"] for e in edges(s)} == {3}  # NROUND


@pytest.mark.parametrize("nprocs", [1, 2, 4])
def test_pipe2_headers_bodies_and_acknowledgements(nprocs):
    f = prog("pipe2.f")
    s = saag(f, nprocs)
    hdr_in, body_in, hdr_out, body_out, ack_out, ack_in = (
        aau_at(f, f, n) for n in (21, 22, 28, 29, 32, 34))
    expected = {(f"node {nprocs - 1}", ack_out, "node 0", ack_in, "8", 3)}
    for a in range(nprocs - 1):
        expected.add((f"node {a}", hdr_out, f"node {a + 1}", hdr_in, "8", 1))
        expected.add((f"node {a}", body_out, f"node {a + 1}", body_in, "512", 2))
    assert pairs(s) == expected
    assert {e["count"] for e in edges(s)} == {7}  # NBLK


# ---- broken variants -------------------------------------------------------------------------------


@pytest.mark.parametrize("nprocs", [2, 4])
def test_ring_with_the_wrong_type_is_a_mismatch_at_both_lines(nprocs):
    """Node 0 waits for type MTYPE+1 (line 16); node NP-1 sends MTYPE (line 20)."""
    f = prog("ring_laps_badtype.f")
    found = problems(saag(f, nprocs))
    assert found[0]["kind"] == "mismatch", summary(saag(f, nprocs))
    assert found[0]["locations"] == [loc(f, 20, 13), loc(f, 16, 13)]
    assert f"node {nprocs - 1}" in found[0]["message"] and "node 0" in found[0]["message"]


@pytest.mark.parametrize("nprocs", [1, 4])
def test_worker_replying_with_the_wrong_type_is_a_mismatch_across_files(nprocs):
    host, node = MW_BAD
    found = problems(saag(MW_BAD, nprocs))
    assert found[0]["kind"] == "mismatch", summary(saag(MW_BAD, nprocs))
    assert found[0]["locations"] == [loc(node, 16, 10), loc(host, 20, 13)]
    # the other workers' replies (types 301, 302, ...) are never received
    unmatched = [p for p in found if p["kind"] == "unmatched" and " sends " in p["message"]]
    assert sorted(p["message"].split(" sends")[0] for p in unmatched) == \
        sorted(f"node {k}" for k in range(1, nprocs))
    assert all(p["locations"] == [loc(node, 16, 10)] for p in unmatched)


def test_workers_waiting_for_a_stuck_host_are_not_a_deadlock_among_themselves():
    """With the wrong reply type the host is stuck in its crecv; the workers then wait for
    work (type 100) that only the host sends. No worker can send type 100, so "node 0 waits
    for node 1 ..." is not a cycle of waits: nothing but the mismatch (and the replies nobody
    takes) should be reported."""
    found = problems(saag(MW_BAD, 4))
    assert [p["kind"] for p in found if p["kind"] == "deadlock"] == [], summary(saag(MW_BAD, 4))


@pytest.mark.parametrize("nprocs", [2, 4])
def test_async_exchange_with_the_wrong_type_is_a_mismatch_per_pair(nprocs):
    """The irecv (line 14) asks for 61, the isend (line 15) sends 60: one mismatch per node,
    naming the isend and the irecv (not the msgwait where the node blocks)."""
    f = prog("async_pairs_badtype.f")
    found = problems(saag(f, nprocs))
    assert [(p["kind"], p["locations"]) for p in found] == \
        [("mismatch", [loc(f, 15, 10), loc(f, 14, 10)])] * nprocs
    assert sorted(p["message"].split(" waits")[0] for p in found) == \
        sorted(f"node {k}" for k in range(nprocs))


@pytest.mark.parametrize("nprocs", [2, 3, 4])
def test_missing_send_on_the_last_node_is_caught_at_the_receive_that_waits(nprocs):
    """The last node never sends its left ghost cell (the guard at line 17 excludes it), so
    node NP-2's crecv of type 2 at line 20 waits for ever. Every type-1 message does have its
    receive (line 19, one step later), so no type mismatch may be reported."""
    f = prog("halo1d_nolast.f")
    found = problems(saag(f, nprocs))
    assert found, "not caught"
    assert any(loc(f, 20, 28) in p["locations"] for p in found), summary(saag(f, nprocs))
    assert [p for p in found if p["kind"] == "mismatch"] == [], summary(saag(f, nprocs))


@pytest.mark.parametrize("nprocs", [2, 4, 8])
def test_butterfly_receiving_before_sending_deadlocks_every_node(nprocs):
    f = prog("butterfly_swapped.f")
    found = problems(saag(f, nprocs))
    assert [p["kind"] for p in found] == ["deadlock"], summary(saag(f, nprocs))
    steps = cycle_of(found[0]["message"])
    assert sorted(s[0] for s in steps) == sorted(f"node {k}" for k in range(nprocs))
    assert {s[1:] for s in steps} == {("CRECV", f, 17, 10)}


@pytest.mark.parametrize("nprocs", [2, 4, 16])
def test_ring_with_node_0_receiving_first_deadlocks_with_each_line(nprocs):
    """Node 0 waits at line 15, every other node at line 18."""
    f = prog("ring_laps_swapped.f")
    found = problems(saag(f, nprocs))
    assert [p["kind"] for p in found] == ["deadlock"], summary(saag(f, nprocs))
    steps = cycle_of(found[0]["message"])
    assert sorted(steps) == sorted(
        [("node 0", "CRECV", f, 15, 13)]
        + [(f"node {k}", "CRECV", f, 18, 13) for k in range(1, nprocs)])
    assert {(x["line"], x["column"]) for x in found[0]["locations"]} == {(15, 13), (18, 13)}
