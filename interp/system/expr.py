"""Spec values as quantities: the grammar ``grammars/spec_expr.lark`` turned into SymPy.

A value such as ``(1.256e-6 s / Clk) + 2 clk`` becomes a :class:`Quantity`: a SymPy expression
in the base unit of its dimension (here clocks) plus that dimension. Numbers become exact
rationals, so a prediction from the tables and its formula agree to the last digit. Nothing is
ever ``eval``-ed or ``sympify``-ed: the grammar is the only way in.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache

import sympy
from lark import Lark, Token, Transformer, v_args
from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedToken, VisitError

from interp.cache import grammar_cache
from interp.resources import grammar_path
from interp.system import units
from interp.system.units import Dim

CLK = sympy.Symbol("Clk", positive=True)
"""The clock period of the SAU a value belongs to; bound when the value is converted."""


@dataclass(frozen=True)
class Quantity:
    expr: sympy.Expr  # in the base unit of ``dim`` (s, clk, B, clk/s or a pure number)
    dim: Dim
    text: str  # as written in the spec

    def scaled(self, factor: sympy.Expr) -> Quantity:
        return Quantity(self.expr * factor, self.dim, f"({self.text}) * {factor}")


class ExprError(Exception):
    """A malformed value; ``offset`` is the 0-based position inside the expression text."""

    def __init__(self, message: str, offset: int, hint: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.offset = offset
        self.hint = hint


@dataclass(frozen=True)
class _Q:
    """A quantity under construction, remembering where it starts for error messages."""

    expr: sympy.Expr
    dim: Dim
    pos: int


_EXAMPLE = "write a number and its unit, e.g. '70e-6 s', '40 MHz' or '(1.256e-6 s / Clk) + 2 clk'"


@v_args(meta=True)
class _ToQuantity(Transformer):
    def __init__(self, names: Mapping[str, sympy.Symbol]) -> None:
        super().__init__()
        self._names = names

    def quantity(self, meta, children):
        number, *unit_token = children
        value = sympy.Rational(str(number))
        if not unit_token:
            return _Q(value, units.NONE, number.start_pos)
        (name,) = unit_token
        unit = units.unit(str(name))
        if unit is None:
            guess = units.suggest(str(name), units.UNITS)
            hint = f"did you mean '{guess}'?" if guess else "known units: " + ", ".join(units.UNITS)
            raise ExprError(f"unknown unit '{name}'", name.start_pos, hint)
        return _Q(value * unit.factor, unit.dim, number.start_pos)

    def name(self, meta, children):
        (token,) = children
        if str(token) == "Clk":
            return _Q(CLK, units.PERIOD, token.start_pos)
        if str(token) in self._names:
            return _Q(self._names[str(token)], units.NONE, token.start_pos)
        if units.unit(str(token)):
            raise ExprError(
                f"unit '{token}' without a number", token.start_pos, f"write it after one, as in '1 {token}'"
            )
        allowed = ["Clk", *self._names]
        guess = units.suggest(str(token), allowed)
        hint = f"did you mean '{guess}'? " if guess else ""
        hint += "Names allowed here: " + ", ".join(allowed) + " (run-time parameters are declared under 'runtime:')"
        raise ExprError(f"unknown name '{token}'", token.start_pos, hint)

    def add(self, meta, children):
        return self._sum(children, +1)

    def sub(self, meta, children):
        return self._sum(children, -1)

    def _sum(self, children, sign: int) -> _Q:
        left, right = children
        if left.dim != right.dim:
            hint = None
            if {left.dim, right.dim} == {units.TIME, units.CLOCKS}:
                hint = "convert the time to clocks with '/ Clk', as Table 1 does: (1.256e-6 s / Clk) + 2 clk"
            raise ExprError(
                f"cannot {'add' if sign > 0 else 'subtract'} {units.dim_name(right.dim)} "
                f"{'to' if sign > 0 else 'from'} {units.dim_name(left.dim)}",
                right.pos,
                hint,
            )
        return _Q(left.expr + sign * right.expr, left.dim, left.pos)

    def mul(self, meta, children):
        left, right = children
        return _Q(left.expr * right.expr, units.dim_mul(left.dim, right.dim), left.pos)

    def div(self, meta, children):
        left, right = children
        if right.expr == 0:
            raise ExprError("division by zero", right.pos)
        return _Q(left.expr / right.expr, units.dim_mul(left.dim, right.dim, -1), left.pos)

    def neg(self, meta, children):
        (operand,) = children
        return _Q(-operand.expr, operand.dim, meta.start_pos)

    def pow(self, meta, children):
        base, exponent = children
        if exponent.dim != units.NONE:
            raise ExprError("an exponent must be a plain number", exponent.pos)
        if base.dim != units.NONE and not exponent.expr.is_Integer:
            raise ExprError("a quantity with a unit can only be raised to a whole number", exponent.pos)
        power = int(exponent.expr) if base.dim != units.NONE else 0
        return _Q(base.expr**exponent.expr, units.dim_pow(base.dim, power), base.pos)

    def call(self, meta, children):
        name, arg = children
        function = FUNCTIONS.get(str(name))
        if function is None:
            raise ExprError(f"unknown function '{name}'", name.start_pos,
                            "functions allowed here: " + ", ".join(FUNCTIONS))
        if arg.dim != units.NONE:
            raise ExprError(f"{name} takes a plain number, not {units.dim_name(arg.dim)}", arg.pos)
        return _Q(function(arg.expr), units.NONE, name.start_pos)


FUNCTIONS = {"floor": sympy.floor, "ceil": sympy.ceiling, "log2": lambda x: sympy.log(x, 2)}
"""Functions of a plain number: what NPB's setparams computes from the sizes and P (MG's
``lm = log2(size) - log2(nprocs)/3`` in integer division)."""


@lru_cache(maxsize=1)
def _parser() -> Lark:
    return Lark(
        grammar_path("spec_expr.lark").read_text(encoding="utf-8"),
        parser="lalr",
        propagate_positions=True,
        cache=grammar_cache("spec_expr.lark"),
    )


def _syntax_error(err: Exception, text: str) -> ExprError:
    if isinstance(err, UnexpectedCharacters):
        return ExprError(f"unexpected character '{text[err.pos_in_stream]}' in value", err.pos_in_stream, _EXAMPLE)
    if isinstance(err, UnexpectedToken) and err.token.type != "$END":
        token: Token = err.token
        return ExprError(f"unexpected '{token}' in value", token.start_pos, _EXAMPLE)
    return ExprError("value ends too early", len(text.rstrip()), _EXAMPLE)


def parse_value(text: str, kind: str, names: Mapping[str, sympy.Symbol] | None = None) -> Quantity:
    """Parse a value that must measure ``kind`` (see :data:`units.KINDS`)."""
    q = parse_quantity(text, names)
    expected = units.KINDS[kind]
    if q.dim not in expected.dims:
        raise ExprError(f"expected {expected.expected}, got {units.dim_name(q.dim)}", 0, _unit_hint(text, kind))
    return q


def _unit_hint(text: str, kind: str) -> str:
    accepted = [u.name for u in units.UNITS.values() if u.dim in units.KINDS[kind].dims]
    return "units accepted here: " + ", ".join(accepted) if accepted else "write it without a unit"


def parse_quantity(text: str, names: Mapping[str, sympy.Symbol] | None = None) -> Quantity:
    """Parse one spec value; ``names`` are the run-time parameters it may use (e.g. ``load``)."""
    try:
        tree = _parser().parse(text)
    except (UnexpectedCharacters, UnexpectedToken, UnexpectedEOF) as err:
        raise _syntax_error(err, text) from None
    try:
        q = _ToQuantity(names or {}).transform(tree)
    except VisitError as err:
        if isinstance(err.orig_exc, ExprError):
            raise err.orig_exc from None
        raise
    return Quantity(q.expr, q.dim, text.strip())
