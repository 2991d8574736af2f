"""The values a closed-form sub-graph leaves behind.

A loop costed in closed form is never unrolled for its *time*; the values its body assigns
(``DO I = 0, 7: V(I) = D``, an IF on a known value choosing which arm assigns) are still needed
by later decisions. :func:`follow` replays the body's data flow — assignments, DO loops with
known limits, IFs with known conditions — statement by statement, when the sub-graph assigns an
INTEGER or LOGICAL critical variable (one that steers control somewhere: a loop bound, a
condition), and within a budget of statement executions so that the cost of a prediction stays
bounded. Otherwise, past the budget, or where a loop's limits or an IF's condition are not
known, the names the sub-graph assigns are forgotten (their values are not followed) — except
its *counters*, INTEGER scalars whose one assignment is ``K = K ± c`` with ``c`` fixed in the
sub-graph (``BUFF_LEN = BUFF_LEN + 1`` packing a message): K leaves as K₀ ± C·c, C the count of
executions of that statement the closed form computed.
"""

from __future__ import annotations

import sympy as sp

from interp.application import aau as A
from interp.application import ast
from interp.application.aag import io_outputs
from interp.application.expr import as_sympy, names_in, trip_count, walk
from interp.engine.unknowable import DataFlow, unknowable
from interp.engine.values import Frame
from interp.errors import InterpError

BUDGET = 1024  # statement executions (and IF and loop heads) replayed per closed-form sub-graph
# ... and for a sub-graph that computes a message's partner, count or tag: past BUDGET an IF
# still has its branch probability and a loop its trip count, but a message has no stand-in
# (a particle code's counts per destination, 1,000 particles a rank: an error at its call)
MESSAGE_BUDGET = 100_000
STEERING_TYPES = ("INTEGER", "LOGICAL")


class _OverBudget(Exception):
    pass


def assigned(a: A.AAU) -> frozenset[str]:
    """Variables a compound AAU may assign (loop indices included), and those the FUNCTIONs
    its statements reference change (needed.kept_statements notes them on each Seq: RANDLC's
    seed). Kept on the AAU once those notes are there (a closed form asks at every loop)."""
    cached = a.__dict__.get("assigned")
    if cached is not None:
        return cached
    names: set[str] = set()
    noted = True
    for node in a.walk():
        if isinstance(node, A.Seq):
            changes = node.__dict__.get("function_changes")
            if changes is None:
                noted = False
            else:
                names.update(changes)
            for s in node.stmts:
                if isinstance(s, ast.Assign):
                    names.add(s.target.name)
                elif isinstance(s, (ast.Read, ast.FileOp)):
                    names.update(io_outputs(s))
        elif isinstance(node, A.Iter) and node.var:
            names.add(node.var)
    out = frozenset(names)
    if noted:
        a.__dict__["assigned"] = out
    return out


def follow(p, aaus: list[A.AAU], frame: Frame, counts: dict | None = None,
           budget: int = BUDGET) -> None:
    """Replay the data flow of ``aaus`` on ``frame`` (values only, no time); ``counts`` the
    closed form's (executions, δ) per AAU id, for the counters."""
    counters = _counters(p, aaus, frame)
    log, frame.log = frame.log, None  # replaying is not a control decision of the run
    critical = unit_critical_names(p.aag, frame.unit)  # (the names that steer from here)
    try:
        steering = critical - counters.keys()  # counters are counted, not replayed
        _CRITICAL[0] = critical
        steers = _static(aaus, frame.table, ("steers", frozenset(counters)),
                         lambda aaus, table: _steers(steering, table, aaus))
        if steers and budget == BUDGET and _static(
                aaus, frame.table, "messages",
                lambda aaus, table: _steers(message_names(p.aag), table, aaus)):
            budget = MESSAGE_BUDGET
        if steers and _within(aaus, counts, budget):
            inert = unknowable(p, aaus, frame, critical, bool(counters), _FLOW)
            if not inert.whole:  # (else nothing of it could be read: forgotten, below)
                _follow_list(p, aaus, frame, [budget], inert.statements, critical)
                return
    except _OverBudget:
        pass
    finally:
        frame.log = log
    for a in aaus:
        _forget(a, frame)
    for name, (seq, k0, step) in counters.items():
        executions = (counts or {}).get(seq, (None,))[0]
        if executions is not None:
            frame.set(name, k0 + executions * step)


def _within(aaus: list[A.AAU], counts: dict | None, budget: int) -> bool:
    """Whether replaying ``aaus`` may fit the budget: the statements the closed form counted
    (a replay found too long is cut short anyway; this spares starting it)."""
    if not counts:
        return True
    total = 0
    for a in aaus:
        for node in _needed_walk(a):
            if isinstance(node, A.Seq) and node.id in counts:
                n = as_sympy(counts[node.id][0])
                if n.is_number:  # (a count weighted by a data symbol: the replay's budget rules)
                    total += float(n) * len(node.stmts)
    return total <= budget


def _counters(p, aaus: list[A.AAU], frame: Frame) -> dict[str, tuple[int, sp.Expr, sp.Expr]]:
    """INTEGER scalars whose one assignment in ``aaus`` is ``K = K ± c``, c fixed there:
    name → (the Seq's id, K's value before, the step c)."""
    out = {}
    for name, seq, s, step in _static(aaus, frame.table, "counters", _counter_candidates):
        try:
            k0 = p.value(ast.Var(name, s.loc), frame, "a counter")
            c = p.value(step, frame, "a counter's step")
        except InterpError:
            continue
        out[name] = (seq, k0, -c if s.value.op == "-" else c)
    return out


def _counter_candidates(aaus: list[A.AAU], table) -> list[tuple[str, int, ast.Assign, ast.Expr]]:
    """What :func:`_counters` finds without reading a value: (name, the Seq's id, its
    assignment, the step c)."""
    found: dict[str, list] = {}
    inside = set()
    for a in aaus:
        inside |= assigned(a)
        for node in a.walk():
            for s in node.stmts if isinstance(node, A.Seq) else ():
                if isinstance(s, ast.Assign):
                    found.setdefault(s.target.name, []).append((node.id, s))
    out = []
    for name, defs in found.items():
        sym = table.symbols.get(name)
        if len(defs) != 1 or sym is None or sym.type != "INTEGER" or sym.is_array:
            continue
        seq, s = defs[0]
        step = counter_step(s, name)
        if step is None or inside & set(names_in(step, table)):
            continue
        out.append((name, seq, s, step))
    return out


def _static(aaus: list[A.AAU], table, what: str, work):
    """``work(aaus, table)``, which reads no value, cached on the AAU when there is one (the
    closed-form loop a replay follows: the same at every execution)."""
    if len(aaus) != 1:
        return work(aaus, table)
    cache = aaus[0].__dict__.setdefault("_dataflow_static", {})
    if what not in cache:
        cache[what] = work(aaus, table)
    return cache[what]


def counter_step(s: ast.Assign, name: str) -> ast.Expr | None:
    """``c`` of ``K = K + c``, ``K = c + K`` or ``K = K - c``; None for anything else."""
    e = s.value
    if not isinstance(s.target, ast.Var) or not isinstance(e, ast.BinOp) or e.op not in "+-":
        return None
    if isinstance(e.left, ast.Var) and e.left.name == name:
        return e.right
    if e.op == "+" and isinstance(e.right, ast.Var) and e.right.name == name:
        return e.left
    return None


def _steers(critical: set[str], table, aaus: list[A.AAU]) -> bool:
    """Whether ``aaus`` assign an INTEGER or LOGICAL variable that steers control somewhere,
    or an array (of any type) an element of which a steering value is computed from."""
    for a in aaus:
        for name in _steering_assigned(a):  # (DO indices steer inside only)
            sym = table.symbols.get(name)
            if name in critical and sym is not None and (
                    sym.type in STEERING_TYPES or sym.is_array):
                return True
    return False


def steering_assigned(p, aaus: list[A.AAU], frame: Frame) -> set[str]:
    """The INTEGER or LOGICAL variables ``aaus`` assign that steer control somewhere (DO
    indices of their own loops left out)."""
    out = set()
    for a in aaus:
        indices = {n.var for n in a.walk() if isinstance(n, A.Iter)}
        for name in assigned(a) - indices:
            sym = frame.table.symbols.get(name)
            if name in p.critical_names and sym is not None and sym.type in STEERING_TYPES:
                out.add(name)
    return out


def critical_names(aag) -> set[str]:
    """Critical variables of every unit and what they are computed from, by name (COMMON
    variables steer control in other units than the one that assigns them), and the names in
    the arguments of message-passing calls (partners, tags, counts: the interpretation needs
    their values too)."""
    cached = getattr(aag, "_critical_names", None)
    if cached is not None:
        return cached
    names = set()
    seeds: list[tuple[str, str]] = []  # (unit, name) whose definitions are followed
    for c in aag.critical_variables:
        names.add(c.name)
        names.update(c.definition_path)
        seeds.append((c.unit, c.name))
    names |= _definition_closure(aag, seeds) | message_names(aag)
    aag._critical_names = names
    return names


def unit_critical_names(aag, unit: str) -> frozenset[str]:
    """:func:`critical_names` kept by unit: the names whose values steer control in ``unit``
    or that a steering value elsewhere is computed from through ``unit``. A local of one
    routine (SP's I, J, K, M, N, P in X_SOLVE) is not made critical there because a variable
    of the same name steers in another routine. Values cross units through COMMON (by name,
    as critical_names has it) and through INTEGER and LOGICAL scalar arguments, both ways: an
    actual argument of a call whose dummy is critical, and a callee's dummy whose actual is
    critical (the callee may assign it). Arrays are critical where critical_names names them."""
    cached = getattr(aag, "_unit_critical", None)
    if cached is None:
        seeds: list[tuple[str, str]] = []
        for c in aag.critical_variables:
            seeds += [(c.unit, c.name)] + [(c.unit, n) for n in c.definition_path]
        seeds += _message_seeds(aag) + _buffer_seeds(aag)
        pairs = _unit_closure(aag, seeds)
        # an array steers where it is named as critical_names has it (by name, in every unit):
        # its elements cross units by reference and by slices of storage, not followed here
        steer = critical_names(aag)
        cached = {u.name: {n for n in steer if _is_array(u, n)} for u in aag.units.values()}
        for u, name in pairs:
            cached.setdefault(u, set()).add(name)
        cached = {u: frozenset(names) for u, names in cached.items()}
        aag._unit_critical = cached
    return cached.get(unit, frozenset())


def _is_array(unit, name: str) -> bool:
    sym = unit.symbols.symbols.get(name)
    return sym is not None and sym.is_array


def _steering_scalar(unit, name: str) -> bool:
    sym = unit.symbols.symbols.get(name)
    return sym is not None and not sym.is_array and sym.type in STEERING_TYPES


def _call_sites(aag) -> list[tuple[str, str, list[ast.Expr]]]:
    """(caller, callee, actual arguments) of every CALL and FUNCTION reference of the
    program's own units."""
    out = []
    for u in aag.units.values():
        for a in u.walk():
            if isinstance(a, A.Call):
                out.append((u.name, a.callee, list(a.args)))
            exprs = [] if isinstance(a, A.Seq) else list(A.read_exprs(a))
            for st in a.stmts if isinstance(a, A.Seq) else ():  # (its references' actuals too)
                if isinstance(st, ast.Assign):
                    exprs += [st.value, st.target]
                elif isinstance(st, ast.CallStmt):
                    exprs += list(st.args)
            for e in exprs:
                for node in walk(e):
                    if isinstance(node, ast.Ref) and node.name in aag.units and \
                            aag.units[node.name].unit.kind == "FUNCTION":
                        out.append((u.name, node.name, list(node.args)))
    return out


def _unit_closure(aag, seeds: list[tuple[str, str]],
                  arguments: bool = True) -> set[tuple[str, str]]:
    """The (unit, name) pairs the seeds are computed from: through definitions in the unit,
    COMMON (by name) and, with ``arguments``, scalar arguments both ways."""
    common_in: dict[str, list] = {}
    for u in aag.units.values():
        for name in u.definitions:
            sym = u.symbols.symbols.get(name)
            if sym is not None and sym.common is not None:
                common_in.setdefault(name, []).append(u)
    # INTEGER and LOGICAL scalars only (what a replay follows: STEERING_TYPES); an array
    # dummy and its actual are critical_names' (by name), and a REAL one is data (LU's
    # VERIFY(…, FRC, …) compares FRC, computed from the whole solution's COMMON arrays)
    callers: dict[tuple[str, int], list[tuple[str, ast.Expr]]] = {}  # (callee, i) → actuals
    passed: dict[tuple[str, str], list[tuple[str, int]]] = {}  # (caller, name) → (callee, i)
    for caller, callee, args in _call_sites(aag) if arguments else ():
        dummies = aag.units[callee].unit.dummies
        for i, e in enumerate(args):
            if i >= len(dummies) or not _steering_scalar(aag.units[callee], dummies[i]):
                continue
            callers.setdefault((callee, i), []).append((caller, e))
            if isinstance(e, ast.Var) and _steering_scalar(aag.units[caller], e.name):
                passed.setdefault((caller, e.name), []).append((callee, i))  # (by reference)
    seen = set(seeds)
    frontier = list(seeds)

    def reach(pair):
        if pair not in seen:
            seen.add(pair)
            frontier.append(pair)
    while frontier:
        unit_name, name = frontier.pop()
        unit = aag.units.get(unit_name)
        if unit is None:
            continue
        sym = unit.symbols.symbols.get(name)
        if sym is not None and sym.common is not None:  # its definitions in those units too
            for v in common_in.get(name, []):
                reach((v.name, name))
        for d in unit.definitions.get(name, []):
            for dep in d.depends_on:
                reach((unit_name, dep))
        if name in unit.unit.dummies:  # the actual arguments it is given
            i = unit.unit.dummies.index(name)
            for caller, e in callers.get((unit_name, i), []):
                for n in names_in(e, aag.units[caller].symbols):
                    reach((caller, n))
        for callee, i in passed.get((unit_name, name), []):  # what the callee may leave in it
            reach((callee, aag.units[callee].unit.dummies[i]))
    return seen


def _message_args(aag):
    """(unit, whether it is a buffer, argument) of every message-passing call."""
    for u in aag.units.values():
        for a in u.walk():
            if getattr(a, "call", None) is not None:
                roles = list(a.call.args) if a.call else []
                for i, arg in enumerate(a.args):
                    yield u, i < len(roles) and "buf" in roles[i], arg


def _message_seeds(aag) -> list[tuple[str, str]]:
    """(unit, name) of the names in the arguments of message-passing calls other than their
    buffers (the data a message carries, not how it is sent)."""
    return [(u.name, node.name) for u, buffer, arg in _message_args(aag) if not buffer
            for node in walk(arg) if isinstance(node, (ast.Var, ast.Ref))]


def _buffer_seeds(aag) -> list[tuple[str, str]]:
    """(unit, name) of the message buffers named as a steering name is somewhere: what a
    message carries is matched at run time, so a sent N stays followed where a received N
    steers (the host's N and the node's, as critical_names has them by name)."""
    steer = critical_names(aag)
    return [(u.name, n) for u, buffer, arg in _message_args(aag) if buffer
            for n in names_in(arg, u.symbols) if n in steer]


def message_names(aag) -> set[str]:
    """The names in the arguments of message-passing calls other than their buffers
    (partners, counts, tags), and what they are computed from."""
    cached = getattr(aag, "_message_names", None)
    if cached is not None:
        return cached
    aag._message_names = _definition_closure(aag, _message_seeds(aag))
    return aag._message_names


def _definition_closure(aag, seeds: list[tuple[str, str]]) -> set[str]:
    """The names the seeds are computed from, through their definitions in their unit and,
    for a COMMON variable, in every unit that assigns it (``NW = NTOTAL`` sizing a message,
    NTOTAL summed in another routine from COMMON arrays filled in a third)."""
    return {name for _, name in _unit_closure(aag, seeds, arguments=False)}


def _follow_list(p, aaus: list[A.AAU], frame: Frame, left: list[int],
                 inert: frozenset[int], critical: frozenset[str]) -> None:
    """Replay ``aaus``; the assignments whose ids are in ``inert`` change nothing the frame
    knows (unknowable.py) and are passed over (counted in the budget all the same), and a
    loop or IF that assigns none of the ``critical`` names is forgotten, not replayed."""
    for a in aaus:
        _follow(p, a, frame, left, inert, critical)


def _steering_assigned(a: A.AAU) -> set[str]:
    """What a compound AAU assigns, its own and nested DO indices left out (cached)."""
    got = a.__dict__.get("_steering_assigned")
    if got is None:
        got = assigned(a) - {n.var for n in a.walk() if isinstance(n, A.Iter)}
        if "assigned" in a.__dict__:  # (kept once assigned() is: its FUNCTIONs' notes made)
            a.__dict__["_steering_assigned"] = got
    return got


def _skippable(a: A.AAU, critical: set[str] | None) -> bool:
    """A loop or IF that assigns nothing that steers (a field zeroed cell by cell): the
    replay forgets what it assigns instead of replaying it."""
    return critical is not None and isinstance(a, (A.Iter, A.Condt)) and \
        not (_steering_assigned(a) & critical)


def _needed_walk(a: A.AAU, critical: set[str] | None = None):
    """``a.walk()`` without the sub-trees :func:`_skippable` leaves out."""
    if _skippable(a, critical or _CRITICAL[0]):
        return
    yield a
    for c in a.children:
        yield from _needed_walk(c, critical)


_CRITICAL: list = [None]  # the names that steer, while a replay runs
_FLOW = DataFlow(_needed_walk, assigned)  # (what unknowable.py reads of a loop's text)


def _follow(p, a: A.AAU, frame: Frame, left: list[int], inert: frozenset[int],
            critical: frozenset[str]) -> None:
    if _skippable(a, critical):
        _forget(a, frame)
        return
    left[0] -= len(a.stmts) if isinstance(a, A.Seq) else 1  # an IF or a loop head costs one
    if left[0] < 0:
        raise _OverBudget
    if isinstance(a, A.Seq):
        for s in a.stmts:
            if id(s) not in inert:
                p.exec_stmt(s, frame)
    elif isinstance(a, A.Iter):
        _follow_loop(p, a, frame, left, inert, critical)
    elif isinstance(a, A.Condt):
        arm = _arm(p, a, frame)
        if arm is False:
            _forget(a, frame)
        elif arm is not None:
            _follow_list(p, arm, frame, left, inert, critical)


def _follow_loop(p, a: A.Iter, frame: Frame, left: list[int], inert: frozenset[int],
                 critical: frozenset[str]) -> None:
    try:
        if a.cond is not None or a.var is None:
            raise InterpError("a loop without a DO index")
        start = p.value(a.start, frame, "loop start")
        stop = p.value(a.stop, frame, "loop bound")
        step = p.value(a.step, frame, "loop step") if a.step is not None else sp.Integer(1)
        n = trip_count(start, stop, step)
        if not n.is_Integer:
            raise InterpError("a symbolic trip count")
    except InterpError:
        _forget(a, frame)
        return
    for i in range(int(n)):
        frame.set(a.var, start + i * step)
        _follow_list(p, a.body, frame, left, inert, critical)
    frame.set(a.var, start + n * step)


def _arm(p, a: A.Condt, frame: Frame) -> list[A.AAU] | None | bool:
    """The body of the arm that runs, None when none does, False when it is not known."""
    for b in a.branches:
        if b.cond is None:
            return b.body
        try:
            v = p.value(b.cond, frame, "a condition")
        except InterpError:
            return False
        if v not in (sp.true, sp.false):
            return False
        if v == sp.true:
            return b.body
    return None


def _forget(a: A.AAU, frame: Frame) -> None:
    for name in assigned(a):
        frame.forget(name)
