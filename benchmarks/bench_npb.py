"""Benchmarks on the NAS Parallel Benchmarks 3.3-MPI (issue 12's speed targets), reported not asserted.

Run with ``pytest benchmarks/bench_npb.py --benchmark-enable`` (NPB from ``NPB_DIR`` or
``../shared/npb/NPB3.3-MPI``; skipped when absent).

* parse all seven Fortran benchmarks (class S, 4 processes): target under 5 s in total;
* predict each at class A, P = 64 on the cluster spec: target under 10 s each;
* EP at class S and class A: the cost must not grow with the class's iteration counts;
* stepping speed: CG's ``makea`` GO TO loop (class S, P = 4) up to a step budget of 200 000 AAU
  executions (the budget's error ends it): AAU executions a second of CPU.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
import npb_suite  # noqa: E402

from interp.application.aag import build_aag  # noqa: E402
from interp.engine.predict import predict  # noqa: E402
from interp.engine.stepbudget import MAX_STEPS  # noqa: E402
from interp.errors import InterpError  # noqa: E402
from interp.system import load_machine  # noqa: E402

pytestmark = pytest.mark.skipif(not npb_suite.npb_dir().exists(), reason="NPB tree absent")


@pytest.fixture(scope="module")
def tree(tmp_path_factory):
    return npb_suite.prepare(tmp_path_factory.mktemp("npb"))


def _case(tree: Path, bench: str, klass: str, procs: int) -> list[str]:
    refused = npb_suite.make_params(tree, bench, klass, procs)
    assert not refused, refused
    return [str(f) for f in npb_suite.sources(tree, bench)]


def test_parse_all_seven(benchmark, tree):
    cases = {b: _case(tree, b, "S", 4) for b in npb_suite.BENCHMARKS}
    # npbparams.h is read at parse time: keep one folder per benchmark (setparams writes there).
    benchmark.pedantic(lambda: [build_aag(files) for files in cases.values()], rounds=3)


@pytest.mark.parametrize("bench", npb_suite.BENCHMARKS)
def test_predict_class_a_p64(benchmark, tree, bench):
    procs = 64
    files = _case(tree, bench, "A", procs)
    machine = load_machine("cluster")
    benchmark.pedantic(lambda: predict(build_aag(files), machine, procs), rounds=1)


@pytest.mark.parametrize("klass", ["S", "A"])
def test_ep_cost_flat_in_class(benchmark, tree, klass):
    files = _case(tree, "EP", klass, 4)
    machine = load_machine("cluster")
    benchmark.pedantic(lambda: predict(build_aag(files), machine, 4), rounds=1)


def test_cg_makea_stepping(benchmark, tree):
    files = _case(tree, "CG", "S", 4)
    aag, machine = build_aag(files), load_machine("cluster")

    def stepped():
        token = MAX_STEPS.set(200_000)
        try:
            predict(aag, machine, 4)
        except InterpError:
            pass  # the budget: makea's loop is still running
        finally:
            MAX_STEPS.reset(token)
    benchmark.pedantic(stepped, rounds=1)
