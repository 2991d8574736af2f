"""The Application Abstraction Graph and the level-1 parse that builds it (core paper §3.3.2).

Statements are characterized, contiguous statements of the same class are clustered (largest
clusters by default, one AAU per statement on request) and abstracted into AAUs; compound AAUs
get their sub-AAG recursively. Units are built callees first so that a loop calling a subroutine
that communicates is classified as synchronized.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from functools import cached_property, lru_cache
from typing import TYPE_CHECKING
from pathlib import Path

from interp.application import aau as A
from interp.application import ast
from interp.application.ast import expr_text
from interp.application.catalog import LibraryCall, library_calls, not_modelled
from interp.application.expr import (SymbolicError, expr_type, names_in, numeric_value, to_sympy,
                                     trip_count, walk)
from interp.application.opcount import OpCounter, OpCounts
from interp.application.parser import parse_file
from interp.application.symbols import NUMERIC_RANK, Symbol, SymbolTable, build_symbol_table
from interp.errors import InterpError, SourceLocation

if TYPE_CHECKING:
    import networkx as nx

GRANULARITIES = ("largest", "statement")


@dataclass
class Definition:
    """Where a variable gets a value: an assignment, READ, loop, message or library output."""

    var: str
    aau_id: int
    loc: SourceLocation
    how: str  # assign | read | loop | message | library | data | argument
    depends_on: list[str] = field(default_factory=list)
    node_source: str | None = None  # node_id / num_nodes when the value comes from the library


@dataclass
class UnitAAG:
    """The AAG of one program unit: Start, its chain of AAUs, End."""

    unit: ast.ProgramUnit
    symbols: SymbolTable
    aaus: list[A.AAU]
    file: str
    definitions: dict[str, list[Definition]] = field(default_factory=dict)
    uses: dict[str, list[tuple[int, SourceLocation]]] = field(default_factory=dict)
    critical_uses: dict[str, list[tuple[int, SourceLocation, str]]] = field(default_factory=dict)

    @property
    def name(self) -> str:
        return self.unit.name

    @property
    def kind(self) -> str:
        return self.unit.kind

    def walk(self):
        for a in self.aaus:
            yield from a.walk()


@dataclass
class AAG:
    """The whole program's AAG: every unit of every file, and the level-1 characterization."""

    units: dict[str, UnitAAG]
    files: list[str]
    granularity: str
    critical_variables: list = field(default_factory=list)
    external_inputs: list = field(default_factory=list)
    # The files the program OPENs, by the name it opens them with, when the user named a real
    # file for it (--input-file NAME=PATH); other names are looked up in the current folder.
    input_files: dict[str, str] = field(default_factory=dict)
    include_dirs: list[str] = field(default_factory=list)
    # PARAMETER constants given other values when it was built (--set of a PARAMETER)
    parameters: dict[str, int | float] = field(default_factory=dict)

    @cached_property
    def graph(self) -> nx.DiGraph:
        """φ and containment as a networkx graph (built on first use: networkx takes 0.1 s to
        import and only the graph views need it)."""
        return _networkx(self)

    def programs(self) -> list[UnitAAG]:
        return [u for u in self.units.values() if u.kind == "PROGRAM"]

    def all_aaus(self):
        for u in self.units.values():
            yield from u.walk()

    def callees(self, a: A.AAU) -> list[UnitAAG]:
        """The units ``a`` calls, directly or through the units it calls (every Call's
        callee is a unit: build_aag makes a Call of a built unit only)."""
        seen: dict[str, UnitAAG] = {}
        todo = [a]
        while todo:
            for b in todo.pop().walk():
                if isinstance(b, A.Call) and b.callee not in seen:
                    unit = seen[b.callee] = self.units[b.callee]
                    todo += unit.aaus
        return list(seen.values())

    def by_id(self) -> dict[int, A.AAU]:
        return {a.id: a for a in self.all_aaus()}


class _UnitBuilder:
    """Builds the AAUs of one program unit."""

    def __init__(self, unit: ast.ProgramUnit, file: str, table: SymbolTable, ids,
                 built: dict[str, UnitAAG], granularity: str):
        self.unit, self.file, self.table = unit, file, table
        self.ids = ids
        self.built = built
        self.granularity = granularity
        self.counter = OpCounter(table, unit.stmt_functions)
        self.targets = _jump_targets(unit.body)  # labels the engine may have to resume at
        self.result = UnitAAG(unit, table, [], file)

    # ---- helpers ----
    def _loc(self, stmt: ast.Stmt, end_line: int | None = None) -> SourceLocation:
        return SourceLocation(stmt.loc.file, stmt.loc.line, stmt.loc.column,
                              end_line or stmt.loc.end_line or stmt.loc.line)

    def _new(self, cls, stmt_or_loc, **kw):
        loc = stmt_or_loc if isinstance(stmt_or_loc, SourceLocation) else self._loc(stmt_or_loc)
        return cls(id=next(self.ids), loc=loc, unit=self.unit.name, **kw)

    def _define(self, var: str, aau_id: int, loc: SourceLocation, how: str,
                rhs: ast.Expr | None = None, node_source: str | None = None) -> None:
        deps = names_in(rhs, self.table) if rhs is not None else []
        if rhs is not None and node_source is None:
            for node in walk(rhs):
                if isinstance(node, ast.Ref) and node.name in library_calls():
                    ret = library_calls()[node.name].returns
                    if ret in ("node_id", "num_nodes", "host_id"):
                        node_source = ret
        self.result.definitions.setdefault(var, []).append(
            Definition(var, aau_id, loc, how, deps, node_source))

    def _use(self, e: ast.Expr | None, aau_id: int) -> None:
        if e is None:
            return
        for name in names_in(e, self.table):
            self.result.uses.setdefault(name, []).append((aau_id, e.loc))

    def _critical(self, e: ast.Expr | None, aau_id: int, role: str) -> None:
        if e is None:
            return
        for name in names_in(e, self.table):
            sym = self.table.symbols.get(name)
            if sym is not None and (sym.kind == "parameter" or sym.constant is not None):
                continue
            self.result.critical_uses.setdefault(name, []).append((aau_id, e.loc, role))

    # ---- building ----
    def build(self) -> UnitAAG:
        start = self._new(A.Start, SourceLocation(self.file, self.unit.loc.line, 1, self.unit.loc.line))
        for name in self.unit.dummies:
            self._define(name, start.id, start.loc, "argument")
        for decl in self.unit.decls:
            if isinstance(decl, ast.Data):
                for t in decl.targets:
                    self._define(t.name, start.id, decl.loc, "data")
        end_labels: list[int] = []
        body = self.block(self.unit.body, end_labels)
        end_loc = SourceLocation(self.file, self.unit.end_line, 1, self.unit.end_line)
        end = self._new(A.End, end_loc, kind="end", labels=tuple(end_labels))
        self.result.aaus = [start, *body, end]
        return self.result

    def block(self, stmts: list[ast.Stmt], tail: list[int] | None = None) -> list[A.AAU]:
        """The AAUs of a statement list. A statement a GO TO goes to starts an AAU that carries
        its label (the engine resumes there); labels at the end of the list go to ``tail``."""
        out: list[A.AAU] = []
        cluster: list[ast.Stmt] = []
        labels: list[int] = []  # GO TO targets for the next AAU

        def emit(aau: A.AAU) -> None:
            aau.labels = tuple(labels)
            labels.clear()
            out.append(aau)

        def flush() -> None:
            if cluster:
                emit(self.seq(cluster))
                cluster.clear()

        for stmt in stmts:
            if stmt.label in self.targets:
                flush()
                labels.append(stmt.label)
            if self._joins_seq(stmt):
                if isinstance(stmt, (ast.Continue, ast.Format)) and not cluster and \
                        self.granularity == "largest":
                    continue  # a lone CONTINUE costs nothing and only clutters the graph
                cluster.append(stmt)
                if self.granularity == "statement":
                    flush()
                continue
            flush()
            emit(self.special(stmt))
        flush()
        if labels and tail is not None:
            tail.extend(labels)
        elif labels:  # a label ends the list: a CONTINUE stands for it
            emit(self.seq([ast.Continue(stmts[-1].loc, label=labels[0])]))
        return out

    def _joins_seq(self, s: ast.Stmt) -> bool:
        """Whether a statement is sequential work that clusters into a Seq AAU."""
        if isinstance(s, ast.CallStmt):
            call = library_calls().get(s.name)
            return (call.aau == "Seq") if call is not None else s.name not in self.built
        if isinstance(s, ast.Assign):
            return not (isinstance(s.value, ast.Ref) and s.value.name in library_calls()
                        and library_calls()[s.value.name].aau != "Seq")
        return isinstance(s, (ast.Read, ast.Write, ast.FileOp, ast.Continue, ast.Format))

    def seq(self, stmts: list[ast.Stmt]) -> A.Seq:
        loc = SourceLocation(stmts[0].loc.file, stmts[0].loc.line, stmts[0].loc.column,
                             max(s.loc.end_line or s.loc.line for s in stmts))
        aau = self._new(A.Seq, loc, stmts=list(stmts))
        ops = OpCounts()
        for s in stmts:
            ops += self.seq_stmt(s, aau.id)
        aau.ops = ops
        return aau

    def seq_stmt(self, s: ast.Stmt, aau_id: int) -> OpCounts:
        loc = self._loc(s)
        if isinstance(s, ast.Assign):
            _reject_nested_comm(s.value)
            self._define(s.target.name, aau_id, loc, "assign", s.value)
            self._use(s.value, aau_id)
            if isinstance(s.target, ast.Ref):
                for a in s.target.args:
                    self._use(a, aau_id)
            return self.counter.assignment(s)
        if isinstance(s, ast.CallStmt):  # a library routine costed inside the Seq
            return self.library_call(s, aau_id)
        if isinstance(s, ast.Read):
            ops = OpCounts(calls=1)
            ops.library["io"] += 1
            for item in s.items:
                for target in _io_targets(item):
                    self._define(target, aau_id, loc, "read")
                ops.store += 1
            self._io_status(s, aau_id, loc)
            return ops
        if isinstance(s, ast.Write):
            ops = OpCounts(calls=1)
            ops.library["io"] += 1
            for item in s.items:
                self._use(item, aau_id)
                ops += self.counter.expr(item)
            return ops
        if isinstance(s, ast.FileOp):
            ops = OpCounts(calls=1)
            ops.library["io"] += 1
            self._io_status(s, aau_id, loc)
            return ops
        return OpCounts()  # CONTINUE, FORMAT

    def _io_status(self, s: ast.Read | ast.FileOp, aau_id: int, loc: SourceLocation) -> None:
        for name in _status_outputs(s):
            self._define(name, aau_id, loc, "io")
        for key in ("UNIT", "FILE", "REC"):
            self._use(s.specs.get(key), aau_id)

    def library_call(self, s: ast.CallStmt, aau_id: int) -> OpCounts:
        call = library_calls().get(s.name)
        ops = self.counter.call_args(s.args)
        for a in s.args:
            self._use(a, aau_id)
        refused = not_modelled(s.name, self._loc(s))
        if refused is not None:
            raise refused
        if call is None:  # an external routine interp knows nothing about
            ops.calls += 1
            ops.call_args += len(s.args)
            ops.library["default"] += 1
            return ops
        _check_arity(call, s.args, self._loc(s))
        ops.nx[call.cost or "default"] += 1
        for i, role in enumerate(call.args):
            if role.startswith("out_") and i < len(s.args) and isinstance(s.args[i], ast.Var):
                source = role.removeprefix("out_")
                self._define(s.args[i].name, aau_id, self._loc(s), "library",
                             node_source=source if source in ("node_id", "num_nodes") else None)
        return ops

    def special(self, s: ast.Stmt) -> A.AAU:
        """The AAU for a statement that cannot join a Seq cluster."""
        if isinstance(s, ast.DoLoop):
            return self.do_loop(s)
        if isinstance(s, ast.WhileLoop):
            return self.while_loop(s)
        if isinstance(s, ast.IfBlock):
            return self.conditional(s)
        if isinstance(s, (ast.Stop, ast.Return)):
            return self._new(A.End, s, kind="stop" if isinstance(s, ast.Stop) else "return")
        if isinstance(s, (ast.Exit, ast.Goto)):
            return self._new(A.End, s, kind=f"exit:{s.target}")
        if isinstance(s, ast.GotoLoop):
            return self.goto_loop(s)
        if isinstance(s, ast.CallStmt):
            return self.call_stmt(s)
        return self.assigned_call(s)

    def _library_aau(self, stmt: ast.Stmt, name: str, args: list[ast.Expr],
                     result: ast.Var | ast.Ref | None = None) -> A.AAU:
        call = library_calls()[name]
        _check_arity(call, args, self._loc(stmt))
        cls = {"Comm": A.Comm, "Sync": A.Sync, "SyncSeq": A.SyncSeq, "Spawn": A.Spawn}[call.aau]
        index = list(result.args) if isinstance(result, ast.Ref) else []
        aau = self._new(cls, stmt, call=call, args=list(args),
                        result=result.name if result is not None else None, result_index=index,
                        arg_ops=self.counter.call_args(args))
        for e in index:  # the element the handle is stored in: MID(K) = IRECV(...)
            self._use(e, aau.id)
        for i, a in enumerate(args):
            role = call.args[i] if i < len(call.args) else ""
            if role in ("buf", "recvbuf") and call.op in ("recv", "bcast", "global_op", "reduce",
                                                         "allreduce"):
                target = a.name if isinstance(a, (ast.Var, ast.Ref)) else None
                if target:
                    self._define(target, aau.id, self._loc(stmt), "message")
            elif role.startswith("out_") and isinstance(a, (ast.Var, ast.Ref)):
                self._define(a.name, aau.id, self._loc(stmt), "library")
            elif role != "work":  # scratch space is neither read nor given a value we use
                self._use(a, aau.id)
        if result is not None:
            self._define(result.name, aau.id, self._loc(stmt), "library")
        return aau

    def call_stmt(self, s: ast.CallStmt) -> A.AAU:
        if s.name in library_calls():
            return self._library_aau(s, s.name, s.args)
        callee = self.built[s.name]
        aau = self._new(A.Call, s, callee=s.name, args=list(s.args),
                        arg_ops=self.counter.call_args(s.args),
                        callee_body=callee.aaus,
                        callee_has_sync=any(a.has_sync() for a in callee.aaus))
        for a in s.args:
            self._use(a, aau.id)
            if isinstance(a, (ast.Var, ast.Ref)) and not self.table.is_function(a.name):
                self._define(a.name, aau.id, self._loc(s), "argument")
        return aau

    def assigned_call(self, s: ast.Assign) -> A.AAU:
        """``ID = IRECV(...)``: a communication whose handle is stored."""
        v = s.value
        return self._library_aau(s, v.name, v.args, result=s.target)

    def _bounds_ops(self, exprs: list[ast.Expr | None]) -> OpCounts:
        ops = OpCounts()
        for e in exprs:
            if e is not None:
                ops += self.counter.expr(e)
        return ops

    def do_loop(self, s: ast.DoLoop) -> A.Iter:
        loc = self._loc(s, s.end_line)
        placeholder_id = next(self.ids)
        self._define(s.var, placeholder_id, loc, "loop", None)
        for role, e in (("loop start", s.start), ("loop bound", s.stop), ("loop step", s.step)):
            self._critical(e, placeholder_id, role)
            self._use(e, placeholder_id)
        self.result.critical_uses.setdefault(s.var, []).append((placeholder_id, s.loc, "loop index"))
        body = self.block(s.body)
        for role, e in (("start", s.start), ("bound", s.stop), ("step", s.step)):
            if e is not None and expr_type(e, self.table) not in NUMERIC_RANK:
                raise InterpError(f"the loop {role} {expr_text(e)} is "
                                  f"{expr_type(e, self.table)}, not a number", e.loc)
        step_given = s.step is not None and not (isinstance(s.step, ast.Num) and s.step.value == 1)
        common = dict(var=s.var, start=s.start, stop=s.stop, step=s.step,
                      limit_type="step" if step_given else "nostep",
                      bound_ops=self._bounds_ops([s.start, s.stop, s.step]), body=body)
        try:
            conv = [to_sympy(e, self.table) if e is not None else None
                    for e in (s.start, s.stop, s.step)]
            if conv[2] is not None and conv[2].is_zero:
                raise InterpError("the loop step is zero", s.step.loc,
                                  hint="a DO loop needs a step that is not zero")
            count = trip_count(*conv)
        except SymbolicError as err:
            return A.IterND(id=placeholder_id, loc=loc, unit=self.unit.name, **common,
                            nd_reason=f"its bounds are not known at parse time ({err.message})",
                            limits_at_run_time=not s.exits)
        if s.exits:
            return A.IterND(id=placeholder_id, loc=loc, unit=self.unit.name, **common,
                            num_iters=count, nd_reason="a GO TO can leave it before the last iteration")
        cls = A.IterSync if any(a.has_sync() for a in body) else A.IterD
        return cls(id=placeholder_id, loc=loc, unit=self.unit.name, num_iters=count, **common)

    def while_loop(self, s: ast.WhileLoop) -> A.IterND:
        loc = self._loc(s, s.end_line)
        aau_id = next(self.ids)
        self._critical(s.cond, aau_id, "loop condition")
        self._use(s.cond, aau_id)
        body = self.block(s.body)
        reason = ("a GO TO loop: it repeats while its condition holds" if s.test_at_end or s.goto
                  else "DO WHILE: the number of iterations depends on values computed in the body")
        return A.IterND(id=aau_id, loc=loc, unit=self.unit.name, cond=s.cond,
                        test_at_end=s.test_at_end, limit_type="while", head_label=s.label,
                        bound_ops=self._bounds_ops([s.cond]), body=body, nd_reason=reason)

    def goto_loop(self, s: ast.GotoLoop) -> A.IterND:
        loc = self._loc(s, s.end_line)
        aau_id = next(self.ids)
        return A.IterND(id=aau_id, loc=loc, unit=self.unit.name, limit_type="goto",
                        body=self.block(s.body), head_label=s.label,
                        nd_reason=f"a GO TO loop: it runs again while a GO TO {s.label} is "
                                  "reached in it")

    def conditional(self, s: ast.IfBlock) -> A.Condt:
        loc = self._loc(s, s.end_line)
        aau_id = next(self.ids)
        branches = []
        for cond, body, bloc in s.branches:
            self._critical(cond, aau_id, "condition")
            self._use(cond, aau_id)
            branches.append(A.Branch(cond, self.counter.expr(cond), self.block(body), bloc))
        if s.else_body is not None:
            branches.append(A.Branch(None, OpCounts(), self.block(s.else_body), s.else_loc or loc))
        sync = any(a.has_sync() for b in branches for a in b.body)
        cls = A.CondtSync if sync else A.CondtD
        return cls(id=aau_id, loc=loc, unit=self.unit.name, branches=branches)


def _check_arity(call: LibraryCall, args: list[ast.Expr], loc: SourceLocation) -> None:
    """A library call with the wrong number of arguments: an error at the call (the engine
    would otherwise meet a missing argument deep inside the interpretation)."""
    if len(args) != len(call.args):
        expected = ", ".join(a.removeprefix("out_") for a in call.args)
        raise InterpError(
            f"{call.name} takes {len(call.args)} argument{'s' * (len(call.args) != 1)}, "
            f"{len(args)} given", loc, hint=f"{call.name}({expected})")


def _reject_nested_comm(e: ast.Expr) -> None:
    for node in walk(e):
        if isinstance(node, ast.Ref) and node.name in library_calls() and \
                library_calls()[node.name].aau != "Seq":
            raise InterpError(
                f"{node.name} must be called on its own, not inside an expression",
                node.loc, hint=f"assign its result first: ID = {node.name}(...)",
            )


def _jump_targets(stmts: list[ast.Stmt]) -> set[int]:
    return {s.target for s in _walk_stmts(stmts) if isinstance(s, (ast.Goto, ast.Exit))}


def _walk_stmts(stmts: list[ast.Stmt]):
    for s in stmts:
        yield s
        for child in _stmt_children(s):
            yield from _walk_stmts(child)


_IO_INPUTS = {"UNIT", "FILE", "ERR", "FMT"}  # INQUIRE's specs that are not answers


def _status_outputs(s: ast.Read | ast.FileOp) -> list[str]:
    """The variables an I/O statement sets through its control list: IOSTAT=, and what
    INQUIRE answers (EXIST=, OPENED=, NUMBER=...)."""
    return [e.name for key, e in s.specs.items() if isinstance(e, (ast.Var, ast.Ref)) and (
        key == "IOSTAT" or (isinstance(s, ast.FileOp) and s.kind == "INQUIRE"
                            and key not in _IO_INPUTS))]


def io_outputs(s: ast.Read | ast.FileOp) -> list[str]:
    """Every variable an I/O statement may set: what it reads and its control list's outputs."""
    items = s.items if isinstance(s, ast.Read) else []
    return [t for item in items for t in _io_targets(item)] + _status_outputs(s)


def _io_targets(item: ast.Expr) -> list[str]:
    if isinstance(item, (ast.Var, ast.Ref)):
        return [item.name]
    if isinstance(item, ast.ImpliedDo):
        return [t for i in item.items for t in _io_targets(i)]
    return []


# ---- the whole program ---------------------------------------------------------------------


def _calls_of(unit: ast.ProgramUnit, user: set[str]) -> list[tuple[str, SourceLocation]]:
    out = []

    def visit(stmts):
        for s in stmts:
            if isinstance(s, ast.CallStmt) and s.name in user:
                out.append((s.name, s.loc))
            for e in _stmt_exprs(s):
                for node in walk(e):
                    if isinstance(node, ast.Ref) and node.name in user and node.name != unit.name:
                        out.append((node.name, node.loc))
            for child in _stmt_children(s):
                visit(child)

    visit(unit.body)
    return out


def _stmt_exprs(s: ast.Stmt) -> list[ast.Expr]:
    if isinstance(s, ast.Assign):
        return [s.value]
    if isinstance(s, ast.CallStmt):
        return list(s.args)
    if isinstance(s, ast.DoLoop):
        return [e for e in (s.start, s.stop, s.step) if e is not None]
    if isinstance(s, ast.WhileLoop):
        return [s.cond]
    if isinstance(s, ast.IfBlock):
        return [c for c, _, _ in s.branches]
    return []


def _stmt_children(s: ast.Stmt) -> list[list[ast.Stmt]]:
    if isinstance(s, (ast.DoLoop, ast.WhileLoop, ast.GotoLoop)):
        return [s.body]
    if isinstance(s, ast.IfBlock):
        return [b for _, b, _ in s.branches] + ([s.else_body] if s.else_body else [])
    return []


def _callee_first(units: dict[str, tuple[ast.ProgramUnit, str]]) -> list[str]:
    """Unit names ordered callees first; recursion is an error naming the call."""
    user = set(units)
    calls = {name: _calls_of(u, user) for name, (u, _) in units.items()}
    order = _topological(list(units), {n: [t for t, _ in ts] for n, ts in calls.items()})
    if order is not None:
        return list(reversed(order))
    import networkx as nx  # only to name the cycle of a recursive program

    graph = nx.DiGraph()
    graph.add_nodes_from(units)
    for name, targets in calls.items():
        for target, _loc in targets:
            graph.add_edge(name, target)
    cycle = nx.find_cycle(graph)
    caller, callee = cycle[0][0], cycle[0][1]
    loc = next(loc for t, loc in calls[caller] if t == callee)
    path = " -> ".join([e[0] for e in cycle] + [cycle[0][0]])
    raise InterpError(f"recursive calls are not supported: {path}", loc,
                      hint="Fortran 77 does not allow recursion; rewrite it as a loop")


def _topological(nodes: list[str], edges: dict[str, list[str]]) -> list[str] | None:
    """Kahn's order generation by generation, in the order networkx's ``topological_sort``
    gives (so AAU ids are as before); None when there is a cycle."""
    succ = {n: list(dict.fromkeys(edges.get(n, ()))) for n in nodes}
    indegree = {n: 0 for n in nodes}
    for targets in succ.values():
        for t in targets:
            indegree[t] += 1
    generation = [n for n in nodes if indegree[n] == 0]
    order: list[str] = []
    while generation:
        order.extend(generation)
        following = []
        for n in generation:
            for t in succ[n]:
                indegree[t] -= 1
                if indegree[t] == 0:
                    following.append(t)
        generation = following
    return order if len(order) == len(nodes) else None


def build_aag(paths: list[str | Path], granularity: str = "largest",
              include_dirs: Iterable[str | Path] = (),
              parameters: dict[str, int | float] | None = None) -> AAG:
    """Parse the files and build the program's AAG with its level-1 characterization
    (INCLUDE files are searched beside the including file, then in ``include_dirs``).
    ``parameters``: PARAMETER constants to give other values, by (upper-case) name."""
    from interp.application.characterize import characterize

    if granularity not in GRANULARITIES:
        raise InterpError(f"unknown granularity {granularity!r}",
                          hint=f"choose one of: {', '.join(GRANULARITIES)}")
    if not paths:
        raise InterpError("no source files given", hint="name one or more Fortran files")
    include_dirs = list(include_dirs)
    parsed: dict[str, tuple[ast.ProgramUnit, str]] = {}
    for path in paths:
        for unit in parse_file(path, include_dirs):
            if unit.name in parsed:
                other = parsed[unit.name][0]
                raise InterpError(
                    f"program unit {unit.name} is defined twice (first at {other.loc})", unit.loc)
            parsed[unit.name] = (unit, str(path))
    ids = iter(range(1, 1 << 62))
    built: dict[str, UnitAAG] = {}
    user = set(parsed)
    for name in _callee_first(parsed):
        unit, file = parsed[name]
        table = build_symbol_table(unit, user, parameters)
        built[name] = _UnitBuilder(unit, unit.loc.file, table, ids, built, granularity).build()
    order = [n for n in parsed if n in built]
    aag = AAG({n: built[n] for n in order}, [str(p) for p in paths], granularity,
              include_dirs=[str(d) for d in include_dirs], parameters=dict(parameters or {}))
    characterize(aag)
    return aag


def _parameters(aag: AAG) -> dict[str, tuple[Symbol, SymbolTable]]:
    """The program's PARAMETER constants (not the library's, as mpif.h's), by name: the first
    unit's symbol and the table its value is read in."""
    out: dict[str, tuple[Symbol, SymbolTable]] = {}
    for u in aag.units.values():
        for name, sym in u.symbols.symbols.items():
            if sym.kind == "parameter" and sym.value is not None:
                out.setdefault(name, (sym, u.symbols))
    return out


def parameters_of(aag: AAG) -> dict[str, Symbol]:
    """The program's PARAMETER constants by name (``.loc`` where defined, ``.type``)."""
    return {name: sym for name, (sym, _) in _parameters(aag).items()}


def parameter_values(aag: AAG) -> dict[str, int | float]:
    """The values of the program's numeric PARAMETER constants, by name (what a what-if
    ``N *= 10`` of a PARAMETER starts from)."""
    out: dict[str, int | float] = {}
    for name, (sym, table) in _parameters(aag).items():
        value = numeric_value(ast.Var(name, sym.loc), table)
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            out[name] = value
    return out


def with_parameters(aag: AAG, values: Mapping[str, int | float]) -> AAG:
    """The program rebuilt with PARAMETER constants given other values (``--set`` of a
    PARAMETER: a what-if on the source). The AAG is rebuilt since a PARAMETER may size
    arrays and bound loops everywhere it is used."""
    wanted = {**aag.parameters, **values}
    if wanted == aag.parameters:
        return aag
    return _rebuilt(tuple(aag.files), aag.granularity, tuple(aag.include_dirs),
                    tuple(sorted(wanted.items())), tuple(sorted(aag.input_files.items())))


@lru_cache(maxsize=8)  # a sweep over other inputs predicts the same rebuilt program again
def _rebuilt(files: tuple[str, ...], granularity: str, include_dirs: tuple[str, ...],
             parameters: tuple[tuple[str, int | float], ...],
             input_files: tuple[tuple[str, str], ...]) -> AAG:
    # the input files are part of the key: the cached AAG is shared, never changed after
    built = build_aag(list(files), granularity, include_dirs, dict(parameters))
    built.input_files = dict(input_files)
    return built


def statement_ops(aag: AAG, seq: A.Seq) -> list[OpCounts]:
    """The operation counts of each statement of a Seq AAU, as its ``ops`` sums them."""
    unit = aag.units[seq.unit]
    builder = _UnitBuilder(unit.unit, unit.file, unit.symbols, iter(range(1, 1 << 62)), {},
                           aag.granularity)
    return [builder.seq_stmt(stmt, seq.id) for stmt in seq.stmts]


def _networkx(aag: AAG) -> nx.DiGraph:
    """φ (execution order) between consecutive AAUs of every (sub-)AAG, plus containment."""
    import networkx as nx

    g = nx.DiGraph()

    def chain(aaus: list[A.AAU], parent: A.AAU | None) -> None:
        for a in aaus:
            g.add_node(a.id, type=a.type, unit=a.unit, line=a.loc.line)
        for x, y in zip(aaus, aaus[1:]):
            g.add_edge(x.id, y.id, kind="next")
        for a in aaus:
            if isinstance(a, A.Condt):
                for b in a.branches:
                    if b.body:
                        g.add_edge(a.id, b.body[0].id, kind="branch")
                    chain(b.body, a)
            elif isinstance(a, A.Iter):
                if a.body:
                    g.add_edge(a.id, a.body[0].id, kind="body")
                chain(a.body, a)
            elif isinstance(a, A.Call) and a.callee_body:
                g.add_edge(a.id, a.callee_body[0].id, kind="call")

    for unit in aag.units.values():
        chain(unit.aaus, None)
    return g
