"""What a replay cannot make known: names bound to hold no known value through a closed-form loop.

A closed-form loop that assigns a name some decision reads (dataflow.follow: a critical
array, an INTEGER that steers) has its data flow replayed statement by statement, so that the
decision finds the values. Most of what such replays compute in NPB is unknown: MG's RESID
assigns ``R(I1,I2,I3) = V(I1,I2,I3) - A(0)*U(I1,I2,I3) - …`` (R is critical: NORM2U3's
``IF (A .GT. RNMU)`` reads ``A = ABS(R(I1,I2,I3))``), but V and U hold no known value by then
(ZRAN3's ten largest elements of a field VRANLC filled in a loop nobody replays, then a ±1 put
at places those data-dependent decisions chose); SP's X_SOLVE replays its LHS and RHS updates
for the sake of ``N = (M-3)*5``. Each such element is evaluated as numbers, then as SymPy,
and comes out unknown, one by one: a third of MG's prediction time.

:func:`unknowable` finds, when a replay starts, the names that hold no known value then and
cannot get one from it: every assignment to such a name in the loop reads an element of an
array that holds no known value and keeps holding none (one of them, or one the loop does not
assign), in an expression with no FUNCTION reference (Fortran's operators and intrinsics take
all their operands, so that read is always made). By induction over the replay's statements,
those names hold nothing known throughout it; their assignments change nothing the frame knows
and are not replayed. "Holds no known value": every stored value of it (of the whole array it
is a view of) unknown, none given by the user, none depending on the rank for a rank class's
shadow (classes.TaintStore); an array never assigned holds none, a scalar never assigned is an
input symbol.

When those are all the loop gives a value that a statement after it can read, nothing of the
replay is left to make (:attr:`Unknowable.whole`), and ``follow`` forgets what the loop
assigns as for a loop that steers nothing: the decision reading those values is data-dependent
at once. The other names the loop assigns must then be *private* to it: locals of its unit
(no dummy, no COMMON, no DATA) that no statement outside the loop reads or writes, the loop not
inside another loop of its unit (it runs once per activation, and interp gives every activation
fresh locals) — the DO indices I1, I2, I3, RESID's U1 and U2 — or names no decision reads
(``needed.py``), which the replay forgets too. Anything else (a READ, a library call, a
FUNCTION reference in the loop's heads or statements, a counter ``K = K + c`` counted by the
closed form, a FUNCTION being worked out) keeps the whole replay.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import NamedTuple

from interp.application import aau as A
from interp.application import ast
from interp.application.aag import io_outputs
from interp.application.catalog import intrinsics
from interp.application.expr import walk
from interp.engine.values import Frame, Store, Unknown


@dataclass(frozen=True)
class LoopText:
    """What :func:`unknowable` reads off a loop's text, once."""

    assigns: dict[str, list[tuple[int, frozenset[str]]]]  # name → (statement id, arrays read)
    blocked: frozenset[str]  # names given a value otherwise (DO index, READ, call, FUNCTION)
    changed: frozenset[str]  # every name the loop may assign
    needed_elsewhere: frozenset[str]  # names a statement after the loop may read
    whole: bool  # nothing else in it keeps the whole replay


@dataclass(frozen=True)
class Unknowable:
    """The replay's statements that change nothing the frame knows, and whether that is all
    of it that a later statement could read."""

    statements: frozenset[int]
    whole: bool


NOTHING = Unknowable(frozenset(), False)


class DataFlow(NamedTuple):
    """What dataflow.py knows of a loop's text, passed in (dataflow imports this module):
    ``walk(loop, critical)`` its AAUs a replay visits, ``assigned(aau)`` the names it may
    assign."""

    walk: Callable[[A.AAU, set[str]], Iterator[A.AAU]]
    assigned: Callable[[A.AAU], frozenset[str]]


def unknowable(p, aaus: list[A.AAU], frame: Frame, critical: set[str], counters: bool,
               flow: DataFlow) -> Unknowable:
    """The assignments of the replay of ``aaus`` on ``frame`` that cannot change what it knows
    (see the module's docstring); ``critical`` the names that steer, ``counters`` whether the
    closed form counts some; ``flow`` the replay's own view of the loop's text."""
    if p.budget is not None or p.evaluating or len(aaus) != 1 or not isinstance(aaus[0], A.Iter):
        return NOTHING
    loop = aaus[0]
    cache = loop.__dict__.setdefault("_dataflow_static", {})
    if "unknowable" not in cache:
        cache["unknowable"] = _loop_text(p, loop, critical, flow)
    text = cache["unknowable"]
    if not text.assigns:
        return NOTHING
    state: dict[str, bool] = {}

    def nothing(name: str) -> bool:
        if name not in state:
            state[name] = _holds_nothing(frame, name)
        return state[name]

    names = {x for x in text.assigns if x not in text.blocked and nothing(x)}
    still = {r for reads in _reads(text) for r in reads - text.changed if nothing(r)}
    roots = {x: _root(frame, x) for x in names | still}
    changed = True
    while changed:  # drop a name one of whose assignments may read a known value, and an
        changed = False  # array another name of the loop may write known values into
        written = {_root(frame, x) for x in text.changed - names}
        for name in list(names) + list(still):
            if roots[name] in written or name in names and any(
                    not (reads & names or reads & still) for _, reads in text.assigns[name]):
                names.discard(name)
                still.discard(name)
                changed = True
    if not names:
        return NOTHING
    whole = text.whole and not counters and text.needed_elsewhere <= names
    return Unknowable(frozenset(s for x in names for s, _ in text.assigns[x]), whole)


def _reads(text: LoopText):
    for statements in text.assigns.values():
        for _, reads in statements:
            yield reads


def _loop_text(p, loop: A.Iter, critical: set[str], flow: DataFlow) -> LoopText:
    unit = p.aag.units[loop.unit]
    table = unit.symbols
    private = _private(unit, loop, flow.assigned)
    whole = loop.id not in _inside_loops(unit)
    assigns: dict[str, list[tuple[int, frozenset[str]]]] = {}
    blocked: set[str] = set()
    needed_elsewhere: set[str] = set()
    for node in flow.walk(loop, critical):
        if isinstance(node, A.Iter):
            blocked.add(node.var)
            whole = whole and node.var in private and not _calls(
                node.start, node.stop, node.step, node.cond, table=table)
        elif isinstance(node, A.Condt):
            whole = whole and not _calls(*(b.cond for b in node.branches), table=table)
        elif isinstance(node, A.Seq):
            changes = node.__dict__.get("function_changes")
            if changes is None or changes:  # (not noted yet, or a FUNCTION changes something)
                whole = False
                blocked |= set(changes or ())
            for s in node.stmts:
                if isinstance(s, (ast.CallStmt, ast.Read, ast.FileOp)):
                    whole = False
                    blocked |= set(io_outputs(s)) if not isinstance(s, ast.CallStmt) else {
                        a.name for a in s.args if isinstance(a, (ast.Var, ast.Ref))}
                if not isinstance(s, ast.Assign):
                    continue  # (WRITE, FORMAT, CONTINUE: no value)
                name = s.target.name
                if not p._needed(s):
                    continue  # forgotten: it holds nothing after it, on either path
                if name not in private:
                    needed_elsewhere.add(name)
                if isinstance(s, ast.AssignLabel) or _calls(
                        s.value, *_subscripts(s.target), table=table):
                    blocked.add(name)
                    whole = False
                    continue
                reads = frozenset(n.name for n in walk(s.value) if isinstance(n, ast.Ref)
                                  and _is_array(table, n.name))
                assigns.setdefault(name, []).append((id(s), reads))
    return LoopText(assigns, frozenset(blocked), flow.assigned(loop), frozenset(needed_elsewhere),
                    whole)


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


def _private(unit, loop: A.Iter, assigned: Callable[[A.AAU], frozenset[str]]) -> frozenset[str]:
    """The locals ``loop`` assigns that nothing outside it in its unit reads or writes (no
    dummy, no COMMON, no DATA, not read by a statement function)."""
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


def _root(frame: Frame, name: str) -> tuple[int, str]:
    """Where ``name``'s values are, as a key: its store's identity and its name there."""
    store, key = frame.locate(name)
    return id(store), key


def _holds_nothing(frame: Frame, name: str) -> bool:
    """Whether ``name`` holds no known value in ``frame`` now (the module's docstring)."""
    if _given(frame, name):
        return False
    sym = frame.table.symbols.get(name)
    if sym is None:
        return False
    store, key = frame.locate(name)
    if not (type(store) is Store or hasattr(store, "tainted")):  # (a member's overlay)
        return False
    tainted = getattr(store, "tainted", ())
    keys = store._by_name.get(key, ())
    if not keys:
        return sym.is_array
    for k in keys:
        if k in tainted or not isinstance(dict.get(store, k), Unknown):
            return False
    return True


def _given(frame: Frame, name: str) -> bool:
    given = frame.inputs.given
    if not given:
        return False
    names = (name, f"{frame.unit}.{name}")
    elements = tuple(n + "(" for n in names)
    return any(k in names or k.startswith(elements) for k in given)
