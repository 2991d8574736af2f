"""A loop's closed form remembered by the values it reads.

Stepping a loop whose body holds another loop works the inner loop's closed form out again at
every iteration: EP's ``DO 140`` over the batch's pairs and VRANLC's loop over its seeds, once a
batch, 64 batches a rank at class A, P = 64 (a third of a numeric interpretation). What Ω's
closed form of a loop (:func:`interp.engine.omega.closed_loop`) computes depends on the spec,
the inputs, and the values its bounds and the decisions in its body read when it is worked out;
so it is remembered for the interpretation's processes (the ranks' loops are the same),
keyed by the loop and the values of every variable those
expressions name (:func:`reads`): the bounds', and the body's that the body does not assign (a
name it assigns is "varying" in the closed form, its value never read), the values of the
scalar assignments they read that the closed form binds, the elements of the unit's arrays
they read at subscripts the closed form does not change (SP's ``DO K = -1, CELL_SIZE(3, C)``:
the element's value), and the COMMON variables the routines it calls name in theirs. A loop
whose closed form could read something else is never remembered: another array element, a
whole array, a FUNCTION whose value would be worked out, or one interpreted step by step for
its time.

Working it out has effects beyond δ and the per-AAU counts: the values it read are logged as
control decisions (steady-state checks compare them), and summation notes are added. Both
are recorded with the result and added again when it is reused, so the process ends in the
same state as if it had been worked out.
"""

from __future__ import annotations

import sympy as sp

from interp.application import aau as A
from interp.application import ast
from interp.application.expr import is_numeric_intrinsic, names_in, numeric_value, walk
from interp.engine.dataflow import assigned
from interp.engine.values import Lazy, NotClosedForm, Unknown
from interp.engine import straight

MEMO_LIMIT = 10_000  # closed forms remembered per interpretation


def remembered(p, a: A.Iter, frame, work) -> object:
    """``work(out)`` (δ of the loop ``a``, per-AAU counts put in ``out``, or NotClosedForm),
    reused when the loop was worked out before with the same values read."""
    names = reads(p.aag, a, frame.table)
    if names is None or p.recorder is not None:
        return work
    try:
        elements = [_element(frame, name, subscripts) for name, subscripts in names[2]]
    except _NoKey:
        return work
    key = (a.id, p.counted_by_user, *(_value(frame, n) for n in names[0]),
           *(_stored(p.common.get(n)) for n in names[1]), *elements)
    memo = p.cm.memo(("loop memo",), dict)  # one for the interpretation's processes
    got = memo.get(key)
    if got is not None:
        return lambda out: _replay(p, got, out)

    def first(out: dict):
        decided, noted = len(p.decisions), len(p.notes)
        try:
            delta = work(out)
        except NotClosedForm:
            delta = None
        if len(p.decisions) >= decided and len(p.notes) >= noted:
            if len(memo) >= MEMO_LIMIT:
                memo.clear()
            memo[key] = (delta, dict(out), p.decisions[decided:], p.notes[noted:])
        if delta is None:
            raise NotClosedForm
        return delta
    return first


def _replay(p, got: tuple, out: dict):
    delta, counts, decided, noted = got
    p.decisions.extend(decided)
    p.notes.extend(noted)
    if delta is None:
        raise NotClosedForm
    out.update(counts)
    return delta


def _value(frame, name: str) -> object:
    return _stored(frame._store(name).get(name))


class _NoKey(Exception):
    """An element's subscripts are not whole numbers now: this closed form is not remembered."""


def _element(frame, name: str, subscripts: tuple) -> object:
    """The value of the array element ``name(subscripts)`` (they read only scalars the closed
    form does not change: ``CELL_SIZE(3, C)``; see :func:`_subscript`) as the closed form's
    resolver finds it (Frame._element: the element, else the whole array's marker), as a key."""
    at = []
    for s in subscripts:
        if type(s) is str:  # a scalar variable
            v = _whole(frame._store(s).get(s))
        elif type(s) is int:
            v = s
        else:
            v = numeric_value(s, frame.table, lambda key: _whole(frame._store(key).get(key)))
        if type(v) is not int:
            raise _NoKey
        at.append(v)
    key = f"{name}({','.join(map(str, at))})"
    store = frame._store(key)
    value = store.get(key)
    return _stored(value if value is not None else store.get(f"{name}(*)"))


def _whole(value: object) -> int | None:
    if type(value) is int:
        return value
    return int(value) if isinstance(value, sp.Integer) else None


def _subscript(e: ast.Expr, table) -> int | str | ast.Expr:
    """A subscript as :func:`_element` reads it: a whole constant, the name of a scalar
    variable, or else the expression (evaluated)."""
    if isinstance(e, ast.Num) and type(e.value) is int:
        return e.value
    if isinstance(e, ast.Var):
        sym = table.symbols.get(e.name)
        if sym is not None and sym.kind != "parameter" and sym.constant is None:
            return e.name
    return e


def _stored(value: object) -> object:
    """A stored value as a key: an Unknown's reason is never read by a closed form, a value
    not yet worked out (values.Lazy) is the same value while it is the same object, and a
    float by its repr (-0.0 is not 0.0)."""
    kind = type(value)
    if kind is float:
        return (kind, repr(value))
    if kind is Lazy:
        return value if value.value is None else (Lazy, _stored(value.value))
    if isinstance(value, Unknown):
        return Unknown
    return (kind, value)


def reads(aag, a: A.Iter, table) -> tuple[tuple[str, ...], tuple[str, ...], tuple] | None:
    """The scalars of ``a``'s unit and the COMMON scalars of its callees whose values the
    closed form of ``a`` may read, and the elements of ``a``'s unit's arrays it reads whose
    subscripts it does not change (cached on the AAG); None when it may read more."""
    cache = aag.__dict__.setdefault("_loop_reads", {})
    if a.id not in cache:
        cache[a.id] = _reads(aag, a, table)
    return cache[a.id]


def _reads(aag, a: A.Iter, table):
    bounds = [a.start, a.stop, a.step, a.cond]
    body = _decision_exprs(aag, [a] + [b for c in a.children for b in c.walk()], table)
    callees = aag.callees(a)
    if body is None:
        return None
    # an element whose subscripts read none of these (its DO indices among them) is the same
    # one for the whole closed form
    changing = assigned(a)
    elements: list[ast.Ref] = []
    own = _names(aag, bounds, table, elements, changing)
    inner = _names(aag, body, table, elements, changing)
    if own is None or inner is None:
        return None
    common: set[str] = set()
    for unit in callees:
        exprs = _decision_exprs(aag, list(unit.walk()), unit.symbols)
        names = _names(aag, exprs, unit.symbols) if exprs is not None else None
        if names is None:
            return None
        common |= {n for n in names if unit.symbols.symbols[n].common is not None}
    local = own | (inner - assigned(a))
    at = {(ref.name, tuple(_subscript(x, table) for x in ref.args)): None for ref in elements}
    return tuple(sorted(local)), tuple(sorted(common)), tuple(at)


def _decision_exprs(aag, aaus: list[A.AAU], table) -> list[ast.Expr] | None:
    """What a closed form of ``aaus`` evaluates: loop bounds and conditions, IF conditions,
    the actual arguments of calls and of FUNCTION references, and the values of the scalar
    assignments those read (:func:`_feeding`); None when a FUNCTION it references is not a
    straight-line one (its closed form reads values of its own)."""
    exprs: list[ast.Expr] = []
    for b in aaus:
        if isinstance(b, A.Seq) and any(straight.straight_body(aag, f) is None and f in aag.units
                                        for f in b.ops.user_calls):
            return None
        exprs += A.read_exprs(b)
    return exprs + _feeding(aaus, exprs, table)


def _feeding(aaus: list[A.AAU], exprs: list[ast.Expr], table) -> list[ast.Expr]:
    """The values of the scalar assignments in ``aaus`` that the closed form binds for the
    rest of an iteration (omega._binding_after: ``KIND = MOD(I + ISHIFT, 7)``) and that
    ``exprs`` read, directly or through another such assignment: a decision on KIND reads
    ISHIFT, whose value the key must hold. (An assignment from an array element subscripted
    by a loop's index is never bound: in the closed form the index is a symbol, and such an
    element has no value, EP's ``X1 = 2.D0 * X(2*I-1) - 1.D0``.)"""
    indices = {b.var for b in aaus if isinstance(b, A.Iter) and b.var}
    assigns = [s for b in aaus if isinstance(b, A.Seq) for s in b.stmts
               if type(s) is ast.Assign and isinstance(s.target, ast.Var)
               and not _indexed_element(s.value, table, indices)]
    wanted = {n for e in exprs for n in names_in(e, table)}
    out: list[ast.Expr] = []
    while True:
        more = [s for s in assigns if s.target.name in wanted]
        assigns = [s for s in assigns if s.target.name not in wanted]
        if not more:
            return out
        for s in more:
            out.append(s.value)
            wanted.update(names_in(s.value, table))


def _fixed(ref: ast.Ref, table, changing: set[str]) -> bool:
    """Do ``ref``'s subscripts name only scalars, none of them in ``changing``?"""
    for arg in ref.args:
        for node in walk(arg):
            if isinstance(node, ast.Ref) and not is_numeric_intrinsic(node.name):
                return False
        for name in names_in(arg, table):
            sym = table.symbols.get(name)
            if sym is None or sym.is_array or name in changing:
                return False
    return True


def _indexed_element(e: ast.Expr, table, indices: set[str]) -> bool:
    """Does ``e`` read an array element with a subscript linear in one of the loop
    ``indices`` (``2*I - 1``: never a whole number while I is a symbol; ``I - I + 1`` or
    ``MOD(I, 1)`` could be, and do not count)?"""
    for node in walk(e):
        if isinstance(node, ast.Ref):
            sym = table.symbols.get(node.name)
            if sym is not None and sym.is_array and any(
                    _slope(arg, i) for arg in node.args for i in indices):
                return True
    return False


def _slope(e: ast.Expr, index: str) -> int | None:
    """The coefficient of ``index`` in ``e`` when ``e`` is linear in it with whole-number
    coefficients (another variable counts as a constant); None otherwise."""
    if isinstance(e, ast.Var):
        return 1 if e.name == index else 0
    if isinstance(e, ast.Num):
        return 0 if type(e.value) is int else None
    if isinstance(e, ast.UnOp) and e.op in "+-":
        inner = _slope(e.operand, index)
        return None if inner is None else (-inner if e.op == "-" else inner)
    if isinstance(e, ast.BinOp) and e.op in ("+", "-", "*"):
        a, b = _slope(e.left, index), _slope(e.right, index)
        if a is None or b is None:
            return None
        if e.op != "*":
            return a + b if e.op == "+" else a - b
        for k, other in ((e.left, b), (e.right, a)):  # a whole constant times the rest
            if isinstance(k, ast.Num) and type(k.value) is int:
                return k.value * other
        return None if a or b else 0
    return None


def _names(aag, exprs: list[ast.Expr], table, elements: list | None = None,
           changing: set[str] = frozenset()) -> set[str] | None:
    """The scalar variables ``exprs`` name (PARAMETERs have no stored value); None when one
    names an array or references a FUNCTION (its value is worked out by interpreting it).
    With ``elements``: an array element whose subscripts name only scalars not in
    ``changing`` is put there instead (its value is part of the key)."""
    out: set[str] = set()
    for e in exprs:
        for node in walk(e):
            sym = table.symbols.get(node.name) if isinstance(node, (ast.Ref, ast.Var)) else None
            if isinstance(node, ast.Ref):
                if sym is not None and sym.is_array:
                    if elements is None or not _fixed(node, table, changing):
                        return None
                    elements.append(node)
                elif not is_numeric_intrinsic(node.name):
                    return None
            elif isinstance(node, ast.Var) and sym is not None and sym.is_array:
                return None  # a whole array (an argument)
        for name in names_in(e, table):
            sym = table.symbols.get(name)
            if sym is None:
                return None
            if sym.is_array:  # (an element put in ``elements`` above)
                continue
            if sym.kind != "parameter" and sym.constant is None:
                out.add(name)
    return out
