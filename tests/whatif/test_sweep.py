"""Sweeps: ranges, vectorized formulas equal to per-point predictions, fallbacks, CSV, plot."""

from __future__ import annotations

import csv
import time

import numpy as np
import pytest
import sympy as sp
from click.testing import CliRunner
from pytest import approx

from interp import api
from interp.analysis.sweep import evaluate, parse_range, parse_vary
from interp.cli import main
from interp.errors import InterpError

from .conftest import PROGRAMS, TRAPEZOID


# ---- ranges -------------------------------------------------------------------------------------


def test_log_range():
    values, scale = parse_range("1e3..1e7:log:5")
    assert scale == "log" and values == approx((1e3, 1e4, 1e5, 1e6, 1e7))
    assert values[0] == 1e3 and values[-1] == 1e7


def test_lin_range_and_list():
    assert parse_range("0..10:lin:3") == ((0.0, 5.0, 10.0), "lin")
    assert parse_range("1, 2,4 ,8") == ((1.0, 2.0, 4.0, 8.0), "list")
    assert parse_range("2^10,1e3") == ((1024.0, 1000.0), "list")
    assert parse_range("5..5:lin:1") == ((5.0,), "lin")


def test_vary_names_and_p():
    a = parse_vary("n=1..3:lin:3")
    assert a.name == "N" and a.values == (1.0, 2.0, 3.0)
    p = parse_vary("P=1,2,4,4")
    assert p.name == "P" and p.values == (1, 2, 4)


@pytest.mark.parametrize("text, words", [
    ("N=", "the range is empty"),
    ("N=1e3..1e7:log:0", "the range is empty"),
    ("N=0..1e7:log:5", "positive ends"),
    ("N=-5..10:log:5", "positive ends"),
    ("N=1..10", "a..b:log:n"),
    ("N=1..10:exp:4", "unknown spacing 'exp'"),
    ("N=1..10:lin:x", "whole number"),
    ("N=1..10:lin:1", "one value cannot run"),
    ("N=1,,2", "an empty value"),
    ("N=1,two", "not a number"),
    ("N=3 s", "not a plain number"),
    ("P=1,2.5", "P must be whole numbers"),
    ("P=0,1", "P must be whole numbers"),
    ("=1,2", "expected NAME=RANGE"),
    ("N 1,2", "expected NAME=RANGE"),
])
def test_bad_ranges_are_clear_errors(text, words):
    with pytest.raises(InterpError) as info:
        parse_vary(text)
    assert words in info.value.message and info.value.message.startswith(f"--vary {text}")


# ---- values -------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def trapezoid_sweep(trapezoid, ipsc):
    """P = 1, 2; N over two decades; NITER on both sides of the formula's NITER >= 4."""
    return api.sweep(trapezoid, ipsc, {"N": "1e3..1e5:log:3", "NITER": [1, 3, 10], "P": [1, 2]})


def test_vectorized_values_equal_per_point_predictions(trapezoid_sweep, trapezoid, ipsc):
    r = trapezoid_sweep
    assert r.seconds.shape == (2, 9) and r.nprocs == [1, 2]
    for i, p in enumerate(r.nprocs):
        for j in (0, 4, 8, 2, 6):  # NITER 1 and 3 lie outside NITER >= 4: re-interpreted
            inputs = {"N": int(r.points["N"][j]), "NITER": int(r.points["NITER"][j])}
            exact = api.predict(trapezoid, ipsc, p, inputs, symbolic=False).seconds
            assert r.seconds[i, j] == approx(exact, rel=1e-12), (p, inputs)


def test_cost_grows_with_p_values_not_points(trapezoid_sweep):
    # per P: one formula, plus one per NITER value outside its assumption (1 and 3)
    assert trapezoid_sweep.interpretations == 2 * 3


def test_speedup_and_efficiency_against_the_smallest_p(trapezoid_sweep):
    r = trapezoid_sweep
    rows = r.rows()
    assert len(rows) == 18
    for j in range(r.npoints):
        t1, t2 = r.seconds[0, j], r.seconds[1, j]
        row = rows[9 + j]
        assert row["P"] == 2 and row["speedup"] == approx(t1 / t2)
        assert row["efficiency"] == approx(t1 / t2 / 2)
        assert rows[j]["speedup"] == 1.0 and rows[j]["efficiency"] == 1.0


def test_needed_input_falls_back_to_one_interpretation_per_value(ipsc):
    """K drives a GO TO loop (unrolled: its value is needed); M stays in the formula."""
    prog = api.Program.load([str(PROGRAMS / "unrolled.f")])
    r = api.sweep(prog, ipsc, {"K": [1, 2, 5], "M": "1..1000:log:4"})
    assert r.interpretations == 1 + 3
    assert any("needed the value of K" in n for n in r.notes)
    for j in (0, 5, 11):
        inputs = {"K": int(r.points["K"][j]), "M": int(r.points["M"][j])}
        assert r.seconds[0, j] == approx(api.predict(prog, ipsc, 1, inputs, symbolic=False).seconds,
                                         rel=1e-12)


def test_integer_inputs_are_rounded_and_deduplicated(ipsc):
    prog = api.Program.load([str(PROGRAMS / "unrolled.f")])
    r = api.sweep(prog, ipsc, {"M": "1..3:log:9"}, inputs={"K": 1})
    assert list(r.points["M"]) == [1, 2, 3]
    assert any("rounded" in n for n in r.notes)


def test_floor_is_numpy_floor():
    x = sp.Symbol("x", positive=True)
    f = sp.lambdify([x], sp.floor(x / 16 + sp.Rational(3, 8)), modules="numpy")
    assert f.__globals__["floor"] is np.floor
    assert list(f(np.array([1.0, 10.0, 1e6]))) == [0.0, 1.0, 62500.0]


def test_ten_thousand_points_well_under_a_second(trapezoid, ipsc):
    pred = api.predict(trapezoid, ipsc, 2, {"N": 10**6, "NITER": 100})
    n, niter = np.meshgrid(np.round(np.geomspace(1e3, 1e7, 100)), np.arange(1.0, 101.0),
                           indexing="ij")
    columns = {"N": n.ravel(), "NITER": niter.ravel()}
    start = time.perf_counter()
    values, ok, names = evaluate(pred, columns)
    elapsed = time.perf_counter() - start
    assert values.shape == (10_000,) and elapsed < 1.0
    assert names == {"NITER"} and not ok[columns["NITER"] < 4].any() and ok[columns["NITER"] >= 4].all()
    N, NITER = sorted(pred.total.free_symbols, key=lambda s: s.name)
    for j in (3, 5000, 9999):
        exact = float(pred.total.subs({N: int(columns["N"][j]), NITER: int(columns["NITER"][j])}))
        assert values[j] == approx(exact, rel=1e-12)


def test_unknown_varied_name(trapezoid, ipsc):
    with pytest.raises(InterpError, match="no variable NITR") as info:
        api.sweep(trapezoid, ipsc, {"NITR": [1, 2]}, inputs={"N": 100})
    assert "NITER" in info.value.hint


def test_p_beyond_the_machine(trapezoid, ipsc):
    with pytest.raises(InterpError):
        api.sweep(trapezoid, ipsc, {"P": [1, 64]}, inputs={"N": 100, "NITER": 5})


# ---- the command: CSV contract, plot, files ---------------------------------------------------------


TWONODE = str(PROGRAMS / "twonode.f")


def run(*args):
    return CliRunner().invoke(main, list(args))


def test_csv_contract(tmp_path):
    out = tmp_path / "table.csv"
    res = run("sweep", *TRAPEZOID, "--vary", "N=1e3..1e4:log:2", "--vary", "P=1,2",
              "--set", "NITER=5", "-o", str(out), "--format", "csv")
    assert res.exit_code == 0, res.output
    rows = list(csv.DictReader(out.open()))
    assert list(rows[0]) == ["N", "NITER", "P", "seconds", "speedup", "efficiency"]
    assert [(r["N"], r["P"]) for r in rows] == [("1000", "1"), ("10000", "1"), ("1000", "2"),
                                                ("10000", "2")]
    assert all(r["NITER"] == "5" for r in rows)
    assert float(rows[2]["speedup"]) == approx(float(rows[0]["seconds"]) / float(rows[2]["seconds"]))
    assert float(rows[3]["efficiency"]) == approx(float(rows[3]["speedup"]) / 2)
    assert res.stdout.splitlines()[0] == "N,NITER,P,seconds,speedup,efficiency"
    assert [p.name for p in tmp_path.iterdir()] == ["table.csv"]  # no temp file left behind


def test_band_plot_and_band_columns(tmp_path):
    out, png = tmp_path / "t.csv", tmp_path / "t.png"
    res = run("sweep", TWONODE, "--vary", "P=2,4", "--band", "-o", str(out), "--plot", str(png))
    assert res.exit_code == 0, res.output
    rows = list(csv.DictReader(out.open()))
    assert list(rows[0])[-2:] == ["seconds_min", "seconds_max"]
    for r in rows:
        assert float(r["seconds_min"]) <= float(r["seconds"]) <= float(r["seconds_max"])
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_unwritable_output_is_an_error_before_any_work(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("x")
    res = run("sweep", TWONODE, "--vary", "P=2", "-o", str(blocker / "table.csv"))
    assert res.exit_code == 2 and "cannot write the table" in res.output
    res = run("sweep", TWONODE, "--vary", "P=2", "--plot", str(tmp_path / "no" / "p.png"))
    assert res.exit_code == 2 and "does not exist" in res.output
    res = run("sweep", TWONODE, "--vary", "P=2", "--plot", str(tmp_path / "p.gif"))
    assert res.exit_code == 2 and "unknown format" in res.output
    assert [p.name for p in tmp_path.iterdir()] == ["file"]


def test_bad_range_exit_2():
    res = run("sweep", TWONODE, "--vary", "P=0..4:log:3")
    assert res.exit_code == 2 and "--vary P=0..4:log:3" in res.output
