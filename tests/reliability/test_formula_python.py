"""``formula --python`` prints plain SymPy text, not ``srepr`` (``Add(Mul(Float(...``), that
``parse_expr`` reads back — with a local_dict of the inputs' Symbols, and plainly (an input named
like a SymPy name is written ``Symbol('N')``); ``--srepr`` keeps the old form."""

from __future__ import annotations

import pytest
import sympy as sp
from sympy.parsing.sympy_parser import parse_expr

from interp.output.prediction_view import formula_python

from .helpers import SAMPLES, invoke

TRAPEZOID = [SAMPLES / "trapezoid" / "host.f", SAMPLES / "trapezoid" / "node.f"]


def formula(*flags):
    result = invoke("formula", *TRAPEZOID, "-P", "4", *flags)
    assert result.exit_code == 0, result.output
    return result.stdout.strip()


def test_plain_text_parses_back():
    text = formula("--python")
    assert "Add(" not in text and "Float(" not in text, text
    srepr = parse_expr(formula("--srepr"))  # the exact formula
    point = {"N": 12345, "NITER": 7}
    symbols = {name: sp.Symbol(name) for name in point}
    for parsed in (parse_expr(text, local_dict=symbols), parse_expr(text)):
        at = {s: point[s.name] for s in parsed.free_symbols}
        exact = float(srepr.subs({s: point[s.name] for s in srepr.free_symbols}))
        assert float(parsed.subs(at)) == pytest.approx(exact, rel=1e-12)


@pytest.mark.parametrize("name", ["N", "I", "E", "S", "Q", "beta", "lambda"])
def test_names_sympy_or_python_own(name):
    x, y = sp.Symbol(name), sp.Symbol("NITER")
    expr = sp.Float("3.25e-6") * x * y + sp.floor(x / 4)
    parsed = parse_expr(formula_python(expr))
    assert {s.name for s in parsed.free_symbols} == {name, "NITER"}
    plain = {s.name: s for s in parsed.free_symbols}
    assert parsed.subs({plain[name]: 10, plain["NITER"]: 3}) == expr.subs({x: 10, y: 3})
