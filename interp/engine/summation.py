"""Σ of a loop body's time over the loop's iterations (the closed form of a loop, §3.4.2).

``δ_IterD = t_fixed + NumIters·(t_per_iter + δ_body)`` when δ_body does not depend on the loop
index; otherwise δ_body is summed over the index: exactly for numeric counts up to
``EXACT_SUM_LIMIT``, by SymPy's summation where it has a closed form, and as a stated estimate
otherwise (every estimate leaves a note).
"""

from __future__ import annotations

import sympy as sp

from interp.application import aau as A
from interp.engine.timeval import is_symbolic

EXACT_SUM_LIMIT = 2048  # loop-variant conditions: sum exactly up to this many iterations


def sum_over(expr: sp.Expr, var: sp.Symbol, start, step, n, loop: A.AAU, notes: list[str]) -> sp.Expr:
    """Σ of ``expr`` over the iterations of a loop (n·expr when it does not depend on the index)."""
    if not is_symbolic(expr) or var not in expr.free_symbols:
        return n * expr
    k = sp.Dummy("k", integer=True, nonnegative=True)
    term = expr.subs(var, start + step * k)
    if isinstance(n, int) and n <= EXACT_SUM_LIMIT:  # exact, and no symbolic summation
        return sp.Add(*[term.subs(k, j) for j in range(n)])
    if not term.has(sp.Piecewise):
        # inner trip counts Max(0, e) (triangular loops) are summed as e: SymPy's summation
        # of Max recurses without end; exact wherever the inner loop runs
        plain = term.replace(lambda x: isinstance(x, sp.Max) and len(x.args) == 2 and 0 in x.args,
                             lambda x: x.args[1] if x.args[0] == 0 else x.args[0])
        try:
            result = sp.summation(plain, (k, 0, n - 1))
        except RecursionError:
            result = sp.Sum(plain, (k, 0, n - 1))
        if not result.has(sp.Sum):
            if plain != term:
                notes.append(f"line {loop.loc.line}: the inner loop's trip count was "
                             "summed as if it ran on every iteration (triangular loop)")
            return result
    if isinstance(n, int):
        samples = [int(j * (n - 1) / 255) for j in range(256)]
        notes.append(f"line {loop.loc.line}: a condition depends on the loop index; its "
                     f"cost was estimated from 256 of the {n} iterations")
        return sp.Integer(n) * sp.Add(*[term.subs(k, j) for j in samples]) / 256
    notes.append(f"line {loop.loc.line}: a condition depends on the loop index and the "
                 "trip count is symbolic; each branch was weighted equally (heuristic)")
    return n * mean_branches(term)


def mean_branches(e: sp.Expr) -> sp.Expr:
    """Replace every Piecewise by the mean of its branches (the equal-weight heuristic)."""
    return e.replace(lambda x: isinstance(x, sp.Piecewise),
                     lambda x: sp.Add(*[arg.expr for arg in x.args]) / len(x.args))
