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
paper's heuristic, so a prediction does not change unless a value is given — except an arm that
*leaves a counted DO loop early* (a GO TO past the loop's end, a RETURN or a STOP in an IF inside
a DO loop: a convergence or early-exit test, LU's residual check in its time-step loop): its
default is 0, the loop runs its full count, as NPB and most iterative codes do; the other arms
share the rest equally. The reason is said in the symbol's description.

An IF on data that must be decided while the program is followed step by step — an arm leaves
or restarts the loop it is in (the closed form has no flow to weigh), or an arm assigns an
INTEGER or LOGICAL scalar interp follows and a later decision reads (a GO TO loop's counter) —
is decided deterministically from its probabilities by *error diffusion*, per IF and process
(:func:`diffuse`): each execution takes the arm whose taken-count is furthest below
probability × executions by a whole execution, else the most probable arm, so the arms are
taken in the right proportions (an arm of probability p first at the (1/p)-th execution), and
the values the taken arm assigns are followed. The decision path then depends on the probability's number,
so such a symbol enters the formula as its number (a note says so).
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


def branch_symbols(a: A.Condt, leaves: dict[int, A.Iter] | None = None) -> list[DataSymbol]:
    """The probabilities of an IF's conditional arms (the ELSE arm's is what is left).
    ``leaves``: the arms (by index) that leave a counted DO loop early (:func:`leaving_arms`),
    whose default is 0."""
    leaves = leaves or {}
    conditional = [b for b in a.branches if b.cond is not None]
    arms = len(conditional) + 1  # with the ELSE arm, or falling through when there is none
    staying = arms - sum(1 for k in leaves if k < arms)
    out = []
    for k, b in enumerate(conditional):
        where = "THEN" if k == 0 else f"ELSE IF (line {b.loc.line})"
        what = (f"fraction of the executions of the IF at line {a.loc.line} that take its "
                f"{where} arm, IF ({expr_text(b.cond)})")
        default = 1.0 / arms
        if leaves and staying:
            default = 0.0 if k in leaves else 1.0 / staying
        if k in leaves:
            loop = leaves[k]
            what += (f"; the arm leaves the DO {loop.var} loop (line {loop.loc.line}) early, an "
                     "early-exit test: default 0, the loop runs its full count")
        out.append(DataSymbol(
            symbol_name("branch probability", b.loc.file, b.loc.line), "branch probability",
            b.loc.file, b.loc.line, default, what, a.loc.line,
            b.body[0].loc.line if b.body else None))
    return out


def _counted(loop: A.AAU) -> bool:
    return (isinstance(loop, A.Iter) and loop.var is not None and loop.cond is None
            and loop.limit_type != "goto")


def enclosing_loops(units) -> dict[int, tuple[A.Iter, ...]]:
    """Every IF's enclosing loops in its unit, outermost first, by the IF's AAU id."""
    out: dict[int, tuple[A.Iter, ...]] = {}

    def visit(aaus: list[A.AAU], stack: tuple[A.Iter, ...]) -> None:
        for x in aaus:
            if isinstance(x, A.Iter):
                visit(x.body, stack + (x,))
            elif isinstance(x, A.Condt):
                out[x.id] = stack
                for b in x.branches:
                    visit(b.body, stack)

    for unit in units:
        visit(unit.aaus, ())
    return out


def _labels_in(loop: A.Iter) -> set[int]:
    """The labels a GO TO can reach without leaving ``loop``'s body."""
    found: set[int] = set()
    for x in loop.body:
        for m in x.walk():
            found.update(m.labels)
            if isinstance(m, A.Iter) and m.head_label is not None:
                found.add(m.head_label)
    return found


def leaving_arms(a: A.Condt, loops: tuple[A.Iter, ...]) -> dict[int, A.Iter]:
    """The arms of ``a`` (by index) that leave one of its enclosing counted DO loops
    (``loops``, outermost first) early — a GO TO past its end, a RETURN or a STOP — each with
    the outermost such loop it leaves."""
    counted = [x for x in loops if _counted(x)]
    if not counted:
        return {}
    out: dict[int, A.Iter] = {}
    for k, b in enumerate(a.branches):
        for m in b.body:  # the arm itself leaves (a nested IF's exit only may: not counted)
            if not isinstance(m, A.End) or m.kind == "end":
                continue
            if not m.kind.startswith("exit:"):  # RETURN, STOP: every loop is left
                out[k] = counted[0]
                break
            label = int(m.kind.removeprefix("exit:"))
            left = next((x for x in counted if label not in _labels_in(x)), None)
            if left is not None:
                out[k] = left
                break
    return out


def diffuse(weights: list[float], counts: list[int]) -> int:
    """Error diffusion: the arm (index into ``weights``, the arms' probabilities) to take at
    this execution, given how often each was taken before (``counts``). Each arm is owed
    probability × executions − its count; the arm owed most among those owed a whole
    execution is taken, else the most probable arm (on a tie, the later: the ELSE, falling
    through — the program goes on as written). So the arms are taken in their proportions,
    and an arm of probability p is first taken at the (1/p)-th execution, the mean wait of
    a test that succeeds with probability p (p = 1: at once; p = 0: never)."""
    n = sum(counts) + 1
    owed = [w * n - c for w, c in zip(weights, counts)]
    due = [k for k, d in enumerate(owed) if d >= 1 - 1e-9]
    if due:
        top = max(owed[k] for k in due)
        return max(k for k in due if owed[k] >= top - 1e-12)
    top = max(weights)
    return max(k for k, w in enumerate(weights) if w >= top - 1e-12)


def trip_symbol(a: A.Iter) -> DataSymbol:
    """The mean iteration count of a DO loop whose limits are run-time data."""
    limits = ", ".join(expr_text(e) for e in (a.start, a.stop, a.step) if e is not None)
    return DataSymbol(
        symbol_name("trip count", a.loc.file, a.loc.line), "trip count", a.loc.file,
        a.loc.line, TRIP_DEFAULT, f"iterations per execution of DO {a.var} = {limits}, whose "
        "limits are run-time data", a.loc.line, a.body[0].loc.line if a.body else None)


def loop_test_symbol(a: A.Iter, bounded: bool) -> DataSymbol:
    """The fraction of the tests of a DO WHILE or GO TO loop (``IF (RESID .GT. TOL) GO TO
    10``) that go on, where the test reads run-time data: a convergence loop. Default 1 when
    a part of the test interp follows (``IT .LT. MAXIT``) ends the loop: it runs to that bound,
    as a counted DO loop with an early-exit test; else 0.5 (two iterations a run)."""
    cond = a.cond
    what = (f"fraction of the tests of the loop at line {a.loc.line}, ({expr_text(cond)}) at "
            f"line {cond.loc.line}, that go on to another iteration, where its run-time data "
            "decide it")
    what += ("; default 1: the loop runs until the part of the test interp follows ends it"
             if bounded else "; default 0.5: two iterations")
    return DataSymbol(
        symbol_name("branch probability", cond.loc.file, cond.loc.line), "branch probability",
        cond.loc.file, cond.loc.line, 1.0 if bounded else 0.5, what, cond.loc.line, None)


def given_value(given: dict, name: str):
    """The user's value for data symbol ``name`` (``--set`` names are upper case), or None."""
    value = given.get(name)
    return value if value is not None else given.get(name.upper())
