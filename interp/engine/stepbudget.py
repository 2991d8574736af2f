"""The step budget: how many AAU executions one process may interpret step by step.

Closed forms cost nothing per iteration; what is interpreted step by step (IterSync and IterND
loops, DO WHILE and GO TO loops that are not counted) costs interpretation time per execution.
A loop that never ends, or runs for longer than any prediction should take, would make the
prediction run without bound: past ``--max-steps`` AAU executions on one process the innermost
loop being stepped stops the prediction with an error that names it and the ``--iterations``
flag that gives it a count instead.
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


def check(p, a: A.Iter) -> None:
    """Called once per iteration of a stepped loop ``a``: an error once the process's AAU
    executions pass the budget."""
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
    raise InterpError(
        f"the loop at {a.loc.file}:{a.loc.line} was still running after {p.max_steps:,} AAU "
        f"executions on {p.label} (the step budget): {why} interp interprets step by step",
        a.loc, hint=hint)
