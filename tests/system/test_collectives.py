"""Collectives as logarithmic rounds of point-to-point messages."""

from __future__ import annotations

import pytest

from interp.system import collective_rounds, collective_steps


def test_gdsum_on_16_nodes_is_4_exchange_steps():
    rounds = collective_rounds("gdsum", 16)
    assert collective_steps(16) == 4 == len(rounds)
    for d, pairs in enumerate(rounds):  # dimension d in round d, lowest first
        assert sorted(pairs) == sorted((k, k ^ (1 << d)) for k in range(16))
    assert rounds[0][:4] == [(0, 1), (1, 0), (2, 3), (3, 2)]
    assert (5, 13) in rounds[3] and (13, 5) in rounds[3]


def test_broadcast_binomial_tree_from_root():
    assert collective_rounds("broadcast", 8) == [
        [(0, 1)],
        [(0, 2), (1, 3)],
        [(0, 4), (1, 5), (2, 6), (3, 7)],
    ]
    # NX/2 broadcast, root 3 on a power of two: relative rank = k XOR 3, every message one
    # hypercube link (MPI_BCAST follows SMPI instead: tests/system/test_collective_order.py)
    rounds = collective_rounds("broadcast", 8, root=3)
    assert rounds[0] == [(3, 2)]
    assert all(bin(a ^ b).count("1") == 1 for r in rounds for a, b in r)


def test_reduce_lowest_dimension_first():
    assert collective_rounds("reduce", 8) == [
        [(1, 0), (3, 2), (5, 4), (7, 6)],
        [(2, 0), (6, 4)],
        [(4, 0)],
    ]


@pytest.mark.parametrize("nprocs", [1, 2, 3, 5, 6, 7, 12, 16])
@pytest.mark.parametrize("root", [0, 1])
def test_trees_reach_everyone_once(nprocs, root):
    if root >= nprocs:
        return
    have = {root}
    for pairs in collective_rounds("broadcast", nprocs, root):
        assert all(src in have and dst not in have for src, dst in pairs)
        have |= {dst for _, dst in pairs}
    assert have == set(range(nprocs))
    senders = [src for pairs in collective_rounds("reduce", nprocs, root) for src, _ in pairs]
    assert sorted(senders) == sorted(set(range(nprocs)) - {root})


def test_non_power_of_two_exchange_folds_first():
    rounds = collective_rounds("gdsum", 6)  # p2 = 4, extra processes 4 and 5
    assert rounds[0] == [(4, 0), (5, 1)]
    assert rounds[-1] == [(0, 4), (1, 5)]
    assert len(rounds) == collective_steps(6, "gdsum") == 2 + 2  # floor(log2 6) + 2


def test_steps():
    assert collective_steps(1) == 0
    assert collective_steps(2) == 1
    assert collective_steps(5) == 3  # ceil(log2 5) for a tree
    assert collective_steps(1, "gsync") == 0
    assert collective_steps(32, "mpi_allreduce") == 5


def test_unknown_collective():
    with pytest.raises(ValueError, match="did you mean 'gdsum'"):
        collective_rounds("gdsun", 4)
