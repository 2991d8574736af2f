"""MPI_ALLTOALL and MPI_ALLTOALLV: the ring of pairwise exchanges (round i = 1 .. P-1: rank k
sends its block for (k + i) mod P to that rank), over the ranks of the communicator given.
iPSC/860 (Table 3), computation switched off; static class (<= 100 B, synchronous) 70 us +
0.42 us/B + 11 us/hop, dynamic 175 us + 0.36 us/B + 33 us/hop, receive 0. An eager send
frees its sender after its startup; a rank ends a round at max(its send done, its block in)."""

from __future__ import annotations

from pathlib import Path

import pytest

from interp.system import collective_rounds, load_machine
from interp.system.simgrid import zero_computation

from .helpers import (
    DYNAMIC_PER_BYTE, DYNAMIC_PER_HOP, DYNAMIC_STARTUP, REL, REPO, STATIC_PER_BYTE,
    STATIC_PER_HOP, STATIC_STARTUP, program, rows_by_pid, run,
)


def static(n: int, hops: int) -> float:
    return STATIC_STARTUP + n * STATIC_PER_BYTE + hops * STATIC_PER_HOP


def dynamic(n: int, hops: int) -> float:
    return DYNAMIC_STARTUP + n * DYNAMIC_PER_BYTE + hops * DYNAMIC_PER_HOP


def test_ring_rounds():
    assert collective_rounds("alltoall", 3) == [[(0, 1), (1, 2), (2, 0)], [(0, 2), (1, 0), (2, 1)]]
    assert len(collective_rounds("mpi_alltoallv", 5)) == 4


def test_alltoallv_pairs_ranks_by_xor_when_p_is_a_power_of_two():
    # SMPI's alltoallv__ring (which the export selects): src = dst = rank XOR i when P is a
    # power of two, the ring otherwise. With the ring's rounds a particle code's ALLTOALLV
    # (each rank sending to itself and its right neighbour) was -32% against SMPI at P = 4.
    assert collective_rounds("mpi_alltoallv", 4) == [
        [(0, 1), (1, 0), (2, 3), (3, 2)],  # i = 1: 0 XOR 1 = 1, 2 XOR 1 = 3
        [(0, 2), (1, 3), (2, 0), (3, 1)],  # i = 2
        [(0, 3), (1, 2), (2, 1), (3, 0)]]  # i = 3
    assert collective_rounds("mpi_alltoallv", 3) == collective_rounds("mpi_alltoall", 3)
    assert collective_rounds("mpi_alltoall", 4)[0] == [(0, 1), (1, 2), (2, 3), (3, 0)]


def test_alltoall_on_a_split_communicator_then_reduce_hand_computed():
    """transpose.f, P = 4: two MPI_COMM_SPLITs (allgathers of 8 B: 2 exchange rounds each,
    one hop, 70 + 8·0.42 + 11 = 84.36 us a round) = 337.44 us; MPI_ALLTOALL of N/2 = 32
    double complex = 512 B over the 2-rank column communicator {0, 2}: one round,
    175 + 512·0.36 + 33 = 392.32 us; MPI_REDUCE of one double complex (16 B) to rank 0: the
    binomial tree 1 -> 0 (while 3 -> 2), then 2 -> 0, 70 + 16·0.42 + 11 = 87.72 us each.
    Rank 0: 337.44 + 392.32 + 2·87.72 = 905.20 us."""
    split = 4 * static(8, 1)
    a2a = dynamic(32 * 16, 1)
    assert a2a == pytest.approx(392.32e-6)
    expected = split + a2a + 2 * static(16, 1)
    assert expected == pytest.approx(905.20e-6)
    pred = run(program("transpose.f"), 4, machine=zero_computation(load_machine("ipsc860")))
    assert float(rows_by_pid(pred)[0]["finish"]) == pytest.approx(expected, rel=REL)
    assert not any("MPI_ALLTOALL is priced" in n for n in pred.notes)  # exact, not a bound


def _without_contention(tmp_path: Path):
    text = (REPO / "machine_specs" / "ipsc860.yaml").read_text()
    anchor = "              static_buffer_use: synchronous"
    path = tmp_path / "ipsc860_free.yaml"
    path.write_text(text.replace(anchor, "              contention: none\n" + anchor, 1))
    return zero_computation(load_machine(str(path)))


def test_alltoallv_sizes_per_destination_hand_computed(tmp_path):
    """alltoallv.f, P = 3 (nodes 0, 1, 2 of the cube; 1 -> 2 is 1-0-2 and 2 -> 1 is 2-3-1, two
    hops), SENDCOUNTS = 10, 20, 30 integers: 40, 80, 120 B to ranks 0, 1, 2; links not shared
    (contention: none), to follow the arithmetic.
    Round 1: 0 -> 1 80 B static 1 hop; 1 -> 2 120 B dynamic 2 hops; 2 -> 0 40 B static 1 hop.
      rank 0 ends at max(70, 70 + 16.8 + 11 = 97.8) = 97.8; rank 1 at max(175, 114.6) = 175;
      rank 2 at 175 + 43.2 + 66 = 284.2.
    Round 2: 0 -> 2 120 B 1 hop from 97.8; 1 -> 0 40 B 1 hop from 175; 2 -> 1 80 B 2 hops
      from 284.2. rank 0: max(97.8 + 175, 175 + 97.8) = 272.8; rank 1: 284.2 + 70 + 33.6 + 22
      = 409.8; rank 2: max(284.2 + 70, 97.8 + 251.2 = 349.0) = 354.2 us."""
    pred = run(program("alltoallv.f"), 3, machine=_without_contention(tmp_path))
    r1 = {0: max(STATIC_STARTUP, static(40, 1)), 1: max(DYNAMIC_STARTUP, static(80, 1)),
          2: max(STATIC_STARTUP, dynamic(120, 2))}
    r2 = {0: max(r1[0] + DYNAMIC_STARTUP, r1[1] + static(40, 1)),
          1: max(r1[1] + STATIC_STARTUP, r1[2] + static(80, 2)),
          2: max(r1[2] + STATIC_STARTUP, r1[0] + dynamic(120, 1))}
    assert [r2[k] * 1e6 for k in range(3)] == pytest.approx([272.8, 409.8, 354.2])
    rows = rows_by_pid(pred)
    for k in range(3):
        assert float(rows[k]["finish"]) == pytest.approx(r2[k], rel=REL)
