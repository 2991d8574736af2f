"""The values the interpretation needs: a backward slice of the program from its decisions.

Interpreting a program step by step, interp follows the values of its variables only for the
decisions they make: a branch, a loop's bounds, a message's partner, size and tag, a GO TO's
target. An assignment whose value can never reach such a decision need not be computed at
all. EP's seed loop calls RANDLC twice an iteration for a value nothing decides on; working
it out statement by statement was two thirds of EP's prediction time.

:func:`needed_names` is the set of variable names whose values may reach a decision,
computed once per AAG, flow-insensitively and by name across units (as interp's COMMON store
is shared by name):

* seeds: the names a condition, a loop's limits or index, an argument of a message-passing
  call other than its buffer (partner, count, tag, communicator), or an adjustable array
  bound reads;
* a message buffer is needed when a buffer of its type is: the data a needed receive gets
  may come from any send (messages are not matched here);
* an assignment to a needed name needs the names its value and its target's subscripts read;
* a subroutine or FUNCTION argument binds the actual to the dummy both ways (by reference:
  the callee's value comes back, and the callee's decisions read the caller's value);
* a FUNCTION whose value is needed is worked out whole (omega.function_value), so every
  name it and the routines it calls read is needed.

Statements whose target is not needed are skipped by ``Process.exec_stmt``; the variable is
then not followed, and says so if anything asks for it after all. A statement is not skipped
when a FUNCTION it references changes a needed argument or COMMON name (:func:`kept_statements`:
CG's ``VECELT = RANDLC(TRAN, AMULT)`` advances the seed TRAN the next column index is drawn
from, though VECELT itself decides nothing).
"""

from __future__ import annotations

from interp.application import aau as A
from interp.application.aag import io_outputs
from interp.application import ast
from interp.application.expr import names_in, walk

BUFFER_ROLES = ("buf", "sendbuf", "recvbuf", "buffer")  # the data a message carries


def needed_names(aag) -> frozenset[str]:
    """The names whose values may reach a decision of the interpretation (cached on the AAG)."""
    cached = getattr(aag, "_needed_names", None)
    if cached is not None:
        return cached
    seeds: set[str] = set()
    defs: dict[str, set[str]] = {}  # name → names its assignments read
    functions_read: set[str] = set()  # FUNCTIONs a decision or a message call references
    uses: dict[str, set[str]] = {}  # name → FUNCTIONs whose values its assignments take
    links: dict[str, set[str]] = {}  # argument bindings, both ways
    buffers: set[tuple[str, str]] = set()  # (name, Fortran type) of every message buffer
    for unit in aag.units.values():
        table = unit.symbols
        seeds |= _bound_names(unit)
        seeds |= set(unit.critical_uses)
        for sf in unit.unit.stmt_functions.values():  # expanded where referenced: what their
            seeds |= _reads(sf.body, table) - set(sf.args)  # bodies read besides their dummies
        for a in unit.walk():
            if isinstance(a, A.Seq):
                for s in a.stmts:
                    _statement(s, table, aag, seeds, defs, uses, links)
            elif isinstance(a, A.LibraryAAU):
                roles = list(a.call.args) if a.call else []
                for i, arg in enumerate(a.args):
                    if i < len(roles) and roles[i] in BUFFER_ROLES:
                        buffers |= {(n, _type(table, n)) for n in _reads(arg, table)}
                        continue
                    seeds.update(_reads(arg, table))
                    functions_read |= _functions(arg, table, aag)
                if a.result:
                    seeds.add(a.result)
                    for e in a.result_index:  # MID(K) = IRECV(...): which element holds it
                        seeds.update(_reads(e, table))
            elif isinstance(a, A.Call):
                _bind(aag.units.get(a.callee), a.args, table, aag, links, uses)
            for e in _control_exprs(a):
                functions_read |= _functions(e, table, aag)
                seeds.update(_reads(e, table))
    needed: set[str] = set()
    more, done = seeds | functions_read, set()
    while more:
        needed |= _closure(more, defs, links, needed)
        # a needed FUNCTION is worked out whole: all it reads is needed
        wanted = {f for name in needed for f in uses.get(name, ())} | functions_read
        new = _called_closure(aag, wanted) - done
        done |= new
        more = {n for f in new for n in _all_reads(aag.units[f]) | {f}}
        # a needed message buffer needs every buffer of its type that may have sent it
        types = {t for name, t in buffers if name in needed}
        more |= {name for name, t in buffers if t in types}
        more -= needed
    aag._needed_names = frozenset(needed)
    return aag._needed_names


def kept_statements(aag) -> frozenset[int]:
    """The ids of the assignments whose target is not needed but whose value references a
    FUNCTION that changes a needed name: an actual argument it assigns through its dummy, or a
    COMMON name it assigns (cached on the AAG). Skipping them would leave that name stale."""
    cached = getattr(aag, "_kept_statements", None)
    if cached is not None:
        return cached
    needed = needed_names(aag)
    kept = set()
    for unit in aag.units.values():
        for a in unit.walk():
            if not isinstance(a, A.Seq):
                continue
            changed = set()
            for s in a.stmts:
                if isinstance(s, ast.Assign):
                    changed |= _changed_by_functions(aag, s.value)
                    if s.target.name not in needed and _changes_needed(aag, s.value, needed):
                        kept.add(id(s))
            a.__dict__["function_changes"] = frozenset(changed)  # dataflow.assigned reads it
    aag._kept_statements = frozenset(kept)
    return aag._kept_statements


def _changes_needed(aag, e: ast.Expr, needed: frozenset[str]) -> bool:
    return bool(_changed_by_functions(aag, e) & needed)


def _changed_by_functions(aag, e: ast.Expr) -> set[str]:
    """The caller's names the FUNCTION references in ``e`` may change: the actual arguments of
    the dummies they assign, and the COMMON names they assign."""
    out = set()
    for node in walk(e):
        if isinstance(node, ast.Ref) and node.name in aag.units:
            positions, common = function_changes(aag, node.name)
            out |= common
            out |= {node.args[i].name for i in positions if i < len(node.args)
                    and isinstance(node.args[i], (ast.Var, ast.Ref))}
    return out


def function_changes(aag, name: str) -> tuple[frozenset[int], frozenset[str]]:
    """What a reference to the FUNCTION ``name`` may change besides its value: the positions
    of the dummies it (or a routine it passes them to) may assign, and the COMMON names it or
    the routines it calls may assign (cached)."""
    cache = aag.__dict__.setdefault("_function_changes", {})
    if name not in cache:
        unit = aag.units.get(name)
        if unit is None or unit.kind != "FUNCTION":
            cache[name] = (frozenset(), frozenset())
        else:
            dummies = unit.unit.dummies
            changed = _may_assign(unit)
            common = set()
            for callee in _called_closure(aag, {name}):
                table = aag.units[callee].symbols
                common |= {n for n in _may_assign(aag.units[callee])
                           if (sym := table.symbols.get(n)) is not None and sym.common is not None}
            cache[name] = (frozenset(i for i, d in enumerate(dummies) if d in changed),
                           frozenset(common))
    return cache[name]


def _may_assign(unit) -> set[str]:
    """Names a unit may assign: assignment targets, DO indices, READ items, and the variables
    it passes to a routine or FUNCTION by reference (which may assign them)."""
    out = set()
    for a in unit.walk():
        if isinstance(a, A.Iter) and a.var:
            out.add(a.var)
        if isinstance(a, A.Call):
            out |= {x.name for x in a.args if isinstance(x, (ast.Var, ast.Ref))}
        for s in a.stmts if isinstance(a, A.Seq) else ():
            if isinstance(s, ast.Assign):
                out.add(s.target.name)
            elif isinstance(s, (ast.Read, ast.FileOp)):
                out |= set(io_outputs(s))
        for e in _all_exprs(a):
            out |= {x.name for n in walk(e)
                    if isinstance(n, ast.Ref) and n.name in unit.symbols.user_units
                    for x in n.args if isinstance(x, (ast.Var, ast.Ref))}
    return out


def _statement(s: ast.Stmt, table, aag, seeds, defs, uses, links) -> None:
    if isinstance(s, ast.Assign):
        target = s.target.name
        reads = defs.setdefault(target, set())
        reads.update(_reads(s.value, table))
        if isinstance(s.target, ast.Ref):
            for i in s.target.args:
                reads.update(_reads(i, table))
        uses.setdefault(target, set()).update(_functions(s.value, table, aag))
        for node in walk(s.value):
            if isinstance(node, ast.Ref) and node.name in aag.units:
                _bind(aag.units[node.name], node.args, table, aag, links, uses)
    elif isinstance(s, ast.CallStmt):  # a library routine inside a Seq (MPI_COMM_RANK …)
        for arg in s.args:
            seeds.update(_reads(arg, table))
    elif isinstance(s, (ast.Read, ast.FileOp)):
        for key in ("UNIT", "FILE", "REC"):
            e = s.specs.get(key) if hasattr(s, "specs") else None
            if e is not None:
                seeds.update(_reads(e, table))


def _reads(e: ast.Expr | None, table) -> set[str]:
    return set(names_in(e, table)) if e is not None else set()


def _functions(e: ast.Expr | None, table, aag) -> set[str]:
    if e is None:
        return set()
    return {n.name for n in walk(e) if isinstance(n, ast.Ref) and n.name in aag.units
            and table.is_function(n.name)}


def _bind(callee, actuals: list[ast.Expr], table, aag, links, uses) -> None:
    """Link each dummy of ``callee`` with the names its actual argument reads (and the
    FUNCTIONs it references, whose values the dummy then holds)."""
    if callee is None:
        return
    for dummy, actual in zip(callee.unit.dummies, actuals):
        uses.setdefault(dummy, set()).update(_functions(actual, table, aag))
        for name in _reads(actual, table):
            links.setdefault(dummy, set()).add(name)
            links.setdefault(name, set()).add(dummy)


def _control_exprs(a: A.AAU) -> list[ast.Expr]:
    if isinstance(a, A.Iter):
        return [e for e in (a.start, a.stop, a.step, a.cond) if e is not None]
    if isinstance(a, A.Condt):
        return [b.cond for b in a.branches if b.cond is not None]
    return []


def _bound_names(unit) -> set[str]:
    """Names an adjustable array's bounds read (``U(N1, N2, N3)``): messages from the array
    and its element counts need them."""
    out = set()
    for sym in unit.symbols.symbols.values():
        for lo, hi in sym.dims or ():
            out |= _reads(lo, unit.symbols) | _reads(hi, unit.symbols)
    return out


def _type(table, name: str) -> str:
    sym = table.symbols.get(name)
    return sym.type if sym is not None else "?"


def _closure(seeds: set[str], defs: dict[str, set[str]], links: dict[str, set[str]],
             known: set[str]) -> set[str]:
    """``seeds`` and every name they are computed from or bound to, beyond ``known``."""
    out, frontier = set(seeds) | known, list(seeds - known)
    while frontier:
        name = frontier.pop()
        for dep in defs.get(name, set()) | links.get(name, set()):
            if dep not in out:
                out.add(dep)
                frontier.append(dep)
    return out


def _called_closure(aag, names: set[str]) -> set[str]:
    """The units ``names`` are, and every unit they call or reference, transitively."""
    out, frontier = set(), [n for n in names if n in aag.units]
    while frontier:
        name = frontier.pop()
        if name in out:
            continue
        out.add(name)
        unit = aag.units[name]
        for a in unit.walk():
            if isinstance(a, A.Call):
                frontier.append(a.callee)
            for e in _all_exprs(a):
                frontier += [n.name for n in walk(e) if isinstance(n, ast.Ref)
                             and n.name in aag.units]
    return out


def _all_exprs(a: A.AAU) -> list[ast.Expr]:
    exprs = list(_control_exprs(a))
    if isinstance(a, A.Seq):
        for s in a.stmts:
            if isinstance(s, ast.Assign):
                exprs.append(s.value)
                exprs += list(s.target.args) if isinstance(s.target, ast.Ref) else []
            elif isinstance(s, ast.CallStmt):
                exprs += list(s.args)
    elif isinstance(a, (A.LibraryAAU, A.Call)):
        exprs += list(a.args)
    return exprs


def _all_reads(unit) -> set[str]:
    out = set()
    for a in unit.walk():
        for e in _all_exprs(a):
            out |= _reads(e, unit.symbols)
    return out


def pure_function(aag, name: str) -> bool:
    """Whether the user FUNCTION ``name``'s value depends on its scalar arguments alone: no
    COMMON, no SAVE or DATA-kept state it changes, no calls, no I/O, no array dummies, and no
    argument it assigns (NPB's RANDLC(X, A) advances its seed X: a call worked out later
    would leave X as it was). Such a value can be worked out later than the reference, with
    the same result (cached)."""
    cache = aag.__dict__.setdefault("_pure_functions", {})
    if name not in cache:
        cache[name] = _pure(aag.units.get(name))
    return cache[name]


def _pure(unit) -> bool:
    if unit is None or unit.kind != "FUNCTION":
        return False
    syms = unit.symbols.symbols
    if any(sym.common is not None for sym in syms.values()):
        return False
    if any(syms.get(d) is None or syms[d].is_array for d in unit.unit.dummies):
        return False
    kept = set()
    for decl in unit.unit.decls:
        if isinstance(decl, ast.Data):
            kept |= {t.name for t in decl.targets}
        elif getattr(decl, "kind", None) == "SAVE":
            return False
    assigned = set()
    for a in unit.walk():
        if isinstance(a, (A.LibraryAAU, A.Call)):
            return False
        for s in a.stmts if isinstance(a, A.Seq) else ():
            if isinstance(s, (ast.Read, ast.FileOp, ast.CallStmt)):
                return False
            if isinstance(s, ast.Assign):
                assigned.add(s.target.name)
        if any(isinstance(n, ast.Ref) and n.name in unit.symbols.user_units
               for e in _all_exprs(a) for n in walk(e)):
            return False
    return not (kept & assigned) and not (assigned & set(unit.unit.dummies))
