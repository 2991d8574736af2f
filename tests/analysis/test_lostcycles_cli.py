"""`interp lost-cycles`: the paper's Figure 1, and rows appended to the data file."""

from __future__ import annotations

import csv
import json
from pathlib import Path

from click.testing import CliRunner
from pytest import approx

from interp import api
from interp.cli import main
from interp.output.lostcycles_view import COLUMNS

ROOT = Path(__file__).resolve().parents[2]
RING = str(ROOT / "programs/ring/ring.f")
TRAP = [str(ROOT / "programs/mpi_trapezoid/trap_mpi.f")]
PARTS = ("li", "ip", "sl", "cl", "rc", "remaining")


def run(*args):
    return CliRunner().invoke(main, ["lost-cycles", *args])


def test_text_is_figure_1():
    res = run(RING, "-P", "4")
    assert res.exit_code == 0, res.output
    lines = [ln.split() for ln in res.output.splitlines()]
    order = [ln[0] for ln in lines if ln and ln[0] in ("**", "Load", "Insuff", "Synchronization",
                                                       "Communication", "Resource", "Total",
                                                       "Remaining")]
    assert order == ["**", "Load", "Insuff", "Synchronization", "Communication", "Resource",
                     "Total", "Remaining"]
    assert ["**", "processors:", "4"] in lines
    lc = api.lost_cycles([RING], "ipsc860", 4)
    total = next(ln for ln in lines if ln[:2] == ["Total", "Time"])
    assert float(total[2]) == approx(lc.total, rel=1e-5)  # printed to 6 digits


def test_csv_rows_to_stdout_by_process():
    res = run(*TRAP, "-P", "4", "--set", "N=1000", "--set", "NITER=2", "--by", "proc",
              "--format", "csv")
    assert res.exit_code == 0, res.output
    rows = list(csv.DictReader(res.output.splitlines()))
    assert [r["key"] for r in rows] == ["0", "1", "2", "3"]
    for r in rows:
        assert (r["source"], r["program"], r["machine"], r["p"], r["vars"], r["by"]) == (
            "predicted", "trap_mpi", "ipsc860", "4", "N=1000;NITER=2", "proc")
        assert sum(float(r[c]) for c in PARTS) == approx(float(r["tp"]), rel=1e-12)
        assert float(r["total"]) == approx(4 * float(r["tp"]), rel=1e-15)


def test_appends_to_the_data_file_as_pp_l(tmp_path):
    data = tmp_path / "ring.csv"
    for p in ("2", "4"):
        res = run(RING, "-P", p, "--format", "csv", "--output", str(data))
        assert res.exit_code == 0, res.output
        assert res.output == ""
    text = data.read_text().splitlines()
    assert text[0] == ",".join(COLUMNS)
    rows = list(csv.DictReader(text))
    assert [r["p"] for r in rows] == ["2", "4"]
    for r in rows:  # the file keeps every digit: the categories add up exactly
        assert sum(float(r[c]) for c in PARTS) == approx(float(r["total"]), rel=1e-12)


def test_text_with_output_appends_csv_and_prints_the_figure(tmp_path):
    data = tmp_path / "ring.data"
    res = run(RING, "-P", "2", "--output", str(data))
    assert res.exit_code == 0, res.output
    assert "Load Imbalance" in res.output
    assert data.read_text().splitlines()[0] == ",".join(COLUMNS)


def test_json_lines(tmp_path):
    data = tmp_path / "ring.jsonl"
    for _ in range(2):
        res = run(RING, "-P", "2", "--by", "procedure", "--format", "json", "--output", str(data))
        assert res.exit_code == 0, res.output
    rows = [json.loads(line) for line in data.read_text().splitlines()]
    assert len(rows) == 2 and all(list(r) == list(COLUMNS) for r in rows)
    assert rows[0]["key"] == "RING" and rows[0]["p"] == 2


def test_a_different_header_is_an_error_naming_both(tmp_path):
    data = tmp_path / "other.csv"
    data.write_text("source,program,p,li\npredicted,x,2,0.1\n")
    res = run(RING, "-P", "2", "--format", "csv", "--output", str(data))
    assert res.exit_code == 2
    assert "source,program,p,li" in res.output and ",".join(COLUMNS) in res.output
    assert data.read_text() == "source,program,p,li\npredicted,x,2,0.1\n"  # left as it was
