"""Call patterns of the NAS Parallel Benchmarks, in excerpts of our own making:
* gridsetup.f: a square grid's setup as block solvers do it (MPI_COMM_SPLIT with the excess
  ranks idle, two MPI_COMM_DUPs, MPI_BCAST on one copy, a ring on the other);
* haloexch.f: a multigrid face exchange (MPI_IRECV with its request in an element of a 3-D
  array, MPI_SEND, MPI_WAIT), on both sides of the cluster's eager threshold."""

from __future__ import annotations

import pytest
import sympy as sp

from interp.engine.saag import build_saag
from interp.system.simgrid import zero_computation

from .helpers import (
    DYNAMIC_PER_BYTE, DYNAMIC_PER_HOP, DYNAMIC_STARTUP, RECEIVE, REL, aag_of, at, load, program,
    rows_by_pid, run,
)


def test_grid_setup_with_idle_ranks():
    """P = 6: NC = 2, ranks 0..3 active (color 0), 4 and 5 idle. The size broadcast on the
    first duplicate (N = 12) is the ring's tag on the second: 0 -> 1 -> 2 -> 3 -> 0."""
    saag = build_saag(aag_of(program("gridsetup.f")), load(), 6)
    assert saag.problems == []
    ring = sorted((e.src, e.dst, e.tag) for e in saag.edges if e.kind == "sync")
    assert ring == [("rank 0", "rank 1", 12), ("rank 1", "rank 2", 12),
                    ("rank 2", "rank 3", 12), ("rank 3", "rank 0", 12)]
    idle = {"rank 4", "rank 5"}
    dup_edges = [e for e in saag.edges if e.pattern != "point-to-point"
                 and e.src_aau != saag.edges[0].src_aau]
    assert all(e.src not in idle or e.dst in idle for e in dup_edges)


def test_face_exchange_eager_hand_computed():
    """iPSC/860, NF = 125 doubles = 1000 B (dynamic class): both receives are posted first
    (free), each eager send costs its startup; each face arrives 175 + 1000·0.36 + 33 = 568 us
    after it left, and MPI_WAIT ends then (receive overhead 0)."""
    pred = run(program("haloexch.f"), 2, {"NF": 125}, machine=zero_computation(load()))
    expected = DYNAMIC_STARTUP + 1000 * DYNAMIC_PER_BYTE + DYNAMIC_PER_HOP + RECEIVE
    assert expected == pytest.approx(568e-6)
    for row in rows_by_pid(pred).values():  # a formula in NF, at NF = 125
        assert at(pred, row["finish"]) == pytest.approx(expected, rel=REL)


def test_face_exchange_above_the_eager_threshold_is_no_deadlock():
    """Cluster, NF = 10000 doubles = 80000 B > 64 KiB: rendezvous, but the receives were
    posted before the sends, so the data leaves at max(0 + 3.5, 0) = 3.5 us, arrives at
    3.5 + 80000·0.08e-3 + 0.1 = 10.0 us (the send returns), and MPI_WAIT adds the dynamic
    receive overhead, 0.2 us: 10.2 us on both ranks."""
    sag = zero_computation(load("cluster"))
    assert build_saag(aag_of(program("haloexch.f")), sag, 2, {"NF": sp.Integer(10000)}).problems == []
    pred = run(program("haloexch.f"), 2, {"NF": 10000}, machine=sag)
    expected = 3.5e-6 + 80000 * 0.08e-9 + 0.1e-6 + 0.2e-6
    assert expected == pytest.approx(10.2e-6)
    for row in rows_by_pid(pred).values():
        assert float(row["finish"]) == pytest.approx(expected, rel=REL)


def test_symbolic_face_size_is_eager_as_a_stated_assumption():
    """Without a value for NF the send is taken to be eager (8·NF <= 65536, stated); a given
    NF = 10000 breaks that and is interpreted with its value (the rendezvous time above)."""
    pred = run(program("haloexch.f"), 2, machine=zero_computation(load("cluster")))
    assert any("taken to be eager" in n for n in pred.notes)
    assert "the formula assumes 8*NF <= 65536" in pred.notes
