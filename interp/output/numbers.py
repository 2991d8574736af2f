"""Numbers from a prediction: times may be floats or SymPy expressions in the inputs.

Every view converts through :class:`Numbers`, which evaluates at the inputs given (the formula
and the number are one result) and caches, since traces and listings ask for the same
expressions many times.
"""

from __future__ import annotations

import math

from interp.application.expr import as_sympy
from interp.engine.predict import Prediction
from interp.errors import InterpError


class Numbers:
    def __init__(self, pred: Prediction):
        self.pred = pred
        self._cache: dict = {}

    def get(self, x) -> float | None:
        """The value of ``x`` at the inputs given, or None when it stays symbolic."""
        if x is None:
            return None
        if isinstance(x, (int, float)) and not isinstance(x, bool):
            return float(x)
        try:
            return self._cache[x]
        except (KeyError, TypeError):
            pass
        v = self.pred.evaluate(x)
        try:
            out = float(v) if v.is_number else None
        except TypeError:  # a non-real number
            out = None
        try:
            self._cache[x] = out
        except TypeError:
            pass
        return out

    def __call__(self, x, what: str = "this output") -> float:
        """The value of ``x``; an error that names the missing inputs when it has none."""
        v = self.get(x)
        if v is None:
            expr = self.pred.evaluate(as_sympy(x))
            names = sorted(s.name for s in expr.free_symbols)
            raise InterpError(
                f"{what} needs numbers, but the predicted times depend on inputs that were not "
                f"given: {', '.join(names)}",
                hint="give their values with " + " ".join(f"--set {n}=..." for n in names))
        return v


ENGINEERING_FROM = 1e6  # seconds from which a time is written as mantissa e exponent


def seconds_text(value: float | None) -> str:
    """A time for people, in s, ms or us (``symbolic`` when it is not a number)."""
    if value is None:
        return "symbolic"
    if value == 0:
        return "0"
    if abs(value) >= ENGINEERING_FROM:  # 4e11 s, not 400000000000.0000 s
        exp = 3 * (math.floor(math.log10(abs(value))) // 3)
        return f"{value / 10 ** exp:.4f}e{exp} s"
    if abs(value) >= 1:
        return f"{value:.4f} s"
    if abs(value) >= 1e-3:
        return f"{value * 1e3:.4f} ms"
    return f"{value * 1e6:.3f} us"


def count_text(c: float | None) -> str:
    """An execution count for people: whole numbers with thousands separators."""
    if c is None:
        return ""
    c = float(c)
    return f"{c:,.0f}" if c.is_integer() else f"{c:.4g}"


def require_numbers(pred: Prediction, what: str) -> Numbers:
    """A :class:`Numbers` for ``pred``, after checking that its headline time is a number."""
    nums = Numbers(pred)
    nums(pred.total, what)
    for p in pred.processes:
        nums(p.finish if p.finish is not None else 0.0, what)
    return nums
