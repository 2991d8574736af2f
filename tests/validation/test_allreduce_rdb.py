"""MPI_ALLREDUCE at a P that is not a power of two, priced as SMPI's allreduce__rdb.

``validation/probes/reduce_allreduce.f`` at P = 3 on the iPSC/860: an MPI_REDUCE of 8 doubles to
rank 0, then an MPI_ALLREDUCE of one double. The reduce makes rank 0 the last to arrive, so the
partners of the non-power-of-two fold decide the time. SMPI (MPICH's recursive doubling) folds
rank 0 into rank 1, exchanges 1 <-> 2 and unfolds 1 -> 0; interp folded rank 2 into rank 0
(as NX/2's gdsum and SMPI's barrier do) and gave 308.72 us against SMPI's 346.6 us (-10.9%).
"""

from __future__ import annotations

import pytest

from interp.analysis import validate as V
from interp.application.aag import build_aag
from interp.system import collective_rounds, load_machine

from .conftest import VALIDATION

PROGRAM = VALIDATION / "probes" / "reduce_allreduce.f"

# iPSC/860, Table 3, static buffers (<= 100 B): startup 70 us, 0.42 us/B, 11 us a hop, no
# receive overhead; MPI sends are eager (the sender is free after its startup).
# P = 3 on the cube: 0-1 and 0-2 are one hop, 1 -> 2 goes 1 -> 0 -> 2 (two hops).
STARTUP, PER_BYTE, PER_HOP = 70.0, 0.42, 11.0


def _msg(nbytes: int, hops: int) -> float:
    return STARTUP + PER_BYTE * nbytes + PER_HOP * hops


# MPI_REDUCE (binomial): ranks 1 and 2 send 64 B to rank 0 at t = 0, one hop each, on
# different links: rank 0 has both at 70 + 26.88 + 11 = 107.88 us.
REDUCED = _msg(64, 1)
# allreduce__rdb: rank 0 folds into rank 1 (8 B, one hop): arrives 107.88 + 84.36 = 192.24;
# ranks 1 and 2 swap (two hops, 95.36 us): rank 1 sends at 192.24 and is free at 262.24
# (rank 2's message arrived at 70 + 95.36); rank 1 unfolds to rank 0: 262.24 + 84.36.
FOLDED = REDUCED + _msg(8, 1)
EXPECTED = (FOLDED + STARTUP + _msg(8, 1)) * 1e-6  # 346.60 us, rank 0 the last to end


def test_rdb_rounds_fold_even_into_odd():
    # P = 9: rem = 1, exchange rank n is rank 2n + 1 for n < 1, n + 1 above
    rounds = collective_rounds("mpi_allreduce", 9)
    assert rounds[0] == [(0, 1)] and rounds[-1] == [(1, 0)]
    assert sorted(rounds[1]) == sorted([(1, 2), (2, 1), (3, 4), (4, 3), (5, 6), (6, 5),
                                        (7, 8), (8, 7)])
    # P = 6: rem = 2, ranks 0 -> 1 and 2 -> 3 fold; exchange ranks 1, 3, 4, 5
    rounds = collective_rounds("allreduce", 6)
    assert rounds[0] == [(0, 1), (2, 3)] and rounds[-1] == [(1, 0), (3, 2)]
    assert sorted(rounds[1]) == [(1, 3), (3, 1), (4, 5), (5, 4)]
    assert sorted(rounds[2]) == [(1, 4), (3, 5), (4, 1), (5, 3)]


@pytest.mark.parametrize("p", [2, 4, 8, 16])
def test_rdb_is_the_exchange_at_powers_of_two(p):
    assert collective_rounds("mpi_allreduce", p) == collective_rounds("gdsum", p)


def test_barrier_keeps_the_upper_fold():
    # SMPI's barrier__mvapich2_pair folds rank p2 + i into rank i
    assert collective_rounds("mpi_barrier", 3)[0] == [(2, 0)]


def test_interp_after_reduce():
    pred = V.predict_communication(build_aag([str(PROGRAM)]), load_machine("ipsc860"), 3)
    assert float(pred.seconds) == pytest.approx(EXPECTED, rel=1e-9)


def test_smpi_agrees(smpi, workdir):
    exe = V.compile_program(PROGRAM, workdir)
    run = V.run_smpi(exe, load_machine("ipsc860"), 3, workdir)
    assert run.seconds == pytest.approx(EXPECTED, rel=0.05), \
        f"SMPI {run.seconds * 1e6:.1f} us, expected {EXPECTED * 1e6:.1f} us"
