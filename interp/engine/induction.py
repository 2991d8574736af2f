"""Counted loops written with GO TO or DO WHILE: their trip count by induction-variable analysis.

``10 I = I + 1 / IF (I .LT. N) GO TO 10`` and ``DO WHILE (I .LE. N) ... I = I + 2 ... END DO``
are DO loops in all but name: a compiler finds the *induction variable* I (one assignment
``I = I ± c`` in the body, executed on every iteration, c fixed in the loop) and the exit test
comparing it with a bound fixed in the loop, and from I's start I₀, its step c and the bound B
counts the iterations. With k the executions of the body, I = I₀ + k·c when the test is made;
the loop runs while ``I op B``:

* tested at its head (DO WHILE): n = the k ≥ 0 at which the test first fails;
* tested at its end (``IF (...) GO TO L``): the body runs once, then n = 1 + the count of
  further tests that hold.

For ``.LT.``/``.LE.`` with c > 0 (``.GT.``/``.GE.`` with c < 0) that is the F77 DO trip count
of I₀ (or I₀ + c) to B ∓ 1 (or B) by c. A loop whose step takes I away from the bound while
the test holds never ends: that is an error naming the loop, not an unbounded run.
"""

from __future__ import annotations

import sympy as sp

from interp.application import aau as A
from interp.application import ast
from interp.application.expr import names_in, trip_count
from interp.engine.dataflow import counter_step, assigned
from interp.engine.values import Frame
from interp.errors import InterpError

# I op B holds while I is below (above) the bound: the last value of I that passes the test
_LAST_PASSING = {"LT": -1, "LE": 0, "GT": 1, "GE": 0}
_FLIPPED = {"LT": "GT", "LE": "GE", "GT": "LT", "GE": "LE", "NE": "NE"}
_NEGATED = {"LT": "GE", "LE": "GT", "GT": "LE", "GE": "LT", "EQ": "NE"}  # .NOT. (I op B)


def trip(p, a: A.Iter, frame: Frame) -> sp.Expr | None:
    """Executions of the body of the DO WHILE / GO TO loop ``a``, when it is counted by an
    induction variable whose start, step and bound are known; None when it is not."""
    if isinstance(a.cond, ast.Logical) and a.cond.value and not has_way_out(a):
        raise InterpError(
            f"the loop at {a.loc.file}:{a.loc.line} never ends: it repeats unconditionally and "
            "nothing in it leaves it (no GO TO out of it, RETURN, STOP or MPI_ABORT)",
            a.loc, hint=f"fix the loop, or give its count with --iterations "
                        f"{a.loc.file.rsplit('/', 1)[-1]}:{a.loc.line}=COUNT")
    found = _induction(a, frame)
    if found is None:
        return None
    name, op, bound, (step_expr, sign) = found
    try:
        i0 = p.value(ast.Var(name, a.loc), frame, "an induction variable")
        c = sign * p.value(step_expr, frame, "an induction variable's step")
        b = p.value(bound, frame, "a loop's bound")
    except InterpError:
        return None
    if not (c.is_number and c.is_integer and c != 0) or not (i0.is_integer and b.is_integer):
        return None  # a REAL induction (rounding) or a step not known: stepped
    first = 1 if a.test_at_end else 0  # executions before the first test
    at_first = i0 + first * c
    if op == "NE":
        return _until_equal(a, name, i0, c, b, first)
    rising = op in ("LT", "LE")
    if (c > 0) != rising:  # the step takes I away from the bound
        holds = _holds(op, at_first, b)
        if holds is None:
            return None
        if holds:
            raise _never_ends(a, name, i0, c, op, b)
        return sp.Integer(first)
    return first + trip_count(at_first, b + _LAST_PASSING[op], c)


def final_value(p, a: A.Iter, frame: Frame, n: sp.Expr) -> tuple[str, sp.Expr] | None:
    """The induction variable and the value the loop leaves in it after ``n`` executions."""
    found = _induction(a, frame)
    if found is None:
        return None
    name, _op, _bound, (step_expr, sign) = found
    c = sign * p.value(step_expr, frame, "an induction variable's step")
    return name, p.value(ast.Var(name, a.loc), frame, "an induction variable") + n * c


def _induction(a: A.Iter, frame: Frame) -> tuple[str, str, ast.Expr, tuple[ast.Expr, int]] | None:
    """(I, op, B, c) of a loop tested by ``I op B`` (or ``B op I``) whose body assigns I once,
    ``I = I ± c`` at its top level, and leaves only through its test."""
    cond = a.cond
    if (isinstance(cond, ast.UnOp) and cond.op == "NOT" and isinstance(cond.operand, ast.BinOp)
            and cond.operand.op in _NEGATED):  # 10 IF (I .GT. N) GO TO 20 ... GO TO 10
        inner = cond.operand
        cond = ast.BinOp(_NEGATED[inner.op], inner.left, inner.right, cond.loc)
    if not isinstance(cond, ast.BinOp) or cond.op not in _FLIPPED:
        return None
    inside = assigned(a)
    for var, bound, op in ((cond.left, cond.right, cond.op), (cond.right, cond.left, _FLIPPED[cond.op])):
        if not isinstance(var, ast.Var) or var.name not in inside:
            continue
        if set(names_in(bound, frame.table)) & inside:
            return None
        step = _only_step(a, var.name, frame)
        if step is None or set(names_in(step[0], frame.table)) & inside:
            return None
        return var.name, op, bound, step
    return None


def _only_step(a: A.Iter, name: str, frame: Frame) -> tuple[ast.Expr, int] | None:
    """(c, ±1) of the body's one assignment ``name = name ± c``, in a Seq run on every iteration,
    with nothing else able to change ``name``: an exit from the body, COMMON, a routine it is
    passed to (by reference), a FUNCTION that changes it."""
    sym = frame.table.symbols.get(name)
    if sym is None or sym.type != "INTEGER" or sym.is_array or sym.common is not None:
        return None
    found = []
    for node in a.walk():
        if node is a:
            continue
        if isinstance(node, A.End) or (isinstance(node, A.Iter) and node.var == name):
            return None  # leaves the body other than by its test
        args = node.args if isinstance(node, (A.Call, A.LibraryAAU)) else ()
        if _passes(args, name) or name in node.__dict__.get("function_changes", ()):
            return None  # may change I out of sight
        if isinstance(node, A.Seq):
            for s in node.stmts:
                if isinstance(s, ast.Assign) and s.target.name == name:
                    found.append((node, s))
                elif isinstance(s, (ast.Read, ast.FileOp, ast.Goto, ast.AssignedGoto)) or (
                        isinstance(s, ast.CallStmt) and _passes(s.args, name)):
                    return None
    if len(found) != 1 or found[0][0] not in a.body:
        return None
    s = found[0][1]
    step_expr = counter_step(s, name)
    if step_expr is None:
        return None
    return step_expr, (-1 if s.value.op == "-" else 1)


def _passes(args, name: str) -> bool:
    return any(isinstance(e, ast.Var) and e.name == name for e in args)


def has_way_out(a: A.Iter) -> bool:
    """Whether anything in the loop's body can end it: a GO TO to a label outside it, a RETURN,
    or anything that may end the process (:func:`_may_stop`)."""
    inside = {f"exit:{label}" for b in a.walk() for label in b.labels} | {f"exit:{a.head_label}"}
    return any((isinstance(b, A.End) and b.kind not in inside | {"end"}) or _may_stop(b, set())
               for b in a.walk())


def _may_stop(b: A.AAU, seen: set[str]) -> bool:
    """Whether ``b`` may end the process: a STOP, MPI_ABORT, a routine that may (followed into
    its body), or a CALL of a routine interp has no source for."""
    if isinstance(b, A.End):
        return b.kind == "stop"
    if isinstance(b, A.LibraryAAU):
        return b.call is not None and b.call.op == "abort"
    if isinstance(b, A.Seq):
        return any(isinstance(s, ast.CallStmt) for s in b.stmts)
    if isinstance(b, A.Call) and b.callee not in seen:
        seen.add(b.callee)
        return any(_may_stop(x, seen) for top in b.callee_body for x in top.walk())
    return False


def _holds(op: str, i: sp.Expr, b: sp.Expr) -> bool | None:
    test = {"LT": sp.Lt, "LE": sp.Le, "GT": sp.Gt, "GE": sp.Ge}[op](i, b)
    return bool(test) if test in (sp.true, sp.false) else None


def _until_equal(a: A.Iter, name: str, i0, c, b, first: int) -> sp.Expr | None:
    """``I .NE. B``: it ends at the k ≥ first with I₀ + k·c = B, if there is one."""
    gap = b - i0
    if not gap.is_number:
        return None
    if gap % c == 0 and gap / c >= first:
        return sp.Integer(gap / c)
    raise _never_ends(a, name, i0, c, "NE", b)


def _never_ends(a: A.Iter, name: str, i0, c, op: str, b) -> InterpError:
    test = f"{name} .{op}. {b}"
    return InterpError(
        f"the loop at {a.loc.file}:{a.loc.line} never ends: {name} starts at {i0} and goes by "
        f"{c} each iteration, so {test} always holds",
        a.loc,
        hint=f"fix the loop, or give its count with --iterations "
             f"{a.loc.file.rsplit('/', 1)[-1]}:{a.loc.line}=COUNT")
