"""Every sample program in programs/ predicts on 4 nodes within seconds, its formula depends
on the program's inputs (and data-dependent branch
probabilities) only, and its closed form equals the interpretation of every
iteration with the values given."""

from __future__ import annotations

import pytest

from .helpers import REL, SAMPLES, run

SAMPLE_RUNS = [
    ("trapezoid", ["trapezoid/host.f", "trapezoid/node.f"], {"N": 1000, "NITER": 3}),
    ("pingpong", ["pingpong/pingpong.f"], {}),
    ("ring", ["ring/ring.f"], {}),
    ("pipeline", ["pipeline/pipeline.f"], {}),
    ("reduction", ["reduction/reduction.f"], {}),
    ("halo", ["halo/halo.f"], {}),
    ("mpi_ring", ["mpi_ring/ring_mpi.f"], {}),
    ("mpi_trapezoid", ["mpi_trapezoid/trap_mpi.f"], {"N": 1000, "NITER": 3}),
]


@pytest.mark.parametrize("name, files, inputs", SAMPLE_RUNS, ids=[s[0] for s in SAMPLE_RUNS])
def test_sample_predicts_and_matches_full_interpretation(deadline, name, files, inputs):
    files = [str(SAMPLES / f) for f in files]
    with deadline(120):
        closed = run(files, 4, inputs)
    assert closed.total.free_symbols <= {s for s in closed.total.free_symbols
                                         if s.name in inputs or s.name in closed.data}, closed.total
    assert closed.seconds is not None and closed.seconds > 0
    with deadline(120):
        reference = run(files, 4, inputs, extend=False, symbolic=False)
    assert closed.seconds == pytest.approx(reference.seconds, rel=REL)
