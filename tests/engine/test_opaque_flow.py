"""A loop whose exit test reads a value that code interp cannot see may change. This used to
escape as NotStatic, then was an error asking for --iterations; the exit test is now a
data-dependent decision taken while stepping by its branch probability ``p_opaqueexit_f_6``
(datadep: error diffusion). The head-tested GO TO loop is the loop ``DO WHILE (M .LT. 8)``
(structure.py), so, as for a DO WHILE, the probability is that of going on, default 0 (the
loop leaves at its first test on data); --iterations still gives the loop's count instead."""

from __future__ import annotations

import sympy as sp
from click.testing import CliRunner

from interp.cli import main

from .helpers import program, run


def _calls_of_foo(pred) -> int:
    rows = [r for r in pred.aau_rows() if r["type"] == "Seq" and r["line"] == 7]
    return int(rows[0]["count"])


def test_the_exit_test_is_decided_by_its_branch_probability():
    # the first test reads M = 1 (known: goes on, FOO runs); then M is not followed. p = 0
    # (default): the first test on data leaves, FOO ran once
    pred = run(program("opaqueexit.f"), 1)
    assert pred.data["p_opaqueexit_f_6"].default == 0
    assert _calls_of_foo(pred) == 1
    # p = 0.75 of going on: three of the first four tests on data go on (0.75 of them, by
    # error diffusion), the fourth leaves: FOO runs once before them and three times after
    assert _calls_of_foo(run(program("opaqueexit.f"), 1,
                             {"P_OPAQUEEXIT_F_6": sp.Float(0.75)})) == 4


def test_the_cli_predicts_and_iterations_still_resolve_it():
    path = program("opaqueexit.f")
    out = CliRunner().invoke(main, ["predict", path, "-P", "1"])
    assert out.exit_code == 0 and "Traceback" not in out.output
    assert "p_opaqueexit_f_6" in out.output
    good = CliRunner().invoke(main, ["predict", path, "-P", "1", "--iterations", f"{path}:6=3"])
    assert good.exit_code == 0, good.output
    assert "Predicted time" in good.output
