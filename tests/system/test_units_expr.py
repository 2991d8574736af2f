"""Spec values: the expression grammar and the unit table."""

from __future__ import annotations

import pytest
import sympy
from sympy import Rational as R

from interp.system import units
from interp.system.expr import CLK, ExprError, parse_quantity, parse_value

LOAD = sympy.Symbol("load", real=True)


@pytest.mark.parametrize(
    "text, value, dim",
    [
        ("70e-6 s", R("70e-6"), units.TIME),
        ("11e-6 s", R("11e-6"), units.TIME),
        ("175 us", R("175e-6"), units.TIME),
        ("0.08 ns", R("0.08e-9"), units.TIME),
        ("3 clk", 3, units.CLOCKS),
        ("40 MHz", 40 * 10**6, units.FREQUENCY),
        ("2.5 GHz", 25 * 10**8, units.FREQUENCY),
        ("8 KB", 8192, units.BYTES),
        ("8 KiB", 8192, units.BYTES),
        ("8 MB", 8 * 2**20, units.BYTES),
        ("100 B", 100, units.BYTES),
        ("16", 16, units.NONE),
        ("0.0", 0, units.NONE),
    ],
)
def test_units(text, value, dim):
    q = parse_quantity(text)
    assert (q.expr, q.dim) == (value, dim)


def test_table1_form_is_clocks():
    q = parse_quantity("(1.256e-6 s / Clk) + 2 clk")
    assert q.dim == units.CLOCKS
    assert q.expr.subs(CLK, R("2.5e-8")) == R("52.24")


def test_runtime_function():
    q = parse_value("0.36e-6 s / (1 - load)", "time", {"load": LOAD})
    assert q.expr == R("0.36e-6") / (1 - LOAD)


def test_arithmetic():
    assert parse_quantity("2 * 3 clk + 1 clk").expr == 7
    assert parse_quantity("2^10 * 1 B").expr == 1024
    assert parse_quantity("-(1 s - 3 s)").expr == 2


def test_whole_number_functions():
    """NPB MG's setparams: lm = log2(size) - log2(nprocs)/3 in C's integer division, so for
    size 32 (log2 5) on 16 processes (log2 4): 5 - 4/3 = 5 - 1 = 4."""
    p = sympy.Symbol("P", positive=True, integer=True)
    lm = parse_quantity("log2(32) - floor(log2(P)/3)", {"P": p})
    assert lm.dim == units.NONE
    assert [lm.expr.xreplace({p: n}) for n in (1, 2, 4, 8, 16, 32, 64)] == [5, 5, 5, 4, 4, 4, 3]
    assert parse_quantity("ceil(7/2)").expr == 4
    assert parse_quantity("2^log2(64) * 1 B").expr == 64


@pytest.mark.parametrize(
    "text, offset, fragment",
    [
        ("70e-6 sec", 6, "unknown unit 'sec'"),
        ("1 s + 2 clk", 6, "cannot add"),
        ("1 s +", 5, "ends too early"),
        ("1 s ) ", 4, "unexpected ')'"),
        ("lod", 0, "unknown name 'lod'"),
        ("1 s / 0", 6, "division by zero"),
        ("2 ^ 1 s", 4, "exponent must be a plain number"),
        ("__import__('os')", 11, "unexpected character"),  # names are never evaluated
        ("__import__(2)", 0, "unknown function '__import__'"),  # nor called
        ("floor(2 s)", 6, "floor takes a plain number"),
    ],
)
def test_errors_carry_offsets(text, offset, fragment):
    with pytest.raises(ExprError) as err:
        parse_quantity(text, {"load": LOAD})
    assert err.value.offset == offset
    assert fragment in err.value.message


def test_kind_check():
    with pytest.raises(ExprError, match=r"expected a time .* got a frequency"):
        parse_value("40 MHz", "time")
    assert parse_value("40 MHz", "frequency").expr == 40 * 10**6
