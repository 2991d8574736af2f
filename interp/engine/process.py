"""One process: a chain of the SAAG instantiated with its node-dependent values resolved.

A process holds what Algorithm 2 needs per active chain: its clock τ, its δ split into the
categories (computation, call, transmission, waiting), per-AAU statistics, the values it knows
and the decisions it took. Ω itself (how each AAU type advances the clock) is in
:mod:`interp.engine.omega`; the process's chain is the generator ``omega.run_chain`` makes,
which the scheduler activates and drives.
"""

from __future__ import annotations

from dataclasses import dataclass

import sympy as sp

from interp.application import aau as A
from interp.application import ast
from interp.application.aag import AAG, UnitAAG
from interp.application.catalog import lookup, mpi_datatype_bytes
from interp.application.ast import expr_text
from interp.application.expr import (
    NotComputable, SymbolicError, as_sympy, assigned_value, element_key, numeric_value,
    to_sympy,
)
from interp.engine.comms import SELF, WORLD, Communicator, dims_create, world
from interp.engine.costs import CostModel
from interp.engine.indextests import stepped_index
from interp.engine.inputfiles import Files
from interp.engine.dataflow import critical_names
from interp.engine.datadep import DataSymbol, given_value
from interp.engine.needed import kept_statements, needed_names, pure_function
from interp.engine.stepbudget import MAX_STEPS
from interp.engine.timeval import as_time, is_symbolic
from interp.engine.values import (
    VARYING, FoldedUnknown, Frame, Inputs, KeepsState, Layout, Lazy, NeedValue, NotClosedForm,
    Store, Unfold, Unknown, View, fast_or_symbolic,
)
from interp.errors import InterpError

CATEGORIES = ("computation", "call", "transmission", "waiting")
CARTESIAN = ("dims_create", "cart_coords", "cart_rank", "cart_shift", "cart_get")
FIRST_DERIVED_TYPE = 5001  # the handle of a rank's first derived MPI datatype (catalog codes: 1001...)
HOST_ID = 2**31 - 1  # what MYHOST() returns: above every node number (procs <= 2^30) and not -1 (all nodes)


class ClassBreak(Exception):
    """The process classes (classes.py) cannot follow this program: interpret it rank by rank."""


@dataclass
class TraceSpan:
    """One interpreted execution of an AAU on a process (for trace export)."""

    aau: int
    name: str  # the AAU type, or "waiting"
    start: sp.Expr
    end: sp.Expr


class Timeline:
    """Where one process's time goes, for lost-cycles analysis (recorded when asked: it needs
    numbers, and every iteration interpreted). Positioned spans of computation and of idling
    (waiting for a partner not yet there), each with the AAU it belongs to; and by AAU, the
    seconds of the rest of its communication: ``sync`` (waiting in a collective for members
    not yet there), ``contention`` (link-sharing delay) and ``communication`` (the rest: call
    overhead, transmission, waiting for data in flight)."""

    def __init__(self):
        self.spans: list[list] = []  # [start, end, kind, aau], kind "computation" | "idle"
        self.seconds: dict[tuple[int, str], float] = {}

    def span(self, kind: str, start, end, aau: int | None) -> None:
        start, end = _number(start), _number(end)
        if end <= start:
            return
        last = self.spans[-1] if self.spans else None
        if last is not None and last[1] == start and last[2] == kind and last[3] == aau:
            last[1] = end  # one span for a run of the same kind in the same AAU
        else:
            self.spans.append([start, end, kind, aau])

    def add(self, aau: int, kind: str, seconds: float) -> None:
        if seconds:
            self.seconds[(aau, kind)] = self.seconds.get((aau, kind), 0.0) + seconds

    def exchange(self, aau: int, start, end, idle, sync, contention) -> None:
        """One communication request's δ (``start`` to ``end``) and how it splits."""
        delta = _number(end) - _number(start)
        idled = 0.0
        if idle is not None:
            self.span("idle", idle[0], idle[1], aau)
            idled = max(_number(idle[1]) - _number(idle[0]), 0.0)
        sync, contention = _number(sync), _number(contention)
        self.add(aau, "sync", sync)
        self.add(aau, "contention", contention)
        self.add(aau, "communication", delta - idled - sync - contention)


def _number(x) -> float:
    if is_symbolic(x):
        names = sorted(map(str, as_sympy(x).free_symbols))
        # (the timeline is asked for by lost-cycles and by semiemp's algorithm G)
        raise InterpError("following each process's timeline needs numbers, but the times "
                          "depend on inputs that were not given: " + ", ".join(names),
                          hint="give their values with " + " ".join(f"--set {n}=..." for n in names))
    return float(x)


class AAUStat:
    """An AAU's executions and δ summed over them, on one rank, and its first activation τ.

    A closed form's symbolic (count, δ) are gathered by value and summed when read: EP adds
    the same sum with a branch probability in it once per batch, and SymPy's Add of the
    growing total took a third of its prediction (the read gives n·δ for n equal terms)."""

    __slots__ = ("_count", "_total", "tau", "_terms")  # one per AAU per rank: no dict
    TERMS = 64  # distinct symbolic terms held before they are summed

    def __init__(self, count: sp.Expr = 0, total: sp.Expr = 0.0, tau: sp.Expr | None = None):
        self._count, self._total, self.tau, self._terms = count, total, tau, None

    def add(self, count: sp.Expr, total: sp.Expr) -> None:
        """Add executions and their δ; symbolic ones are summed when next read."""
        if (type(total) is float or total.is_Number) and (type(count) is int or count.is_Number):
            self._count += count
            self._total += total
            return
        terms = self._terms
        if terms is None:
            terms = self._terms = {}
        elif len(terms) >= self.TERMS and (count, total) not in terms:
            self._sum()
            terms = self._terms = {}
        terms[(count, total)] = terms.get((count, total), 0) + 1

    def _sum(self) -> None:
        terms, self._terms = self._terms, None
        for (count, total), n in terms.items():
            self._count += count if n == 1 else n * count
            self._total += total if n == 1 else n * total

    @property
    def count(self) -> sp.Expr:
        if self._terms:
            self._sum()
        return self._count

    @count.setter
    def count(self, value: sp.Expr) -> None:
        if self._terms:
            self._sum()
        self._count = value

    @property
    def total(self) -> sp.Expr:
        if self._terms:
            self._sum()
        return self._total

    @total.setter
    def total(self, value: sp.Expr) -> None:
        if self._terms:
            self._sum()
        self._total = value


class Process:
    """A process: a chain of the SAAG instantiated with its node-dependent values resolved."""

    recorder = None  # a class's shadow records what it does (classes.Recorder)
    # one per rank: its attributes in slots, not in a dict of its own (a fifth of a rank's
    # memory at P = 65,536); '__dict__' keeps room for what other modules attach
    __slots__ = (
        "pid", "label", "program", "aag", "cm", "nprocs", "start", "clock", "inputs", "library",
        "common", "cats", "stats", "handles", "null_handles", "comms", "datatypes", "committed",
        "notes", "files",
        "assumptions", "decisions", "state", "request", "finish", "last_recv_end", "spawn_end",
        "_library_values", "counted_by_user", "trace", "timeline", "current_aau",
        "critical_names", "needed", "kept", "functions", "evaluating", "budget", "steps",
        "max_steps", "arm_counts", "saved", "gen", "function_memo", "index_loops", "__dict__",
        "__weakref__")

    def __init__(self, pid: int, label: str, program: UnitAAG, aag: AAG, cm: CostModel,
                 nprocs: int, start: sp.Expr, inputs: Inputs, library: str,
                 exact: bool = False):
        self.pid, self.label, self.program, self.aag, self.cm = pid, label, program, aag, cm
        self.nprocs = nprocs
        self.start = start
        self.clock: sp.Expr = start
        self.inputs = inputs
        self.library = library  # nx2 | mpi: how ranks and partners are named
        # (what only a rank's own interpretation uses: classes.Member makes it when asked)
        self.common = self.new_store()
        self.files = Files(self.aag.input_files, self.note)  # its open units (OPEN, READ)
        self.function_memo: dict = {}  # straight-line FUNCTION outcomes by arguments (straight.py)
        self.cats: dict[str, sp.Expr] = {c: 0.0 for c in CATEGORIES}
        self.stats: dict[int, AAUStat] = {}
        self.handles: dict[str, object] = {}
        self.null_handles: set[str | None] = set()  # requests of MPI_PROC_NULL calls
        # MPI communicators this process belongs to, by handle (new ones: MPI_COMM_SPLIT/DUP);
        # MPI_COMM_WORLD is one for all, but a copy of its own in the exact mode
        everyone = Communicator(WORLD, tuple(range(nprocs))) if exact else world(nprocs)
        self.comms: dict[int, Communicator] = {c.handle: c for c in (
            everyone, Communicator(SELF, (pid,)))}
        # MPI derived datatypes made on this process: handle -> (element type, bytes), and
        # those committed (MPI_TYPE_COMMIT: only those may be sent or received)
        self.datatypes: dict[int, tuple[int, sp.Expr]] = {}
        self.committed: set[int] = set()
        self.notes: list[str] = []
        self.assumptions: dict[int, sp.Basic] = {}
        self.decisions: list = []
        self.state = "ready"  # ready | blocked | paused | done
        self.request = None  # the request (requests.py) it waits or pauses in
        self.finish: sp.Expr | None = None
        self.last_recv_end: sp.Expr | None = None
        self.spawn_end: sp.Expr | None = None
        self._library_values: dict[str, sp.Expr] | None = None
        self.counted_by_user = False  # inside a loop run for --iterations: EXITs are fine
        self.trace: list[TraceSpan] | None = None  # filled when a trace was asked for
        self.timeline: Timeline | None = None  # filled when lost cycles were asked for
        self.current_aau: int | None = None  # the innermost AAU being interpreted (omega.step)
        self.critical_names = critical_names(aag)  # whose values closed-form loops replay
        self.needed = needed_names(aag)  # whose values any decision may read (needed.py)
        self.kept = kept_statements(aag)  # not needed, but a FUNCTION in them changes what is
        self.functions = None  # omega.function_value, set by the chain (omega builds on Process)
        self.evaluating: set[str] = set()  # FUNCTIONs whose value is being worked out
        self.budget: int | None = None  # statements left for that (omega.function_value)
        self.steps = 0  # AAU executions interpreted step by step (stepbudget.py)
        self.max_steps = MAX_STEPS.get()
        self.arm_counts: dict[int, list[int]] = {}  # per IF decided by error diffusion
        self.index_loops: tuple = ()  # the IterSync loops being stepped (indextests)
        self.saved: dict[str, dict[str, object]] = {}  # a subprogram's SAVE'd scalars, by unit
        self.gen = None  # its chain, a generator: activated by the scheduler (omega.run_chain)

    # ---- bookkeeping ----
    def frame_for(self, unit: UnitAAG) -> Frame:
        """A fresh frame for one activation of ``unit`` on this process."""
        frame = Frame(unit.symbols, unit.name, local=self.new_store(), common=self.common,
                      inputs=self.inputs, log=self.decisions)
        for name, value in self.cm.memo(("data values", id(unit)), lambda: data_values(unit)).items():
            frame.set(name, value)
        kept = self._saved_names(unit)
        if kept:  # what the last activation left, else the DATA value
            values = self.saved.get(unit.name) or kept
            for name in kept:
                if values.get(name) is not None:
                    frame.set(name, values[name])
        return frame

    def keep_saved(self, unit: UnitAAG, frame: Frame | None) -> None:
        """What an activation of ``unit`` leaves in its SAVE'd scalars, for the next one
        (``frame`` None: an activation that was costed, not followed: they are not known)."""
        kept = self._saved_names(unit)
        if not kept:
            return
        why = (f"it is SAVE'd in {unit.name}, whose activation was costed in closed form, "
               "not followed")
        self.saved[unit.name] = {name: (frame.get(name) if frame is not None else Unknown(why))
                                 for name in kept}

    def keeps_state(self, unit: UnitAAG) -> bool:
        """Whether ``unit`` has SAVE'd scalars: an activation's outcome is not its arguments'
        alone (a FUNCTION's value is then not memoized)."""
        return bool(self._saved_names(unit))

    def _saved_names(self, unit: UnitAAG) -> dict[str, object]:
        return self.cm.memo(("saved names", id(unit)), lambda: saved_names(unit))

    def new_store(self) -> Store:
        return Store()

    def record(self, a: A.AAU, tau: sp.Expr, delta: sp.Expr, count: sp.Expr = 1) -> None:
        st = self.stats.get(a.id)
        if st is None:  # (not an AAUStat made for every call, as setdefault would)
            st = self.stats[a.id] = AAUStat()
        st.count += count
        st.total += as_time(delta)
        if st.tau is None:
            st.tau = tau

    def record_closed_form(self, out: dict, times: sp.Expr = 1) -> None:
        """Add the per-AAU (count, total) of a closed-form evaluation, ``times`` over."""
        once = type(times) is int and times == 1  # 1·c is c: no SymPy product to build
        for key, (c, t) in out.items():
            st = self.stats.get(key)
            if st is None:
                st = self.stats[key] = AAUStat()
            if once:
                st.add(c, t)
            else:
                st.add(times * c, times * t)

    def advance(self, category: str, seconds: sp.Expr) -> None:
        if type(seconds) is not float:
            seconds = as_time(seconds)
        if self.timeline is not None:
            self.timeline.span(category, self.clock, self.clock + seconds, self.current_aau)
        self.cats[category] += seconds
        self.clock += seconds

    def note(self, text: str) -> None:
        if text not in self.notes:
            self.notes.append(text)

    def assume(self, relation, a: A.AAU) -> None:
        """Record an assumption the symbolic interpretation rests on (checked by predict)."""
        self.assumptions[a.id] = relation  # the latest (strongest) one per loop

    # ---- values ----
    def data_value(self, s: DataSymbol) -> sp.Expr:
        """A data-dependent quantity's value in Ω: its symbol, or a number in a numeric run
        (the user's value, else its default) and where its value was fixed."""
        self.inputs.data.setdefault(s.name, s)
        fixed = given_value(self.inputs.values, s.name)
        if fixed is not None:
            return fixed
        if self.inputs.numeric:
            given = given_value(self.inputs.given, s.name)
            return given if given is not None else sp.Float(s.default)
        return s.symbol

    def data_number(self, s: DataSymbol, decides: str = "the IF") -> float:
        """A data-dependent quantity as a number, for a decision taken while stepping (the
        user's value, else its default); in a formula it stands as that number (noted)."""
        self.inputs.data.setdefault(s.name, s)
        value = given_value(self.inputs.values, s.name)
        if value is None:
            value = given_value(self.inputs.given, s.name)
        number = float(value) if value is not None else float(s.default)
        self.note(f"{s.name} = {number:g} decides {decides} at {s.file.rsplit('/', 1)[-1]}:"
                  f"{s.head} while the program is followed step by step (its outcomes are taken "
                  "in that proportion, by error diffusion): the formula has its number, not the "
                  "symbol")
        return number

    def library_values(self) -> dict[str, sp.Expr]:
        """What NX/2's node queries return on this process."""
        if self._library_values is None:
            self._library_values = {"MYNODE": sp.Integer(self.pid), "NUMNODES": sp.Integer(self.nprocs),
                                    "NODEDIM": sp.Integer((self.nprocs - 1).bit_length()),
                                    "MYHOST": sp.Integer(HOST_ID), "MYPID": sp.Integer(0)}
        return self._library_values

    def value(self, e: ast.Expr, frame: Frame, what: str) -> sp.Expr:
        """The value of ``e``; a symbolic value is fine, an untracked one is an error."""
        return as_sympy(self.raw_value(e, frame, what))

    def raw_value(self, e: ast.Expr, frame: Frame, what: str):
        """:meth:`value` as a Python number or bool when every value it reads is one (no
        SymPy object made: partners, tags and conditions are asked for at every message)."""
        resolve = self._resolver(frame)
        try:
            fast = numeric_value(e, frame.table, resolve)
            if fast is not None:
                return fast
            return to_sympy(e, frame.table, resolve)
        except Unfold:  # the interpretation is made again with the folded loop stepped
            raise
        except SymbolicError as err:  # NotComputable stays itself: no data symbol stands for it
            kind = NotComputable if isinstance(err, NotComputable) else InterpError
            raise kind(f"{what}: {err.message}", e.loc,
                       hint="interp needs this value to follow the program; give the "
                            "variable's value with --set NAME=VALUE") from None

    def _resolver(self, frame: Frame):
        return frame.resolver(self.library_values(), self._function_hook(frame))

    def _function_hook(self, frame: Frame):
        """How a resolver over ``frame`` gets a user FUNCTION's value: its body interpreted
        with the reference's arguments (``self.functions``, omega.function_value)."""
        if self.functions is None:
            return None
        done: dict = {}  # a reference worked out again (numbers tried first, then SymPy) is
        # the same reference: a FUNCTION that advances its argument must not advance it twice

        def hook(ref, args):
            if id(ref) not in done:
                done[id(ref)] = self.functions(self, ref, args, frame)
            return done[id(ref)]
        return hook

    def comm(self, e: ast.Expr, frame: Frame, what: str) -> Communicator:
        """The communicator the handle ``e`` names on this process."""
        handle = self.concrete(e, frame, what)
        comm = self.communicator(handle)
        if comm is None:
            raise InterpError(
                f"{what}: {expr_text(e)} = {handle} is not a communicator {self.label} belongs to",
                e.loc, hint="pass MPI_COMM_WORLD or a communicator MPI_COMM_SPLIT, "
                            "MPI_COMM_DUP or MPI_CART_CREATE made on this rank")
        return comm

    def communicator(self, handle: int) -> Communicator | None:
        """The communicator of this handle on this process, None when it belongs to none."""
        return self.comms.get(handle)

    def concrete(self, e: ast.Expr, frame: Frame, what: str) -> int:
        v = self.raw_value(e, frame, what)
        if type(v) is int:
            return v
        v = as_sympy(v)
        if not v.is_number:
            raise NeedValue([str(s) for s in v.free_symbols], what, e.loc)
        return int(v)

    def decide(self, cond: ast.Expr, frame: Frame, what: str) -> bool:
        v = self.raw_value(cond, frame, what)
        if type(v) is bool:
            return v
        v = as_sympy(v)
        if v in (sp.true, sp.false) or isinstance(v, bool):
            return bool(v)
        raise NeedValue([str(s) for s in v.free_symbols], what, cond.loc)

    def closed_value(self, e: ast.Expr, frame: Frame, binding: dict) -> sp.Expr:
        """The value of ``e`` inside a closed form: loop indices are symbols of the binding; a
        value the body changes from one iteration to the next has none (NotClosedForm)."""
        base = frame.resolver(self.library_values(), self._function_hook(frame))

        def resolve(key: str):
            if key in binding:
                return binding[key]
            if key.split("(")[0] in binding.get(VARYING, ()):
                raise SymbolicError(f"{key} changes from one iteration to the next")
            return base(key)

        def function(ref, args):
            unit = self.aag.units.get(ref.name)
            if unit is not None and self.keeps_state(unit):  # each call its own value
                raise KeepsState
            return base.function(ref, args)

        resolve.function = function if base.function is not None else None

        try:
            return as_sympy(fast_or_symbolic(e, frame.table, resolve))
        except SymbolicError:
            raise NotClosedForm from None

    # ---- arguments: by reference for variables, by value otherwise ----
    def call_frame(self, callee: UnitAAG, actuals: list[ast.Expr], frame: Frame,
                   share: bool = True) -> Frame:
        """The callee's frame with its dummies bound to the caller's actual arguments: an
        array dummy shares its actual's storage (values.View; ``share`` False: a copy of its
        elements, for a body interpreted for its time alone), a scalar its value."""
        inner = self.frame_for(callee)
        arrays = []
        for dummy, actual in zip(callee.unit.dummies, actuals):
            if share and _shares(callee, dummy, actual, frame):
                arrays.append((dummy, actual))  # once the scalars bounding it are bound
            elif _by_reference(actual, frame):  # the caller's values, element by element
                for suffix, value in frame.elements(actual.name).items():
                    inner.set(dummy + suffix, value)
            else:
                self._bind_value(inner, dummy, actual, frame)
            loop = stepped_index(self, frame, actual)  # (a loop's index, passed on)
            if loop is not None:
                inner.aliases = {**(inner.aliases or {}), dummy: loop}
        for dummy, actual in arrays:
            view = self._view(callee, dummy, actual, frame, inner)
            if view is not None:
                inner.share(view)
            else:  # an element whose place is not known: its value, as for a scalar
                self._bind_value(inner, dummy, actual, frame)
        return inner

    def _bind_value(self, inner: Frame, dummy: str, actual: ast.Expr, frame: Frame) -> None:
        try:
            inner.set(dummy, self.value(actual, frame, "an argument"))
        except InterpError as err:  # the argument is not followed: nor is the dummy
            why = f"it is the argument {expr_text(actual)} of the call at line " \
                  f"{actual.loc.line}, and {err.message}"
            inner.set(dummy, FoldedUnknown(why, err.loop, err.name) if isinstance(err, Unfold)
                      else Unknown(why))

    def _view(self, callee: UnitAAG, dummy: str, actual: ast.Expr, frame: Frame,
              inner: Frame) -> View | None:
        """The array dummy ``dummy`` as a view of the actual's storage: from the element
        passed, laid out as the dummy declares it. An actual array whose layouts are not known
        (bounds that are symbols) is seen with its own subscripts; None for an element of it."""
        store = frame._store(actual.name)
        caller = self._layout(frame.table.symbols[actual.name], frame)
        mine = self._layout(callee.symbols.symbols[dummy], inner) if caller is not None else None
        offset = 0
        if isinstance(actual, ast.Ref):
            subscripts = self._subscripts(actual, frame) if mine is not None else None
            if subscripts is None:
                return None
            offset = caller.position(subscripts)
        if mine is None or (offset == 0 and mine.same(caller)):
            return View(store, actual.name, dummy)
        return View(store, actual.name, dummy, offset, (caller, mine))

    def _layout(self, sym, frame: Frame) -> Layout | None:
        """An array's layout from its declared bounds' values in ``frame`` (F77: an adjustable
        array's bounds are fixed on entry); None when a bound is not a number."""
        fixed = self.cm.memo(("layout", id(sym)),
                             lambda: _layout_of(sym, lambda e: _constant(e, frame.table)))
        if fixed is not False:  # (bounds that are constants: most arrays)
            return fixed
        layouts = frame.layouts
        if layouts is None:
            layouts = frame.layouts = {}
        elif sym.name in layouts:  # an activation's bounds are fixed on entry
            return layouts[sym.name]
        if self.recorder is not None:  # a shadow's evaluations are recorded one by one
            found = _layout_of(sym, lambda e: self._integer(e, frame))
        else:
            resolve = frame.resolver(self.library_values(), self._function_hook(frame))
            log, frame.log = frame.log, None  # not a control decision
            try:
                found = _layout_of(sym, lambda e: _integer_value(e, frame.table, resolve))
            finally:
                frame.log = log
        layouts[sym.name] = found
        return found

    def buffer_bytes(self, buf: ast.Expr | None, frame: Frame) -> int | None:
        """The bytes a receive buffer has room for: from the element named (or the first) to
        the end of a local array whose size is known. None for anything else: a scalar, a
        dummy (F77 code declares ``A(1)`` for an array of any size: its room is the
        caller's), a COMMON array (a unit may declare a block shorter than another does)."""
        if not isinstance(buf, (ast.Var, ast.Ref)):
            return None
        sym = frame.table.symbols.get(buf.name)
        if sym is None or not sym.is_array or sym.dummy or sym.common is not None:
            return None
        layout = self._layout(sym, frame)
        if not layout or layout.size is None:
            return None
        offset = 0
        if isinstance(buf, ast.Ref) and buf.args:
            subscripts = self._subscripts(buf, frame)
            if subscripts is None:
                return None
            offset = layout.position(subscripts)
        return max(layout.size - offset, 0) * sym.elem_bytes

    def _subscripts(self, ref: ast.Ref, frame: Frame) -> tuple[int, ...] | None:
        sym = frame.table.symbols[ref.name]
        if len(ref.args) != len(sym.dims):
            return None
        out = []
        for e in ref.args:
            value = self._integer(e, frame)
            if value is None:
                return None
            out.append(value)
        return tuple(out)

    def _integer(self, e: ast.Expr, frame: Frame) -> int | None:
        """``e``'s value when it is an integer (not a control decision: not logged)."""
        log, frame.log = frame.log, None
        try:
            value = self.raw_value(e, frame, "an array bound")
        except InterpError:
            return None
        finally:
            frame.log = log
        return _as_integer(value)

    def copy_back(self, callee: UnitAAG, actuals: list[ast.Expr], frame: Frame, inner: Frame) -> None:
        """What the callee left in its by-reference dummies copied in goes back to the caller
        (an array dummy that shares its actual's storage has nothing to give back)."""
        views = inner.views or {}
        for dummy, actual in zip(callee.unit.dummies, actuals):
            if dummy not in views and _by_reference(actual, frame):
                for suffix, value in inner.elements(dummy).items():
                    frame.set(actual.name + suffix, value)

    # ---- data flow of sequential statements (values, not time) ----
    def exec_stmt(self, s: ast.Stmt, frame: Frame) -> None:
        if self.budget is not None:
            self.budget -= 1
            if self.budget < 0:
                raise InterpError("working out the value takes more statements than interp "
                                  "runs for one FUNCTION reference (a loop too long to follow)",
                                  s.loc)
        if isinstance(s, ast.Assign) and not self._needed(s):
            frame.forget(s.target.name, f"its value (line {s.loc.line}) was not followed: "
                                        "no decision interp knows of reads it")
            return
        log, frame.log = frame.log, None  # data flow is not a control decision
        try:
            if isinstance(s, ast.CallStmt):  # (no resolver: each member's query of its rank)
                self._library_call(s, frame)
                return
            resolve = self._resolver(frame)
            if isinstance(s, ast.Assign):
                self._assign(s, frame, resolve)
            elif isinstance(s, ast.Read):
                if not self.files.read(s, frame, resolve):
                    for item in s.items:
                        if isinstance(item, ast.Var):
                            frame.set(item.name, frame.value_of_scalar(item.name))
            elif isinstance(s, ast.FileOp):
                self.files.file_op(s, frame, resolve)
        finally:
            frame.log = log

    def _assign(self, s: ast.Assign, frame: Frame, resolve) -> None:
        """An assignment's data flow: its target's subscripts, then its value (in that order:
        a FUNCTION in either may change what the other reads)."""
        table = frame.table
        target = s.target
        key, indices = target.name, None
        if isinstance(target, ast.Ref):
            try:
                subscripts = [fast_or_symbolic(i, table, resolve) for i in target.args]
            except SymbolicError:
                subscripts = None
            if subscripts is not None and all(type(i) is int for i in subscripts):
                key = f"{key}({','.join(map(str, subscripts))})"  # element_key, without SymPy
            else:
                indices = [sp.Symbol("?")] if subscripts is None else [as_sympy(i) for i in subscripts]
        value = self._lazy_value(s, frame, resolve)
        if value is None:
            try:
                found = numeric_value(s.value, table, resolve)
                if found is None:
                    found = to_sympy(s.value, table, resolve)
                value = assigned_value(found, table.lookup(target.name, target.loc).type)
            except (SymbolicError, ZeroDivisionError, TypeError) as err:
                value = self._not_assigned(s, err)
        if indices is None:
            frame.set(key, value)
        else:
            frame.assign(target.name, indices, value)

    @staticmethod
    def _not_assigned(s: ast.Assign, err: Exception) -> Unknown:
        why = getattr(err, "message", None) or "it cannot be computed before run time"
        why = f"it is assigned at line {s.loc.line} from a value interp does not follow ({why})"
        return FoldedUnknown(why, err.loop, err.name) if isinstance(err, Unfold) else Unknown(why)

    @classmethod
    def _assigned(cls, s: ast.Assign, frame: Frame, work) -> object:
        """The value ``work()`` computes for ``s``, converted to its target's type; an Unknown
        saying why when it cannot be computed."""
        try:
            return assigned_value(work(), frame.table.lookup(s.target.name, s.target.loc).type)
        except (SymbolicError, ZeroDivisionError, TypeError) as err:
            return cls._not_assigned(s, err)

    def _lazy_value(self, s: ast.Assign, frame: Frame, resolve) -> Lazy | None:
        """``X = F(args)``, F a FUNCTION of its scalar arguments alone, the arguments numbers:
        its value, worked out only if something reads it (values.Lazy)."""
        e = s.value
        if (not isinstance(e, ast.Ref) or self.evaluating or self.functions is None
                or not pure_function(self.aag, e.name)):
            return None
        try:
            args = [numeric_value(a, frame.table, resolve) for a in e.args]
        except SymbolicError:
            return None
        if any(a is None for a in args):
            return None
        return Lazy(lambda: self._assigned(s, frame, lambda: self.functions(self, e, args, frame)))

    def _needed(self, s: ast.Assign) -> bool:
        """Whether the value an assignment computes may reach a decision (needed.py), or a
        FUNCTION it references changes a value that may; inside a FUNCTION whose value is
        being worked out, every value is."""
        return (s.target.name in self.needed or bool(self.evaluating)
                or isinstance(s, ast.AssignLabel) or id(s) in self.kept)

    def datatype(self, code: int, loc) -> tuple[int, sp.Expr]:
        """An MPI datatype handle's (element type, size in bytes): a predefined type's, or a
        derived one's made on this process (MPI_TYPE_CONTIGUOUS, MPI_TYPE_VECTOR, ...)."""
        if code in self.datatypes:
            return self.datatypes[code]
        size = mpi_datatype_bytes().get(code)
        if size is None:
            raise InterpError(f"{code} is not an MPI datatype handle", loc,
                              hint="pass a predefined type (MPI_DOUBLE_PRECISION, ...) or one "
                                   "MPI_TYPE_CONTIGUOUS or MPI_TYPE_VECTOR made on this rank")
        return code, sp.Integer(size)

    def _new_datatype(self, s: ast.CallStmt, call, frame: Frame) -> None:
        """MPI_TYPE_CONTIGUOUS / VECTOR / HVECTOR: a new handle for COUNT x BLOCKLENGTH elements
        of OLDTYPE (the stride spaces them in memory; what is sent is their bytes)."""
        what = f"an argument of {s.name} at line {s.loc.line}"
        arg = {role.removeprefix("out_"): s.args[i] for i, role in enumerate(call.args)}
        count = self.value(arg["count"], frame, what)
        block = self.value(arg["blocklength"], frame, what) if "blocklength" in arg else 1
        element, size = self.datatype(self.concrete(arg["oldtype"], frame, what), s.loc)
        handle = FIRST_DERIVED_TYPE + len(self.datatypes)
        self.datatypes[handle] = (element, as_sympy(count * block * size))
        if isinstance(arg["newtype"], ast.Var):
            frame.set(arg["newtype"].name, sp.Integer(handle))

    def array_elements(self, e: ast.Expr, n: int, frame: Frame, what: str,
                       logical: bool = False) -> list:
        """The ``n`` values of an array argument from the element it names (its first when it
        is the whole array): integers, or truth values with ``logical``."""
        first = [ast.Num(1, "INTEGER", e.loc)] if isinstance(e, ast.Var) else \
            e.args if isinstance(e, ast.Ref) and len(e.args) == 1 else None
        if first is None:
            raise InterpError(f"{what} must be a one-dimensional array", e.loc)
        k = self.concrete(first[0], frame, what)
        refs = [ast.Ref(e.name, [ast.Num(k + i, "INTEGER", e.loc)], e.loc) for i in range(n)]
        if logical:
            return [self.decide(r, frame, what) for r in refs]
        return [self.concrete(r, frame, what) for r in refs]

    def _store_elements(self, e: ast.Expr, values: list, frame: Frame) -> None:
        """What a call stores in an array argument, element by element from the one named."""
        if isinstance(e, ast.Var) and not frame.table.lookup(e.name, e.loc).is_array:
            frame.set(e.name, sp.Integer(values[0]))
            return
        first = 1 if isinstance(e, ast.Var) else self.concrete(e.args[0], frame, "an index")
        for i, v in enumerate(values):
            frame.assign(e.name, [sp.Integer(first + i)],
                         v if isinstance(v, bool) else sp.Integer(v))

    def _cartesian(self, s: ast.CallStmt, call, frame: Frame) -> None:
        """MPI_DIMS_CREATE and the Cartesian queries (MPI_CART_COORDS, _RANK, _SHIFT, _GET):
        local calls, their answers followed."""
        what = f"an argument of {s.name} at line {s.loc.line}"
        arg = {role.removeprefix("out_"): s.args[i] for i, role in enumerate(call.args)}
        if call.op == "dims_create":
            n = self.concrete(arg["ndims"], frame, what)
            dims = dims_create(self.concrete(arg["nnodes"], frame, what),
                               self.array_elements(arg["dims"], n, frame, what))
            if dims is None:
                raise InterpError(f"{s.name}: DIMS's nonzero entries do not divide NNODES",
                                  s.loc)
            self._store_elements(arg["dims"], dims, frame)
            return
        comm = self.comm(arg["comm"], frame, f"the communicator of {s.name} at line "
                                             f"{s.loc.line}")
        if not comm.dims:
            raise InterpError(f"{s.name}: the communicator has no Cartesian topology",
                              arg["comm"].loc, hint="pass the communicator MPI_CART_CREATE made")
        me = comm.coords(comm.rank(self.pid))
        if call.op == "cart_coords":
            self._store_elements(arg["coords"], comm.coords(
                self.concrete(arg["rank"], frame, what)), frame)
        elif call.op == "cart_rank":
            rank = comm.cart_rank(self.array_elements(arg["coords"], len(comm.dims), frame, what))
            frame.set(arg["rank"].name, sp.Integer(rank))
        elif call.op == "cart_shift":
            d = self.concrete(arg["direction"], frame, what)
            disp = self.concrete(arg["disp"], frame, what)
            if not 0 <= d < len(comm.dims):
                raise InterpError(f"{s.name}: direction {d} is not a dimension of the grid",
                                  arg["direction"].loc)
            ahead, behind = list(me), list(me)
            ahead[d] += disp
            behind[d] -= disp
            frame.set(arg["source"].name, sp.Integer(comm.cart_rank(behind)))
            frame.set(arg["dest"].name, sp.Integer(comm.cart_rank(ahead)))
        elif "ndims" in arg:  # MPI_CARTDIM_GET
            frame.set(arg["ndims"].name, sp.Integer(len(comm.dims)))
        else:  # MPI_CART_GET
            self._store_elements(arg["dims"], list(comm.dims), frame)
            self._store_elements(arg["periods"], list(comm.periods), frame)
            self._store_elements(arg["coords"], me, frame)

    def _get_count(self, s: ast.CallStmt, frame: Frame) -> None:
        """MPI_GET_COUNT(STATUS, DATATYPE, COUNT): the elements the message its STATUS was
        last filled by (a receive or MPI_PROBE) holds; not known when interp did not fill
        it (a WAITALL's statuses, a class's shadow)."""
        status, datatype, count = s.args[0], s.args[1], s.args[2]
        size = self.handles.get(f"count:{status.name}") if isinstance(status, ast.Var) else None
        if not isinstance(count, (ast.Var, ast.Ref)):
            return
        if size is None:
            frame.forget(count.name)
            return
        _, elem = self.datatype(self.concrete(datatype, frame, f"the datatype of {s.name} at "
                                                               f"line {s.loc.line}"), s.loc)
        self.assign_argument(count, sp.floor(size / elem) if elem else sp.Integer(0), frame,
                             f"the COUNT index at line {s.loc.line}")

    def assign_argument(self, target: ast.Var | ast.Ref, value, frame: Frame, what: str) -> None:
        """What a library call stores in its output argument: a variable, or an array element
        (its subscripts' values needed: ``what``)."""
        index = [self.value(i, frame, what) for i in target.args] \
            if isinstance(target, ast.Ref) else None
        frame.assign(target.name, index, value)

    def _library_call(self, s: ast.CallStmt, frame: Frame) -> None:
        call = lookup(s.name)
        if call is not None and call.op in CARTESIAN:
            self._cartesian(s, call, frame)
            return
        if call is not None and call.op == "type_new":
            self._new_datatype(s, call, frame)
            return
        if call is not None and call.op == "type_commit":
            self.committed.add(self.concrete(s.args[0], frame, f"the datatype of {s.name} at "
                                                              f"line {s.loc.line}"))
            return
        if s.name == "MPI_GET_COUNT":
            self._get_count(s, frame)
            return
        if call is not None and call.op == "type_size":
            what = f"the datatype of {s.name} at line {s.loc.line}"
            _, size = self.datatype(self.concrete(s.args[0], frame, what), s.loc)
            if isinstance(s.args[1], ast.Var):
                frame.set(s.args[1].name, size)
            return
        outputs = {"node_id": self.pid, "num_nodes": self.nprocs}
        if call is not None and call.op == "query" and call.role_index("comm") is not None:
            comm = self.comm(s.args[call.role_index("comm")], frame,
                             f"the communicator of {s.name} at line {s.loc.line}")
            outputs = {"node_id": comm.rank(self.pid), "num_nodes": comm.size}
        for i, a in enumerate(s.args):
            role = call.args[i] if call and i < len(call.args) else "?"
            if not isinstance(a, (ast.Var, ast.Ref)):
                continue
            if role.startswith("out_") and role[4:] in outputs:
                frame.set(a.name, sp.Integer(outputs[role[4:]]))
            elif call is None or role.startswith("out_"):
                frame.forget(a.name)  # passed by reference to code interp does not see



def saved_names(unit: UnitAAG) -> dict[str, object]:
    """A SUBROUTINE's or FUNCTION's local scalars that keep their value from one activation
    to the next and that it assigns: SAVE'd (a bare SAVE: every local), or given a DATA value
    (F77 compilers keep those static): each with its DATA value, or None (``SAVE NCALL`` /
    ``DATA NCALL /0/`` / ``NCALL = NCALL + 1``; a random number generator's seed)."""
    if unit.kind not in ("SUBROUTINE", "FUNCTION"):  # the main program runs once (data_values)
        return {}
    from interp.engine.dataflow import assigned

    listed: set[str] | None = set()
    for decl in unit.unit.decls:
        if isinstance(decl, ast.NameListStmt) and decl.kind == "SAVE":
            if not decl.names:
                listed = None  # every local
                break
            listed |= {n.strip("/") for n in decl.names}
    initial = {t.name: e for t, e in _data_pairs(unit) if isinstance(t, ast.Var)}
    changed = set()
    for a in unit.aaus:
        changed |= assigned(a)
    out: dict[str, object] = {}
    for name in sorted(changed):
        sym = unit.symbols.symbols.get(name)
        if (sym is None or sym.is_array or sym.common is not None or sym.kind != "variable"
                or name in unit.unit.dummies or name == unit.name):  # (a FUNCTION's result)
            continue
        if listed is not None and name not in listed and name not in initial:
            continue
        out[name] = _data_constant(initial[name], sym, unit) if name in initial else None
    return out


def data_values(unit: UnitAAG) -> dict[str, sp.Expr]:
    """The constants a unit's DATA statements give its local scalars that it never assigns
    (``DATA CGITMAX / 25 /``, ``DATA VERB /.TRUE./``; each ``names /values/`` set by itself):
    each activation starts with them. In the main program, which runs once, its assigned
    scalars too (``DATA IT /0/`` before ``IT = IT + 1``); a SUBROUTINE's or FUNCTION's
    assigned ones keep their value from call to call (:func:`saved_names`)."""
    from interp.engine.dataflow import assigned

    changed = set()
    if unit.kind != "PROGRAM":  # the main program runs once: DATA IT /0/ starts IT = IT + 1
        for a in unit.aaus:
            changed |= assigned(a)
    out = {}
    for decl in unit.unit.decls:
        if not isinstance(decl, ast.Data):
            continue
        for targets, values in decl.sets:
            keys = _data_keys(targets, unit)
            if keys is None or len(keys) != len(values):
                continue  # not laid out element by element: left out, not followed
            for (name, key), e in zip(keys, values):
                sym = unit.symbols.symbols.get(name)
                if sym is None or sym.common is not None or name in changed:
                    continue
                value = _data_constant(e, sym, unit)
                if value is not None:
                    out[key] = value
    return out


MAX_DATA_ELEMENTS = 100_000  # a larger DATA array is left out (its values not followed)


def _data_keys(targets: list, unit: UnitAAG) -> list[tuple[str, str]] | None:
    """The (name, key) each value of one DATA ``targets /values/`` set goes to, in order: a
    scalar, an element of constant subscripts, a whole array of constant bounds (storage
    order: DATA PERIOD /2*.TRUE./), an implied DO of constant bounds; None where one is not
    so (the set is left out)."""
    table = unit.symbols
    out: list[tuple[str, str]] = []

    def add(t, resolve=None) -> bool:
        if isinstance(t, ast.ImpliedDo):
            bounds = [numeric_value(b, table, resolve) if b is not None else 1
                      for b in (t.start, t.stop, t.step)]
            if any(type(b) is not int for b in bounds) or bounds[2] == 0:
                return False
            start, stop, step = bounds
            for i in range(start, stop + (1 if step > 0 else -1), step):
                inner = (lambda key, i=i, var=t.var.upper(), outer=resolve:
                         i if key.upper() == var else outer(key) if outer else None)
                if not all(add(item, inner) for item in t.items):
                    return False
            return len(out) <= MAX_DATA_ELEMENTS
        sym = table.symbols.get(getattr(t, "name", None))
        if sym is None:
            return False
        if isinstance(t, ast.Var) and not sym.is_array:
            out.append((t.name, t.name))
            return True
        if isinstance(t, ast.Var):  # a whole array, in storage order
            layout = _layout_of(sym, lambda e: _constant(e, table))
            if not layout or layout.size is None or layout.size > MAX_DATA_ELEMENTS:
                return False
            out.extend((t.name, element_key(t.name, [sp.Integer(i) for i in
                                                     layout.subscripts(k)]))
                       for k in range(layout.size))
            return True
        if isinstance(t, ast.Ref) and sym.is_array:
            subs = [numeric_value(a, table, resolve) for a in t.args]
            if any(type(v) is not int for v in subs):
                return False
            out.append((t.name, element_key(t.name, [sp.Integer(v) for v in subs])))
            return True
        return False

    return out if all(add(t) for t in targets) else None


def _data_pairs(unit: UnitAAG) -> list[tuple[ast.Expr, ast.Expr]]:
    """(target, value) of a unit's DATA statements, each ``names /values/`` set by itself
    (DATA A /4*0/, B /1/); a set whose counts differ (an implied DO, a repeat) left out."""
    return [pair for decl in unit.unit.decls if isinstance(decl, ast.Data)
            for targets, values in decl.sets if len(targets) == len(values)
            for pair in zip(targets, values)]


def _data_constant(e: ast.Expr, sym, unit: UnitAAG) -> sp.Expr | None:
    """A DATA value as its target's type holds it (DATA VERB /.TRUE./ too); None when it is
    not a constant."""
    try:
        value = as_sympy(to_sympy(e, unit.symbols, lambda key: None))
    except SymbolicError:
        return None
    if value.is_number or value in (sp.true, sp.false):
        return assigned_value(value, sym.type)
    return None


def _layout_of(sym, bound) -> Layout | None | bool:
    """An array's layout, its bounds' values given by ``bound(e)`` (an int, None when not a
    number, False when not a constant: :func:`_constant`)."""
    lows, extents, size = [], [], 1
    last = len(sym.dims) - 1
    for k, (lo, hi) in enumerate(sym.dims):
        low = bound(lo) if lo is not None else 1
        high = bound(hi) if hi is not None else None
        if low is False or high is False:
            return False
        if low is None or (high is None and (hi is not None or k < last)):
            return None
        lows.append(low)
        if high is None:
            size = None
            continue
        if k < last:
            extents.append(high - low + 1)
        if size is not None:
            size *= max(high - low + 1, 0)
    return Layout(tuple(lows), tuple(extents), size)


def _constant(e: ast.Expr, table) -> int | bool:
    """A bound's value when it is a constant (numbers and PARAMETERs), else False."""
    value = numeric_value(e, table)
    return value if type(value) is int else False


def _integer_value(e: ast.Expr, table, resolve) -> int | None:
    try:
        return _as_integer(fast_or_symbolic(e, table, resolve))
    except (SymbolicError, ZeroDivisionError, TypeError):
        return None


def _as_integer(value) -> int | None:
    if type(value) is int:
        return value
    value = as_sympy(value)
    return int(value) if value.is_Integer else None


def _shares(callee: UnitAAG, dummy: str, actual: ast.Expr, frame: Frame) -> bool:
    """Whether an array dummy is passed an array or one of its elements: it is then a view
    of the actual's storage."""
    if not isinstance(actual, (ast.Var, ast.Ref)):
        return False
    sym = frame.table.symbols.get(actual.name)
    mine = callee.symbols.symbols.get(dummy)
    return (sym is not None and sym.is_array and sym.kind != "parameter"
            and mine is not None and mine.is_array)


def _by_reference(actual: ast.Expr, frame: Frame) -> bool:
    sym = frame.table.symbols.get(actual.name) if isinstance(actual, ast.Var) else None
    return sym is not None and sym.kind != "parameter"
