"""The step budget: how many AAU executions one process may interpret step by step.

Closed forms cost nothing per iteration; what is interpreted step by step (IterSync and IterND
loops, DO WHILE and GO TO loops that are not counted) costs interpretation time per execution.
A loop that never ends, or runs for longer than any prediction should take, would make the
prediction run without bound: past ``--max-steps`` AAU executions on one process the innermost
loop being stepped stops the prediction with an error that names it and the ``--iterations``
flag that gives it a count instead.

A DO loop with a finite integer trip count and no communication inside is stepped only to
follow the values it computes (CG's ``makea``, which draws every row of the matrix on every
rank). Past the budget in such a loop the prediction is not refused: the interpretation is
started again with the loop *not followed* (``Inputs.unfollowed``): its first iterations, up to a
tenth of the budget, are stepped, the rest take their mean time, and what the loop assigns is
run-time data from then on, so the decisions that read it are data symbols (datadep).
"""

from __future__ import annotations

from contextvars import ContextVar
from typing import TYPE_CHECKING

from interp.errors import InterpError

if TYPE_CHECKING:  # the CLI reads the default without loading the AAG's modules
    from interp.application import aau as A

# ~13 s of interpretation at the ~75 000 AAU executions a second a computing loop is stepped
# at (a communicating one is ~10x slower per step, but a loop with no way out is refused
# before it is stepped: induction.has_way_out). NPB class S at P = 4 steps at most 666 472 on
# one process (CG, whose SPRNVC draws random columns; FT 75 548, MG 17 882, LU 19 208,
# BT 27 140: benchmarks/step_budget.py)
DEFAULT_MAX_STEPS = 1_000_000
MAX_STEPS: ContextVar[int] = ContextVar("max_steps", default=DEFAULT_MAX_STEPS)
SAMPLE = 10  # a loop not followed is stepped for budget / SAMPLE AAU executions


class OverBudget(InterpError):
    """The step budget ran out in ``loop``; ``key`` says it when the loop may be left
    unfollowed (:func:`unfollowed`) and interpreted again."""

    def __init__(self, message: str, loop, key: tuple | None, hint: str):
        super().__init__(message, loop.loc, hint=hint)
        self.loop, self.key = loop, key
        self.sealed = False  # a loop with communication encloses it: the key stays


def widen(over: OverBudget, p, a: A.Iter, computing: bool) -> None:
    """``over`` passing out of the stepped DO loop ``a``: the outermost computing DO loop
    around the loop that passed the budget is the one to leave unfollowed (CG's makea, not
    the short loops over a row inside it); a GO TO or DO WHILE loop inside it is left to the
    restart, where a loop that never ends passes the budget again, and is the error."""
    if over.sealed:
        return
    if computing:
        over.key = key_of(p, a)
    else:
        over.sealed = True


def key_of(p, a: A.Iter) -> tuple:
    """A loop left unfollowed, as the run's later interpretations (the other bounds, check's
    numeric run) would meet it: they would pass the budget there too."""
    return (a.loc.file, a.loc.line, p.max_steps, p.nprocs)


def unfollowed(p, a: A.Iter) -> bool:
    """Whether ``a`` is one of the loops the interpretation does not follow."""
    return key_of(p, a) in p.inputs.unfollowed


def leave_unfollowed(over: OverBudget, inputs) -> bool:
    """Mark the loop ``over`` names not followed; False when it cannot be (it is not a
    computing DO loop, or it already was and still passed the budget)."""
    if over.key is None or over.key in inputs.unfollowed:
        return False
    inputs.unfollowed.add(over.key)
    return True


def check(p, a: A.Iter, computing: bool = False) -> None:
    """Called once per iteration of a stepped loop ``a``: an error once the process's AAU
    executions pass the budget. ``computing``: ``a`` is a DO loop with an integer trip count
    and no communication, which may be left unfollowed (the error carries its key for
    :func:`leave_unfollowed`)."""
    if p.steps <= p.max_steps:
        return
    where = f"{a.loc.file.rsplit('/', 1)[-1]}:{a.loc.line}"
    if a.var is not None and a.limit_type != "while":
        # a DO loop's trip count is fixed when it starts: it ends, later than the budget, and
        # --iterations does not apply to it (predict refuses it on a DO loop)
        why, hint = "it runs longer than", "raise the budget with --max-steps"
    else:
        why = "it never ends, or runs longer than"
        hint = (f"give its iteration count with --iterations {where}=COUNT, or raise the budget "
                "with --max-steps")
    raise OverBudget(
        f"the loop at {a.loc.file}:{a.loc.line} was still running after {p.max_steps:,} AAU "
        f"executions on {p.label} (the step budget): {why} interp interprets step by step",
        a, key_of(p, a) if computing else None, hint)
