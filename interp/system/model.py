"""The system abstraction model (Section 3.2.1): parameters, components, SAUs and the SAG.

An SAU is the tuple ⟨P, M, C/S, I/O⟩; each component is *simple*, *compound* or *void*, and the
SAG is the rooted tree of SAUs. Simple components export parameters; every parameter has the
dotted path ``<sau>.<component>.<group>.<name>``. Everything here is immutable: a what-if
(``scaled``, ``with_values``, ``with_runtime``) returns a new SAG.
"""

from __future__ import annotations

import difflib
import fnmatch
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, replace
from functools import cached_property
from typing import Literal

import sympy

from interp.errors import InterpError, SourceLocation
from interp.system import units
from interp.system.expr import CLK, ExprError, Quantity, parse_value
from interp.system.schema import VOCABULARY

Bound = Literal["min", "max", "mid"]
BOUNDS: tuple[str, ...] = ("min", "max", "mid")
ROLES: tuple[str, ...] = ("p", "m", "cs", "io")
OP_GROUPS: tuple[str, ...] = ("ops", "loop", "cond", "call", "library", "nx")
"""Groups of the processing component that :meth:`SAG.op_seconds` searches, in this order."""


class UnknownName(InterpError, LookupError):
    """A parameter path, SAU or run-time parameter that the SAG does not have."""


def _unknown(what: str, name: str, choices) -> UnknownName:
    close = difflib.get_close_matches(name, list(choices), n=3, cutoff=0.6)
    hint = "did you mean " + " or ".join(f"'{c}'" for c in close) + "?" if close else None
    return UnknownName(f"unknown {what} '{name}'", hint=hint)


def runtime_symbol(name: str) -> sympy.Symbol:
    """The symbol of run-time parameter ``name`` (e.g. ``load``) inside spec expressions."""
    return sympy.Symbol(name, real=True)


def param_symbol(path: str) -> sympy.Symbol:
    """The symbol standing for machine parameter ``path`` in symbolic formulas."""
    return sympy.Symbol(path, nonnegative=True)


def _check_bound(bound: str) -> None:
    if bound not in BOUNDS:
        raise ValueError(f"bound must be one of {BOUNDS}, not {bound!r}")


@dataclass(frozen=True)
class Parameter:
    """One exported value: a quantity or a ``[min, max]`` range of them, or a named choice."""

    path: str
    kind: str  # a key of units.KINDS, or units.TEXT
    min: Quantity | None = None
    max: Quantity | None = None
    text: str | None = None  # for kind TEXT (topology, routing, ...)
    clock_hz: sympy.Expr | None = None  # clock of the owning SAU, bound by bind_clocks
    assumption: bool = False
    note: str = ""
    location: SourceLocation | None = None

    @property
    def sau(self) -> str:
        return self.path.split(".")[0]

    @property
    def group(self) -> str:
        return self.path.split(".")[2]

    @property
    def name(self) -> str:
        return self.path.split(".")[3]

    @property
    def is_text(self) -> bool:
        return self.kind == units.TEXT

    @property
    def is_range(self) -> bool:
        return not self.is_text and (self.min.expr, self.min.dim) != (self.max.expr, self.max.dim)

    @property
    def runtime_symbols(self) -> set[sympy.Symbol]:
        if self.is_text:
            return set()
        return (self.min.expr.free_symbols | self.max.expr.free_symbols) - {CLK}

    def value(self, bound: Bound = "mid") -> sympy.Expr:
        """The value in its base unit: seconds for times (clocks converted), B, Hz or a number.

        ``mid`` is the paper's example of a user-defined bound: (max - min)/2 + min.
        """
        _check_bound(bound)
        if self.is_text:
            raise TypeError(f"{self.path} is the choice '{self.text}', not a number")
        lo, hi = self._base(self.min), self._base(self.max)
        return {"min": lo, "max": hi}.get(bound, (hi - lo) / 2 + lo)

    def seconds(self, bound: Bound = "mid") -> sympy.Expr:
        """The time in seconds; an expression in run-time symbols if the value is scaled by one."""
        if self.kind != "time":
            raise TypeError(f"{self.path} is a {self.kind}, not a time")
        return self.value(bound)

    def clocks(self, bound: Bound = "mid") -> sympy.Expr:
        return self.seconds(bound) * self._clock()

    @property
    def min_seconds(self) -> sympy.Expr:
        return self.seconds("min")

    @property
    def max_seconds(self) -> sympy.Expr:
        return self.seconds("max")

    @property
    def min_clocks(self) -> sympy.Expr:
        return self.clocks("min")

    @property
    def max_clocks(self) -> sympy.Expr:
        return self.clocks("max")

    def scaled(self, factor: sympy.Expr) -> Parameter:
        return replace(self, min=self.min.scaled(factor), max=self.max.scaled(factor), note=_whatif(self.note))

    def _clock(self) -> sympy.Expr:
        if self.clock_hz is None:
            raise ValueError(f"{self.path}: SAU '{self.sau}' has no clock (p.general.clock)")
        return self.clock_hz

    def _base(self, q: Quantity) -> sympy.Expr:
        expr = q.expr
        if self.kind != "time":
            return expr
        if CLK in expr.free_symbols:
            expr = expr.subs(CLK, 1 / self._clock())
        return expr / self._clock() if q.dim == units.CLOCKS else expr


def _whatif(note: str) -> str:
    return note if note.startswith("what-if") else ("what-if; " + note if note else "what-if")


@dataclass(frozen=True)
class Component:
    """One of P, M, C/S, I/O; a compound one may carry the parameters of collapsed sub-levels
    (the paper does so for the i860's memory hierarchy)."""

    role: str  # "p" | "m" | "cs" | "io"
    type: Literal["simple", "compound", "void"]
    parameters: tuple[Parameter, ...] = ()
    note: str = ""
    location: SourceLocation | None = None

    def groups(self) -> dict[str, list[Parameter]]:
        out: dict[str, list[Parameter]] = {}
        for p in self.parameters:
            out.setdefault(p.group, []).append(p)
        return out


@dataclass(frozen=True)
class SAU:
    """A System Abstraction Unit ⟨P, M, C/S, I/O⟩ and its sub-units (the relation φ)."""

    name: str
    p: Component
    m: Component
    cs: Component
    io: Component
    children: tuple[SAU, ...] = ()
    description: str = ""
    location: SourceLocation | None = None

    @property
    def components(self) -> tuple[Component, ...]:
        return (self.p, self.m, self.cs, self.io)

    @property
    def kind(self) -> str:
        """Compound if at least one component is compound (Section 3.2.1)."""
        return "compound" if any(c.type == "compound" for c in self.components) else "simple"

    def walk(self) -> Iterator[SAU]:
        yield self
        for child in self.children:
            yield from child.walk()

    def map_parameters(self, fn: Callable[[Parameter], Parameter]) -> SAU:
        comps = {c.role: replace(c, parameters=tuple(fn(p) for p in c.parameters)) for c in self.components}
        return replace(self, **comps, children=tuple(ch.map_parameters(fn) for ch in self.children))


def bind_clocks(sau: SAU) -> SAU:
    """Give every parameter the clock of its own SAU, so clock counts convert to seconds."""
    clock = next((p.value() for p in sau.p.parameters if p.path == f"{sau.name}.p.general.clock"), None)
    comps = {
        c.role: replace(c, parameters=tuple(replace(p, clock_hz=clock) for p in c.parameters)) for c in sau.components
    }
    return replace(sau, **comps, children=tuple(bind_clocks(ch) for ch in sau.children))


@dataclass(frozen=True)
class RuntimeParameter:
    """A run-time status value (e.g. ``load``) that spec expressions may depend on."""

    name: str
    default: sympy.Rational
    min: sympy.Rational
    max: sympy.Rational
    note: str = ""
    location: SourceLocation | None = None

    @property
    def symbol(self) -> sympy.Symbol:
        return runtime_symbol(self.name)


def parameter_problem(p: Parameter, runtime: tuple[RuntimeParameter, ...]) -> tuple[str, str] | None:
    """The first thing wrong with ``p``'s values as ``(bound, message)``, or None.

    Values that depend on run-time parameters are checked at their defaults and at the ends of
    their declared ranges.
    """
    if p.is_text:
        return None
    points = [{r.symbol: getattr(r, which) for r in runtime} for which in ("default", "min", "max")]
    for point in points:
        values = {}
        for bound in ("min", "max"):
            v = p.value(bound).subs(point)
            problem = _value_problem(v, p.kind, getattr(p, bound).text)
            if problem:
                return bound, problem + (f" (at {_point_text(point)})" if point else "")
            values[bound] = v
        if values["min"] > values["max"]:
            return "min", f"min ({p.min.text}) is greater than max ({p.max.text})"
    return None


def _value_problem(v: sympy.Expr, kind: str, text: str) -> str | None:
    if not (v.is_number and v.is_finite and v.is_real):
        return f"'{text}' is not a finite number"
    if kind == "frequency" and v <= 0:
        return f"a clock frequency must be positive, not '{text}'"
    if kind == "fraction" and not 0 <= v <= 1:
        return f"a fraction must lie between 0 and 1, not '{text}'"
    if v < 0:
        return f"a {kind} cannot be negative: '{text}'"
    if kind == "count" and not v.is_integer:
        return f"a count must be a whole number, not '{text}'"
    return None


def _point_text(point: Mapping[sympy.Symbol, sympy.Expr]) -> str:
    return ", ".join(f"{s} = {v}" for s, v in point.items())


@dataclass(frozen=True)
class SAG:
    """The System Abstraction Graph: a rooted tree of SAUs, read from a machine spec."""

    name: str
    title: str
    root: SAU
    nodes: str  # the SAU on which node processes (ranks 0..P-1) run
    host: str | None = None  # the SAU on which the host program runs
    host_link: str | None = None  # the SAU whose C/S prices host<->node messages
    runtime: tuple[RuntimeParameter, ...] = ()
    file: str = ""
    source: str = ""  # where the values come from

    # --- lookup -------------------------------------------------------------------------------

    @cached_property
    def _index(self) -> dict[str, Parameter]:
        return {p.path: p for sau in self.root.walk() for c in sau.components for p in c.parameters}

    def param(self, path: str) -> Parameter:
        try:
            return self._index[path]
        except KeyError:
            raise _unknown("machine parameter", path, self._index) from None

    def has(self, path: str) -> bool:
        return path in self._index

    def text(self, path: str, default: str) -> str:
        """A text parameter's value (a model choice), ``default`` when the spec leaves it out."""
        found = self._index.get(path)
        return found.text if found is not None else default

    def parameters(self) -> list[Parameter]:
        return list(self._index.values())

    def assumptions(self) -> list[Parameter]:
        return [p for p in self._index.values() if p.assumption]

    def saus(self) -> list[SAU]:
        return list(self.root.walk())

    def sau(self, name: str) -> SAU:
        found = {s.name: s for s in self.root.walk()}
        if name not in found:
            raise _unknown("SAU", name, found)
        return found[name]

    def runtime_parameter(self, name: str) -> RuntimeParameter:
        found = {r.name: r for r in self.runtime}
        if name not in found:
            raise _unknown("run-time parameter", name, found)
        return found[name]

    # --- values -------------------------------------------------------------------------------

    def runtime_values(self, overrides: Mapping[str, object] | None = None) -> dict[sympy.Symbol, sympy.Expr]:
        values = {r.symbol: r.default for r in self.runtime}
        for name, value in (overrides or {}).items():
            values[self.runtime_parameter(name).symbol] = _number(value, f"run-time parameter '{name}'")
        return values

    @cached_property
    def _values(self) -> dict[tuple[str, str, str], sympy.Expr]:
        """Values at the run-time defaults, memoised: the engine asks for the same ones often."""
        return {}

    def value(self, path: str, bound: Bound = "mid", runtime: Mapping[str, object] | None = None) -> sympy.Expr:
        """A numeric value in its base unit, run-time parameters at their defaults or ``runtime``."""
        if runtime is None:
            key = ("value", path, bound)
            if key not in self._values:
                self._values[key] = self.param(path).value(bound).subs(self.runtime_values())
            return self._values[key]
        return self.param(path).value(bound).subs(self.runtime_values(runtime))

    def seconds(self, path: str, bound: Bound = "mid", runtime: Mapping[str, object] | None = None) -> sympy.Expr:
        """A time in seconds, run-time parameters at their defaults or ``runtime``."""
        if runtime is None:
            key = ("seconds", path, bound)
            if key not in self._values:
                self._values[key] = self.param(path).seconds(bound).subs(self.runtime_values())
            return self._values[key]
        return self.param(path).seconds(bound).subs(self.runtime_values(runtime))

    def op_path(self, op: str, sau: str | None = None) -> str:
        """The path of processing op ``op``: ``"mul"``, or ``"library.sqrt"`` (unlisted library
        functions fall back to ``library.default``)."""
        sau = sau or self.nodes
        if "." in op:
            group, name = op.split(".", 1)
            path = f"{sau}.p.{group}.{name}"
            if group == "library" and not self.has(path):
                return f"{sau}.p.library.default"
            return self.param(path).path
        found = [f"{sau}.p.{g}.{op}" for g in OP_GROUPS if self.has(f"{sau}.p.{g}.{op}")]
        if len(found) == 1:
            return found[0]
        if found:
            raise UnknownName(f"op '{op}' is ambiguous in SAU '{sau}'", hint="name its group: " + " or ".join(found))
        names = [p.path.split(".", 2)[2] for p in self.parameters() if p.sau == sau and p.group in OP_GROUPS]
        raise _unknown(f"processing op of SAU '{sau}'", op, [n.split(".")[1] for n in names] + names)

    def op_seconds(self, op: str, bound: Bound = "mid", sau: str | None = None) -> sympy.Expr:
        """Seconds for one processing op (Table 1 classes) on ``sau`` (default: the node SAU)."""
        return self.seconds(self.op_path(op, sau), bound)

    # --- symbols (sensitivity analysis) -------------------------------------------------------

    def symbol(self, path: str) -> sympy.Symbol:
        return param_symbol(self.param(path).path)

    def substitutions(self, bound: Bound = "mid") -> dict[sympy.Symbol, sympy.Expr]:
        """Values for :meth:`symbol` and run-time symbols, run-time parameters at their defaults."""
        runtime = self.runtime_values()
        subs = {param_symbol(p.path): p.value(bound).subs(runtime) for p in self._index.values() if not p.is_text}
        subs.update(runtime)
        return subs

    # --- what-if (new SAGs) -------------------------------------------------------------------

    def scaled(self, factors: Mapping[str, object]) -> SAG:
        """Multiply parameters by factors; a path may be a glob (``node.cs.*.per_byte``)."""
        table = {}
        for pattern, factor in factors.items():
            for path in self._matching(pattern):
                p = self._index[path]
                if p.is_text:
                    raise InterpError(f"cannot scale '{path}': it is the choice '{p.text}'")
                table[path] = self._checked(p.scaled(_factor(path, factor)))
        return self._remade(lambda p: table.get(p.path, p))

    def with_values(self, values: Mapping[str, object]) -> SAG:
        """Replace parameter values: ``{"node.cs.static.startup": "35e-6 s"}``, or a
        ``(min, max)`` pair; written like spec values and checked like them."""
        table = {self.param(path).path: self._new_value(self._index[path], v) for path, v in values.items()}
        return self._remade(lambda p: table.get(p.path, p))

    def with_runtime(self, values: Mapping[str, object]) -> SAG:
        """Set run-time parameters (e.g. ``{"load": 0.5}``) within their declared ranges."""
        new = {r.name: r for r in self.runtime}
        for name, value in values.items():
            r = self.runtime_parameter(name)
            v = _number(value, f"run-time parameter '{name}'")
            if not r.min <= v <= r.max:
                raise InterpError(f"run-time parameter '{name}' = {value} is outside [{r.min}, {r.max}]")
            new[name] = replace(r, default=v)
        sag = replace(self, runtime=tuple(new.values()))
        changed = {new[name].symbol for name in values}
        for p in self._index.values():  # e.g. procs = 1.5 would make max_procs no count
            if p.runtime_symbols & changed:
                problem = parameter_problem(p, sag.runtime)
                if problem:
                    raise InterpError(f"{p.path}: {problem[1]}", hint=f"{p.path} depends on "
                                      + ", ".join(sorted(s.name for s in p.runtime_symbols & changed)))
        return sag

    def _matching(self, pattern: str) -> list[str]:
        if not any(ch in pattern for ch in "*?["):
            return [self.param(pattern).path]
        found = fnmatch.filter(self._index, pattern)
        if not found:
            raise _unknown("machine parameter pattern", pattern, self._index)
        return found

    def _new_value(self, p: Parameter, value: object) -> Parameter:
        if p.is_text:
            choices = choices_of(p)
            if choices and value not in choices:
                raise InterpError(f"what-if value for '{p.path}': '{value}' is not one of {', '.join(choices)}")
            return replace(p, text=str(value), note=_whatif(p.note))
        low, high = value if isinstance(value, tuple) else (value, value)
        names = {r.name: r.symbol for r in self.runtime}
        try:
            lo, hi = (parse_value(str(v), p.kind, names) for v in (low, high))
        except ExprError as err:
            raise InterpError(f"what-if value for '{p.path}': {err.message}", hint=err.hint) from None
        return self._checked(replace(p, min=lo, max=hi, note=_whatif(p.note)))

    def _checked(self, p: Parameter) -> Parameter:
        problem = parameter_problem(p, self.runtime)
        if problem:
            raise InterpError(f"what-if value for '{p.path}': {problem[1]}")
        return p

    def _remade(self, fn: Callable[[Parameter], Parameter]) -> SAG:
        # Clocks are re-bound so that a what-if on a clock rescales every clock count.
        return replace(self, root=bind_clocks(self.root.map_parameters(fn)))


def choices_of(p: Parameter) -> tuple[str, ...]:
    """The allowed values of a named-choice parameter (empty: any text)."""
    role, group, name = p.path.split(".")[1:]
    return VOCABULARY[role][group].field_for(name).choices


def _factor(path: str, factor: object) -> sympy.Expr:
    return factor if isinstance(factor, sympy.Basic) else _number(factor, f"scale factor for '{path}'")


def _number(value: object, what: str) -> sympy.Rational:
    """An exact number from a Python number or decimal text (never evaluated as code)."""
    if isinstance(value, sympy.Rational):
        return value
    try:
        return sympy.Rational(str(value))
    except (TypeError, ValueError):
        raise InterpError(f"{what} must be a number, not {value!r}") from None
