"""lca's least squares: coefficients, 90% intervals, R² and the refit without terms whose
interval contains zero, checked against arithmetic done by hand."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from interp.analysis.lca import (Candidate, USER, analyse, default_models, fit_model, ols,
                                 Request)
from interp.analysis.lca_data import read_file
from interp.analysis.lca_model import parse_model

from .helpers import row, write_csv

T_95_4DF = 2.131846786326649  # Student's t, 95th percentile, 4 degrees of freedom (table value)


def fit(text: str, x, y, var: str = "p"):
    env = {var: np.asarray(x, dtype=float)}
    return fit_model(Candidate(parse_model(text), USER), env, np.asarray(y, dtype=float))


def test_li_p_sqrt_p_recovered_within_its_90_percent_interval(tmp_path):
    # LI = 0.0003·p·√p plus a fixed noise vector, at p = 4, 9, 16, 25, 36 (p·√p = 8, 27, 64,
    # 125, 216). One-term least squares: c = Σxy/Σx² = 0.0003 + Σx·e/Σx².
    ps = [4, 9, 16, 25, 36]
    x = [8, 27, 64, 125, 216]
    e = [0.001, -0.002, 0.0015, -0.001, 0.0005]
    sum_x2 = 64 + 729 + 4096 + 15625 + 46656  # = 67170
    sum_xe = 8 * 0.001 - 27 * 0.002 + 64 * 0.0015 - 125 * 0.001 + 216 * 0.0005  # = 0.033
    c = 0.0003 + sum_xe / sum_x2  # = 0.000300491291
    resid = [ei - sum_xe / sum_x2 * xi for xi, ei in zip(x, e)]
    s = math.sqrt(sum(r * r for r in resid) / (5 - 1))  # 4 degrees of freedom
    half = T_95_4DF * s / math.sqrt(sum_x2)

    rows = [row(p, li=0.0003 * xi + ei, remaining=1.0) for p, xi, ei in zip(ps, x, e)]
    runs = read_file(write_csv(tmp_path / "li.csv", rows))
    (series,) = analyse(runs, Request(("p",), ("li",))).series
    models = {str(f.candidate.model): f for f in series.fits}
    assert list(models)[:3] == ["p*sqrt(p)", "p", "1"]  # the paper's three defaults, in order
    (coef,) = models["p*sqrt(p)"].full.coefficients
    assert coef.value == pytest.approx(c, rel=1e-9)
    assert coef.value == pytest.approx(0.000300491291, rel=1e-9)
    assert (coef.low, coef.high) == pytest.approx((c - half, c + half), rel=1e-9)
    assert coef.low < 0.0003 < coef.high  # the true coefficient is inside the 90% interval
    assert series.best is models["p*sqrt(p)"]
    assert models["p*sqrt(p)"].full.r2 > models["p"].full.r2 > models["1"].full.r2


def test_r2_hand_worked():
    # p = 1, 2, 3; y = 1, 2, 2. Model p + 1: slope Σ(x-x̄)(y-ȳ)/Σ(x-x̄)² = 1/2, intercept
    # 5/3 - 1 = 2/3; residuals -1/6, 1/3, -1/6: SSres = 1/6; SStot = 4/9 + 1/9 + 1/9 = 2/3.
    # R² = 1 - (1/6)/(2/3) = 3/4.
    f = fit("p + 1", [1, 2, 3], [1, 2, 2]).full
    assert [c.value for c in f.coefficients] == pytest.approx([0.5, 2 / 3])
    assert f.ssr == pytest.approx(1 / 6)
    assert f.r2 == pytest.approx(0.75)
    # Model p (no intercept): c = Σxy/Σx² = 11/14; residuals 3/14, 6/14, -5/14: SSres = 70/196
    # = 5/14. R² is centered for every model (the fraction of the variation explained):
    # 1 - (5/14)/(2/3) = 13/28.
    g = fit("p", [1, 2, 3], [1, 2, 2]).full
    assert g.coefficients[0].value == pytest.approx(11 / 14)
    assert g.r2 == pytest.approx(13 / 28)


def test_term_whose_interval_contains_zero_is_dropped_and_refitted():
    # y = 0.5·p + e, e = (0.01, -0.01, -0.01, 0.01): Σ(p - 5)·e = -0.03 + 0.01 - 0.01 + 0.03 = 0
    # and mean e = 0, so the fit of p + 1 is slope 0.5, intercept 0 (an interval around 0).
    # Refit p alone: c = 0.5 + Σp·e/Σp² = 0.5 + (0.02 - 0.04 - 0.06 + 0.08)/120 = 0.5.
    ps = [2, 4, 6, 8]
    y = [0.5 * p + e for p, e in zip(ps, [0.01, -0.01, -0.01, 0.01])]
    mf = fit("p + 1", ps, y)
    slope, intercept = mf.full.coefficients
    assert slope.value == pytest.approx(0.5)
    assert intercept.value == pytest.approx(0.0, abs=1e-12)
    assert intercept.contains_zero and not slope.contains_zero
    assert [str(t) for t in mf.dropped] == ["1"]
    assert str(mf.refit.model) == "p"
    assert mf.refit.coefficients[0].value == pytest.approx(0.5)
    assert mf.final is mf.refit and mf.full is not None  # both fits are kept


def test_all_terms_dropped_leaves_the_zero_model():
    # SL measured as 0 everywhere: the constant's estimate is 0 with a zero-width interval
    # around it, so it is dropped, leaving the paper's SL model 0.
    mf = fit("1", [2, 4, 8], [0.0, 0.0, 0.0])
    assert str(mf.refit.model) == "0"
    assert mf.refit.ssr == 0.0


def test_user_model_with_too_few_points_says_how_many_more():
    # p + 1 has 2 coefficients: it needs 2 + 1 = 3 points (one degree of freedom for the
    # intervals); 2 are given: 1 more.
    mf = fit("p + 1", [2, 4], [1.0, 2.0])
    assert mf.full is None and mf.needs == 1
    assert "needs 1 more" in mf.reason


def test_never_fitted_to_fewer_distinct_points_than_coefficients():
    # Five runs, all at p = 8: p + 1 cannot be told from one value of p.
    with pytest.raises(Exception, match="only 1 distinct value: needs 1 more distinct points"):
        ols(parse_model("p + 1"), {"p": np.full(5, 8.0)}, np.arange(5.0))


def test_defaults_name_the_papers_models():
    names = {c: [(str(d.model), d.origin) for d in default_models(c, "p")] for c in ("li", "ip")}
    assert names["li"][:3] == [("p*sqrt(p)", "paper"), ("p", "paper"), ("1", "paper")]
    assert names["ip"][0] == ("p", "paper")
    cl_n = [(str(d.model), d.origin) for d in default_models("cl", "n")]
    assert cl_n[:2] == [("n", "paper"), ("n^2", "paper")]
    assert all(o == "added" for _m, o in cl_n[2:])


@settings(max_examples=60, deadline=None)
@given(a=st.floats(1e-3, 1e3), b=st.floats(1e-3, 1e3))
def test_exact_data_from_a_model_is_recovered(a, b):
    # y = a·p·√p + b·p exactly, for any positive a and b: the fit returns a and b, R² = 1, and
    # no term is dropped (both intervals are tiny and away from zero).
    ps = np.array([2.0, 3, 4, 6, 8, 12, 16])
    mf = fit("p*sqrt(p) + p", ps, a * ps * np.sqrt(ps) + b * ps)
    assert mf.refit is None
    got = [c.value for c in mf.full.coefficients]
    assert got == pytest.approx([a, b], rel=1e-6, abs=1e-9 * max(a, b))
    assert mf.full.r2 == pytest.approx(1.0, abs=1e-9)
