"""lca's predictions (T_p = (T_o + T_c)/p), crossovers and two-variable models, on data made
from known models."""

from __future__ import annotations

import json
import math

import pytest
from click.testing import CliRunner

from interp.analysis.lca import Request, Selection, analyse
from interp.analysis.lca_data import read_file
from interp.cli import main

from .helpers import row, write_csv


def test_crossover_of_two_linear_models(tmp_path):
    # A: LI = 2p + 10, B: LI = 3p + 4, both fitted with the model p + 1 (exact data).
    # 2p + 10 = 3p + 4 ⇔ p = 6. Below 6, B's LI is smaller (p = 2: 10 < 14); above, A's.
    rows = [row(p, program="A", li=2 * p + 10) for p in (2, 4, 8, 16)]
    rows += [row(p, program="B", li=3 * p + 4) for p in (2, 4, 8, 16)]
    runs = read_file(write_csv(tmp_path / "d.csv", rows))
    x = analyse(runs, Request(("p",), ("li",), ("p + 1",), crossover=("A", "B"))).crossing
    assert x.roots == pytest.approx([6.0])
    assert [s.winner for s in x.sides] == ["B", "A"]
    assert x.searched == (1.0, 64.0)  # p ≥ 1; the measured 2 … 16 widened 4 times


def test_crossover_of_the_composed_run_time(tmp_path):
    # Only pure computation: A's T_c = 100 (constant), B's T_c = 10·p, so T_p = 100/p and 10:
    # equal at p = 10; B is faster below, A above.
    rows = [row(p, program="A", remaining=100.0) for p in (2, 4, 8, 16)]
    rows += [row(p, program="B", remaining=10.0 * p) for p in (2, 4, 8, 16)]
    runs = read_file(write_csv(tmp_path / "d.csv", rows))
    x = analyse(runs, Request(("p",), crossover=("A", "B"))).crossing
    assert x.what == "tp (composed)"
    assert x.roots == pytest.approx([10.0])
    assert [s.winner for s in x.sides] == ["B", "A"]


def test_predict_tp_at_a_point(tmp_path):
    # LI = 0.001·p·√p, IP = 0.5·p, CL = 0.01·p, T_c = 100, SL = RC = 0 (exact data). At p = 64:
    # LI = 0.001·512 = 0.512, IP = 32, CL = 0.64: T_o = 33.152; T_p = (33.152 + 100)/64 = 2.0805.
    rows = [row(p, li=0.001 * p * math.sqrt(p), ip=0.5 * p, cl=0.01 * p, remaining=100.0)
            for p in (2, 4, 8, 16)]
    runs = read_file(write_csv(tmp_path / "d.csv", rows))
    (pred,) = analyse(runs, Request(("p",), at=((("p", 64.0),),))).predictions
    assert pred.values == pytest.approx({"li": 0.512, "ip": 32.0, "sl": 0.0, "cl": 0.64,
                                         "rc": 0.0, "remaining": 100.0})
    assert pred.tp == pytest.approx(133.152 / 64)


def _factorial_rows(category, model):
    """The edges of p ∈ [2, 32] × n ∈ [32, 512], 5 points on each."""
    ps, ns = (2, 4, 8, 16, 32), (32, 64, 128, 256, 512)
    points = sorted({(p, n) for p in ps for n in (32, 512)} | {(p, n) for n in ns for p in (2, 32)})
    wobble = [1.0, 1.01, 0.99, 1.005, 0.995]  # fixed relative noise
    return [row(p, inputs=f"N={n}", **{category: model(p, n) * wobble[i % 5]})
            for i, (p, n) in enumerate(points)]


def test_multiplicative_factors_are_found(tmp_path):
    # LI = n·log(n)·p·√p / 36200 (the paper's final LI form): the one-variable models are p·√p
    # and n·log(n); their product predicts each edge from the other three, their sum cannot.
    rows = _factorial_rows("li", lambda p, n: n * math.log(n) * p * math.sqrt(p) / 36200)
    runs = read_file(write_csv(tmp_path / "d.csv", rows))
    (f,) = analyse(runs, Request(("p", "n"), ("li",))).factorials
    assert {v: str(m.candidate.model) for v, m in f.chosen_models.items()} == {
        "p": "p*sqrt(p)", "n": "n*log(n)"}
    assert f.chosen.kind == "multiplicative"
    (coef,) = f.chosen.fit.final.coefficients
    assert coef.low < 1 / 36200 < coef.high
    assert f.chosen.heldout < 0.02
    additive = next(c for c in f.combinations if c.kind == "additive")
    assert additive.heldout > 10 * f.chosen.heldout


def test_additive_factors_are_found(tmp_path):
    # RC = n²/20100 + 0.05·p: the sum of the edges' models; the product misses the p = 2 edge.
    rows = _factorial_rows("rc", lambda p, n: n * n / 20100 + 0.05 * p)
    runs = read_file(write_csv(tmp_path / "d.csv", rows))
    (f,) = analyse(runs, Request(("p", "n"), ("rc",))).factorials
    assert f.chosen.kind == "additive"
    assert str(f.chosen.fit.final.model) == "p + n^2"
    assert f.interaction_share < 0.01 and f.paper_rule == "additive"


def test_held_out_error_is_that_of_the_model_shown(tmp_path):
    # CL = n²/14900 (the paper's Table 2, DP) with ±1% fixed noise. On the edges the models are
    # p + 1 (flat in p) and n²; the sum p + 1 + n² loses p and 1 (their intervals contain zero)
    # and shows n², as the product p·n² + n² does. Each edge left out in turn must be predicted
    # by that same procedure: n² alone predicts within the noise. (With every term kept, the
    # sum's p and 1, fitted to noise, missed the small-n edge by tens of percent: 7.1%.)
    rows = _factorial_rows("cl", lambda p, n: n * n / 14900)
    runs = read_file(write_csv(tmp_path / "d.csv", rows))
    (f,) = analyse(runs, Request(("p", "n"), ("cl",))).factorials
    assert {v: str(m.candidate.model) for v, m in f.chosen_models.items()} == {
        "p": "p + 1", "n": "n^2"}
    additive = next(c for c in f.combinations if c.kind == "additive")
    assert str(additive.fit.final.model) == "n^2" and len(additive.fit.dropped) == 2
    assert additive.heldout < 0.01
    assert f.chosen.kind == "additive"


def test_slices_of_another_variable_are_fitted_apart(tmp_path):
    rows = [row(p, inputs=f"N={n}", li=n * 1e-3 * p) for n in (100, 200) for p in (2, 4, 8)]
    runs = read_file(write_csv(tmp_path / "d.csv", rows))
    series = analyse(runs, Request(("p",), ("li",))).series
    assert [s.fixed for s in series] == [(("n", 100.0),), (("n", 200.0),)]
    # p alone fits each: 0.1·p and 0.2·p
    assert [s.best.final.coefficients[0].value for s in series] == pytest.approx([0.1, 0.2])
    fixed = analyse(runs, Request(("p",), ("li",), selection=Selection(fix=(("n", 200.0),))))
    assert len(fixed.series) == 1


def test_cli_json_and_plot(tmp_path):
    rows = [row(p, li=0.0003 * p * math.sqrt(p) + e, remaining=1.0)
            for p, e in zip((4, 9, 16, 25, 36), (0.001, -0.002, 0.0015, -0.001, 0.0005))]
    path = write_csv(tmp_path / "d.csv", rows)
    png = tmp_path / "m.png"
    res = CliRunner().invoke(main, ["lca", str(path), "--var", "p", "--cat", "li", "--format",
                                    "json", "--plot", str(png)])
    assert res.exit_code == 0, res.output
    out = json.loads(res.stdout)
    (series,) = out["series"]
    best = next(m for m in series["models"] if m["best"])
    assert best["model"] == "p*sqrt(p)" and best["origin"] == "paper"
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    text = CliRunner().invoke(main, ["lca", str(path), "--var", "p", "--cat", "li"])
    assert text.exit_code == 0 and "(0.000300491 ± " in text.output
