"""MPI_SCATTER, MPI_GATHER and MPI_ALLGATHER priced as SMPI's scatter__ompi_basic_linear,
gather__ompi_basic_linear and allgather__ring (which `interp export simgrid` now selects).
They were a binomial tree / recursive-doubling exchange of one share a message, called "a
lower bound" in the output, but over SMPI's default (linear) algorithms by +32% on the
iPSC/860 (scatter, gather and allgather of 1024 doubles a rank, P = 4) and under by −25% on
the cluster at P = 8; now +0.15% and +0.01%.

Hand arithmetic, P = 4, 10 doubles (80 B) a rank, computation off, links not shared
(``contention: none``), iPSC/860 Table 3: an MPI collective's messages are synchronous and at
most 100 B, so static: 70 + 80·0.42 + 11·hops us = 114.6 us over 1 hop, 125.6 us over 2
(0 → 3 and 3 → 0, 1 → 2 and 2 → 1: e-cube); a sender is free after its 70 us startup.

* scatter from 0: sends to 1, 2, 3 at 0, 70, 140 us: rank 1 ends at 114.6, rank 2 at
  70 + 114.6 = 184.6, rank 3 at 140 + 125.6 = 265.6, the root at 3·70 = 210 us;
* gather to 0: ranks 1, 2, 3 send at once and are done at 70 us; the root has all three
  at max(114.6, 114.6, 125.6) = 125.6 us;
* allgather, SMPI's allgather__ring: in round i = 1, 2, 3 rank k sends its own share to
  k + i and takes k − i's (a sendrecv; not the neighbour ring that forwards what it got,
  which interp priced until 2026-11-25: SMPI's trace of a gather then an allgather shows
  every rank receiving from every other). Round 1 (k → k + 1): rank 0 hears from 3 and rank
  2 from 1 over 2 hops (125.6), ranks 1 and 3 over 1 (114.6). Round 2 (k → k + 2, all 1
  hop): each starts when its sender ended round 1: ranks 0 and 2 at 125.6 + 114.6 = 240.2,
  ranks 1 and 3 at 114.6 + 114.6 = 229.2. Round 3 (k → k + 3 = k − 1): rank 0 hears from 1
  (1 hop, from 229.2): 343.8; rank 1 from 2 (2 hops, from 240.2): 365.8; rank 2 from 3:
  343.8; rank 3 from 0: 365.8. (The neighbour ring gave 365.8, 354.8, 365.8, 354.8.)
"""

from __future__ import annotations

import pytest

from interp.system import collective_rounds
from interp.system.simgrid import COLLECTIVE_ALGORITHMS, zero_computation

from .helpers import REPO, STATIC_PER_BYTE, STATIC_PER_HOP, STATIC_STARTUP, run

SOURCE = """\
      PROGRAM C{op}
      INCLUDE 'mpif.h'
      INTEGER ME, IERR
      DOUBLE PRECISION A(10), B(40)
      CALL MPI_INIT(IERR)
      CALL MPI_COMM_RANK(MPI_COMM_WORLD, ME, IERR)
      CALL MPI_{op}({send}, 10, MPI_DOUBLE_PRECISION, {recv}, 10,
     &     MPI_DOUBLE_PRECISION,{root} MPI_COMM_WORLD, IERR)
      CALL MPI_FINALIZE(IERR)
      END
"""
ONE_HOP = STATIC_STARTUP + 80 * STATIC_PER_BYTE + STATIC_PER_HOP  # 114.6 us
TWO_HOPS = ONE_HOP + STATIC_PER_HOP  # 125.6 us


def _machine(tmp_path):
    spec = (REPO / "machine_specs" / "ipsc860.yaml").read_text()
    anchor = "              static_buffer_use: synchronous"
    path = tmp_path / "ipsc860_nocontention.yaml"
    path.write_text(spec.replace(anchor, anchor + "\n              contention: none"))
    from interp.system import load_machine
    return zero_computation(load_machine(str(path)))


def _finish(tmp_path, op: str) -> list[float]:
    send, recv = ("B", "A") if op == "SCATTER" else ("A", "B")
    path = tmp_path / f"{op.lower()}.f"
    path.write_text(SOURCE.format(op=op, send=send, recv=recv,
                                  root="" if op == "ALLGATHER" else " 0,"))
    pred = run(str(path), 4, machine=_machine(tmp_path))
    assert any(f"MPI_{op} is priced as" in n for n in pred.notes)
    return [float(r["finish"]) for r in sorted(pred.process_rows(), key=lambda r: r["pid"])]


def test_the_hand_arithmetic():
    assert (ONE_HOP, TWO_HOPS) == pytest.approx((114.6e-6, 125.6e-6))


def test_scatter_is_the_roots_sends_in_rank_order(tmp_path):
    s = STATIC_STARTUP
    assert _finish(tmp_path, "SCATTER") == pytest.approx(
        [3 * s, ONE_HOP, s + ONE_HOP, 2 * s + TWO_HOPS], rel=1e-9)


def test_gather_is_every_ranks_send_at_once(tmp_path):
    s = STATIC_STARTUP
    assert _finish(tmp_path, "GATHER") == pytest.approx([TWO_HOPS, s, s, s], rel=1e-9)


def test_allgather_sends_its_own_share_to_k_plus_i(tmp_path):
    round2 = [TWO_HOPS + ONE_HOP, 2 * ONE_HOP, TWO_HOPS + ONE_HOP, 2 * ONE_HOP]
    assert round2 == pytest.approx([240.2e-6, 229.2e-6, 240.2e-6, 229.2e-6])
    ends = [round2[1] + ONE_HOP, round2[2] + TWO_HOPS, round2[3] + ONE_HOP, round2[0] + TWO_HOPS]
    assert ends == pytest.approx([343.8e-6, 365.8e-6, 343.8e-6, 365.8e-6])
    assert _finish(tmp_path, "ALLGATHER") == pytest.approx(ends, rel=1e-9)


@pytest.mark.parametrize("nprocs,root", [(1, 0), (3, 2), (5, 1), (8, 0)])
def test_rounds_carry_every_share_once(nprocs, root):
    """Linear scatter/gather: one message per other rank, to/from the root; the allgather:
    P − 1 rounds in which every rank k sends once, to k + i in round i."""
    others = sorted(k for k in range(nprocs) if k != root)
    assert [m for rnd in collective_rounds("scatter", nprocs, root) for m in rnd] == \
        [(root, k) for k in others]
    assert [m for rnd in collective_rounds("gather", nprocs, root) for m in rnd] == \
        [(k, root) for k in others]
    ring = collective_rounds("allgather", nprocs)
    assert len(ring) == nprocs - 1
    assert all(sorted(rnd) == [(k, (k + i) % nprocs) for k in range(nprocs)]
               for i, rnd in enumerate(ring, 1))


def test_the_export_selects_the_same_algorithms():
    assert (COLLECTIVE_ALGORITHMS["scatter"], COLLECTIVE_ALGORITHMS["gather"],
            COLLECTIVE_ALGORITHMS["allgather"]) == ("ompi_basic_linear", "ompi_basic_linear", "ring")
