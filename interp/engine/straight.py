"""FUNCTION values of straight-line bodies, worked out without stepping Ω.

NPB's RANDLC is a dozen scalar assignments: no branch, loop, call or COMMON. Working out its
value through Ω (a frame, each AAU stepped, the process's clock, statistics and notes saved
and put back: :func:`interp.engine.omega.function_value`) was 45% of CG's time (SPRNVC draws
two values a column) and much of EP's (the seed of every batch). Here the body's statements
run in order with the rules Ω's statements use (``numeric_value``, then ``assigned_value``
for the target's type, over a frame made the same way): the same values, or None, and Ω
works the reference out as before, whenever a value is not a number.

Such a body's outcome (its value and what it leaves in its dummies) depends on its
arguments alone, so it is remembered by their values: EP's ``T2 = RANDLC(T2, T2)`` runs
through the same seeds in every batch, and CG's ranks each draw the whole matrix's seeds.
What :func:`compiled_outcome` computes reads nothing but the unit and the arguments, so it is
kept for every process and bound (on the AAG); what :func:`outcome` computes through a frame
(the process's library values) is kept per process.
"""

from __future__ import annotations

from dataclasses import dataclass

from interp.application import aau as A
from interp.application import ast
from interp.application.expr import (
    NOT_NUMERIC, assigned_value, is_numeric_intrinsic, numeric_evaluator, numeric_value,
    python_value, walk,
)
from interp.engine.process import data_values

MEMO_LIMIT = 100_000  # outcomes remembered per memo (bounded: a memo full is emptied)


@dataclass(frozen=True)
class Body:
    """A FUNCTION body Ω would step as Start, Seqs, End without a decision."""

    stmts: tuple[ast.Stmt, ...]  # every statement of its Seqs, in order
    steps: int  # the AAU executions Ω counts for it (stepbudget): counted the same here
    assigns: tuple[tuple[str, str, ast.Expr], ...] = ()  # (target, its type, value), in order


def straight_body(aag, name: str) -> Body | None:
    """The straight-line body of the FUNCTION ``name``, or None (cached on the AAG)."""
    cache = aag.__dict__.setdefault("_straight_bodies", {})
    if name not in cache:
        cache[name] = _straight(aag.units.get(name))
    return cache[name]


def _straight(unit) -> Body | None:
    if unit is None or unit.kind != "FUNCTION":
        return None
    table = unit.symbols
    if any(sym.common is not None for sym in table.symbols.values()):
        return None
    if any(table.symbols.get(d) is None or table.symbols[d].is_array for d in unit.unit.dummies):
        return None
    stmts: list[ast.Stmt] = []
    steps = 0
    for a in unit.aaus:
        steps += 1
        if isinstance(a, A.End):
            if a.kind == "return":
                break  # Ω's chain ends at the RETURN
            if a.kind != "end":
                return None
            continue
        if isinstance(a, A.Start):
            continue
        if not isinstance(a, A.Seq) or not all(_plain(s, table) for s in a.stmts):
            return None
        stmts += a.stmts
    return Body(tuple(stmts), steps, tuple(
        (s.target.name, table.lookup(s.target.name, s.target.loc).type, s.value)
        for s in stmts if isinstance(s, ast.Assign)))


def _plain(s: ast.Stmt, table) -> bool:
    """An assignment to a scalar from intrinsics of numbers, or a statement Ω's data flow
    does nothing with (WRITE, CONTINUE, FORMAT)."""
    if isinstance(s, (ast.Read, ast.FileOp, ast.CallStmt, ast.AssignLabel)):
        return False
    if not isinstance(s, ast.Assign):
        return True
    sym = table.symbols.get(s.target.name)
    if not isinstance(s.target, ast.Var) or sym is None or sym.is_array:
        return False
    return all(not isinstance(n, ast.Ref) or (is_numeric_intrinsic(n.name)
                                            and not _declared_array(n.name, table))
               for n in walk(s.value))


def _declared_array(name: str, table) -> bool:
    sym = table.symbols.get(name)
    return sym is not None and sym.is_array


def shared_outcomes(aag) -> dict:
    """The outcomes :func:`compiled_outcome` found, by :func:`memo_key`, for every process
    and bound of the program's interpretations (they depend on the unit and the arguments
    alone; cached on the AAG, as the bodies are)."""
    return aag.__dict__.setdefault("_straight_outcomes", {})


def compiled_outcome(p, unit, body: Body, args: list) -> dict | None:
    """What the body's assignments leave (name → value) when run on the Python numbers
    ``args`` from the unit's DATA values, as :func:`outcome` computes it, over a dictionary
    instead of a frame (``numeric_value``'s evaluators are compiled once per expression);
    None where that would read a value that is not a number (then :func:`outcome` or Ω
    decide)."""
    try:
        env = dict(p.cm.memo(("straight start", id(unit)), lambda: {
            k: python_value(v) for k, v in data_values(unit).items()}))
        env.update(zip(unit.unit.dummies, args))
        get = env.get
        for target, ftype, evaluate in p.cm.memo(("straight evaluators", id(unit)), lambda: [
                (target, ftype, numeric_evaluator(value, unit.symbols))
                for target, ftype, value in body.assigns]):
            env[target] = assigned_value(evaluate(get), ftype)  # numeric_value's None: raised
    except NOT_NUMERIC:
        return None
    return env


def outcome(p, unit, body: Body, args: list):
    """The frame the body leaves when run with its dummies bound to the numbers ``args``, or
    None when a value is not a number (Ω then works it out)."""
    inner = p.frame_for(unit)
    inner.log = None  # data flow, not a control decision (as Process.exec_stmt)
    for dummy, value in zip(unit.unit.dummies, args):
        inner.set(dummy, value)
    resolve = inner.resolver(p.library_values())
    table = unit.symbols
    for s in body.stmts:
        if not isinstance(s, ast.Assign):
            continue
        value = numeric_value(s.value, table, resolve)
        if value is None:
            return None
        try:
            value = assigned_value(value, table.lookup(s.target.name, s.target.loc).type)
        except (ZeroDivisionError, TypeError):
            return None
        inner.set(s.target.name, value)
    return inner


def memo_key(name: str, args: list) -> tuple | None:
    """The arguments as a key: Python numbers only (a float by its repr: -0.0 is not 0.0)."""
    key: list = [name]
    for v in args:
        t = type(v)
        if t is float:
            key.append(repr(v))
        elif t is int or t is bool:
            key.append((t, v))
        else:
            return None
    return tuple(key)


class Left:
    """What a straight-line body left in its name and dummies (scalars, all bound): what
    ``omega._copy_back`` reads of a finished frame."""

    __slots__ = ("values",)

    def __init__(self, values: dict) -> None:
        self.values = values

    def get(self, key: str) -> object | None:
        return self.values.get(key)

    def elements(self, name: str) -> dict[str, object]:
        return {"": self.values[name]}
