"""`interp lost-cycles` then `interp lca` on every program of programs/ (issue 13: "lost-cycles
and lca work on every program in programs/"): the rows written at P = 2, 4, 8 are the points
lca fits, and its chosen model for each category reproduces them to its own residuals."""

from __future__ import annotations

import csv
import json

import pytest
from click.testing import CliRunner
from pytest import approx

from interp.cli import main

from .test_lostcycles_complete import PROGRAMS, ROOT

SAMPLES = sorted(name for name in PROGRAMS if name.startswith("programs/"))


@pytest.mark.parametrize("name", SAMPLES)
def test_lost_cycles_rows_fit_with_lca(name, tmp_path):
    files, inputs = PROGRAMS[name]
    data = tmp_path / "runs.csv"
    sets = [arg for k, v in inputs.items() for arg in ("--set", f"{k}={v}")]
    for p in (2, 4, 8):
        out = CliRunner().invoke(main, ["lost-cycles", *(str(ROOT / f) for f in files), "-P",
                                        str(p), *sets, "--format", "csv", "--output", str(data)])
        assert out.exit_code == 0, out.output
    with data.open() as f:
        rows = [r for r in csv.DictReader(f) if r["by"] == "program"]
    assert [int(r["p"]) for r in rows] == [2, 4, 8]
    out = CliRunner().invoke(main, ["lca", str(data), "--var", "p", "--format", "json"])
    assert out.exit_code == 0, out.output
    for series in json.loads(out.stdout)["series"]:
        cat = series["category"]
        assert [pt["y"] for pt in series["points"]] == approx([float(r[cat]) for r in rows])
        best = [m for m in series["models"] if m["best"]]
        assert len(best) <= 1
        for m in best:  # a fitted model's residual sum of squares is what is left of the data
            fit = m["refit"] or m["fit"]
            total = sum(pt["y"] ** 2 for pt in series["points"])
            assert fit["ssr"] <= total * (1 + 1e-9) + 1e-30
