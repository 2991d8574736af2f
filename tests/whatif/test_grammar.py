"""What-if statements: the grammar, every operator and target kind, errors with their column."""

from __future__ import annotations

import pytest

from interp.engine.whatif import OPERATORS, Scenario, WhatIfError, parse_whatif
from interp.errors import InterpError


@pytest.mark.parametrize("text, target, op, value", [
    ("node.cs.dynamic.per_byte *= 0.5", "node.cs.dynamic.per_byte", "*=", "0.5"),
    ("node.cs.*.per_hop /= 2", "node.cs.*.per_hop", "/=", "2"),
    ("clock = 80MHz", "clock", "=", "80MHz"),
    ("node.p.ops.real_div = 20 clk", "node.p.ops.real_div", "=", "20 clk"),
    ("node.p.ops.real_div += 1 us", "node.p.ops.real_div", "+=", "1 us"),
    ("node.cs.static.startup -= 5e-6 s", "node.cs.static.startup", "-=", "5e-6 s"),
    ("P = 32", "P", "=", "32"),
    ("N *= 10", "N", "*=", "10"),
    ("N = 1e6", "N", "=", "1e6"),
    ("load = 0.3", "load", "=", "0.3"),
    ("  N*=10  ", "N", "*=", "10"),
    ("N-=1", "N", "-=", "1"),
    ("node.[cp]*.x /= 3", "node.[cp]*.x", "/=", "3"),
    ("TRAPH.N = 100", "TRAPH.N", "=", "100"),
    ("node.cs.dynamic.per_byte = 0.1 ns / (1 - load)", "node.cs.dynamic.per_byte", "=",
     "0.1 ns / (1 - load)"),
])
def test_statements_parse(text, target, op, value):
    s = parse_whatif(text)
    assert (s.target, s.op, s.value) == (target, op, value)
    assert str(s) == f"{target} {op} {value}"


def test_every_operator_is_covered():
    assert {parse_whatif(f"N {op} 2").op for op in OPERATORS} == set(OPERATORS)


def test_value_column_points_into_the_text():
    s = parse_whatif("  clock =   80MHz")
    assert s.target_column == 3 and s.value_column == 13


def error_of(text: str) -> WhatIfError:
    with pytest.raises(WhatIfError) as info:
        parse_whatif(text)
    return info.value


@pytest.mark.parametrize("text, column, words", [
    ("N", 2, "expected an operator"),
    ("N = ", 4, "expected a value"),
    ("= 5", 1, "expected a machine parameter path"),
    ("N ** 2", 3, "expected an operator"),
    ("N = 3 +", 8, "ends too early"),
    ("N = 2 xyz", 7, "unknown unit 'xyz'"),
    ("N == 3", 4, "unexpected character '='"),
    ("clock = 80 Mhz", 12, "unknown unit 'Mhz'"),
    ("", 1, "empty what-if"),
])
def test_malformed_statements_say_where_and_what(text, column, words):
    err = error_of(text)
    assert err.location.column == column
    assert words in err.message
    assert isinstance(err, InterpError) and err.exit_code == 2
    rendered = err.render()
    assert rendered.startswith(f"what-if:1:{column}: error:")
    assert rendered.splitlines()[2] == "    " + " " * (column - 1) + "^"


def test_unit_typo_gets_a_suggestion():
    assert error_of("clock = 80 Mhz").hint == "did you mean 'MHz'?"


# ---- names are resolved against the machine and the program --------------------------------------


def apply_error(texts, sag, program=None, nprocs=16, given=None) -> WhatIfError:
    with pytest.raises(WhatIfError) as info:
        Scenario.from_texts(texts).apply(sag, nprocs, given or {}, program)
    return info.value


def test_unknown_parameter_did_you_mean(ipsc):
    err = apply_error(["node.cs.dynamic.per_bite *= 0.5"], ipsc.sag)
    assert "unknown what-if target 'node.cs.dynamic.per_bite'" in err.message
    assert "did you mean 'node.cs.dynamic.per_byte'" in err.hint
    assert err.location.column == 1


def test_unknown_glob_did_you_mean(ipsc):
    err = apply_error(["node.cs.*.per_hip *= 2"], ipsc.sag)
    assert "no machine parameter matches" in err.message and "per_hop" in err.hint


def test_runtime_parameter_did_you_mean(cluster, twonode):
    err = apply_error(["lod = 0.3"], cluster.sag, twonode.aag, nprocs=2)
    assert "did you mean 'load'" in err.hint


def test_program_input_did_you_mean(ipsc, trapezoid):
    err = apply_error(["NITR = 5"], ipsc.sag, trapezoid.aag)
    assert "did you mean 'NITER'" in err.hint


def test_name_inside_a_value_did_you_mean(cluster):
    err = apply_error(["core.cs.dynamic.per_byte = 1 ns / (1 - lod)"], cluster.sag, nprocs=2)
    assert err.location.column == 40 and "unknown name 'lod'" in err.message
    assert "did you mean 'load'" in err.hint


@pytest.mark.parametrize("text, column, words", [
    ("node.p.ops.real_div = 20 MHz", 23, "expected a time"),
    ("N = 3 s", 5, "plain number"),
    ("P = 2.5", 5, "whole number"),
    ("P = 0", 5, "whole number"),
    ("node.cs.dynamic.per_byte *= -1", 29, "must not be negative"),
    ("node.cs.dynamic.per_byte /= 0", 29, "division by zero"),
    ("node.cs.dynamic.per_byte *= 2 s", 29, "plain number"),
    ("node.cs.dynamic.per_byte -= 1 s", 29, "cannot be negative"),
    ("node.cs.spec.topology *= 2", 1, "only '=' can change it"),
    ("N *= 2", 1, "needs a value of N"),
])
def test_values_that_do_not_fit_their_target(ipsc, text, column, words):
    err = apply_error([text], ipsc.sag)
    assert words in err.message, err.render()
    assert err.location.column == column


def test_runtime_value_outside_its_range(cluster):
    err = apply_error(["load = 0.95"], cluster.sag, nprocs=2)
    assert "outside its declared range [0, 9/10]" in err.message


def test_second_statement_error_shows_that_statement(ipsc):
    err = apply_error(["P = 8", "node.cs.dynamic.per_bite *= 2"], ipsc.sag)
    assert err.source_line == "node.cs.dynamic.per_bite *= 2"
