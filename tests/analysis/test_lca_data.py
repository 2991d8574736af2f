"""Bad lost-cycles data files: one clear error naming the file and line."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from interp.analysis.lca import Request, TooFewPoints, analyse
from interp.analysis.lca_data import COLUMNS, read_file
from interp.cli import main
from interp.errors import InterpError

from .helpers import row, write_csv, write_jsonl


def test_missing_column(tmp_path):
    path = write_csv(tmp_path / "d.csv", [row(2, li=1.0)], [c for c in COLUMNS if c != "rc"])
    with pytest.raises(InterpError) as err:
        read_file(path)
    assert "missing column rc" in err.value.message
    assert (err.value.location.file, err.value.location.line) == (str(path), 1)


def test_non_numeric_value_names_its_line(tmp_path):
    rows = [row(2, li=1.0), row(4, li=2.0)]
    rows[1]["li"] = "abc"  # the header is line 1: this is line 3
    with pytest.raises(InterpError) as err:
        read_file(write_csv(tmp_path / "d.csv", rows))
    assert err.value.message == "column li: 'abc' is not a number"
    assert err.value.location.line == 3


def test_nan_is_not_a_measurement(tmp_path):
    rows = [row(2, cl=1.0) | {"cl": "nan"}]
    with pytest.raises(InterpError) as err:
        read_file(write_csv(tmp_path / "d.csv", rows))
    assert "column cl: nan is not a measurement" in err.value.message
    assert err.value.location.line == 2


def test_jsonl_missing_key_and_nan(tmp_path):
    good = row(2, li=1.0)
    bad = {k: v for k, v in row(4, li=1.0).items() if k != "tp"}
    with pytest.raises(InterpError) as err:
        read_file(write_jsonl(tmp_path / "d.jsonl", [good, bad]))
    assert "missing key tp" in err.value.message and err.value.location.line == 2
    path = tmp_path / "n.jsonl"
    path.write_text(json.dumps(good) + "\n" + json.dumps(good).replace('"li": 1.0', '"li": NaN') + "\n")
    with pytest.raises(InterpError) as err:
        read_file(path)
    assert "column li: nan is not a measurement" in err.value.message
    assert err.value.location.line == 2


def test_bad_process_count(tmp_path):
    bad = row(2, li=1.0) | {"p": 0}
    with pytest.raises(InterpError, match="not a number of processes"):
        read_file(write_csv(tmp_path / "d.csv", [bad]))


def test_variable_missing_from_vars(tmp_path):
    runs = read_file(write_csv(tmp_path / "d.csv", [row(p, li=1.0) for p in (2, 4, 8)]))
    with pytest.raises(InterpError, match="no variable 'n'") as err:
        analyse(runs, Request(("n",), ("li",)))
    assert err.value.location.line == 2


def test_too_few_points_for_a_user_model(tmp_path):
    # p*sqrt(p) + p + 1 has 3 coefficients: 4 points needed; 2 given → 2 more.
    runs = read_file(write_csv(tmp_path / "d.csv", [row(p, li=0.1 * p) for p in (2, 4)]))
    with pytest.raises(TooFewPoints, match="the data have 2: needs 2 more"):
        analyse(runs, Request(("p",), ("li",), ("p*sqrt(p) + p + 1",)))


def test_factorial_edge_with_too_few_points(tmp_path):
    # Edges p=2 and p=8 have n = 32, 64, 128; edge n=128 has p = 2, 8 only: 1 more needed.
    rows = [row(p, inputs=f"N={n}", li=1e-3 * n * p)
            for p, n in [(2, 32), (2, 64), (2, 128), (8, 32), (8, 64), (8, 128), (4, 32)]]
    runs = read_file(write_csv(tmp_path / "d.csv", rows))
    with pytest.raises(TooFewPoints, match=r"edge n=128 has 2 \(p = 2, 8\): needs 1 more"):
        analyse(runs, Request(("p", "n"), ("li",)))


def test_mixed_programs_must_be_chosen(tmp_path):
    rows = [row(p, program=name, li=1.0) for name in ("a", "b") for p in (2, 4, 8)]
    runs = read_file(write_csv(tmp_path / "d.csv", rows))
    with pytest.raises(InterpError, match="mix programs a, b"):
        analyse(runs, Request(("p",), ("li",)))


def test_cli_prints_the_error_with_file_and_line(tmp_path):
    rows = [row(2, li=1.0), row(4, li=1.0) | {"li": "x"}]
    path = write_csv(tmp_path / "d.csv", rows)
    res = CliRunner().invoke(main, ["lca", str(path), "--var", "p", "--cat", "li"])
    assert res.exit_code == 2
    assert f"{path}:3:1: error: column li: 'x' is not a number" in res.output
