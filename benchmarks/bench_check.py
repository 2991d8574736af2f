"""Benchmark of the Level-2 parse: ``interp check`` (build_saag) of programs/ring/ring.f on
1024 processes of the cluster machine.

Run with ``pytest benchmarks/bench_check.py --benchmark-enable``. The figure is reported, not
asserted (target: under 2 s per check). The AAG is built once outside the timed part, as
``interp check`` builds it once; what is timed is the matching of 1024 chains (50 laps each,
extended in closed form once the pattern repeats).
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from interp.application.aag import build_aag
from interp.engine.saag import build_saag
from interp.system import load_machine

RING = Path(__file__).resolve().parents[1] / "programs" / "ring" / "ring.f"
NPROCS = 1024


@pytest.fixture(scope="module")
def ring_aag():
    return build_aag([str(RING)])


@pytest.fixture(scope="module")
def cluster():
    return load_machine("cluster")


def test_check_ring_1024_on_cluster(benchmark, ring_aag, cluster):
    saag = benchmark.pedantic(build_saag, args=(ring_aag, cluster, NPROCS), rounds=3,
                              iterations=1, warmup_rounds=0)
    assert saag.problems == []
    assert len(saag.processes) == NPROCS
    # one edge per neighbour pair of the ring, each taken NLAPS = 50 times
    assert len(saag.edges) == NPROCS
    assert {int(e.count) for e in saag.edges} == {50}
    benchmark.extra_info.update(nprocs=NPROCS, edges=len(saag.edges))


LATE = Path(__file__).resolve().parents[1] / "tests" / "engine" / "programs" / "latedeadlock.f"


def test_predict_finds_late_deadlock(benchmark):
    """A deadlock in iteration 2999 of 3000 on P = 2: the loop reads its index, so it runs
    iteration by iteration; the figure shows the cost per iteration (target ~0.5 ms)."""
    import sympy as sp

    from interp.engine.predict import Hang, predict

    aag, ipsc = build_aag([str(LATE)]), load_machine("ipsc860")
    given = {"NITER": sp.Integer(3000), "KBAD": sp.Integer(2999)}

    def find():
        with pytest.raises(Hang):
            predict(aag, ipsc, 2, given)

    benchmark.pedantic(find, rounds=3, iterations=1, warmup_rounds=0)


VALIDATION = Path(__file__).resolve().parents[1] / "validation"
SCALE_PS = [int(p) for p in os.environ.get("INTERP_CHECK_P", "1024,4096").split(",")]


@pytest.mark.parametrize("nprocs", SCALE_PS)
@pytest.mark.parametrize("name", ["ring", "halo1d", "halo2d", "mworker"])
def test_check_validation_programs_at_scale(benchmark, name, nprocs):
    """``interp check`` of validation/NAME.f on the cluster grown to P (``--what-if 'procs =
    P'``), AAG and spec included (docs/scale.md: target 30 s at P = 65,536; set
    INTERP_CHECK_P=65536 to run it)."""
    from interp import api

    built = benchmark.pedantic(api.saag, args=([str(VALIDATION / f"{name}.f")], "cluster", nprocs,
                                               {}, [f"procs = {nprocs}"]),
                               rounds=1, iterations=1, warmup_rounds=0)
    assert built.problems == []
    benchmark.extra_info.update(nprocs=nprocs, edges=len(built.edges))
