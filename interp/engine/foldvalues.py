"""The values a folded loop leaves behind (the steady state's jump, steady.py).

A jump adds m iterations of a communicating loop in closed form: the clocks, statistics and
messages move on, but the values the skipped iterations would have assigned stayed as the last
interpreted iteration left them. A counter ``NC = NC + 2`` read after the loop
(``IF (NC .EQ. 2000)``) took the arm of its value after three iterations. So at each head of
the loop the scalars its iterations may change are noted (:class:`LoopValues`), and after a
jump of m iterations, whole periods of k, each is moved on:

* the same at the last two heads k apart: kept (a phase flag that repeats every k, too);
* two values in turn (``IPH = 1 - IPH`` in a loop of period 1): the one m/k periods on;
* changed by the same d over each of the last two periods: v + (m/k)·d, exact (a counter, an
  offset advanced each step);
* anything else is not known after the jump (a FoldedUnknown): a decision that reads it, or
  a value computed from it, makes the interpretation start again with that loop stepped to
  the end (values.Unfold, Inputs.unfolded), never the value of an earlier iteration.

Arrays keep the values they had (their elements are many; a decision on one after a folded
loop reads what the interpreted iterations left), and so do a class's values that depend on the
rank (classes.py: each member holds its own; the shadow's alone would not move them).
"""

from __future__ import annotations

from collections import deque

import sympy as sp

from interp.application import aau as A
from interp.application import ast
from interp.engine.dataflow import assigned
from interp.engine.values import FoldedUnknown, Frame, Lazy

_MISSING = object()
# The heads kept: a jump of whole periods of k looks back 2k heads, so periods of up to 4
# iterations, steady.PERIODS (a test holds it; a longer look back would find none: unknown).
HEADS = 2 * 4 + 1


class LoopValues:
    """The scalars an IterSync loop's iterations may change, noted at each of its heads."""

    def __init__(self, p, a: A.Iter, frame: Frame, index: str | None):
        self.a = a
        self.loop = folded_key(a)
        self.slots = _slots(p, a, frame, index)
        self.heads: deque[tuple] = deque(maxlen=HEADS)

    def note(self) -> None:
        """The loop is at a head: its scalars' values now."""
        if self.slots:
            self.heads.append(tuple(_get(store, key) for store, key in self.slots))

    def jumped(self, m, k: int) -> None:
        """``m`` iterations (whole periods of ``k``) were added in closed form from the last
        head noted: move each scalar on as those iterations would have."""
        heads = self.heads
        if not self.slots or not heads:
            return
        periods = m / k if k > 1 else m
        for j, (store, key) in enumerate(self.slots):
            if key in getattr(store, "tainted", ()):  # a class's shadow: each member holds its
                continue  # own value of a key that depends on the rank (classes.py); left as is
            now = heads[-1][j]
            before = heads[-1 - k][j] if len(heads) > k else _MISSING
            earlier = heads[-1 - 2 * k][j] if len(heads) > 2 * k else _MISSING
            value = _moved_on(now, before, earlier, periods)
            if value is None:
                value = FoldedUnknown(f"{key} changes from one iteration to the next of the "
                                      f"loop at line {self.a.loc.line}, whose later iterations "
                                      "were added in closed form (steady state)", self.loop, key)
            if value is not now:
                store[key] = value
        heads.clear()


def folded_key(a: A.Iter) -> tuple[str, int]:
    """A loop as ``Inputs.unfolded`` names it."""
    return (a.loc.file, a.loc.line)


def unfold_note(loop: tuple[str, int], name: str) -> str:
    return (f"line {loop[1]}: the loop's iterations are interpreted to the end, not folded by "
            f"the steady state: {name}, which they change in a way its closed form does not "
            "give, is read by a decision after it")


def _slots(p, a: A.Iter, frame: Frame, index: str | None) -> list[tuple]:
    """(store, key) of each scalar the loop may change: those it assigns, those it passes to a
    routine (by reference), and the COMMON scalars the routines it calls assign (the names
    kept on the loop's AAU: an inner loop is entered at every iteration of its outer one)."""
    names = a.__dict__.get("fold_names")
    if names is None:
        table = frame.table.symbols
        own = sorted(n for n in (set(assigned(a)) | _passed(a)) - {index}
                     if (sym := table.get(n)) is not None and not sym.is_array
                     and sym.kind != "parameter" and sym.constant is None)
        names = a.__dict__["fold_names"] = (own, sorted(_common_assigned(p, a) - set(own)))
    own, common = names
    return [(frame._store(n), n) for n in own] + [(frame.common, n) for n in common]


def _passed(a: A.Iter) -> set[str]:
    """The variables passed to a routine of the program or a library call (an MPI_ALLREDUCE's
    result), which may change them."""
    return {e.name for node in a.walk() if isinstance(node, (A.Call, A.LibraryAAU))
            for e in node.args if isinstance(e, ast.Var)}


def _common_assigned(p, a: A.Iter) -> set[str]:
    """COMMON scalars assigned in the routines the loop calls, at any depth."""
    out: set[str] = set()
    for unit in p.aag.callees(a):
        table = unit.symbols.symbols
        for top in unit.aaus:
            out.update(name for name in assigned(top) if (sym := table.get(name)) is not None
                       and sym.common is not None and not sym.is_array)
    return out


def _get(store, key: str):
    value = dict.get(store, key, _MISSING)  # (a shadow's store: not a read of the program's)
    return value.force() if type(value) is Lazy else value


def _moved_on(now, before, earlier, periods):
    """The value after ``periods`` more periods, or None when it does not follow."""
    if before is _MISSING or now is _MISSING or not _number(now):
        return now if before is now or (before is not _MISSING and before == now) else None
    if not _number(before):
        return None
    if _same(now, before):
        return now
    if earlier is _MISSING or not _number(earlier):
        return None
    if _same(now, earlier):  # two values in turn (IPH = 1 - IPH): the one m/k periods on
        if type(periods) is int or getattr(periods, "is_Integer", False):
            return now if int(periods) % 2 == 0 else before
        return before + (now - before) * (1 + sp.Integer(-1) ** periods) / 2
    step = now - before
    if not _same(step, before - earlier):
        return None
    value = now + periods * step
    if type(now) is int and getattr(value, "is_Integer", False):
        return int(value)
    if type(now) is float and getattr(value, "is_number", False):
        return float(value)
    return value


def _number(v) -> bool:
    return type(v) in (int, float) or isinstance(v, sp.Expr)


def _same(a, b) -> bool:
    if type(a) in (int, float) and type(b) in (int, float):
        return a == b
    return sp.expand(a - b) == 0
