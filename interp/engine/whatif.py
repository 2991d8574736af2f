"""What-if scenarios (Section 3.4.2, "Modeling What-if's" and "Modeling Runtime Parameters").

A what-if is one assignment, parsed by ``grammars/whatif.lark``::

    node.cs.dynamic.per_byte *= 0.5     a machine parameter (SAG path; globs as SAG.scaled)
    node.cs.*.per_hop /= 2              every parameter the glob matches
    clock = 80MHz                       the node SAU's clock (every clock count rescales)
    node.p.ops.real_div = 20 clk        a value written as in a spec, with its unit
    P = 32                              the number of nodes
    N *= 10    N = 1e6                  a program input (NAME or UNIT.NAME)
    load = 0.3                          a run-time parameter declared in the spec

Operators: ``=``, ``*=``, ``/=``, ``+=``, ``-=``. The paper models a scenario as scaling factors
on the parameters the systems module exports; here a :class:`Scenario` maps a configuration
``(sag, nprocs, given inputs)`` to a new one (the SAG is immutable: ``SAG.scaled``,
``SAG.with_values`` and ``SAG.with_runtime`` return new SAGs). Run-time parameters act through
the scaling functions declared in the spec (``per_byte: 0.08 ns / (1 - load)``).

What a target names is decided when the statement is applied, against the machine and the
program. Values go through the spec-value parser (``interp.system.expr``): nothing the user
writes is ever evaluated as code.
"""

from __future__ import annotations

import difflib
import fnmatch
import math
import re
import sys
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import lru_cache

import sympy as sp
from lark import Lark
from lark.exceptions import UnexpectedCharacters, UnexpectedInput, UnexpectedToken

from interp.errors import InterpError, SourceLocation
from interp.cache import grammar_cache
from interp.resources import grammar_path
from interp.system import units
from interp.system.expr import ExprError, Quantity, parse_quantity, parse_value
from interp.system.model import SAG

OPERATORS = ("=", "*=", "/=", "+=", "-=")
GLOB_CHARS = "*?["
WHERE = "what-if"  # the "file" of a what-if's error location

_EXPECTED = {
    "TARGET": "a machine parameter path, P, clock, a run-time parameter or a program input",
    "OP": "an operator: =, *=, /=, += or -=",
    "VALUE": "a value, e.g. 0.5, 80MHz or 20 clk",
}


class WhatIfError(InterpError):
    """A what-if statement that cannot be parsed or applied (exit 2)."""


@dataclass(frozen=True)
class Statement:
    """One parsed what-if: ``target op value``. Columns are 1-based, inside ``text``."""

    text: str
    target: str
    op: str
    value: str
    target_column: int
    value_column: int

    def __str__(self) -> str:
        return f"{self.target} {self.op} {self.value}"

    def error(self, message: str, column: int | None = None, hint: str | None = None) -> WhatIfError:
        return WhatIfError(message, SourceLocation(WHERE, 1, column or self.target_column),
                           hint=hint, source_line=self.text)

    def value_error(self, err: ExprError, what: str = "") -> WhatIfError:
        return self.error(f"{what}{err.message}", self.value_column + err.offset, err.hint)


@lru_cache(maxsize=1)
def _parser() -> Lark:
    return Lark(grammar_path("whatif.lark").read_text(encoding="utf-8"), parser="lalr",
                cache=grammar_cache("whatif.lark"))


class _AnyName(Mapping):
    """Run-time parameter names for a syntax check before the machine is known: any name that
    is not a unit or ``Clk`` stands for one (the real check happens when applying)."""

    def __getitem__(self, key):
        if units.unit(key) is not None or key == "Clk":
            raise KeyError(key)
        return sp.Symbol(key, real=True)

    def __contains__(self, key):
        return units.unit(key) is None and key != "Clk"

    def __iter__(self):
        return iter(())

    def __len__(self):
        return 0

    def __bool__(self):  # parse_quantity treats an empty mapping as "no names"
        return True


def parse_whatif(text: str) -> Statement:
    """Parse one what-if statement; malformed text raises :class:`WhatIfError` with the column
    and what was expected there."""
    if not text.strip():
        raise WhatIfError("empty what-if statement", SourceLocation(WHERE, 1, 1),
                          hint="write e.g. 'node.cs.dynamic.per_byte *= 0.5' or 'P = 32'",
                          source_line=text)
    try:
        tree = _parser().parse(text)
    except UnexpectedInput as err:
        raise _syntax_error(err, text) from None
    target, op, value = tree.children
    stmt = Statement(text, str(target), str(op), str(value).rstrip(), target.column, value.column)
    _check_literals(stmt)
    try:  # syntax and units now; names and kinds when the machine and program are known
        parse_quantity(stmt.value, _AnyName())
    except ExprError as err:
        if not _is_text_value(stmt.value):
            raise stmt.value_error(err) from None
    return stmt


_LITERAL = re.compile(r"(?<![A-Za-z_.\d])(\d+\.?\d*|\.\d+)([eEdD][+-]?\d+)?")
FLOAT_MAX = sys.float_info.max


def _check_literals(stmt: Statement) -> None:
    """Every number must be a double: one that overflows (to inf) or underflows (to 0) is an
    error here, at its column, before exact arithmetic would carry a million digits."""
    for m in _LITERAL.finditer(stmt.value):
        value = float(m.group(0).replace("d", "e").replace("D", "e"))
        if math.isinf(value) or (value == 0 and re.search(r"[1-9]", m.group(1))):
            raise stmt.error(f"{m.group(0)} is outside the range of a double-precision number "
                             "(about 1e-308 to 1e308)", stmt.value_column + m.start())


def _finite(stmt: Statement, value: sp.Rational) -> sp.Rational:
    """A result of ``op=`` that leaves the doubles (e.g. ``N *= 1e308`` twice) is an error."""
    if abs(value) > FLOAT_MAX:
        raise stmt.error(f"{stmt} gives a value beyond the largest double (about 1.8e308)",
                         stmt.value_column)
    return value


def _is_text_value(value: str) -> bool:
    """A named choice such as ``write-back`` or ``e-cube`` (for text parameters)."""
    return all(c.isalnum() or c in "-_/" for c in value) and value[:1].isalpha()


def _syntax_error(err: UnexpectedInput, text: str) -> WhatIfError:
    end = len(text.rstrip()) + 1
    if isinstance(err, UnexpectedCharacters):
        column = err.column
        expected = sorted(err.allowed or ())
        found = f"unexpected '{text[err.pos_in_stream]}'"
    elif isinstance(err, UnexpectedToken) and err.token.type != "$END":
        column = err.column
        expected = sorted(err.expected)
        found = f"unexpected '{err.token}'"
    else:  # the end came too early
        column = end
        expected = sorted(getattr(err, "expected", ()) or ())
        found = "the statement ends too early"
    wanted = [_EXPECTED[e] for e in expected if e in _EXPECTED]
    message = found + (": expected " + " or ".join(wanted) if wanted else "")
    if isinstance(err, UnexpectedToken) and err.token.type == "VALUE" and "TARGET" in expected:
        message = "expected " + _EXPECTED["TARGET"] + " before the operator"
    return WhatIfError(message, SourceLocation(WHERE, 1, column),
                       hint="a what-if is TARGET OP VALUE, e.g. 'node.cs.dynamic.per_byte *= 0.5', "
                            "'clock = 80MHz', 'P = 32', 'N *= 10' or 'load = 0.3'",
                       source_line=text)


# ---- scenarios ---------------------------------------------------------------------------------


def program_variables(aag) -> dict[str, str]:
    """Names a what-if may give a value to, with their Fortran types: every variable and
    PARAMETER constant of the program, as NAME and as UNIT.NAME (what ``--set`` accepts)."""
    out: dict[str, str] = {}
    for u in aag.units.values():
        for name, sym in u.symbols.symbols.items():
            if sym.kind in ("variable", "array") or (sym.kind == "parameter" and
                                                      sym.value is not None):
                out.setdefault(name, sym.type)
                out[f"{u.name}.{name}"] = sym.type
    return out


def input_names(aag) -> list[str]:
    """The program's external inputs (for did-you-mean hints)."""
    return list(dict.fromkeys(e.name for e in aag.external_inputs))


@dataclass(frozen=True)
class Scenario:
    """A list of what-if statements, applied in order."""

    statements: tuple[Statement, ...] = ()

    @classmethod
    def from_texts(cls, texts: Iterable[str]) -> Scenario:
        return cls(tuple(parse_whatif(t) for t in texts))

    def __bool__(self) -> bool:
        return bool(self.statements)

    def describe(self) -> list[str]:
        return [str(s) for s in self.statements]

    def changing(self, names: Iterable[str]) -> Statement | None:
        """The first statement whose target is one of ``names`` (``P``, or inputs as NAME;
        a target UNIT.NAME or in another case counts), or None."""
        wanted = {n.split(".")[-1].upper() for n in names}
        return next((st for st in self.statements
                     if st.target.count(".") <= 1  # (a machine parameter's path has more)
                     and st.target.split(".")[-1].upper() in wanted), None)

    def apply(self, sag: SAG, nprocs: int, given: Mapping[str, sp.Expr] | None = None,
              program=None) -> tuple[SAG, int, dict[str, sp.Expr]]:
        """The configuration after the scenario: a new SAG, P and input values.

        ``program``: the AAG (or a mapping of variable names to Fortran types, see
        :func:`program_variables`); with it, input names are checked and suggested.
        """
        variables = None
        suggestions: list[str] = []
        constants: dict = {}  # PARAMETERs' values: what ``N *= 10`` of one starts from
        if program is not None:
            if isinstance(program, Mapping):
                variables = dict(program)
            else:
                from interp.application.aag import parameter_values

                variables = program_variables(program)
                suggestions = input_names(program)
                constants = parameter_values(program)
        given = dict(given or {})
        for stmt in self.statements:
            sag, nprocs, given = _apply(stmt, sag, nprocs, given, variables, suggestions,
                                        constants)
        return sag, nprocs, given


def _apply(stmt: Statement, sag: SAG, nprocs: int, given: dict, variables: dict | None,
           suggestions: list[str], constants: Mapping[str, int | float]):
    """One statement. Targets are tried in this order: P (a program variable named P is
    UNIT.P), clock, SAG paths and globs, run-time parameters (exact case), program inputs
    (any case; NAME or UNIT.NAME)."""
    target = stmt.target
    if target in ("P", "p"):
        return sag, _new_nprocs(stmt, nprocs), given
    if target == "clock":
        return _apply_parameter(stmt, sag, [f"{sag.nodes}.p.general.clock"]), nprocs, given
    if any(c in target for c in GLOB_CHARS):
        found = fnmatch.filter([p.path for p in sag.parameters()], target)
        if not found:
            raise _unknown(stmt, sag, variables, suggestions, "no machine parameter matches")
        return _apply_parameter(stmt, sag, found), nprocs, given
    if sag.has(target):
        return _apply_parameter(stmt, sag, [target]), nprocs, given
    key = _input_key(target, variables)
    if target in {r.name for r in sag.runtime}:
        if key is not None:
            raise stmt.error(f"'{target}' is both a run-time parameter of {sag.name} and a "
                             "program variable", hint=f"write UNIT.{target.upper()} for the "
                             "program's")
        return _apply_runtime(stmt, sag, target), nprocs, given
    if key is not None or (variables is None and "." not in target):
        return sag, nprocs, _apply_input(stmt, key or target.upper(), given, variables,
                                         constants)
    raise _unknown(stmt, sag, variables, suggestions)


def _unknown(stmt: Statement, sag: SAG, variables, suggestions, message=None) -> WhatIfError:
    names = ([p.path for p in sag.parameters()] + ["P", "clock"] + [r.name for r in sag.runtime]
             + list(suggestions) + list(variables or ()))
    names = list(dict.fromkeys(names))
    # the same last name first: node.clock means node.p.general.clock, not node.p.nx.dclock
    leaf = stmt.target.rsplit(".", 1)[-1]
    close = sorted((n for n in names if n.rsplit(".", 1)[-1] == leaf),
                   key=lambda n: -difflib.SequenceMatcher(None, stmt.target, n).ratio())[:3]
    if not close:
        close = difflib.get_close_matches(stmt.target, names, n=3, cutoff=0.6)
    if not close:
        close = difflib.get_close_matches(stmt.target.upper(), names, n=3, cutoff=0.6)
    hint = ("did you mean " + " or ".join(f"'{c}'" for c in close) + "?") if close else (
        "name a machine parameter (`interp machine show " + sag.name + "`), P, clock, "
        + ("a run-time parameter (" + ", ".join(r.name for r in sag.runtime) + ") " if sag.runtime else "")
        + "or a program input")
    return stmt.error(f"{message or 'unknown what-if target'} '{stmt.target}'", hint=hint)


def _input_key(target: str, variables: dict | None) -> str | None:
    if variables is None:
        return None
    for key in (target, target.upper(), ".".join(p.upper() for p in target.split("."))):
        if key in variables:
            return key
    return None


def _number(stmt: Statement, what: str) -> sp.Rational:
    """The value as a plain number (no unit, no names)."""
    try:
        q = parse_quantity(stmt.value, {})
    except ExprError as err:
        raise stmt.value_error(err, f"{what}: ") from None
    if q.dim != units.NONE:
        raise stmt.error(f"{what} is a plain number, not {units.dim_name(q.dim)}",
                         stmt.value_column, hint="write it without a unit")
    value = q.expr
    if not (value.is_number and value.is_finite and value.is_real):
        raise stmt.error(f"{what}: '{stmt.value}' is not a finite number", stmt.value_column)
    if not value.is_Rational:  # e.g. 2^0.5: exact to 17 digits
        value = sp.Rational(str(value.evalf(17)))
    return value


def _combine(stmt: Statement, old, operand: sp.Rational) -> sp.Rational:
    """``old op operand`` in exact arithmetic (``=`` ignores ``old``)."""
    if stmt.op == "=":
        return operand
    if stmt.op == "/=" and operand == 0:
        raise stmt.error("division by zero", stmt.value_column)
    old = sp.Rational(str(old)) if isinstance(old, (sp.Float, float)) else sp.Rational(old)
    if stmt.op == "*=":
        return _finite(stmt, old * operand)
    if stmt.op == "/=":
        return _finite(stmt, old / operand)
    return _finite(stmt, old + operand if stmt.op == "+=" else old - operand)


def _new_nprocs(stmt: Statement, nprocs: int) -> int:
    value = _combine(stmt, sp.Integer(nprocs), _number(stmt, "P"))
    if not value.is_Integer or value < 1:
        raise stmt.error(f"P {stmt.op} {stmt.value} gives P = {value}: the number of nodes must be a "
                         "whole number of at least 1", stmt.value_column)
    return int(value)


def _apply_input(stmt: Statement, key: str, given: dict, variables: dict | None,
                 constants: Mapping[str, int | float]) -> dict:
    what = f"input {key}"
    operand = _number(stmt, what)
    given = dict(given)
    have = key if key in given else next((k for k in given if k.split(".")[-1] == key), None)
    leaf = key.split(".")[-1]
    if have is None and stmt.op != "=" and leaf in constants:  # a PARAMETER's own value
        value = constants[leaf]
        given[leaf] = sp.Integer(value) if isinstance(value, int) else sp.Float(value)
        have = leaf
    if stmt.op != "=":
        if have is None:
            raise stmt.error(f"{key} {stmt.op} {stmt.value} needs a value of {key} to change",
                             hint=f"give it with --set {key}=VALUE, or write {key} = VALUE")
        key = have
    value = _combine(stmt, given.get(have) if have else None, operand)
    ftype = (variables or {}).get(key)
    if value.is_Integer:
        given[key] = sp.Integer(value)
    elif ftype == "INTEGER":
        raise stmt.error(f"{key} is an INTEGER input, and {stmt} gives {float(value):g}",
                         stmt.value_column, hint="use a value that gives a whole number")
    else:
        given[key] = sp.Float(float(value))
    if have is not None and have != key:
        del given[have]
    return given


def _apply_runtime(stmt: Statement, sag: SAG, name: str) -> SAG:
    r = sag.runtime_parameter(name)
    value = _combine(stmt, r.default, _number(stmt, f"run-time parameter {name}"))
    if not r.min <= value <= r.max:
        raise stmt.error(f"{stmt} gives {name} = {value}, outside its declared range "
                         f"[{r.min}, {r.max}]", stmt.value_column)
    try:
        return sag.with_runtime({name: value})
    except InterpError as err:  # a value the spec's expressions reject (procs = 1.5)
        raise stmt.error(err.message, stmt.value_column, hint=err.hint) from None


def _apply_parameter(stmt: Statement, sag: SAG, paths: list[str]) -> SAG:
    names = {r.name: r.symbol for r in sag.runtime}
    try:
        text = [p for p in paths if sag.param(p).is_text]
        if text and stmt.op != "=":
            p = sag.param(text[0])
            raise stmt.error(f"'{p.path}' is the choice '{p.text}': only '=' can change it")
        if stmt.op in ("*=", "/="):
            factor = _number(stmt, "a scale factor")
            if factor == 0 and stmt.op == "/=":
                raise stmt.error("division by zero", stmt.value_column)
            if factor < 0:
                raise stmt.error(f"a scale factor must not be negative: {stmt.value}", stmt.value_column)
            if stmt.op == "/=":
                factor = 1 / factor
            return sag.scaled({p: factor for p in paths})
        values = {}
        for path in paths:
            p = sag.param(path)
            if p.is_text:
                values[path] = stmt.value.strip()
                continue
            try:
                q = parse_value(stmt.value, p.kind, names)
            except ExprError as err:
                raise stmt.value_error(err, f"value for {path}: ") from None
            if stmt.op == "=":
                values[path] = stmt.value
            else:  # each end of the range moves by the amount, in the end's own unit
                sign = "+" if stmt.op == "+=" else "-"
                values[path] = tuple(f"({end.text}) {sign} ({_as_dim(stmt.value, q, end.dim)})"
                                     for end in (p.min, p.max))
        return sag.with_values(values)
    except WhatIfError:
        raise
    except InterpError as err:  # a value the spec checks reject (negative time, ...)
        raise stmt.error(err.message, stmt.value_column, hint=err.hint) from None


def _as_dim(text: str, q: Quantity, dim) -> str:
    """``text`` converted to ``dim`` with the clock period where times meet clock counts."""
    if q.dim == dim:
        return text
    if q.dim == units.TIME and dim == units.CLOCKS:
        return f"({text}) / Clk"
    if q.dim == units.CLOCKS and dim == units.TIME:
        return f"({text}) * Clk"
    return text


__all__ = ["OPERATORS", "Scenario", "Statement", "WhatIfError", "parse_whatif",
           "program_variables", "input_names"]
