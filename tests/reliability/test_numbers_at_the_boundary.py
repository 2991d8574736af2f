"""Numbers are checked where they enter: a --set or --what-if number that overflows a double
(inf) or underflows to 0, or a what-if result beyond the largest double, is a usage error
(exit 2) — it used to be an OverflowError traceback, a hang, ``inf s`` or ``nan us``."""

from __future__ import annotations

import json
import math

import pytest

from interp.output import jsontext

from .helpers import SAMPLES, invoke

TRAPEZOID = [SAMPLES / "trapezoid" / "host.f", SAMPLES / "trapezoid" / "node.f"]
INPUTS = ["--set", "N=100", "--set", "NITER=10"]


def predict(*args):
    return invoke("predict", *TRAPEZOID, "-P", "4", *args)


@pytest.mark.parametrize("what_ifs, message", [
    (["N = 1e999999"], "1e999999 is outside the range of a double-precision number"),
    (["N *= 1e308", "N *= 1e308"], "N *= 1e308 gives a value beyond the largest double"),
    (["clock = 1e999999 MHz"], "1e999999 is outside the range"),
    (["clock = 1e-999999 MHz"], "1e-999999 is outside the range"),
])
def test_what_if_numbers(what_ifs, message):
    args = [a for w in what_ifs for a in ("--what-if", w)]
    result = predict(*INPUTS, *args)
    assert result.exit_code == 2, result.output
    assert message in result.stderr
    assert "Traceback" not in result.output


@pytest.mark.parametrize("value", ["1e400", "1e-400", "1D999"])
def test_set_numbers(value):
    result = predict("--set", f"N={value}", "--set", "NITER=10")
    assert result.exit_code == 2, result.output
    assert "outside the range of a double-precision number" in result.stderr


def test_a_fraction_for_an_integer_input():
    result = predict("--set", "N=1.5", "--set", "NITER=10")
    assert result.exit_code == 2, result.output
    assert "N is an INTEGER variable, and 1.5 is not a whole number" in result.stderr


def test_json_text_has_no_infinity_or_nan():
    text = jsontext.dumps({"total_seconds": math.inf, "rows": [1.5, math.nan, -math.inf]})
    # json.loads accepts Infinity; a strict parser must read it too: parse_constant refuses
    assert json.loads(text, parse_constant=lambda c: pytest.fail(c)) == {
        "total_seconds": None, "rows": [1.5, None, None]}


def test_export_to_a_missing_directory(tmp_path):
    result = invoke("export", "simgrid", "-P", "16", "-o", tmp_path / "no" / "x.xml")
    assert result.exit_code == 2, result.output
    assert f"directory {tmp_path / 'no'} does not exist" in result.stderr


def test_a_loop_bound_of_zero_or_less_runs_zero_times_and_says_so():
    """The formula takes N to be positive; N = -5 evaluated in it gave less time than N = 0.
    A DO loop bounded by N <= 0 runs zero times, so N = -5 and N = 0 predict the same."""
    totals = {}
    for n in ("0", "-5"):
        result = predict("--set", f"N={n}", "--set", "NITER=10", "--format", "json")
        assert result.exit_code == 0, result.output
        data = json.loads(result.stdout)
        totals[n] = data["total_seconds"]
        assert any(f"N = {n} is not positive" in note for note in data["notes"]), data["notes"]
    assert totals["0"] == totals["-5"]
