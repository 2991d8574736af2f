"""MPI_BCAST and MPI_REDUCE follow SMPI's trees (the algorithms the SimGrid export selects:
``smpi/bcast:binomial_tree``, ``smpi/reduce:binomial``), for any root and any P.

SMPI's bcast__binomial_tree, rank k, relative rank r = (k - root) mod P:
  mask = 1; while mask < P: if r & mask: receive from k - mask (mod P); break; mask <<= 1
  then for mask = mask/2 (from 2^(ceil(log2 P)-1) for the root) down to 1:
      if r + mask < P: send to k + mask (mod P)         (farthest child first)
SMPI's reduce__binomial (commutative op), same r:
  for mask = 1, 2, 4, ...: if r & mask == 0: receive from r | mask if < P, combine
                           else: send to r & ~mask; stop  (lowest dimension first)

NX/2's broadcast (csend to -1) keeps the paper's sequence: dimensions lowest first, ranks
relative to the root by XOR on a power of two (test_collectives.py).
"""

from __future__ import annotations

import pytest

from interp.analysis.validate import predict_communication
from interp.application.aag import build_aag
from interp.system import collective_rounds, load_machine


def test_bcast_p5_root4_farthest_child_first():
    # r = (k - 4) mod 5: rank 4 -> r0, 0 -> r1, 1 -> r2, 2 -> r3, 3 -> r4. ceil(log2 5) = 3,
    # masks 4, 2, 1:
    #   mask 4: r0 -> r4                       rank 4 -> 3
    #   mask 2: r0 -> r2 (r4 + 2 = 6 >= 5)      rank 4 -> 1
    #   mask 1: r0 -> r1, r2 -> r3 (r4 + 1 = 5) rank 4 -> 0, rank 1 -> 2
    # Per sender: rank 4 sends to 3, 1, 0 in that order; rank 1 (r2, received at mask 2)
    # sends to 2; rank 3 (r4, received at mask 4) has no child.
    assert collective_rounds("bcast", 5, root=4) == [[(4, 3)], [(4, 1)], [(4, 0), (1, 2)]]
    assert collective_rounds("MPI_Bcast", 5, root=4) == collective_rounds("bcast", 5, 4)


def test_bcast_p5_root0_serves_rank4_first():
    # r = k. mask 4: 0 -> 4; mask 2: 0 -> 2; mask 1: 0 -> 1, 2 -> 3. Rank 4 is served first
    # (the old lowest-dimension-first order served it last, in round 3).
    assert collective_rounds("bcast", 5) == [[(0, 4)], [(0, 2)], [(0, 1), (2, 3)]]


def test_reduce_p5_root4_lowest_dimension_first():
    # r = (k - 4) mod 5 as above (r0 = rank 4, r1 = 0, r2 = 1, r3 = 2, r4 = 3).
    #   mask 1: r1 -> r0, r3 -> r2         rank 0 -> 4, rank 2 -> 1
    #   mask 2: r2 -> r0                   rank 1 -> 4 (after receiving from rank 2)
    #   mask 4: r4 -> r0                   rank 3 -> 4 (r4 has no children: r5, r6 >= 5)
    # The root receives from ranks 0, 1, 3 in that order.
    assert collective_rounds("reduce", 5, root=4) == [[(0, 4), (2, 1)], [(1, 4)], [(3, 4)]]


def test_p8_root3_is_relative_by_subtraction_not_xor():
    # SMPI uses (k - 3) mod 8 also on a power of two: r0 = 3, r1 = 4, r2 = 5, r3 = 6,
    # r4 = 7, r5 = 0, r6 = 1, r7 = 2.
    # bcast, masks 4, 2, 1: 3 -> 7; 3 -> 5, 7 -> 1; 3 -> 4, 5 -> 6, 7 -> 0, 1 -> 2
    assert collective_rounds("bcast", 8, root=3) == [
        [(3, 7)],
        [(3, 5), (7, 1)],
        [(3, 4), (5, 6), (7, 0), (1, 2)],
    ]
    # reduce, masks 1, 2, 4: r1 -> r0, r3 -> r2, r5 -> r4, r7 -> r6; r2 -> r0, r6 -> r4;
    # r4 -> r0
    assert collective_rounds("reduce", 8, root=3) == [
        [(4, 3), (6, 5), (0, 7), (2, 1)],
        [(5, 3), (1, 7)],
        [(7, 3)],
    ]
    # 3 -> 5 crosses two hypercube links (3 XOR 5 = 6): not the NX/2 broadcast's XOR tree
    assert collective_rounds("broadcast", 8, root=3)[0] == [(3, 2)]


def test_nx_broadcast_keeps_the_paper_sequence():
    # NX/2 csend to -1: dimensions lowest first, (k + root) mod P off a power of two
    assert collective_rounds("broadcast", 5) == [[(0, 1)], [(0, 2), (1, 3)], [(0, 4)]]
    assert collective_rounds("broadcast", 5, root=4) == [[(4, 0)], [(4, 1), (0, 2)], [(4, 3)]]


@pytest.mark.parametrize("nprocs", [1, 2, 3, 5, 6, 7, 8, 12, 16, 32])
def test_smpi_trees_rank_by_rank(nprocs):
    """The rounds give every rank exactly SMPI's sequence of receives and sends."""
    for root in {0, 1, nprocs - 1} & set(range(nprocs)):
        for kind, program in (("bcast", _smpi_bcast), ("reduce", _smpi_reduce)):
            ops = {k: [] for k in range(nprocs)}
            for rnd in collective_rounds(kind, nprocs, root):
                assert len({src for src, _ in rnd}) == len(rnd)  # one send per sender a round
                for src, dst in rnd:
                    ops[src].append(("send", dst))
                    ops[dst].append(("recv", src))
            for k in range(nprocs):
                assert ops[k] == program(k, nprocs, root), (kind, nprocs, root, k)


def _smpi_bcast(rank, size, root):
    rel, mask, ops = (rank - root) % size, 1, []
    while mask < size:
        if rel & mask:
            ops.append(("recv", (rank - mask) % size))
            break
        mask <<= 1
    mask >>= 1
    while mask > 0:
        if rel + mask < size:
            ops.append(("send", (rank + mask) % size))
        mask >>= 1
    return ops


def _smpi_reduce(rank, size, root):
    rel, mask, ops = (rank - root) % size, 1, []
    while mask < size:
        if mask & rel == 0:
            if rel | mask < size:
                ops.append(("recv", ((rel | mask) + root) % size))
        else:
            ops.append(("send", ((rel & ~mask) + root) % size))
            break
        mask <<= 1
    return ops


REDUCE_TO_LAST = """\
      PROGRAM RLAST
      INCLUDE 'mpif.h'
      INTEGER ME, NP, IERR
      DOUBLE PRECISION A(300), B(300)
      CALL MPI_INIT(IERR)
      CALL MPI_COMM_RANK(MPI_COMM_WORLD, ME, IERR)
      CALL MPI_COMM_SIZE(MPI_COMM_WORLD, NP, IERR)
      CALL MPI_REDUCE(A, B, 300, MPI_DOUBLE_PRECISION, MPI_SUM, NP - 1,
     &                MPI_COMM_WORLD, IERR)
      CALL MPI_FINALIZE(IERR)
      END
"""


def test_reduce_messages_share_links(tmp_path):
    """P = 3 on the iPSC/860, root 2, computation off; 2400 B, dynamic class: startup 175 us,
    per_hop 33 us, per_byte 0.36 us (wire 864 us), receive 0. Rounds [(0, 2)], [(1, 2)]: rank 1
    has no child and sends at once, so both messages are on the way together.
      0 -> 2: one link (0,2); its bytes leave at 175 + 33 = 208 us
      1 -> 2: e-cube 1 -> 0 -> 2, links (1,0), (0,2); bytes leave at 175 + 66 = 241 us
    Alone they would arrive at 1072 and 1105 us. On link (0,2) from 241 us they share by
    weighted max-min (SimGrid's CM02, weight = hops): 2/3 and 1/3 of the link.
      0 -> 2 has 864 - 33 = 831 us left: done at 241 + 831 / (2/3) = 1487.5 us
      1 -> 2 has done 1246.5 / 3 = 415.5 us by then, 448.5 us left alone: 1936 us
    SMPI (validation/reduce_rootlast.f): 1935.8 us."""
    src = tmp_path / "rlast.f"
    src.write_text(REDUCE_TO_LAST)
    pred = predict_communication(build_aag([str(src)]), load_machine("ipsc860"), 3)
    finish = {r["pid"]: float(r["finish"]) for r in pred.process_rows()}
    assert finish[2] == pytest.approx(1936e-6, rel=1e-9)
    assert finish[0] == pytest.approx(175e-6, rel=1e-9)  # eager: free after the startup
    assert pred.seconds == pytest.approx(1936e-6, rel=1e-9)
