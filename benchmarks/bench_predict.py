"""Benchmarks of the interpreter engine (predict). Figures are reported, never asserted.

Run with ``pytest benchmarks/bench_predict.py --benchmark-enable``.

* the paper's benchmark: trapezoid host + node, P = 16, N = 10⁶, NITER = 10;
* cost vs N (10³ … 10⁹) and vs NITER (1 … 10⁶): should be flat (closed forms: the cost of a
  prediction does not grow with N or with the iteration count);
* the token ring (programs/ring/ring.f) from P = 2 to 1024 on the cluster spec;
* peak memory of a prediction at P = 1024 (tracemalloc), recorded in ``extra_info``.
"""

from __future__ import annotations

import tracemalloc
from functools import lru_cache
from pathlib import Path

import pytest
import sympy as sp

from interp.application.aag import build_aag
from interp.engine.predict import predict
from interp.system import load_machine

ROOT = Path(__file__).resolve().parents[1]
TRAPEZOID = (str(ROOT / "programs/trapezoid/host.f"), str(ROOT / "programs/trapezoid/node.f"))
RING = (str(ROOT / "programs/ring/ring.f"),)


@lru_cache(maxsize=None)
def _aag(files: tuple[str, ...]):
    return build_aag(list(files))


@lru_cache(maxsize=None)
def _machine(name: str):
    return load_machine(name)


def _predict(files, nprocs, machine="ipsc860", **inputs):
    given = {k: sp.Integer(v) for k, v in inputs.items()}
    return predict(_aag(files), _machine(machine), nprocs, given)


def _run(benchmark, fn, rounds=3):
    result = benchmark.pedantic(fn, rounds=rounds, iterations=1, warmup_rounds=1)
    return result


def test_trapezoid_p16(benchmark):
    pred = _run(benchmark, lambda: _predict(TRAPEZOID, 16, N=10**6, NITER=10))
    benchmark.extra_info["predicted_seconds"] = pred.seconds


@pytest.mark.parametrize("n", [10**3, 10**6, 10**9])
def test_trapezoid_cost_vs_n(benchmark, n):
    pred = _run(benchmark, lambda: _predict(TRAPEZOID, 4, N=n, NITER=10))
    benchmark.extra_info["predicted_seconds"] = pred.seconds


@pytest.mark.parametrize("niter", [1, 10, 10**3, 10**6])
def test_trapezoid_cost_vs_niter(benchmark, niter):
    pred = _run(benchmark, lambda: _predict(TRAPEZOID, 4, N=10**6, NITER=niter))
    benchmark.extra_info["predicted_seconds"] = pred.seconds


@pytest.mark.parametrize("nprocs", [2, 16, 128, 1024])
def test_ring_on_cluster(benchmark, nprocs):
    pred = _run(benchmark, lambda: _predict(RING, nprocs, "cluster"), rounds=2)
    benchmark.extra_info["predicted_seconds"] = pred.seconds


def test_ring_peak_memory_p1024(benchmark):
    def measured():
        tracemalloc.start()
        try:
            _predict(RING, 1024, "cluster")
            return tracemalloc.get_traced_memory()[1]
        finally:
            tracemalloc.stop()

    _predict(RING, 2, "cluster")  # parse and load outside the measurement
    peak = _run(benchmark, measured, rounds=1)
    benchmark.extra_info["peak_MiB"] = round(peak / 2**20, 2)
    print(f"\nring on cluster, P = 1024: peak traced memory {peak / 2**20:.1f} MiB")
