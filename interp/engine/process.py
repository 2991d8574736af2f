"""One process's chain, interpreted: Ω applied AAU by AAU along the active chain (Algorithm 2).

A process is a coroutine. Sequential work advances its own clock τ; a Comm, Sync, SyncSeq or
Spawn AAU is handed to the scheduler as a request and the process waits for the answer (its
completion time and the parts of δ). Deterministic sub-graphs (IterD, CondtD, calls of
subroutines that do not communicate) are evaluated in closed form, never unrolled:

    δ_IterD = t_fixed + NumIters · (t_per_iter + δ_body)        (core paper §3.4.2)

with Σ over the index when δ_body depends on it (triangular loops). IterSync loops run
iteration by iteration, announcing each iteration's head to the scheduler, which detects the
steady state and extends it in closed form. IterND loops are unrolled (and reported as such).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Generator

import sympy as sp

from interp.application import aau as A
from interp.application import ast
from interp.application.aag import AAG, UnitAAG
from interp.application.catalog import lookup, mpi_constants, mpi_datatype_bytes
from interp.application.expr import (
    SymbolicError, as_sympy, element_key, expr_text, names_in, numeric_value, to_sympy, trip_count,
)
from interp.engine.costs import CostModel, branch_overhead, compute_seconds, hit_ratio, loop_overheads
from interp.engine.timeval import as_count, as_time, is_symbolic
from interp.engine.values import UNKNOWN, Frame, Inputs, NeedValue
from interp.errors import InterpError

CATEGORIES = ("computation", "call", "transmission", "waiting")
HOST_ID = 32768  # what MYHOST() returns: not a node number and not NX/2's -1 (all nodes)
EXACT_SUM_LIMIT = 2048  # loop-variant conditions: sum exactly up to this many iterations
VARYING = "\0varying"  # binding key: the names a closed-form loop's body assigns
SYMBOLIC_ITERATION_LIMIT = 12  # IterSync iterations tried before a symbolic count must be given


class NotStatic(Exception):
    """A sub-graph that cannot be evaluated in closed form (control leaves it, or it unrolls)."""


# ---- requests to the scheduler ---------------------------------------------------------------


@dataclass
class Request:
    aau: A.AAU
    process: "Process"


@dataclass
class SendReq(Request):
    dests: list[int]
    tag: sp.Expr
    size: sp.Expr
    payload: dict
    synchronous: bool
    handle: str | None = None  # variable receiving an isend/MPI_ISEND request handle
    broadcast: bool = False  # NX/2 csend to node -1
    datatype: int | None = None  # MPI datatype handle (None: NX/2 bytes)


@dataclass
class RecvReq(Request):
    source: int | None  # None: any source
    tag: int | None  # None: any type/tag
    capacity: sp.Expr
    buf: str | None
    synchronous: bool
    handle: str | None = None
    datatype: int | None = None  # MPI datatype handle (None: NX/2 bytes)


@dataclass
class WaitReq(Request):
    handle: str


@dataclass
class CollReq(Request):
    kind: str  # gdsum ... / barrier / bcast / reduce / allreduce
    size: sp.Expr
    root: int | None
    payload: dict
    buf: str | None
    combine_seconds: sp.Expr  # the Seq part of a SyncSeq: combining two partial results
    reduce: str | None


@dataclass
class SpawnReq(Request):
    program: str | None
    dests: list[int]


@dataclass
class LoopHead(Request):
    iteration: sp.Expr
    count: sp.Expr


@dataclass
class Reply:
    """The scheduler's answer: when the AAU completes and how its δ splits."""

    end: sp.Expr
    parts: dict[str, sp.Expr] = field(default_factory=dict)
    payload: dict | None = None
    jump: sp.Expr | None = None  # LoopHead: skip this many iterations (steady-state extension)
    status: tuple[int, int, sp.Expr] | None = None  # a received message's (source, tag, bytes)


@dataclass
class TraceSpan:
    """One interpreted execution of an AAU on a process (for trace export)."""

    aau: int
    name: str  # the AAU type, or "waiting"
    start: sp.Expr
    end: sp.Expr


@dataclass
class AAUStat:
    count: sp.Expr = 0
    total: sp.Expr = 0.0
    tau: sp.Expr | None = None  # first activation time


class Process:
    """A process: a chain of the SAAG instantiated with its node-dependent values resolved."""

    def __init__(self, pid: int, label: str, program: UnitAAG, aag: AAG, cm: CostModel,
                 nprocs: int, start: sp.Expr, inputs: Inputs, library: str):
        self.pid, self.label, self.program, self.aag, self.cm = pid, label, program, aag, cm
        self.nprocs = nprocs
        self.start = start
        self.clock: sp.Expr = start
        self.inputs = inputs
        self.library = library  # nx2 | mpi: how ranks and partners are named
        self.common: dict[str, object] = {}
        self.cats: dict[str, sp.Expr] = {c: 0.0 for c in CATEGORIES}
        self.stats: dict[int, AAUStat] = {}
        self.handles: dict[str, object] = {}
        self.null_handles: set[str | None] = set()  # requests of MPI_PROC_NULL calls
        self.notes: list[str] = []
        self.assumptions: dict[int, sp.Basic] = {}
        self.decisions: list = []
        self.state = "ready"  # ready | blocked | paused | done
        self.request: Request | None = None
        self.finish: sp.Expr | None = None
        self.last_recv_end: sp.Expr | None = None
        self.spawn_end: sp.Expr | None = None
        self._library_values: dict[str, sp.Expr] | None = None
        self._counted_by_user = False
        self.trace: list[TraceSpan] | None = None  # filled when a trace was asked for
        self.gen = self._main()

    # ---- bookkeeping ----
    def _frame(self, unit: UnitAAG) -> Frame:
        return Frame(unit.symbols, unit.name, common=self.common, inputs=self.inputs,
                     log=self.decisions)

    def _record(self, a: A.AAU, tau: sp.Expr, delta: sp.Expr, count: sp.Expr = 1) -> None:
        st = self.stats.setdefault(a.id, AAUStat())
        st.count += count
        st.total += as_time(delta)
        if st.tau is None:
            st.tau = tau

    def _advance(self, category: str, seconds: sp.Expr) -> None:
        seconds = as_time(seconds)
        self.cats[category] += seconds
        self.clock += seconds

    def library_values(self) -> dict[str, sp.Expr]:
        """What NX/2's node queries return on this process."""
        if self._library_values is None:
            self._library_values = {"MYNODE": sp.Integer(self.pid), "NUMNODES": sp.Integer(self.nprocs),
                                    "MYHOST": sp.Integer(HOST_ID), "MYPID": sp.Integer(0)}
        return self._library_values

    def value(self, e: ast.Expr, frame: Frame, what: str) -> sp.Expr:
        """The value of ``e``; a symbolic value is fine, an untracked one is an error."""
        resolve = frame.resolver(self.library_values())
        try:
            fast = numeric_value(e, frame.table, resolve)
            if fast is not None:
                return as_sympy(fast)
            return to_sympy(e, frame.table, resolve)
        except SymbolicError as err:
            raise InterpError(f"{what}: {err.message}", e.loc,
                              hint="interp needs this value to follow the program; give the "
                                   "variable's value with --set NAME=VALUE") from None

    def concrete(self, e: ast.Expr, frame: Frame, what: str) -> int:
        v = self.value(e, frame, what)
        if not v.is_number:
            raise NeedValue([str(s) for s in v.free_symbols], what, e.loc)
        return int(v)

    def decide(self, cond: ast.Expr, frame: Frame, what: str) -> bool:
        v = self.value(cond, frame, what)
        if v in (sp.true, sp.false) or isinstance(v, bool):
            return bool(v)
        raise NeedValue([str(s) for s in v.free_symbols], what, cond.loc)

    # ---- the chain ----
    def _main(self) -> Generator:
        frame = self._frame(self.program)
        yield from self.run_list(self.program.aaus, frame)
        self.finish = self.clock

    def run_list(self, aaus: list[A.AAU], frame: Frame) -> Generator:
        """Interpret a chain; returns a control signal (``stop``, ``return``, ``exit:L``) or None."""
        for a in aaus:
            signal = yield from self.run(a, frame)
            if signal is not None:
                return signal
        return None

    def run(self, a: A.AAU, frame: Frame) -> Generator:
        tau = self.clock
        signal = None
        if isinstance(a, A.Start):
            pass
        elif isinstance(a, A.End):
            signal = None if a.kind == "end" else a.kind
        elif isinstance(a, A.Seq):
            self.exec_seq(a, frame)
        elif isinstance(a, (A.Comm, A.Sync, A.SyncSeq, A.Spawn)):
            yield from self.communicate(a, frame)
        elif isinstance(a, (A.IterD, A.IterSync, A.IterND)):
            signal = yield from self.run_loop(a, frame)
        elif isinstance(a, A.Condt):
            signal = yield from self.run_conditional(a, frame)
        elif isinstance(a, A.Call):
            yield from self.run_call(a, frame)
        self._record(a, tau, self.clock - tau)
        if self.trace is not None and not isinstance(a, (A.Start, A.End)):
            self.trace.append(TraceSpan(a.id, a.type, tau, self.clock))
        return signal

    # ---- sequential work ----
    def seq_seconds(self, a: A.Seq, frame: Frame) -> sp.Expr:
        def compute() -> sp.Expr:
            cost = compute_seconds(a.ops, self.cm, hit_ratio(a, frame.table, self.cm))
            for name in a.ops.user_calls:  # user FUNCTIONs referenced in expressions
                unit = self.aag.units.get(name)
                if unit is not None:
                    cost += self.static_list(unit.aaus, self._frame(unit), {}, {})
            return cost

        return self.cm.seq_seconds(a.id, compute)

    def exec_seq(self, a: A.Seq, frame: Frame) -> None:
        for stmt in a.stmts:
            self.exec_stmt(stmt, frame)
        self._advance("computation", self.seq_seconds(a, frame))

    def exec_stmt(self, s: ast.Stmt, frame: Frame) -> None:
        resolve = frame.resolver(self.library_values())
        log, frame.log = frame.log, None  # data flow is not a control decision
        try:
            if isinstance(s, ast.Assign):
                indices = None
                if isinstance(s.target, ast.Ref):
                    try:
                        indices = [as_sympy(_fast_or_symbolic(i, frame.table, resolve))
                                   for i in s.target.args]
                    except SymbolicError:
                        indices = [sp.Symbol("?")]
                try:
                    value = _fast_or_symbolic(s.value, frame.table, resolve)
                except (SymbolicError, ZeroDivisionError, TypeError):
                    value = UNKNOWN
                frame.assign(s.target.name, indices, value)
            elif isinstance(s, ast.Read):
                for item in s.items:
                    if isinstance(item, ast.Var):
                        frame.set(item.name, frame.value_of_scalar(item.name))
            elif isinstance(s, ast.CallStmt):
                self.exec_library_call(s, frame)
        finally:
            frame.log = log

    def exec_library_call(self, s: ast.CallStmt, frame: Frame) -> None:
        from interp.application.catalog import lookup

        call = lookup(s.name)
        outputs = {"node_id": self.pid, "num_nodes": self.nprocs}
        for i, a in enumerate(s.args):
            role = call.args[i] if call and i < len(call.args) else "?"
            if not isinstance(a, (ast.Var, ast.Ref)):
                continue
            if role.startswith("out_") and role[4:] in outputs:
                frame.set(a.name, sp.Integer(outputs[role[4:]]))
            elif call is None or role.startswith("out_"):
                frame.forget(a.name)  # passed by reference to code interp does not see

    # ---- closed form (Ω of deterministic sub-graphs) ----
    def static_list(self, aaus: list[A.AAU], frame: Frame, binding: dict, out: dict) -> sp.Expr:
        """δ of a chain evaluated in closed form; per-AAU (count, total) added to ``out``."""
        total = 0.0
        for i, a in enumerate(aaus):
            # a RETURN is the last thing a routine does when only its END follows
            last = all(isinstance(b, A.End) and b.kind == "end" for b in aaus[i + 1:])
            d = self.static(a, frame, binding, out, last=last)
            c, t = out.get(a.id, (0, 0.0))
            out[a.id] = (c + 1, t + d)
            total += d
        return total

    def _static_value(self, e: ast.Expr, frame: Frame, binding: dict) -> sp.Expr:
        base = frame.resolver(self.library_values())

        def resolve(key: str):
            if key in binding:
                return binding[key]
            if key.split("(")[0] in binding.get(VARYING, ()):
                raise SymbolicError(f"{key} changes from one iteration to the next")
            return base(key)

        try:
            return as_sympy(_fast_or_symbolic(e, frame.table, resolve))
        except SymbolicError:
            raise NotStatic from None

    def static(self, a: A.AAU, frame: Frame, binding: dict, out: dict, last: bool = False) -> sp.Expr:
        if isinstance(a, A.Start):
            return 0.0
        if isinstance(a, A.End):
            if a.kind in ("end",) or (a.kind == "return" and last) or (
                    a.kind.startswith("exit:") and self._counted_by_user):
                return 0.0
            raise NotStatic
        if isinstance(a, A.Seq):
            return self.seq_seconds(a, frame)
        if isinstance(a, (A.IterD, A.IterSync)) and not a.has_sync():
            return self.static_loop(a, frame, binding, out)
        if isinstance(a, A.CondtD):
            return self.static_conditional(a, frame, binding, out)
        if isinstance(a, A.Call) and a.callee in self.inputs.routines and not a.callee_has_sync:
            return as_time(self.inputs.routines[a.callee])
        if isinstance(a, A.Call) and not a.callee_has_sync:
            callee = self.aag.units[a.callee]
            inner = self._frame(callee)
            bound = {}
            for dummy, actual in zip(callee.unit.dummies, a.args):
                try:
                    bound[dummy] = self._static_value(actual, frame, binding)
                except NotStatic:
                    pass
            sub: dict = {}
            body = self.static_list(callee.aaus, inner, bound, sub)
            for k, v in sub.items():
                c, t = out.get(k, (0, 0.0))
                out[k] = (c + v[0], t + v[1])
            return (self.cm.op("call.overhead") + len(a.args) * self.cm.op("call.per_arg")
                    + compute_seconds(a.arg_ops, self.cm) + body)
        raise NotStatic

    def static_loop(self, a: A.Iter, frame: Frame, binding: dict, out: dict) -> sp.Expr:
        start = self._static_value(a.start, frame, binding)
        stop = self._static_value(a.stop, frame, binding)
        step = self._static_value(a.step, frame, binding) if a.step is not None else sp.Integer(1)
        n = as_count(trip_count(start, stop, step))
        var = sp.Dummy(a.var, integer=True)
        inner = dict(binding)
        # values assigned in the body differ between iterations: a condition on them is data
        inner[VARYING] = set(binding.get(VARYING, ())) | (_assigned(a) - {a.var})
        inner[a.var] = var
        sub: dict = {}
        body = self.static_list(a.body, frame, inner, sub)
        fixed, per_iter = loop_overheads(a, self.cm)
        for k, (c, t) in sub.items():
            oc, ot = out.get(k, (0, 0.0))
            out[k] = (oc + self.sum_over(c, var, start, step, n, a),
                      ot + self.sum_over(t, var, start, step, n, a))
        return fixed + n * per_iter + self.sum_over(body, var, start, step, n, a)

    def sum_over(self, expr: sp.Expr, var: sp.Symbol, start, step, n, loop: A.AAU) -> sp.Expr:
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
                    self.notes.append(f"line {loop.loc.line}: the inner loop's trip count was "
                                      "summed as if it ran on every iteration (triangular loop)")
                return result
        if isinstance(n, int):
            count = n
            if count <= EXACT_SUM_LIMIT:
                return sp.Add(*[term.subs(k, j) for j in range(count)])
            samples = [int(j * (count - 1) / 255) for j in range(256)]
            self.notes.append(f"line {loop.loc.line}: a condition depends on the loop index; its "
                              f"cost was estimated from 256 of the {count} iterations")
            return sp.Integer(count) * sp.Add(*[term.subs(k, j) for j in samples]) / 256
        self.notes.append(f"line {loop.loc.line}: a condition depends on the loop index and the "
                          "trip count is symbolic; each branch was weighted equally (heuristic)")
        return n * _mean_branches(term)

    def static_conditional(self, a: A.Condt, frame: Frame, binding: dict, out: dict) -> sp.Expr:
        """The paper's weighted sum over the arms (Algorithm 3): Σ [C_k]·(Ω_k + overheads)."""
        try:
            conds = [sp.true if b.cond is None else self._static_value(b.cond, frame, binding)
                     for b in a.branches]
        except NotStatic:  # a condition on data interp does not follow (e.g. a residual test)
            return self.equal_weight_conditional(a, frame, binding, out)
        pieces = []
        for k, b in enumerate(a.branches):
            cond = conds[k]
            if cond == sp.false:
                continue
            sub: dict = {}
            cost = branch_overhead(a.branches, k, self.cm) + self.static_list(b.body, frame, binding, sub)
            for key, (c, t) in sub.items():
                oc, ot = out.get(key, (0, 0.0))
                weight = sp.Piecewise((1, cond), (0, True)) if cond != sp.true else 1
                out[key] = (oc + weight * c, ot + weight * t)
            pieces.append((cost, cond))
            if cond == sp.true:
                break
        else:
            pieces.append((branch_overhead(a.branches, None, self.cm), sp.true))
        if len(pieces) == 1:
            return pieces[0][0]
        return sp.Piecewise(*pieces)

    def equal_weight_conditional(self, a: A.Condt, frame: Frame, binding: dict, out: dict):
        """Heuristic for a condition on run-time data: every arm (and falling through, when
        there is no ELSE) is taken equally often. Said in the output."""
        note = (f"line {a.loc.line}: the IF tests run-time data interp does not follow; its "
                "arms were weighted equally (heuristic)")
        if note not in self.notes:
            self.notes.append(note)
        arms = len(a.branches) + (0 if a.branches[-1].cond is None else 1)
        total = 0.0
        for k, b in enumerate(a.branches):
            sub: dict = {}
            total += branch_overhead(a.branches, k, self.cm) + self.static_list(b.body, frame, binding, sub)
            for key, (c, t) in sub.items():
                oc, ot = out.get(key, (0, 0.0))
                out[key] = (oc + c / arms, ot + t / arms)
        if arms > len(a.branches):
            total += branch_overhead(a.branches, None, self.cm)
        return total / arms

    # ---- loops ----
    def run_loop(self, a: A.Iter, frame: Frame) -> Generator:
        if isinstance(a, A.IterND):
            k = self.inputs.iterations_for(a.unit, a.loc)
            if k is not None:
                return (yield from self.run_user_count(a, frame, k))
        if isinstance(a, A.IterD) or (isinstance(a, A.IterSync) and not a.has_sync()):
            out: dict = {}
            try:
                delta = self.static_loop(a, frame, {}, out)
            except NotStatic:
                pass
            else:
                self._advance("computation", delta)
                for k, (c, t) in out.items():
                    st = self.stats.setdefault(k, AAUStat())
                    st.count += c
                    st.total += t
                self._after_static_loop(a, frame)
                return None
        if a.cond is not None:
            return (yield from self.run_while(a, frame))
        return (yield from self.run_counted(a, frame))

    def run_user_count(self, a: A.Iter, frame: Frame, k: int) -> Generator:
        """An IterND interpreted with the user's heuristic: exactly ``k`` iterations."""
        self.notes.append(f"line {a.loc.line}: loop interpreted with the user's heuristic of "
                          f"{k} iterations (--iterations)")
        fixed, per_iter = loop_overheads(a, self.cm)
        if not a.has_sync():
            self._counted_by_user = True
            try:
                out: dict = {}
                body = self.static_list(a.body, frame, {a.var: sp.Dummy(a.var)} if a.var else {}, out)
            except NotStatic:
                body = None
            finally:
                self._counted_by_user = False
            if body is not None:
                self._advance("computation", fixed + k * (per_iter + body))
                for key, (c, t) in out.items():
                    st = self.stats.setdefault(key, AAUStat())
                    st.count += k * c
                    st.total += k * t
                for name in _assigned(a):
                    frame.forget(name)
                return None
        self._advance("computation", fixed)
        for _ in range(k):
            self._advance("computation", per_iter)
            signal = yield from self.run_list(a.body, frame)
            if signal is not None and not signal.startswith("exit:"):
                return signal
        return None

    def _after_static_loop(self, a: A.Iter, frame: Frame) -> None:
        """Values a closed-form loop leaves behind: its index, and nothing known of the rest."""
        for name in _assigned(a):
            frame.forget(name)
        try:
            start = self.value(a.start, frame, "loop start")
            stop = self.value(a.stop, frame, "loop bound")
            step = self.value(a.step, frame, "loop step") if a.step is not None else sp.Integer(1)
            frame.set(a.var, start + trip_count(start, stop, step) * step)
        except InterpError:
            frame.forget(a.var)

    def run_counted(self, a: A.Iter, frame: Frame) -> Generator:
        start = self.value(a.start, frame, f"the start of the DO {a.var} loop")
        stop = self.value(a.stop, frame, f"the bound of the DO {a.var} loop")
        step = self.value(a.step, frame, f"the step of the DO {a.var} loop") if a.step is not None \
            else sp.Integer(1)
        n = trip_count(start, stop, step)
        if isinstance(a, A.IterND) or not n.is_number:
            if not n.is_number and not isinstance(a, A.IterSync):
                raise NeedValue([str(s) for s in n.free_symbols],
                                f"the trip count of the DO {a.var} loop (it must be unrolled: "
                                f"{a.nd_reason or 'it cannot be put in closed form'})", a.loc)
        if isinstance(a, A.IterND):
            self.notes.append(f"line {a.loc.line}: DO {a.var} loop interpreted by unrolling "
                              f"({a.nd_reason})")
        fixed, per_iter = loop_overheads(a, self.cm)
        self._advance("computation", fixed)
        i = sp.Integer(1)
        while True:
            more = sp.Le(i, n) if not (i.is_number and n.is_number) else (i <= n)
            if more not in (sp.true, sp.false, True, False):
                if i > SYMBOLIC_ITERATION_LIMIT:  # no steady state: the count must be known
                    raise NeedValue([str(x) for x in n.free_symbols],
                                    f"the trip count of the DO {a.var} loop (no steady state "
                                    f"was reached in {SYMBOLIC_ITERATION_LIMIT} iterations)", a.loc)
                more = True  # a symbolic count: assume it runs on; the scheduler extends it
                self.assume(sp.Ge(n, i), a)
            if not more:
                break
            if isinstance(a, A.IterSync):
                reply = yield LoopHead(a, self, i, n)
                if reply is not None and reply.jump:
                    i += reply.jump
            frame.set(a.var, start + (i - 1) * step)
            self._advance("computation", per_iter)
            signal = yield from self.run_list(a.body, frame)
            if signal is not None:
                if signal.startswith("exit:"):  # a GO TO out of the loop: continue after it
                    break
                return signal
            i += 1
        frame.set(a.var, start + (i - 1) * step)
        return None

    def run_while(self, a: A.Iter, frame: Frame) -> Generator:
        self.notes.append(f"line {a.loc.line}: loop interpreted by unrolling ({a.nd_reason})")
        fixed, per_iter = loop_overheads(a, self.cm)
        self._advance("computation", fixed)
        first = True
        while True:
            if not (a.test_at_end and first):
                self._advance("computation", per_iter)
                if not self.decide(a.cond, frame, f"the condition of the loop at line {a.loc.line}"):
                    break
            first = False
            signal = yield from self.run_list(a.body, frame)
            if signal is not None:
                if signal.startswith("exit:"):
                    break
                return signal
        return None

    def assume(self, relation, a: A.AAU) -> None:
        """Record an assumption the symbolic interpretation rests on (checked by predict)."""
        self.assumptions[a.id] = relation  # the latest (strongest) one per loop

    # ---- conditionals ----
    def run_conditional(self, a: A.Condt, frame: Frame) -> Generator:
        taken = None
        undecided = False
        for k, b in enumerate(a.branches):
            if b.cond is None:
                taken = k
                break
            try:
                v = self.value(b.cond, frame, f"the condition at line {b.loc.line}")
            except InterpError:
                if isinstance(a, A.CondtSync):
                    raise  # which arm communicates must be known
                v = None  # run-time data: the closed form weighs the arms
            if v is None:
                undecided = True
                break
            if v == sp.true:
                taken = k
                break
            if v != sp.false:
                undecided = True
                break
        if undecided:
            if isinstance(a, A.CondtSync):
                names = [str(s) for s in v.free_symbols]
                raise NeedValue(names, f"which branch of the IF at line {a.loc.line} runs "
                                       "(it communicates)", a.loc)
            out: dict = {}
            try:
                delta = self.static_conditional(a, frame, {}, out)
            except NotStatic:  # an arm leaves the loop or routine: the flow itself is unknown
                raise InterpError(
                    f"the IF at line {a.loc.line} decides whether to leave its loop or routine on "
                    "values interp does not follow (set by a READ, by code interp does not see, "
                    "or by data it does not track)", a.loc,
                    hint="give the loop's iteration count with --iterations FILE:LINE=COUNT, or "
                         "give the inputs it depends on with --set") from None
            self._advance("computation", delta)
            for key, (c, t) in out.items():
                st = self.stats.setdefault(key, AAUStat())
                st.count += c
                st.total += t
            for name in _assigned(a):
                frame.forget(name)
            return None
        self._advance("computation", branch_overhead(a.branches, taken, self.cm))
        if taken is None:
            return None
        return (yield from self.run_list(a.branches[taken].body, frame))

    # ---- calls ----
    def run_call(self, a: A.Call, frame: Frame) -> Generator:
        callee = self.aag.units[a.callee]
        if a.callee in self.inputs.routines:
            if a.callee_has_sync:
                raise InterpError(f"--routine {a.callee}: {a.callee} communicates, so its time "
                                  "cannot be replaced by a number", a.loc,
                                  hint="give times only for routines without message passing")
            self._advance("computation", as_time(self.inputs.routines[a.callee]))
            note = f"CALL {a.callee}: the user's interpretation function was used (--routine)"
            if note not in self.notes:
                self.notes.append(note)
            for actual in a.args:
                if isinstance(actual, ast.Var):
                    frame.forget(actual.name)
            return None
        self._advance("computation", self.cm.op("call.overhead")
                      + len(a.args) * self.cm.op("call.per_arg")
                      + compute_seconds(a.arg_ops, self.cm))
        inner = self._frame(callee)
        for dummy, actual in zip(callee.unit.dummies, a.args):
            sym = frame.table.symbols.get(actual.name) if isinstance(actual, ast.Var) else None
            if sym is not None and sym.kind != "parameter":  # by reference: the caller's values
                for suffix, value in frame.elements(actual.name).items():
                    inner.set(dummy + suffix, value)
            else:
                try:
                    inner.set(dummy, self.value(actual, frame, "an argument"))
                except InterpError:
                    inner.set(dummy, UNKNOWN)
        signal = yield from self.run_list(callee.aaus, inner)
        for dummy, actual in zip(callee.unit.dummies, a.args):
            sym = frame.table.symbols.get(actual.name) if isinstance(actual, ast.Var) else None
            if sym is not None and sym.kind != "parameter":
                for suffix, value in inner.elements(dummy).items():
                    frame.set(actual.name + suffix, value)
        if signal == "stop":
            return "stop"
        return None

    # ---- communication ----
    def communicate(self, a: A.AAU, frame: Frame) -> Generator:
        self._advance("computation", compute_seconds(a.arg_ops, self.cm))
        op = a.call.op if isinstance(a, A._LibraryAAU) and a.call else None
        if op == "sendrecv":  # MPI_SENDRECV: its (eager) send, then its receive
            yield from self._exchange(_Part(a, "MPI_SEND", SENDRECV_SEND), frame)
            yield from self._exchange(_Part(a, "MPI_RECV", SENDRECV_RECV), frame)
        elif op == "waitall":  # MPI_WAITALL: each request of the array, in order
            n = self.concrete(a.arg("count"), frame, f"the count of MPI_WAITALL at line {a.loc.line}")
            name = _name(a.arg("request"))
            for i in range(1, n + 1):
                handle = element_key(name, [sp.Integer(i)])
                yield from self._exchange(a, frame, self._wait_request(a, handle))
        else:
            yield from self._exchange(a, frame)
        return None

    def _exchange(self, a: A.AAU, frame: Frame, req: Request | None = None) -> Generator:
        """One request to the scheduler and what its reply does to the process."""
        req = req if req is not None else self.build_request(a, frame)
        if req is None:  # MPI_PROC_NULL: the call returns at once
            return None
        if isinstance(req, RecvReq) and not req.synchronous and req.handle:
            self.handles[f"buf:{req.handle}"] = req.buf  # filled when the wait completes
        tau = self.clock
        reply = yield req
        if self.trace is not None and reply.parts.get("waiting"):
            start = tau if isinstance(req, (RecvReq, WaitReq, CollReq)) else reply.end - reply.parts["waiting"]
            self.trace.append(TraceSpan(a.id, "waiting", start, start + reply.parts["waiting"]))
        for cat, seconds in reply.parts.items():
            self.cats[cat] += seconds
        self.clock = reply.end
        if reply.payload is not None and isinstance(req, (RecvReq, CollReq, WaitReq)):
            buf = req.buf if not isinstance(req, WaitReq) else self.handles.pop(f"buf:{req.handle}", None)
            if buf:
                frame.receive(buf, reply.payload)
        if reply.status is not None:
            self._record_status(a, frame, *reply.status)
        if isinstance(req, RecvReq):
            self.last_recv_end = self.clock
        if isinstance(req, WaitReq) and reply.payload is not None:
            self.last_recv_end = self.clock
        if isinstance(req, SpawnReq):
            self.spawn_end = self.clock
        return None

    def _record_status(self, a: A._LibraryAAU, frame: Frame, source: int, tag: int, size) -> None:
        """What a receive tells the program about its message: NX/2's infonode(), infotype()
        and infocount(); MPI's STATUS(MPI_SOURCE) and STATUS(MPI_TAG)."""
        values = self.library_values()
        values.update(INFONODE=sp.Integer(source), INFOTYPE=sp.Integer(tag), INFOCOUNT=as_sympy(size))
        status = a.arg("status")
        if isinstance(status, ast.Var) and self.library == "mpi":
            consts = mpi_constants()
            frame.assign(status.name, [sp.Integer(consts["MPI_SOURCE"])], sp.Integer(source))
            frame.assign(status.name, [sp.Integer(consts["MPI_TAG"])], sp.Integer(tag))

    def _datatype(self, a: A._LibraryAAU, frame: Frame) -> int | None:
        if a.arg("datatype") is None:
            return None
        return self.concrete(a.arg("datatype"), frame, f"the MPI datatype at line {a.loc.line}")

    def _handle(self, a: A._LibraryAAU, frame: Frame) -> str | None:
        """The name an async message is waited on by: NX/2's msgid variable, MPI's request
        (an element of a request array counts by itself: REQ(1), REQ(2))."""
        if a.result:
            return a.result
        e = a.arg("request")
        if isinstance(e, ast.Ref):
            idx = [self.value(i, frame, f"the request index at line {a.loc.line}") for i in e.args]
            return element_key(e.name, idx)
        return _name(e)

    def _is_null(self, partner: int, a: A._LibraryAAU, frame: Frame) -> bool:
        """MPI_PROC_NULL as partner: the call does nothing (its request completes at once)."""
        if self.library != "mpi" or partner != mpi_constants()["MPI_PROC_NULL"]:
            return False
        if not a.call.sync:
            self.null_handles.add(self._handle(a, frame))
        return True

    def _wait_request(self, a: A._LibraryAAU, handle: str | None) -> WaitReq | None:
        if handle in self.null_handles:
            self.null_handles.discard(handle)
            return None
        return WaitReq(a, self, handle)

    def _partner(self, e: ast.Expr | None, frame: Frame, what: str) -> int:
        return self.concrete(e, frame, what)

    def _size(self, a: A._LibraryAAU, frame: Frame) -> sp.Expr:
        if a.arg("size") is not None:
            return self.value(a.arg("size"), frame, f"the length of the message at line {a.loc.line}")
        count = a.arg("count")
        if count is None:
            return sp.Integer(0)
        n = self.value(count, frame, f"the count of the message at line {a.loc.line}")
        dtype = self.concrete(a.arg("datatype"), frame, "an MPI datatype")
        return n * mpi_datatype_bytes().get(dtype, 1)

    def _payload(self, buf: ast.Expr | None, frame: Frame) -> dict:
        if isinstance(buf, ast.Var):
            return dict(frame.elements(buf.name))
        if isinstance(buf, ast.Ref):
            try:
                idx = [self.value(i, frame, "an index") for i in buf.args]
                key = element_key(buf.name, idx)
                value = frame.get(key)
                return {"": value} if value is not None else {}
            except InterpError:
                return {}
        return {}

    def build_request(self, a: A._LibraryAAU, frame: Frame) -> Request:
        call = a.call
        line = a.loc.line
        buf = a.arg("buf")
        buf_name = buf.name if isinstance(buf, (ast.Var, ast.Ref)) else None
        if isinstance(a, A.Spawn):
            program = a.program
            dest = self._partner(a.arg("dest"), frame, f"the node of the load at line {line}") \
                if a.arg("dest") is not None else -1
            dests = list(range(self.nprocs)) if dest == -1 else [dest]
            return SpawnReq(a, self, program, dests)
        if call.op == "send":
            dest = self._partner(a.arg("dest"), frame, f"the destination of the send at line {line}")
            if self._is_null(dest, a, frame):
                return None
            tag = self._tag(a, frame)
            dests = [d for d in range(self.nprocs) if d != self.pid] if dest == -1 else [dest]
            return SendReq(a, self, dests, tag, self._size(a, frame), self._payload(buf, frame),
                           call.sync, handle=self._handle(a, frame), broadcast=dest == -1,
                           datatype=self._datatype(a, frame))
        if call.op == "recv":
            source = None
            if a.arg("source") is not None:
                s = self._partner(a.arg("source"), frame, f"the source of the receive at line {line}")
                if self._is_null(s, a, frame):
                    return None
                source = None if s < 0 else s  # MPI_ANY_SOURCE
            tag = self._tag(a, frame)
            capacity = self._size(a, frame)
            return RecvReq(a, self, source, None if int(tag) < 0 else int(tag), capacity,
                           buf_name, call.sync, handle=self._handle(a, frame),
                           datatype=self._datatype(a, frame))
        if call.op == "wait":
            return self._wait_request(a, self._handle(a, frame))
        root = None
        if call.op == "global_op":
            n = self.value(a.arg("count"), frame, f"the count of the global operation at line {line}")
            size = n * call.elem_bytes
        else:
            size = self._size(a, frame)
        if a.arg("root") is not None:
            root = self._partner(a.arg("root"), frame, f"the root of the collective at line {line}")
        combine = 0.0
        if isinstance(a, A.SyncSeq):
            elems = size / 8 if call.elem_bytes is None else size / call.elem_bytes
            combine = as_time(elems * self.cm.op("add_sub"))
        kind = call.name.lower() if call.library == "nx2" else call.op
        # the result lands in MPI's recvbuf; NX/2's global operations and MPI_BCAST work in place
        result = _name(a.arg("recvbuf")) or buf_name
        return CollReq(a, self, kind, size, root, self._payload(buf, frame), result, combine,
                       call.reduce)

    def _tag(self, a: A._LibraryAAU, frame: Frame) -> sp.Expr:
        role = "type" if a.arg("type") is not None else "tag"
        e = a.arg(role)
        if e is None:
            return sp.Integer(0)
        return sp.Integer(self.concrete(e, frame, f"the message {role} at line {a.loc.line}"))


def _fast_or_symbolic(e: ast.Expr, table, resolve):
    """A Python number when the expression's values are all numbers, else its SymPy form."""
    fast = numeric_value(e, table, resolve)
    return fast if fast is not None else to_sympy(e, table, resolve)


SENDRECV_SEND = {"buf": "sendbuf", "count": "sendcount", "datatype": "sendtype", "tag": "sendtag"}
SENDRECV_RECV = {"buf": "recvbuf", "count": "recvcount", "datatype": "recvtype", "tag": "recvtag"}


class _Part:
    """One half of an MPI_SENDRECV read as the MPI_SEND or MPI_RECV it performs: its
    arguments by that call's roles, everything else (id, location) the AAU's own."""

    def __init__(self, aau: A._LibraryAAU, call: str, roles: dict[str, str]):
        self._aau, self._roles = aau, roles
        self.call = lookup(call)

    def arg(self, role: str):
        return self._aau.arg(self._roles.get(role, role))

    def __getattr__(self, name):
        return getattr(self._aau, name)


def _name(e: ast.Expr | None) -> str | None:
    return e.name if isinstance(e, (ast.Var, ast.Ref)) else None


def _assigned(a: A.AAU) -> set[str]:
    """Variables a compound AAU may assign (loop indices included)."""
    names: set[str] = set()
    for node in a.walk():
        if isinstance(node, A.Seq):
            for s in node.stmts:
                if isinstance(s, ast.Assign):
                    names.add(s.target.name)
                elif isinstance(s, ast.Read):
                    names.update(i.name for i in s.items if isinstance(i, (ast.Var, ast.Ref)))
        elif isinstance(node, A.Iter) and node.var:
            names.add(node.var)
    return names


def _mean_branches(e: sp.Expr) -> sp.Expr:
    """Replace every Piecewise by the mean of its branches (the equal-weight heuristic)."""
    return e.replace(lambda x: isinstance(x, sp.Piecewise),
                     lambda x: sp.Add(*[arg.expr for arg in x.args]) / len(x.args))


__all__ = ["Process", "Reply", "HOST_ID", "NotStatic", "CATEGORIES", "expr_text", "names_in"]
