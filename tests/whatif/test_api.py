"""interp.api, and the README's example run as written (so the documentation cannot rot)."""

from __future__ import annotations

import contextlib
import io
import os
import re

import pytest
import sympy as sp

from interp import api
from interp.engine.values import NeedValue
from interp.errors import InterpError

from .conftest import PROGRAMS, ROOT


def readme_example() -> str:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    section = text[text.index("### Python API"):]
    return re.search(r"```python\n(.*?)```", section, re.S).group(1)


def test_readme_example_runs():
    code = readme_example()
    out = io.StringIO()
    cwd = os.getcwd()
    os.chdir(ROOT)
    try:
        with contextlib.redirect_stdout(out):
            exec(compile(code, "README.md", "exec"), {})
    finally:
        os.chdir(cwd)
    lines = out.getvalue().splitlines()
    assert re.fullmatch(r"0\.8796 s -> \d\.\d{4} s", lines[0])
    assert lines[1].startswith("total ")
    assert "node.p.ops.real_div" in out.getvalue()


def test_inputs_are_plain_numbers(twonode, ipsc):
    assert api.input_value("N", 3) == sp.Integer(3) and api.input_value("N", 1e6) == 10**6
    assert isinstance(api.input_value("X", 2.5), sp.Float)
    with pytest.raises(InterpError):
        api.input_value("N", "12")
    with pytest.raises(InterpError):
        api.input_value("N", True)


def test_program_and_machine(trapezoid, ipsc):
    assert set(trapezoid.inputs) == {"N", "NITER"}
    assert trapezoid.files[0].endswith("host.f")
    assert ipsc.name == "ipsc860"
    assert api.predict(str(PROGRAMS / "twonode.f"), "ipsc860", 2).seconds == \
        api.predict(api.Program.load(str(PROGRAMS / "twonode.f")), ipsc, 2).seconds


def test_ask_for_a_missing_value(ipsc):
    prog = api.Program.load([str(PROGRAMS / "unrolled.f")])
    with pytest.raises(NeedValue):
        api.predict(prog, ipsc, 1)
    asked = []

    def ask(need):  # asked for every input a decision may need; K drives the GO TO loop
        asked.append(need.names)
        return {"K": 2, "M": 10}

    pred = api.predict(prog, ipsc, 1, ask=ask)
    assert asked == [["K", "M"]] and pred.fixed == {"K": 2} and pred.seconds is not None


def test_bound_and_what_if(twonode, ipsc):
    lo = api.predict(twonode, ipsc, 2, bound="min").seconds
    hi = api.predict(twonode, ipsc, 2, bound="max").seconds
    assert (lo, hi) == api.prediction_interval(api.predict(twonode, ipsc, 2))
    half = api.predict(twonode, ipsc, 2, what_if=["node.cs.dynamic.per_byte /= 2"])
    assert half.machine.seconds("node.cs.dynamic.per_byte") == sp.Rational(18, 10**8)


def test_saag_with_a_what_if(twonode, ipsc):
    two = api.saag(twonode, ipsc, 2)
    assert two.nprocs == 2 and len(two.edges) == 1 and not two.problems
    assert api.saag(twonode, ipsc, 2, what_if=["P = 4"]).nprocs == 4


def test_report_re_predicts_within_its_budget(twonode, ipsc, tmp_path):
    pred = api.predict(twonode, ipsc, 2)
    written = api.report(pred, str(tmp_path / "r.md"), what_if=["P = 4"], budget=5)
    text = (tmp_path / "r.md").read_text()
    assert written[-1] == str(tmp_path / "r.md") and "What if" in text and "P = 4" in text
