"""An IF on run-time data interp does not follow is weighted by a named branch probability,
``p_<file>_<line>``: a symbol of the formula, printed with its source line, settable with
--set, defaulting to equal arms (0.5 for IF … ELSE …). It used to be weighted equally with
only a note ("heuristic"), and nothing could change the weight.

The IF: THEN stores three constants, ELSE one. From the iPSC/860's Tables 1 and 2 (STORE =
2 clocks = 50 ns, condition overhead COND = 25 ns, branch taken TAKEN = 25 ns), THEN costs
3·STORE + COND + TAKEN = 200 ns and ELSE costs STORE + 2·COND + TAKEN = 125 ns (ELSE counts as a
second condition tested). So T(p) = T_before + p·200 ns + (1 − p)·125 ns.
"""

from __future__ import annotations

import pytest
import sympy as sp
from click.testing import CliRunner
from pytest import approx

from interp.cli import main
from interp.errors import InterpError

from .helpers import COND, FETCH, STORE, TAKEN, formula_at, probe_if, run

SOURCE = """\
      PROGRAM DATAIF
      INTEGER K, IFUN
      DOUBLE PRECISION X, Y, Z
      EXTERNAL IFUN
      K = IFUN(1)
""" + probe_if("K .GT. 0") + """\
      END
"""
THEN = 3 * STORE + COND + TAKEN
ELSE = STORE + 2 * COND + TAKEN


@pytest.fixture
def path(tmp_path):
    p = tmp_path / "dataif.f"
    p.write_text(SOURCE)
    return str(p)


def test_the_hand_arithmetic():
    assert (THEN, ELSE) == (approx(200e-9), approx(125e-9))


def test_the_probability_is_a_named_symbol_with_its_line(path):
    pred = run(path, 1)
    assert list(pred.data) == ["p_dataif_f_6"]
    s = pred.data["p_dataif_f_6"]
    assert (s.line, s.default, s.kind) == (6, 0.5, "branch probability")
    assert "K .GT. 0" in s.what
    assert {x.name for x in pred.total.free_symbols} == {"p_dataif_f_6"}
    slope = formula_at(pred.total, p_dataif_f_6=1) - formula_at(pred.total, p_dataif_f_6=0)
    assert slope == approx(THEN - ELSE)
    # the default, 0.5, is today's equal weight: the number halfway between the arms
    assert pred.seconds == approx(formula_at(pred.total, p_dataif_f_6=0) + 0.5 * (THEN - ELSE))


def test_set_gives_its_value(path):
    p1 = run(path, 1, {"P_DATAIF_F_6": sp.Float(1.0)})
    p0 = run(path, 1, {"P_DATAIF_F_6": sp.Float(0.0)}, symbolic=False)
    assert p1.seconds - p0.seconds == approx(THEN - ELSE)


def test_an_unknown_probability_name_is_a_clear_error(path):
    with pytest.raises(InterpError) as info:
        run(path, 1, {"P_DATAIF_F_7": sp.Float(0.5)})
    assert "no data-dependent decision p_dataif_f_7" in info.value.message
    assert "p_dataif_f_6" in info.value.hint


def test_predict_prints_them_and_json_lists_them(path):
    import json

    out = CliRunner().invoke(main, ["predict", path, "-P", "1", "--set", "p_dataif_f_6=0.25"])
    assert out.exit_code == 0, out.output
    assert "Data-dependent" in out.output and "p_dataif_f_6 = 0.25 (given)  dataif.f:6" in out.output
    out = CliRunner().invoke(main, ["predict", path, "-P", "1", "--format", "json"])
    rows = json.loads(out.output)["data_dependent"]
    assert [(r["name"], r["line"], r["value"], r["given"]) for r in rows] == [
        ("p_dataif_f_6", 6, 0.5, False)]


CHAIN = """\
      PROGRAM CHAIN3
      INTEGER K, IFUN
      DOUBLE PRECISION X, Y, Z
      EXTERNAL IFUN
      K = IFUN(1)
      IF (K .GT. 0) THEN
         X = 1.0D0
      ELSE IF (K .LT. -5) THEN
         X = 1.0D0
         Y = 2.0D0
      ELSE
         X = 4.0D0
      END IF
      END
"""


def test_an_else_if_chain_has_one_probability_per_condition(tmp_path):
    """Arms: THEN = STORE + COND + TAKEN + FETCH (K, for the first condition), ELSE IF =
    2·STORE + 2·COND + TAKEN + 2·FETCH, ELSE = STORE + 3·COND + TAKEN + 2·FETCH (both
    conditions fetch K; ELSE counts as a third condition tested); the ELSE gets 1 − p6 − p8;
    defaults 1/3 each (equal arms)."""
    path = tmp_path / "chain3.f"
    path.write_text(CHAIN)
    pred = run(str(path), 1)
    assert list(pred.data) == ["p_chain3_f_6", "p_chain3_f_8"]
    assert [s.default for s in pred.data.values()] == [approx(1 / 3)] * 2
    arms = [STORE + COND + TAKEN + FETCH, 2 * STORE + 2 * COND + TAKEN + 2 * FETCH,
            STORE + 3 * COND + TAKEN + 2 * FETCH]
    base = formula_at(pred.total, p_chain3_f_6=0, p_chain3_f_8=0) - arms[2]
    for p6, p8 in ((1, 0), (0, 1), (0.2, 0.3)):
        expected = base + p6 * arms[0] + p8 * arms[1] + (1 - p6 - p8) * arms[2]
        assert formula_at(pred.total, p_chain3_f_6=p6, p_chain3_f_8=p8) == approx(expected)
