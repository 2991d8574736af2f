"""What interp check finds at P = 1024 on the cluster spec, it names as at small P: the
deadlock's every rank and line, the mismatch's two lines. (The diagnosis looks processes up by
rank; before, explaining a deadlock of P ranks scanned all P for each: docs/scale.md.)"""

from __future__ import annotations

from .helpers import cycle_of, loc, problems, prog, saag, summary

P = 1024


def test_a_ring_receiving_first_deadlocks_at_1024_ranks_in_ring_order():
    """mpi_recv_first.f: every rank receives from its left (line 11) before sending right, so
    rank k waits for rank k - 1: the cycle has all 1024 ranks, each at line 11, column 7."""
    f = prog("mpi_recv_first.f")
    found = problems(saag(f, P, "cluster"))
    assert [p["kind"] for p in found] == ["deadlock"], summary(saag(f, P, "cluster"))
    steps = cycle_of(found[0]["message"])
    assert {s[1:] for s in steps} == {("MPI_RECV", f, 11, 7)}
    ranks = [int(s[0].split()[1]) for s in steps]
    assert sorted(ranks) == list(range(P))
    assert all(b == (a - 1) % P for a, b in zip(ranks, ranks[1:] + ranks[:1])), ranks[:8]
    assert {(x["line"], x["column"]) for x in found[0]["locations"]} == {(11, 7)}


def test_tags_that_never_agree_are_a_mismatch_at_1024_ranks():
    """mpi_tag_mismatch.f: rank 0 sends tag 10 (line 9), rank 1 waits for tag 20 (line 12);
    the other 1022 ranks only finalize."""
    f = prog("mpi_tag_mismatch.f")
    found = problems(saag(f, P, "cluster"))
    assert [(p["kind"], p["locations"]) for p in found] == \
        [("mismatch", [loc(f, 9, 10), loc(f, 12, 10)])]
    assert "rank 1" in found[0]["message"] and "rank 0" in found[0]["message"]
