"""Replays that can leave nothing known: a closed-form loop whose values are bound to be unknown.

A closed-form loop that assigns a name some decision reads (dataflow.follow: a critical
array, an INTEGER that steers) has its data flow replayed statement by statement, so that the
decision finds the values. Most such replays in NPB compute nothing: MG's RESID assigns
``R(I1,I2,I3) = V(I1,I2,I3) - A(0)*U(I1,I2,I3) - …`` (R is critical: NORM2U3's
``IF (A .GT. RNMU)`` reads ``A = ABS(R(I1,I2,I3))``), but V and U hold no known value by then
(ZRAN3's ten largest elements of a field VRANLC filled in a loop nobody replays, then a ±1 put
at places those data-dependent decisions chose), so each element comes out unknown, evaluated
first as numbers and then as SymPy, one by one. That was a third of MG's prediction time.

:func:`leaves_nothing` tells, before the replay, that it cannot leave a known value anywhere
a later statement can read, so that ``follow`` forgets what the loop assigns instead (as it does
for a loop that steers nothing), and the decision reading those values is data-dependent at
once. It holds when every name the replay would give a value is either

* *private to the loop*: a local of its unit (no dummy, no COMMON, no DATA) that no statement
  outside the loop reads or writes, the loop not inside another loop of its unit (run once
  per activation, and interp gives every activation fresh locals), so what the replay leaves
  in it is never read: the DO indices I1, I2, I3, RESID's U1 and U2; or
* *bound to be unknown*: each assignment to it reads an element of an array that holds no known
  value now (every element forgotten or never given one, none given by the user, none
  depending on the rank for a rank class's shadow), that the loop does not assign, in an
  expression with no FUNCTION reference (every read of an expression is evaluated: Fortran's
  operators and intrinsics take all their operands), and the name holds no known value now
  either (a whole array forgotten is the same as one whose elements were all made unknown;
  an assignment the replay does not reach leaves nothing known behind).

The replay's other effects are the same on both paths: a name no decision reads
(``needed.py``) is forgotten by either, a sub-tree that assigns nothing that steers is
forgotten by either, and the replay's decisions are not logged. Anything else (a READ, a
library call, a FUNCTION reference, a counter ``K = K + c`` counted by the closed form, a
FUNCTION being worked out) keeps the replay.
"""

from __future__ import annotations

from interp.application import aau as A
from interp.application import ast
from interp.application.catalog import intrinsics
from interp.application.expr import walk
from interp.engine.values import Frame, Store, Unknown, View

# a check of the loop: the name the replay would give a value and, for an assignment bound to
# be unknown, the arrays it reads one of which must hold nothing known (empty: the name must)
Check = tuple[str, bool, frozenset[str]]


def leaves_nothing(p, loop: A.AAU, frame: Frame, critical: set[str]) -> bool:
    """Whether replaying ``loop`` on ``frame`` can leave no value known that a later statement
    reads (see the module's docstring); ``critical`` the names that steer."""
    if p.budget is not None or p.evaluating or not isinstance(loop, A.Iter):
        return False
    cache = loop.__dict__.setdefault("_dataflow_static", {})
    if "unknowable" not in cache:
        cache["unknowable"] = _checks(p, loop, critical)
    checks = cache["unknowable"]
    if checks is None:
        return False
    known: dict[str, bool] = {}

    def unknown(name: str, is_array: bool) -> bool:
        if name not in known:
            known[name] = _holds_nothing(frame, name, is_array)
        return known[name]

    for target, is_array, reads in checks:
        if not unknown(target, is_array):
            return False
        if reads and not any(unknown(x, True) for x in reads):
            return False
    return True


def _checks(p, loop: A.Iter, critical: set[str]) -> list[Check] | None:
    """What :func:`leaves_nothing` checks of ``loop`` at each replay, read off its text once;
    None when the replay may always leave something known."""
    from interp.engine.dataflow import _needed_walk, assigned  # (dataflow imports this module)

    unit = p.aag.units.get(loop.unit)
    if unit is None or loop.id in _inside_loops(unit):
        return None
    private = _private(unit, loop)
    changed = assigned(loop)
    table = unit.symbols
    checks: dict[str, set[frozenset[str]]] = {}  # name → per assignment, the arrays it reads
    for node in _needed_walk(loop, critical):
        if isinstance(node, A.Iter):
            if node.var not in private or _calls(node.start, node.stop, node.step, node.cond,
                                                 table=table):
                return None
        elif isinstance(node, A.Condt):
            if _calls(*(b.cond for b in node.branches), table=table):
                return None
        elif isinstance(node, A.Seq):
            if node.__dict__.get("function_changes", True):
                return None  # (not noted yet, or a FUNCTION changes something)
            for s in node.stmts:
                if isinstance(s, (ast.CallStmt, ast.Read, ast.FileOp, ast.AssignLabel)):
                    return None
                if not isinstance(s, ast.Assign):
                    continue  # (WRITE, FORMAT, CONTINUE: no value)
                if _calls(s.value, *_subscripts(s.target), table=table):
                    return None
                name = s.target.name
                if name in private or not p._needed(s):
                    continue  # never read after the loop / forgotten by both paths
                reads = {n.name for n in walk(s.value) if isinstance(n, ast.Ref)
                         and _is_array(table, n.name)} - changed
                if not reads:
                    return None  # its value may be known
                checks.setdefault(name, set()).add(frozenset(reads))
    out = []
    for name, alternatives in checks.items():
        is_array = _is_array(table, name)
        out.append((name, is_array, frozenset()))
        out += [(name, is_array, reads) for reads in alternatives]
    return out


def _subscripts(target: ast.Expr) -> list[ast.Expr]:
    return list(target.args) if isinstance(target, ast.Ref) else []


def _calls(*exprs: ast.Expr | None, table) -> bool:
    """Whether the expressions reference anything but array elements and intrinsics (a user
    or statement FUNCTION, a library function: its value, or what it changes, may be known)."""
    for e in exprs:
        if e is None:
            continue
        for n in walk(e):
            if isinstance(n, ast.Ref) and not _is_array(table, n.name) and (
                    n.name not in intrinsics() or n.name in table.user_units):
                return True
    return False


def _is_array(table, name: str) -> bool:
    sym = table.symbols.get(name)
    return sym is not None and sym.is_array


def _private(unit, loop: A.Iter) -> frozenset[str]:
    """The locals ``loop`` assigns that nothing outside it in its unit reads or writes (no
    dummy, no COMMON, no DATA, not read by a statement function)."""
    from interp.engine.dataflow import assigned

    inside = {n.id for n in loop.walk()}
    table = unit.symbols
    in_functions = {n.name for sf in unit.unit.stmt_functions.values() for n in walk(sf.body)
                    if isinstance(n, (ast.Var, ast.Ref))}
    out = set()
    for name in assigned(loop):
        sym = table.symbols.get(name)
        if (sym is None or sym.common is not None or sym.kind not in ("variable", "array")
                or name in unit.unit.dummies or name == unit.name or name in in_functions):
            continue
        places = [aid for aid, _ in unit.uses.get(name, ())]
        places += [d.aau_id for d in unit.definitions.get(name, ())]
        places += [aid for aid, *_ in unit.critical_uses.get(name, ())]
        if all(aid in inside for aid in places):
            out.add(name)
    return frozenset(out)


def _inside_loops(unit) -> frozenset[int]:
    """The ids of the AAUs of ``unit`` inside one of its loops (cached on the unit)."""
    got = unit.__dict__.get("_inside_loops")
    if got is None:
        got = frozenset(n.id for a in unit.walk() if isinstance(a, A.Iter)
                        for c in a.children for n in c.walk())
        unit.__dict__["_inside_loops"] = got
    return got


def _holds_nothing(frame: Frame, name: str, is_array: bool) -> bool:
    """Whether ``name`` holds no known value in ``frame`` now: every stored value of it (of
    the whole array it is a view of) unknown, and none given by the user; an array never
    assigned holds nothing, a scalar never assigned is an input symbol."""
    if _given(frame, name):
        return False
    store, key = frame._store(name), name
    while type(store) is View:
        store, key = store.store, store.name
    if not (type(store) is Store or hasattr(store, "tainted")):  # (a member's overlay)
        return False
    tainted = getattr(store, "tainted", ())
    keys = store._by_name.get(key, ())
    if not keys:
        return is_array
    for k in keys:
        if k in tainted or not isinstance(dict.get(store, k), Unknown):
            return False
    return True


def _given(frame: Frame, name: str) -> bool:
    given = frame.inputs.given
    if not given:
        return False
    names = (name, f"{frame.unit}.{name}")
    return any(k in names or k.startswith(tuple(n + "(" for n in names)) for k in given)
