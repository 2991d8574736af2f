"""Loops whose iterations repeat in periods of k > 1 are folded (engine/steady.py).

A phase flag that flips (``IPH = 1 - IPH``), a phase that cycles through three values, and a
Jacobi sweep whose MPI_ALLREDUCE costs alternate between two values from one iteration to
the next: none repeats from one iteration to the next, each repeats every k. Before, each
was interpreted iteration by iteration (the Jacobi at P = 256 took 162 s of CPU). The fold
must give what interpreting every iteration gives, with the last iterations that do not
fill a whole period interpreted.
"""

from __future__ import annotations

import pytest

from interp.system import load_machine

from .helpers import PROGRAMS, REL, SAMPLES, run

JACOBI = SAMPLES / "mpi_jacobi" / "jacobi_mpi.f"


def _period_notes(pred, k: int) -> list[str]:
    return [n for n in pred.notes if n.startswith("steady state reached")
            and f"periods of {k})" in n]


def _every_iteration(files, p, given, machine=None) -> float:
    return run(files, p, given, machine, extend=False, symbolic=False).seconds


@pytest.mark.parametrize("niter", [101, 102])  # a whole number of periods left, and one over
def test_a_flipping_phase_folds_in_periods_of_two(niter):
    files, given = PROGRAMS / "phase2.f", {"NITER": niter}
    folded = run(files, 2, given)
    exact = run(files, 2, given, exact=True)
    assert _period_notes(folded, 2) and _period_notes(exact, 2)
    reference = _every_iteration(files, 2, given)
    assert folded.seconds == pytest.approx(reference, rel=REL)
    assert exact.seconds == pytest.approx(reference, rel=REL)


def test_a_flipping_phase_adds_one_round_trip_a_period():
    """Two iterations more add one period: node 0's 1000-byte send and node 1's 8-byte
    answer. The difference of the whole runs holds the period's computation too, so it is
    compared with the unfolded difference, and it must exceed the messages' own times: the
    1000 bytes in dynamic buffers (175 µs + 1000·0.36 µs + 1 hop·33 µs) and the 8 in static
    ones (70 µs + 8·0.42 µs + 1 hop·11 µs)."""
    files = PROGRAMS / "phase2.f"
    t = {n: run(files, 2, {"NITER": n}).seconds for n in (101, 103)}
    ref = {n: _every_iteration(files, 2, {"NITER": n}) for n in (101, 103)}
    period = t[103] - t[101]
    assert period == pytest.approx(ref[103] - ref[101], rel=1e-6)
    round_trip = (175e-6 + 1000 * 0.36e-6 + 33e-6) + (70e-6 + 8 * 0.42e-6 + 11e-6)
    assert round_trip < period < round_trip + 5e-6


@pytest.mark.parametrize("niter", [100, 101, 102])
def test_three_phases_fold_in_periods_of_three(niter):
    files, given = PROGRAMS / "phase3.f", {"NITER": niter}
    folded = run(files, 4, given)
    assert _period_notes(folded, 3)
    assert folded.seconds == pytest.approx(_every_iteration(files, 4, given), rel=REL)


def test_jacobi_whose_allreduce_alternates_folds():
    cluster = load_machine("cluster")
    given = {"N": 10000}
    folded = run(JACOBI, 8, given, cluster)
    assert _period_notes(folded, 2)
    assert folded.seconds == pytest.approx(_every_iteration(JACOBI, 8, given, cluster),
                                           rel=REL)
