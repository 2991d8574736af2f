"""``interp predict`` and ``interp formula`` on the command line (click's CliRunner).

* ``--format json`` is a contract: its formula, parsed back, gives total_seconds at the inputs.
* ``formula --python`` round-trips through ``sympy.parsing.sympy_parser.parse_expr``.
* Input mistakes exit 2 with one message and no traceback: a missing critical input (there is
  no terminal to ask on) lists every missing name and how to pass it; a malformed --set says
  what was expected; an unknown --set name suggests the closest one.
"""

from __future__ import annotations

import json

import pytest
import sympy as sp
from click.testing import CliRunner
from sympy.parsing.sympy_parser import parse_expr

from interp.cli import main

from .helpers import PROGRAMS, REL, TRAPEZOID, formula_at, program, run

SETS = ["--set", "N=1000000", "--set", "NITER=10"]


def invoke(*args: str):
    return CliRunner().invoke(main, list(args))


@pytest.fixture(scope="module")
def trapezoid_json():
    result = invoke("predict", *TRAPEZOID, "-P", "4", *SETS, "--format", "json")
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def test_json_has_the_contract_keys(trapezoid_json):
    for key in ("total_seconds", "formula", "inputs", "processes", "aaus"):
        assert key in trapezoid_json
    assert trapezoid_json["inputs"] == {"N": 1000000, "NITER": 10}
    assert [p["process"] for p in trapezoid_json["processes"]] == [
        "host", "node 0", "node 1", "node 2", "node 3"]
    for p in trapezoid_json["processes"]:
        for key in ("computation", "call", "transmission", "waiting", "idle", "start", "finish"):
            assert isinstance(p[key], float), (p["process"], key)
    assert all({"id", "type", "line", "count", "delta"} <= set(a) for a in trapezoid_json["aaus"])


def test_json_formula_evaluates_to_total_seconds(trapezoid_json):
    """With the formula's symbols declared (formula_symbols), the text is the exact formula."""
    names = trapezoid_json["formula_symbols"]
    assert names == ["N", "NITER"]
    formula = parse_expr(trapezoid_json["formula"], local_dict={n: sp.Symbol(n) for n in names})
    value = formula_at(formula, N=10**6, NITER=10)
    assert value == pytest.approx(trapezoid_json["total_seconds"], rel=REL)
    # and the same number as the Python API
    assert value == pytest.approx(run(TRAPEZOID, 4, {"N": 10**6, "NITER": 10}).seconds, rel=REL)


def test_json_formula_parses_back_with_plain_parse_expr(trapezoid_json):
    """parse_expr(formula) as documented, with no help: N must come back as the input N,
    not as sympy's N() function."""
    formula = parse_expr(trapezoid_json["formula"])
    assert {s.name for s in formula.free_symbols} == {"N", "NITER"}
    assert formula_at(formula, N=10**6, NITER=10) == pytest.approx(
        trapezoid_json["total_seconds"], rel=REL)


def test_json_numbers_add_up(trapezoid_json):
    """Per process: computation + call + transmission + waiting = finish - start."""
    for p in trapezoid_json["processes"]:
        parts = p["computation"] + p["call"] + p["transmission"] + p["waiting"]
        assert parts == pytest.approx(p["finish"] - p["start"], rel=1e-9, abs=1e-15), p["process"]


def test_json_on_a_program_without_inputs():
    result = invoke("predict", program("sendrecv.f"), "-P", "4", "--format", "json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["inputs"] == {}
    assert float(parse_expr(data["formula"])) == pytest.approx(data["total_seconds"], rel=REL)


@pytest.mark.parametrize("files, p, sets, point", [
    (TRAPEZOID, "2", [], {"N": 12345, "NITER": 7}),
    ([program("sendrecvn.f")], "4", [], {"NBYTES": 100}),
    ([program("sendrecvn.f")], "4", [], {"NBYTES": 101}),
    ([program("looptri.f")], "1", [], {"N": 77}),
    ([program("condtd.f")], "1", [], {"I1": 1, "I2": 2, "I3": 1}),
])
def test_formula_python_round_trips(files, p, sets, point):
    result = invoke("formula", *files, "-P", p, *sets, "--python")
    assert result.exit_code == 0, result.output
    text = result.stdout.strip()
    pred = run(files, int(p))
    names = {str(x) for x in pred.total.free_symbols}
    declared = parse_expr(text, local_dict={n: sp.Symbol(n) for n in names})
    assert formula_at(declared, **point) == pytest.approx(formula_at(pred.total, **point), rel=REL)
    parsed = parse_expr(text)  # as documented: plain parse_expr reads it back
    assert formula_at(parsed, **point) == pytest.approx(formula_at(pred.total, **point), rel=REL)
    # the text is the formula itself, not a rounded rendering of it
    assert formula_at(parsed, **point) == pytest.approx(
        run(files, int(p), point, extend=False, symbolic=False).seconds, rel=REL)



@pytest.mark.parametrize("name", ["I", "E"])
def test_formula_python_with_inputs_named_like_sympy_names(tmp_path, name):
    """Fortran inputs are often called I or E; the --python text must keep them symbols."""
    source = (PROGRAMS / "loopn.f").read_text().replace("INTEGER N, I", f"INTEGER {name}, J") \
        .replace("DO 10 I = 1, N", f"DO 10 J = 1, {name}")
    path = tmp_path / "loop_named.f"
    path.write_text(source)
    result = invoke("formula", str(path), "--python")
    assert result.exit_code == 0, result.output
    parsed = parse_expr(result.stdout.strip())
    assert {s.name for s in parsed.free_symbols} == {name}
    assert formula_at(parsed, **{name: 10}) == pytest.approx(
        run(str(path), 1, {name: 10}).seconds, rel=REL)


def test_formula_latex_and_text():
    for style in ([], ["--latex"]):
        result = invoke("formula", program("loopn.f"), *style)
        assert result.exit_code == 0, result.output
        assert "N" in result.stdout


# ---- input mistakes ------------------------------------------------------------------------


def _clean_exit_2(result):
    assert result.exit_code == 2, result.output
    assert isinstance(result.exception, SystemExit), repr(result.exception)
    assert "Traceback" not in result.output


def test_missing_critical_inputs_list_every_name():
    """needtwo.f needs IDEST (which branch communicates) and NREP (a communicating loop's
    trip count); with no terminal to ask on, both are named with how to pass them."""
    result = invoke("predict", program("needtwo.f"), "-P", "4")
    _clean_exit_2(result)
    err = result.stderr
    assert "IDEST" in err and "NREP" in err
    assert "--set IDEST=" in err and "--set NREP=" in err
    assert "needtwo.f:" in err  # where the value is needed


def test_missing_one_of_two_inputs():
    result = invoke("predict", program("needtwo.f"), "-P", "4", "--set", "NREP=5")
    _clean_exit_2(result)
    assert "--set IDEST=" in result.stderr
    assert "--set NREP=" not in result.stderr


def test_missing_input_for_formula_command_too():
    result = invoke("formula", program("needtwo.f"), "-P", "4", "--set", "IDEST=1")
    assert result.exit_code == 0, result.output  # NREP can stay a symbol
    assert "NREP" in result.stdout


@pytest.mark.parametrize("bad", ["N=abc", "N1000", "=5", "N=", "N=1e3e3", "N=0x10", "N==3",
                                 "N=1,000", "N=__import__('os')", "N=5; rm"])
def test_malformed_set_exits_2_without_traceback(bad):
    result = invoke("predict", *TRAPEZOID, "-P", "2", "--set", bad, "--set", "NITER=3")
    _clean_exit_2(result)
    assert "--set" in result.output and "NAME=" in result.output


@pytest.mark.parametrize("name, suggestion", [("NN", "N"), ("NITR", "NITER"), ("NITERS", "NITER")])
def test_unknown_set_name_did_you_mean(name, suggestion):
    result = invoke("predict", *TRAPEZOID, "-P", "2", "--set", f"{name}=5", "--set", "N=10")
    _clean_exit_2(result)
    assert f"did you mean {suggestion}?" in result.stderr
    assert name in result.stderr


@pytest.mark.parametrize("value, expected", [("1e3", 1000), ("1000", 1000), ("1.0D3", 1000),
                                             ("+1000", 1000)])
def test_set_accepts_fortran_and_exponent_numbers(value, expected):
    result = invoke("predict", program("loopn.f"), "--set", f"N={value}", "--format", "json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["inputs"] == {"N": expected}
    assert data["total_seconds"] == pytest.approx(
        run(program("loopn.f"), 1, {"N": expected}).seconds, rel=REL)


def test_lowercase_set_name_is_the_fortran_name():
    result = invoke("predict", program("loopn.f"), "--set", "n=10", "--format", "json")
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["inputs"] == {"N": 10}


def test_too_many_nodes_is_a_clean_error():
    result = invoke("predict", program("gdsum8.f"), "-P", "17")
    _clean_exit_2(result)
    assert "17" in result.output
