"""``--set`` gives array elements (``--set 'V(1)=1'``) and whole arrays (``--set V=1``): the
values of an array the program never assigns, or assigns from something interp does not
follow (here an external function). ``--set V=0`` used to be refused (V is not a scalar), and
an IF on V(1) stopped the prediction.

The IF at the end: THEN stores three constants, ELSE one, so with the iPSC/860's Table 1 and 2
values the THEN run is longer by (3·STORE + COND) − (STORE + 2·COND) = 2·50 ns − 25 ns = 75 ns.
"""

from __future__ import annotations

import pytest
from click.testing import CliRunner
from pytest import approx

from interp.cli import main

from .helpers import PROBE_THEN_MINUS_ELSE, probe_if, run

SOURCE = """\
      PROGRAM SETARR
      INTEGER V(0:7), W(2,3), IFUN
      DOUBLE PRECISION X, Y, Z
      EXTERNAL IFUN
      V(0) = IFUN(3)
      W(1,1) = IFUN(4)
""" + probe_if("V(1) .GE. 1") + """\
      END
"""
@pytest.fixture
def path(tmp_path):
    p = tmp_path / "setarr.f"
    p.write_text(SOURCE)
    return str(p)


@pytest.mark.parametrize("then_key, else_key", [("V", "V"), ("V(1)", "V(1)"), ("V", "V(1)")])
def test_a_whole_array_or_one_element(path, then_key, else_key):
    then = run(path, 1, {then_key: 1}).seconds
    else_ = run(path, 1, {"V": 1, else_key: 0} if else_key != "V" else {"V": 0}).seconds
    assert then - else_ == approx(PROBE_THEN_MINUS_ELSE)


def test_an_element_wins_over_its_whole_array(path):
    both = run(path, 1, {"V": 0, "V(1)": 1}).seconds
    assert both - run(path, 1, {"V": 0}).seconds == approx(PROBE_THEN_MINUS_ELSE)


def test_the_cli_takes_elements_and_whole_arrays(path):
    out = CliRunner().invoke(main, ["predict", path, "-P", "1", "--set", "V( 1 )=1"])
    assert out.exit_code == 0, out.output
    out = CliRunner().invoke(main, ["predict", path, "-P", "1", "--set", "V=0"])
    assert out.exit_code == 0, out.output


@pytest.mark.parametrize("key, words", [("V(1,2)", "V is an array of rank 1"),
                                         ("X(1)", "X is not an array"),
                                         ("Q(1)", "has no variable Q")])
def test_a_wrong_element_is_a_clear_error(path, key, words):
    out = CliRunner().invoke(main, ["predict", path, "-P", "1", "--set", f"{key}=1"])
    assert out.exit_code == 2 and "Traceback" not in out.output
    assert words in out.output
