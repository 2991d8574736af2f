"""NPB 3.3-MPI, unmodified, class S on 4 processes: graph, check (clean), predict and formula
succeed with no input beyond the sources and the npbparams.h that NPB's own setparams makes.

The tree is ``NPB_DIR`` or ``../shared/npb/NPB3.3-MPI`` (skipped when absent); nothing of NPB is
copied into the project. benchmarks/npb_suite.py runs the other classes and process counts.

SP and CG pass too, but their check and predict take minutes each today (docs/npb.md,
"Speed"), too long for every CI run: they run with ``NPB_ALL=1``.
"""

from __future__ import annotations

import json
import math
import os
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))
import npb_suite  # noqa: E402

from interp.cli import main  # noqa: E402

pytestmark = pytest.mark.skipif(not npb_suite.npb_dir().exists(), reason="NPB tree absent")

PROCS = 4
SLOW = ("SP", "CG")  # minutes per command today: with NPB_ALL=1


@pytest.fixture(scope="module")
def tree(tmp_path_factory):
    if not (Path("/usr/bin/cc").exists() or Path("/usr/bin/gcc").exists()):
        pytest.skip("no C compiler for NPB's setparams")
    return npb_suite.prepare(tmp_path_factory.mktemp("npb"))


def _files(tree: Path, bench: str) -> list[str]:
    refused = npb_suite.make_params(tree, bench, "S", PROCS)
    assert not refused, refused
    return [str(f) for f in npb_suite.sources(tree, bench)]


def _run(args: list[str]):
    return CliRunner().invoke(main, args, catch_exceptions=False)


@pytest.mark.parametrize("bench", npb_suite.BENCHMARKS)
def test_class_s_p4(tree, bench, monkeypatch):
    if bench in SLOW and not os.environ.get("NPB_ALL"):
        pytest.skip(f"{bench} takes minutes per command: run with NPB_ALL=1")
    files = _files(tree, bench)
    monkeypatch.chdir(tree / bench)  # where the program runs: its optional input files are absent
    graph = _run(["graph", *files])
    assert graph.exit_code == 0, graph.output
    check = _run(["check", *files, "-P", str(PROCS)])
    assert check.exit_code == 0, check.output  # clean: no unmatched call, no deadlock
    predict = _run(["predict", *files, "-P", str(PROCS), "--format", "json"])
    assert predict.exit_code == 0, predict.output
    total = json.loads(predict.output)["total_seconds"]
    assert math.isfinite(total) and total > 0
    formula = _run(["formula", *files, "-P", str(PROCS)])
    assert formula.exit_code == 0, formula.output
