"""``interp semiemp predict --actual``: seed 000's scores worked by hand on a model whose
segments are constants, and the JSON keys docs/accuracy.md lists.

Every segment of trap_mpi.f gets a = 0 and its own b_s = s ms, so T_p = Σ_s b_s = n(n+1)/2 ms
at any size (P = 1: no communication priced). Against actual runs of 2·T_p and 4·T_p:
E (4.9) = |2T − T|/2T = 1/2 and |4T − T|/4T = 3/4, Ē (4.10) = (1/2 + 3/4)/2 = 5/8, and
R (4.8) = T_actual/(T_sample + T_estimate) with the model's T_sample = 1 s."""

from __future__ import annotations

import csv
import json
import re
from pathlib import Path

from click.testing import CliRunner
from pytest import approx

from interp import api
from interp.analysis import realrun as R
from interp.analysis import semiemp as S
from interp.cli import main

ROOT = Path(__file__).resolve().parents[2]
TRAP = str(ROOT / "programs" / "mpi_trapezoid" / "trap_mpi.f")
DOC = ROOT / "docs" / "accuracy.md"


def _model(tmp_path: Path) -> tuple[Path, float]:
    plan = R.plan(api.Program.load([TRAP]).aag)
    segs = [S.SegmentFit(s.column, s.type, f"{s.line}-{s.end_line}", 0.0, 0.001 * k, 2)
            for k, s in enumerate(plan.segments, 1)]
    model = S.Model("trap_mpi", [TRAP], "cluster", segs, S.CommTable({1: {}}, 0.0, ""), 1.0, [])
    path = tmp_path / "model.json"
    path.write_text(json.dumps(model.to_json()))
    n = len(segs)
    return path, n * (n + 1) / 2 * 0.001


def _runs(tmp_path: Path, times: dict[int, float]) -> Path:
    path = tmp_path / "actual.csv"
    cols = ["program", "files", "P", "inputs", "opt", "cores", "oversubscribed", "run",
            "started", "load", "wall_seconds", "timed_seconds", "proc_seconds"]
    with open(path, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(cols)
        for n, t in times.items():
            w.writerow(["trap_mpi", TRAP, 1, f"N={n};NITER=3", 2, 2, 0, 0,
                        "2026-01-01T00:00:00+00:00", 0.0, t + 0.3, t, t])
    return path


def test_scores_by_hand_and_documented_keys(tmp_path):
    model, t_p = _model(tmp_path)
    actual = _runs(tmp_path, {1000: 2 * t_p, 2000: 4 * t_p})
    r = CliRunner().invoke(main, ["semiemp", "predict", TRAP, "--model", str(model), "-P", "1",
                                  "--actual", str(actual), "--format", "json"])
    assert r.exit_code == 0, r.output
    data = json.loads(r.stdout)
    first, second = data["points"]
    assert first["predicted"] == approx(t_p) and second["predicted"] == approx(t_p)
    assert first["E"] == approx(1 / 2) and second["E"] == approx(3 / 4)
    assert data["E_bar"] == approx(5 / 8)
    for p in (first, second):
        assert p["R_conservative"] == approx(p["actual"] / (1.0 + p["estimate_seconds"]))
    # the keys are those of the doc's table
    table = DOC.read_text().split("`interp semiemp predict --format json`", 1)[1]
    rows = [line for line in table.splitlines()[1:12] if line.startswith("| `")]
    key = re.compile(r"`([A-Za-z_]+)`")
    points = {k for k in key.findall(re.sub(r"\([^)]*\)", "", rows[1].split("|")[2]))
              if not k.startswith("-")}
    assert set(first) == points
    assert set(data) == {k for row in rows for k in key.findall(row.split("|")[1])}


def test_a_runs_file_input_that_is_no_number_is_a_usage_error(tmp_path):
    """inputs N=abc in --actual: was an internal error (exit 3) where the sizes were sorted."""
    model, t_p = _model(tmp_path)
    actual = _runs(tmp_path, {1000: t_p})
    actual.write_text(actual.read_text().replace("N=1000", "N=abc"))
    r = CliRunner().invoke(main, ["semiemp", "predict", TRAP, "--model", str(model), "-P", "1",
                                  "--actual", str(actual)])
    assert r.exit_code == 2, r.output
    assert f"{actual}:2: a value is not a number" in r.output


def test_a_model_with_a_value_that_is_no_number_is_a_usage_error(tmp_path):
    """a_s = "abc" in a hand-edited model: was an internal error (exit 3) at a_s·F."""
    model, _ = _model(tmp_path)
    data = json.loads(model.read_text())
    data["segments"][0]["a"] = "abc"
    model.write_text(json.dumps(data))
    r = CliRunner().invoke(main, ["semiemp", "predict", TRAP, "--model", str(model), "-P", "1",
                                  "--set", "N=1000", "--set", "NITER=3"])
    assert r.exit_code == 2, r.output
    assert "not a semi-empirical model" in r.output and "'abc'" in r.output
