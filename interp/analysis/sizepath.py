"""Problem size as a vector χ scaled along a path, and the search for the size on the path at
which an efficiency reaches a target (seeds 002 and 004, docs/scalability.md).

A path names some of the program's inputs as expressions in one whole-number parameter ``t``::

    N=t             the paper's GE and APSP (scale N)
    M=t, N=t, I=20  its EM on the KSR-1 (fix I, scale M = N)
    N=64*t, NITER=10
    NX_DEFAULT=2^t, LM=t-floor(log2(P)/3)   NPB MG: sizes a program derives from P as well

Expressions go through the spec-value grammar (:func:`interp.system.expr.parse_quantity`) with
``t`` and ``P`` as its only names (``P``: the processes of the prediction, 1 for ``T_s``; NPB's
``npbparams.h`` has constants setparams derives from the process count): nothing the user
writes is evaluated as code.

The search (:func:`find_size`) assumes the efficiency grows with ``t`` (Definition 5 of seed
004: a scalable combination reaches any E it can by growing the problem): it doubles ``t``
until the target is reached, then bisects to the smallest whole ``t`` that reaches it. A
target that no size reaches is an answer (``unreachable``, with the best efficiency seen), not
a loop: the doubling stops at ``t_max``, or early when the efficiency has stopped growing.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

import sympy as sp

from interp.errors import InterpError
from interp.system import units
from interp.system.expr import ExprError, parse_quantity

T = sp.Symbol("t", positive=True, integer=True)
P = sp.Symbol("P", positive=True, integer=True)
EXAMPLE = "e.g. --path 'N=t' or --path 'M=t, N=t, I=20'"
T_MAX = 2**40
STALL = 3  # doublings without growth after which a target is declared unreachable
_NAME = re.compile(r"\s*([A-Za-z][A-Za-z0-9_$]*(?:\.[A-Za-z][A-Za-z0-9_$]*)?)\s*=")


@dataclass(frozen=True)
class SizePath:
    """χ(t): each named input as an expression in ``t``."""

    text: str
    exprs: tuple[tuple[str, sp.Expr], ...]
    option: str = "--path"  # the option that gave it, for messages (latency-metric: --scale)

    def at(self, t: int, nprocs: int = 1) -> dict[str, sp.Expr]:
        """χ(t) on ``nprocs`` processes, as the engine takes inputs: whole numbers exact,
        others as floats."""
        out = {}
        for name, expr in self.exprs:
            v = sp.nsimplify(expr.xreplace({T: sp.Integer(t), P: sp.Integer(nprocs)}))
            out[name] = v if v.is_Integer else sp.Float(v)
        return out

    def show(self, t: int, nprocs: int = 1) -> str:
        """χ(t) as ``M=244, N=20``: the inputs that grow with ``t`` (the constants are in the
        path's text), those of equal value as one ``NX=NY=NZ=32``."""
        values = self.at(t, nprocs)
        groups: dict[str, list[str]] = {}
        for name, expr in self.exprs:
            if T in expr.free_symbols:
                groups.setdefault(_plain(values[name]), []).append(name)
        return ", ".join("=".join(names) + f"={v}" for v, names in groups.items())

    @property
    def per_process(self) -> bool:
        """Whether some input depends on P, so that χ(t) is not the same for every P."""
        return any(P in e.free_symbols for _, e in self.exprs)

    @property
    def names(self) -> list[str]:
        return [name for name, _ in self.exprs]


def _plain(v: sp.Expr) -> str:
    return str(int(v)) if v.is_Integer else f"{float(v):g}"


def parse_path(text: str, option: str = "--path") -> SizePath:
    """``NAME=EXPR, NAME=EXPR, ...`` with EXPR a number or an expression in ``t``;
    ``option`` names the option that gave it in messages."""
    exprs, pos = [], 0
    where = f"{option} {text!r}"
    example = EXAMPLE.replace("--path", option)
    for part in text.split(","):
        m = _NAME.match(part)
        if not m:
            raise InterpError(f"{where}: expected NAME=EXPR at column {pos + 1}", hint=example)
        name = m.group(1).upper()
        if any(name == n for n, _ in exprs):
            raise InterpError(f"{where}: {name} is given twice", hint=example)
        body = part[m.end():]
        try:
            q = parse_quantity(body, {"t": T, "P": P})
        except ExprError as err:
            # (the spec grammar's own hints are about units, which a size has none of)
            column = pos + m.end() + err.offset + 1
            raise InterpError(f"{where}, column {column}: {err.message}",
                              hint="a size is a whole-number expression in t (and P; floor, "
                                   f"ceil, log2), {example}") from None
        if q.dim != units.NONE:
            raise InterpError(f"{where}: {name} = {body.strip()} has a unit "
                              f"({units.dim_name(q.dim)})", hint="sizes are plain numbers")
        exprs.append((name, q.expr))
        pos += len(part) + 1
    if not any(T in e.free_symbols for _, e in exprs):
        raise InterpError(f"{where}: no input grows with t", hint=example)
    return SizePath(text.strip(), tuple(exprs), option)


@dataclass(frozen=True)
class Root:
    """The size on the path for one target. ``status``: ``found`` (the smallest ``t`` whose
    efficiency reaches the target), ``smallest`` (the smallest size on the path already
    exceeds it: the paper's Tables 3, 6, 9 and 10 keep it), or ``unreachable`` (no size up to
    the search's limit reaches it; ``t`` is where the best efficiency was seen)."""

    t: int
    status: str
    efficiency: float

    @property
    def reached(self) -> bool:
        return self.status != "unreachable"


def find_size(efficiency: Callable[[int], float], target: float, t_min: int = 1,
              t_max: int = T_MAX) -> Root:
    """The smallest whole ``t`` in ``[t_min, t_max]`` with ``efficiency(t) >= target``."""
    lo, e_lo = t_min, efficiency(t_min)
    if e_lo >= target:
        return Root(t_min, "smallest", e_lo)
    best, stalled = (e_lo, lo), 0
    hi = lo
    while True:
        if hi >= t_max:
            return Root(best[1], "unreachable", best[0])
        hi = min(2 * hi, t_max)
        e_hi = efficiency(hi)
        if e_hi >= target:
            break
        stalled = stalled + 1 if e_hi <= best[0] * (1 + 1e-9) else 0
        if e_hi > best[0]:
            best = (e_hi, hi)
        if stalled >= STALL:
            return Root(best[1], "unreachable", best[0])
        lo = hi
    while hi - lo > 1:  # efficiency(lo) < target <= efficiency(hi)
        mid = (lo + hi) // 2
        e = efficiency(mid)
        if e >= target:
            hi, e_hi = mid, e
        else:
            lo = mid
    return Root(hi, "found", e_hi)
