"""Data-dependent decisions as named symbols of the formula.

An IF whose condition tests run-time data interp does not follow (EP's acceptance test, a
residual check) cannot be decided before run time. Its arms are weighted by *branch
probabilities*: ``p_<file>_<line>`` is the fraction of the IF's executions in which the arm
whose condition is on that line runs (``p_ep_f_170`` for ``ep.f`` line 170); the ELSE arm (or
falling through, when there is none) gets what is left, ``1 − Σ p``. A DO loop whose limits are
run-time data (CG's sparse rows) runs ``n_<file>_<line>`` times per execution, its *trip count*
(default 1), when its body's time does not depend on the index. Each is a symbol of the
formula, printed with its source line, settable with ``--set p_ep_f_170=0.8`` and measurable
with ``interp profile``. Default: every arm equally often (0.5 for IF … THEN … [ELSE] …), the
paper's heuristic, so a prediction does not change unless a value is given.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

import sympy as sp

from interp.application import aau as A
from interp.application.ast import expr_text

PREFIX = {"branch probability": "p", "trip count": "n"}
NAME = re.compile(r"^[PN]_\w+_\d+$", re.IGNORECASE)
TRIP_DEFAULT = 1.0  # iterations of a DO loop whose limits are data, unless set or measured  # a data symbol's name, as --set gives it


@dataclass(frozen=True)
class DataSymbol:
    """One data-dependent quantity: where it is, what it means, its default."""

    name: str  # p_ep_f_170
    kind: str  # branch probability
    file: str
    line: int
    default: float
    what: str  # what it measures, in words
    head: int  # the IF's line: its executions (interp profile measures both lines' counts)
    arm: int | None  # the first line of the arm's body: the executions that take the arm

    @property
    def symbol(self) -> sp.Symbol:
        return sp.Symbol(self.name, nonnegative=True)

    def to_json(self) -> dict:
        return {"name": self.name, "kind": self.kind, "file": self.file, "line": self.line,
                "default": self.default, "what": self.what}


def symbol_name(kind: str, file: str, line: int) -> str:
    """``p_ep_f_170``: the kind's letter, the file's name (non-alphanumerics as _), the line."""
    stem = re.sub(r"\W", "_", Path(file).name).lower()
    return f"{PREFIX[kind]}_{stem}_{line}"


def branch_symbols(a: A.Condt) -> list[DataSymbol]:
    """The probabilities of an IF's conditional arms (the ELSE arm's is what is left)."""
    conditional = [b for b in a.branches if b.cond is not None]
    arms = len(conditional) + 1  # with the ELSE arm, or falling through when there is none
    out = []
    for k, b in enumerate(conditional):
        where = "THEN" if k == 0 else f"ELSE IF (line {b.loc.line})"
        out.append(DataSymbol(
            symbol_name("branch probability", b.loc.file, b.loc.line), "branch probability",
            b.loc.file, b.loc.line, 1.0 / arms,
            f"fraction of the executions of the IF at line {a.loc.line} that take its {where} "
            f"arm, IF ({expr_text(b.cond)})", a.loc.line,
            b.body[0].loc.line if b.body else None))
    return out


def trip_symbol(a: A.Iter) -> DataSymbol:
    """The mean iteration count of a DO loop whose limits are run-time data."""
    limits = ", ".join(expr_text(e) for e in (a.start, a.stop, a.step) if e is not None)
    return DataSymbol(
        symbol_name("trip count", a.loc.file, a.loc.line), "trip count", a.loc.file,
        a.loc.line, TRIP_DEFAULT, f"iterations per execution of DO {a.var} = {limits}, whose "
        "limits are run-time data", a.loc.line, a.body[0].loc.line if a.body else None)


def given_value(given: dict, name: str):
    """The user's value for data symbol ``name`` (``--set`` names are upper case), or None."""
    value = given.get(name)
    return value if value is not None else given.get(name.upper())
