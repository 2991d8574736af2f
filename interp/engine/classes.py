"""Process classes (issue 16, docs/scale.md): the ranks whose behaviour is the same up to the
renaming of ranks are interpreted once.

A class is a *shadow*: the program interpreted for one rank off the scheduler, its replies made
up, recording what it does as events (time advanced, AAU entered and left, requests, loop
heads). Every rank is a *member*: a process of the scheduler whose chain replays a shadow's
events with its own clock, so its timings and partners are its own and the scheduler and
network price them as for any process.

Never assumed, checked: the shadow tracks which values depend on the rank (*tainted* keys of
its stores: the rank MPI_COMM_RANK gives, and what is assigned from tainted values). Every
evaluation that reads a tainted value is recorded with the values around it; a member
evaluates it again with its own tainted values:

* a decision, loop bound or any other value (``CHECK``) must come out the same, or the member
  leaves for another class: a shadow of its own rank, run up to that event (the events before
  it are the same: the same decisions were taken), shared by the later members that decide
  the same way (a *split*);
* an assignment (``ASSIGN``) gives the member its own value of the tainted key;
* a request built from tainted values (a partner, a size) is built again for the member.

Anything the classes cannot follow (a tainted value read outside an evaluation, copied by
reference, received from a message a decision reads, assigned once the loops began, a new
communicator, MPI_PROC_NULL handles) raises :class:`ClassBreak`, and the prediction is
interpreted rank by rank (:func:`interp.engine.predict.interpret`): a different number is
never given.
"""

from __future__ import annotations

from typing import Generator

import sympy as sp

from interp.application import ast
from interp.application.catalog import lookup, mpi_constants
from interp.application.expr import assigned_value, element_key, numeric_value
from interp.engine.inputfiles import Files
from interp.engine.omega import run_chain
from interp.engine.comms import SELF, WORLD, Communicator, world
from interp.engine.dataflow import critical_names
from interp.engine.needed import kept_statements, needed_names
from interp.engine.process import CATEGORIES, ClassBreak, Process
from interp.engine.stepbudget import MAX_STEPS
from interp.engine.requests import (
    AbortReq, CollReq, LoopHead, RecvReq, Reply, SendReq, SpawnReq, WaitReq, wait_request,
    build_request, tree_broadcast, tree_part,
)
from interp.engine.timeval import as_time
from interp.engine.values import Frame, Store

# event codes (the first item of each event tuple)
ADV, ENTER, LEAVE, STEP, CLOSED, ASSUME, CHECK, ASSIGN, UNTAINT, REQ, LOOP, END = range(12)
RAW, CLOSED_VALUE = "raw", "closed"  # the two kinds of CHECK
OK, ERR = "ok", "err"
NODE_QUERIES = ("MYNODE", "MYPID", "INFONODE", "INFOTYPE", "INFOCOUNT")  # NX/2: not followed


# ---- the shadow's stores: which keys depend on the rank -----------------------------------


class TaintStore(Store):
    """A store of the shadow: its tainted keys, a read of one reported to the recorder, a
    write recorded (an untainted value written over a tainted one: ``UNTAINT``)."""

    def __init__(self, rec: "Recorder", sid: int) -> None:
        super().__init__()
        self.rec, self.sid = rec, sid
        self.tainted: set[str] = set()
        self.unknown: set[str] = set()  # a message's status, which the shadow is not given

    def get(self, key, default=None):
        if key in self.tainted:
            self.rec.tainted_read()
        elif key in self.unknown:
            raise ClassBreak("a decision reads the status of a message")
        return dict.get(self, key, default)

    def __getitem__(self, key):
        if key in self.tainted:
            self.rec.tainted_read()
        elif key in self.unknown:
            raise ClassBreak("a decision reads the status of a message")
        return dict.__getitem__(self, key)

    def __setitem__(self, key: str, value: object) -> None:
        rec = self.rec
        self.unknown.discard(key)
        if rec.stmt and rec.read:  # an assignment whose value read a tainted one
            self.tainted.add(key)
            rec.written.append((self.sid, key))
        elif key in self.tainted:
            self.tainted.discard(key)
            rec.log.append((UNTAINT, self.sid, key))
        super().__setitem__(key, value)

    def __delitem__(self, key: str) -> None:
        if key in self.tainted:
            self.tainted.discard(key)
            self.rec.log.append((UNTAINT, self.sid, key))
        super().__delitem__(key)

    def shared_get(self, key: str, default=None):
        if key in self.tainted:  # a member's snapshot does not hold the caller's array
            raise ClassBreak("a value that depends on the rank is read through an array "
                             "passed by reference")
        return self.get(key, default)


def _copy(store: Store) -> Store:
    """A plain copy of a store as it is now (its writes and reads no longer watched)."""
    out = Store()
    dict.update(out, store)
    out._by_name = {k: dict(v) for k, v in store._by_name.items()}
    return out


class Snapshot:
    """A frame as it was at an evaluation: what a member evaluates it again over."""

    __slots__ = ("table", "unit", "inputs", "local", "common", "local_id", "common_id")

    def __init__(self, frame: Frame) -> None:
        self.table, self.unit, self.inputs = frame.table, frame.unit, frame.inputs
        self.local, self.common = _copy(frame.local), _copy(frame.common)
        for dummy in frame.views or ():  # the caller's elements, as the callee's own
            for suffix, value in frame.elements(dummy).items():
                self.local[dummy + suffix] = value
        self.local_id = getattr(frame.local, "sid", None)
        self.common_id = getattr(frame.common, "sid", None)

    def frame(self, env: dict[int, dict], scratch: bool = False) -> Frame:
        """The frame with a member's tainted values over the shadow's (``scratch``: writes
        go to copies, read back by the caller)."""
        local = Overlay(self.local, env.get(self.local_id, {}), scratch)
        common = Overlay(self.common, env.get(self.common_id, {}), scratch)
        return Frame(self.table, self.unit, local=local, common=common, inputs=self.inputs)


class Overlay(Store):
    """A snapshot's store with a member's values of its tainted keys over it."""

    def __init__(self, base: Store, over: dict, scratch: bool) -> None:
        dict.__init__(self)
        self._by_name = base._by_name
        self.base, self.over = base, dict(over) if scratch else over

    def get(self, key, default=None):
        over = self.over
        return over[key] if key in over else self.base.get(key, default)

    def __getitem__(self, key):
        over = self.over
        return over[key] if key in over else self.base[key]

    def __contains__(self, key) -> bool:
        return key in self.over or key in self.base

    def __setitem__(self, key: str, value: object) -> None:
        self.over[key] = value

    def __delitem__(self, key: str) -> None:  # (forgetting a name clears it, then sets it)
        self.over.pop(key, None)

    def keys_of(self, name: str) -> list[str]:
        return self.base.keys_of(name)


# ---- the recorder: what the shadow does, as events ----------------------------------------


class Recorder:
    def __init__(self, functions: frozenset[str]) -> None:
        self.log: list[tuple] = []
        self.functions = functions  # the program's FUNCTIONs (not re-evaluated for members)
        self.depth = 0  # inside an evaluation (only the outermost one is recorded)
        self.read = False  # the current evaluation read a tainted value
        self.frame: Frame | None = None
        self.snap: Snapshot | None = None
        self.stmt = False  # the evaluation is an assignment statement's
        self.written: list[tuple[int, str]] = []
        self.building = False  # the evaluations build a request
        self.build_snap: Snapshot | None = None
        self.build_exprs: list[ast.Expr] = []  # those of its evaluations that read tainted values
        self.build_reads: tuple | None = None
        self.reads: list | None = None  # what the resolver of the evaluation gave
        self.interned: dict[tuple, tuple] = {}  # _reads: one tuple for equal reads of a site
        self.muted = 0  # a FUNCTION's body worked out for its value: its time is put back
        self.loops_seen = False
        self.sids = 0

    def store(self) -> TaintStore:
        self.sids += 1
        return TaintStore(self, self.sids)

    def event(self, *ev) -> None:
        if not self.muted:
            self.log.append(ev)

    def enter(self) -> None:
        if not self.muted:
            self.log.append((ENTER,))

    def refuse(self, why: str) -> None:
        raise ClassBreak(why)

    def request(self, p: Process, a, frame: Frame, req, build):
        """requests.exchange on the shadow: the request (built here unless given) as an
        event, with the frame it was built over when it read a tainted value."""
        if self.muted:
            raise ClassBreak("a FUNCTION communicates")
        self.building, self.build_snap, self.build_exprs = True, None, []
        self.build_reads = None
        try:
            req = req if req is not None else build(p, a, frame)
        finally:
            self.building = False
        self.log.append((REQ, a, req, self.build_snap, len(p.decisions),
                         _partner_only(a, req, self.build_exprs), self.build_reads))
        if isinstance(req, (RecvReq, WaitReq)):
            _status_unknown(p, a, frame)
        return req

    def tainted_read(self) -> None:
        if not self.depth or self.muted:  # (muted: in a FUNCTION's body, maybe forced late)
            raise ClassBreak("a value that depends on the rank is read outside an evaluation")
        if not self.read:
            self.read = True
            self.snap = Snapshot(self.frame)

    def evaluate(self, kind: str, e: ast.Expr, extra, frame: Frame, work):
        if self.depth:
            return work()
        self.depth, self.read, self.frame, self.snap = 1, False, frame, None
        self.reads = [] if kind == RAW else None
        try:
            out = work()
        except Exception as err:
            self.depth = 0
            self._checked(kind, e, extra, (ERR, type(err).__name__, _message(err)))
            raise
        finally:
            self.depth = 0
        self._checked(kind, e, extra, (OK, out))
        return out

    def _checked(self, kind: str, e: ast.Expr, extra, outcome: tuple) -> None:
        reads, self.reads = self.reads, None
        if not self.read:
            return
        if self.building:
            self.build_snap = self.build_snap or self.snap
            self.build_exprs.append(e)
            self.build_reads = self._reads(reads, e)
            return
        if self.muted or _references(e, self.functions):
            raise ClassBreak("a value that depends on the rank goes through a FUNCTION")
        self.log.append((CHECK, kind, e, extra, self.snap, _key(outcome), self._reads(reads, e)))

    def _reads(self, reads: list | None, e) -> tuple | None:
        """What the evaluation of ``e`` read from its resolver, by key, and the store of each
        tainted key (a member evaluates it again over these, its own values for the tainted).
        One tuple for the same expression and table reading the same (every iteration's):
        a member's memo finds its value by the tuple's id (_fast_value)."""
        if reads is None:
            return None
        table = self.frame.table
        out, typed = [], [id(e), id(table)]
        for key, value in reads:
            store, found = self.frame.locate(key)
            sid = store.sid if found in store.tainted else None
            out.append((key, value, sid))
            typed.append((key, type(value), value, sid))
        try:  # (it holds the expression and the table: their ids stay theirs)
            return self.interned.setdefault(tuple(typed), (tuple(out), e, table))[0]
        except TypeError:  # a value that cannot be hashed: a tuple of this evaluation's own
            return tuple(out)

    def statement(self, s: ast.Stmt, frame: Frame, work) -> None:
        if self.depth:
            work()
            return
        self.depth, self.read, self.frame, self.snap = 1, False, frame, None
        self.stmt, self.written, self.reads = True, [], []
        try:
            work()
        finally:
            self.depth, self.stmt = 0, False
            reads, self.reads = self.reads, None
        if not self.read:
            return
        if (self.loops_seen or self.muted or not isinstance(s, ast.Assign)
                or not isinstance(s.target, ast.Var) or _references(s.value, self.functions)):
            raise ClassBreak("a value that depends on the rank is assigned where the classes "
                             "cannot follow it")
        self.log.append((ASSIGN, s, self.snap, tuple(self.written), self._reads(reads, s.value)))


def _partner_only(a, req, exprs: list) -> ast.Expr | None:
    """The partner's expression when it is all of a point-to-point request that depends on
    the rank (a member's request is then the shadow's with its own partner)."""
    if not exprs or not isinstance(req, (SendReq, RecvReq)) or getattr(req, "broadcast", False):
        return None
    partner = a.arg("dest") if isinstance(req, SendReq) else a.arg("source")
    if partner is None or any(e is not partner for e in exprs):
        return None
    return partner


def _status_unknown(p: Process, a, frame: Frame) -> None:
    """The elements a receive's reply writes to its STATUS (requests._record_status): the
    shadow's replies bring none, so reading them stops the classes."""
    status = a.arg("status")
    if not isinstance(status, ast.Var) or p.library != "mpi":
        return
    consts = mpi_constants()
    for field in ("MPI_SOURCE", "MPI_TAG"):
        store, key = frame.locate(element_key(status.name, [sp.Integer(consts[field])]))
        if key in store.tainted:
            store.tainted.discard(key)
            store.rec.log.append((UNTAINT, store.sid, key))
        store.unknown.add(key)


def _message(err: Exception) -> str:
    return getattr(err, "message", None) or str(err)


def _key(outcome: tuple) -> tuple:
    """An outcome as compared between members (a symbolic value by its structure)."""
    if outcome[0] == OK and isinstance(outcome[1], sp.Basic):
        return (OK, sp.srepr(outcome[1]))
    return outcome


def _references(e: ast.Expr | None, functions: frozenset[str]) -> bool:
    if e is None or not functions:
        return False
    if isinstance(e, ast.Ref):
        return e.name in functions or any(_references(a, functions) for a in e.args)
    if isinstance(e, ast.BinOp):
        return _references(e.left, functions) or _references(e.right, functions)
    if isinstance(e, ast.UnOp):
        return _references(e.operand, functions)
    return False


class ShadowProcess(Process):
    """The process a shadow interprets: Ω as for any process, its values watched."""

    def __init__(self, rec: Recorder, *args, **kwargs) -> None:
        self.recorder = rec
        super().__init__(*args, **kwargs)

    def new_store(self) -> Store:
        return self.recorder.store()

    def advance(self, category: str, seconds) -> None:
        seconds = as_time(seconds)
        super().advance(category, seconds)
        self.recorder.event(ADV, category, seconds)

    def record(self, a, tau, delta, count=1) -> None:
        super().record(a, tau, delta, count)
        rec = self.recorder
        if rec.muted:
            return
        log = rec.log  # an AAU that only advanced the clock: one event (its events since
        i = len(log) - 1  # the last request or loop head are not replayed yet)
        while i >= 0 and log[i][0] == ADV:
            i -= 1
        if i >= 0 and log[i][0] == ENTER:
            advs = tuple((ev[1], ev[2]) for ev in log[i + 1:])
            del log[i:]
            log.append((STEP, a, count, advs))
        else:
            log.append((LEAVE, a, count))

    def record_closed_form(self, out: dict, times=1) -> None:
        super().record_closed_form(out, times)
        self.recorder.event(CLOSED, dict(out), times)

    def assume(self, relation, a) -> None:
        super().assume(relation, a)
        self.recorder.event(ASSUME, a.id, relation)

    def _resolver(self, frame: Frame):
        resolve = super()._resolver(frame)
        reads = self.recorder.reads
        if reads is None:
            return resolve

        def recording(key: str):
            value = resolve(key)
            reads.append((key, value))
            return value
        recording.function = resolve.function
        return recording

    def library_values(self) -> dict:
        values = super().library_values()
        return _Guarded(values)

    def raw_value(self, e, frame, what):
        return self.recorder.evaluate(RAW, e, what, frame,
                                      lambda: Process.raw_value(self, e, frame, what))

    def closed_value(self, e, frame, binding):
        return self.recorder.evaluate(CLOSED_VALUE, e, binding, frame,
                                      lambda: Process.closed_value(self, e, frame, binding))

    def exec_stmt(self, s, frame) -> None:
        self.recorder.statement(s, frame, lambda: Process.exec_stmt(self, s, frame))

    def _library_call(self, s: ast.CallStmt, frame: Frame) -> None:
        super()._library_call(s, frame)
        call = lookup(s.name)
        outs = [a.name for i, a in enumerate(s.args) if isinstance(a, ast.Var) and call
                and i < len(call.args) and call.args[i] == "out_node_id"]
        if not outs:
            return
        rec = self.recorder
        if rec.loops_seen or rec.muted:
            raise ClassBreak("the rank is asked for inside a loop")
        keys = []
        for name in outs:  # the rank: tainted from here on
            store = frame._store(name)
            store.tainted.add(name)
            keys.append((store.sid, name))
        rec.log.append((ASSIGN, s, Snapshot(frame), tuple(keys), None))


class _Guarded(dict):
    """NX/2's node queries: their answers depend on the node, and are not tracked here."""

    def __contains__(self, key) -> bool:
        if key in NODE_QUERIES and dict.__contains__(self, key):
            raise ClassBreak(f"{key}() is not followed by the classes")
        return dict.__contains__(self, key)


# ---- a shadow: one interpretation, its events produced on demand ---------------------------


class Shadow:
    def __init__(self, classes: "Classes", pid: int, jumps: dict[int, object]) -> None:
        self.classes = classes
        self.rec = Recorder(classes.functions)
        self.proc = classes.make(self.rec, pid)
        self.gen = run_chain(self.proc)
        self.jumps = jumps  # LOOP event index → the jump its members were given
        self.reply: Reply | None = None
        self.waiting: int | None = None  # the LOOP event whose jump is not known yet
        self.done = False
        self.children: dict[tuple, Shadow] = {}
        self.collectives = 0  # collective requests made so far (a broadcast's is matched by it)

    def event(self, k: int) -> tuple:
        """Event ``k``, interpreting on as far as needed."""
        log = self.rec.log
        while len(log) <= k:
            if self.done:
                raise ClassBreak("a member goes on after its shadow ended")
            if self.waiting is not None:
                if self.waiting not in self.jumps:
                    raise ClassBreak("a loop head's jump is not known")
                reply = Reply(end=self.proc.clock, jump=self.jumps[self.waiting])
                self.waiting = None
            else:
                reply, self.reply = self.reply, None
            try:
                req = self.gen.send(reply)
            except StopIteration:
                self.done = True
                log.append((END,))
                continue
            if isinstance(req, LoopHead):
                self.rec.loops_seen = True
                log.append((LOOP, req.aau, req.iteration, req.count, len(self.proc.decisions)))
                self.waiting = len(log) - 1
            else:
                self.reply = Reply(end=self.proc.clock, payload=self._guard(req))
        return log[k]

    def _guard(self, req) -> dict | None:
        """What a reply brings must not be read by a decision: the shadow's replies bring
        nothing, but for a broadcast over MPI_COMM_WORLD, whose values are the root's for
        every member (the root's own buffer is left as it was): given from the root's shadow
        (returned, as the reply's payload), or a break where that shadow cannot say."""
        p = self.proc
        if isinstance(req, (SpawnReq, AbortReq)) or p.null_handles:
            raise ClassBreak("spawn, abort or MPI_PROC_NULL handles")
        if isinstance(req, CollReq):
            if req.newcomm or req.split is not None:
                raise ClassBreak("a new communicator")
            self.collectives += 1
        names = []
        if isinstance(req, (RecvReq, CollReq)):
            names.append(req.buf)
        elif isinstance(req, WaitReq):
            names.append(p.handles.get(f"buf:{req.handle}"))
        if not any(n is not None and n in p.needed for n in names):
            return None
        if isinstance(req, CollReq) and req.kind == "bcast" and _in_world(req):
            if req.root == p.pid:
                return None
            return self.classes.broadcast(req.root, self.collectives)
        raise ClassBreak("a decision reads what a message brings")

    def collective(self, n: int) -> CollReq | None:
        """This shadow's ``n``-th collective request (interpreting on as far as needed), or
        None when it ends before. (A break on the way is the interpretation's: it is not
        caught, since the shadow could not go on for its own members either.)"""
        k = 0
        while True:
            ev = self.event(k)
            if ev[0] == END:
                return None
            if ev[0] == REQ and isinstance(ev[2], CollReq):
                n -= 1
                if n == 0:
                    return ev[2]
            k += 1


def _in_world(req: CollReq) -> bool:
    return req.comm is None or req.comm.handle == WORLD


class Classes:
    """The shadows of one interpretation, from the first (rank 0's) down by splits."""

    def __init__(self, make, functions: frozenset[str]) -> None:
        self.make = make  # (recorder, pid) → ShadowProcess
        self.functions = functions
        self.root: Shadow | None = None
        self.shadows = 0

    def first(self, pid: int) -> Shadow:
        if self.root is None:
            self.root = self._new(pid, {})
        return self.root

    def _new(self, pid: int, jumps: dict) -> Shadow:
        self.shadows += 1
        return Shadow(self, pid, jumps)

    def broadcast(self, root: int, n: int) -> dict:
        """What the ``n``-th collective, a broadcast from ``root``, brings: the payload of the
        root's own request, read off the first shadow when it is the root's (collectives
        are matched in the order they are called)."""
        first = self.root
        req = first.collective(n) if first is not None and first.proc.pid == root else None
        if req is None or req.kind != "bcast" or req.root != root or not _in_world(req):
            raise ClassBreak("a decision reads what a broadcast brings from a root the "
                             "classes do not follow")
        return dict(req.payload)

    def split(self, shadow: Shadow, k: int, key: tuple, pid: int) -> Shadow:
        """The shadow a member that differs from ``shadow`` at event ``k`` goes on with."""
        child = shadow.children.get((k, key))
        if child is None:
            jumps = {i: j for i, j in shadow.jumps.items() if i < k}
            if key[0] == "jump":
                jumps[k] = key[1]
            child = self._new(pid, jumps)
            child.event(k)
            ours, theirs = child.rec.log, shadow.rec.log
            if any(ours[i][0] != theirs[i][0] for i in range(k + 1)):
                raise ClassBreak("a split shadow does not retrace its parent")
            shadow.children[(k, key)] = child
        return child

    def chain(self, p: Process) -> Generator:
        return replay(p, self)


class DecisionView:
    """A member's decision log (steady.py compares it iteration by iteration): its shadow's,
    as far as the member is. Its tainted entries are the shadow's values; no tainted value
    changes once the loops began (Recorder.statement), so they repeat as the member's do."""

    def __init__(self, shadow: Shadow) -> None:
        self.shadow, self.n = shadow, 0

    def __len__(self) -> int:
        return self.n

    def __getitem__(self, item: slice) -> list:
        return self.shadow.proc.decisions[slice(*item.indices(self.n))]


# ---- a member: the shadow's events, with its own clock, partners and sizes -----------------


def _lazy(name: str, make) -> property:
    """A slot of Process a member fills when first asked for (``make(member)``): most ranks
    never use it, and an empty set or dict is 64–216 bytes a rank."""
    slot = Process.__dict__[name]

    def get(self):
        try:
            return slot.__get__(self, Member)
        except AttributeError:
            value = make(self)
            slot.__set__(self, value)
            return value
    return property(get, slot.__set__)


class Member(Process):
    """A rank that replays a shadow (``replay``): the scheduler's process, without what only
    a rank's own interpretation of the program uses (its decision log: the shadow's). Made
    with its clock, state and statistics; what a member rarely uses (its COMMON store, input
    files, FUNCTIONs' memo, communicators, MPI_PROC_NULL handles, notes and assumptions) is
    made when first asked for (~1 KB a rank)."""

    __slots__ = ()

    common = _lazy("common", lambda p: Store())
    files = _lazy("files", lambda p: Files(p.aag.input_files, p.note))
    function_memo = _lazy("function_memo", lambda p: {})
    comms = _lazy("comms", lambda p: {c.handle: c for c in (
        world(p.nprocs), Communicator(SELF, (p.pid,)))})
    null_handles = _lazy("null_handles", lambda p: set())
    datatypes = _lazy("datatypes", lambda p: {})
    committed = _lazy("committed", lambda p: set())
    evaluating = _lazy("evaluating", lambda p: set())
    arm_counts = _lazy("arm_counts", lambda p: {})
    saved = _lazy("saved", lambda p: {})
    assumptions = _lazy("assumptions", lambda p: {})
    notes = _lazy("notes", lambda p: [])

    def communicator(self, handle: int):
        """MPI_COMM_WORLD without making the member's table of communicators (a member makes
        none: Shadow._guard): world(P), as in the table (not the exact mode)."""
        return world(self.nprocs) if handle == WORLD else self.comms.get(handle)

    def __init__(self, pid: int, label: str, program, aag, cm, nprocs: int, start,
                 inputs, library: str) -> None:
        # Process.__init__'s fields (exact=False: classes are off in the exact mode), the
        # lazy ones above left unset
        self.pid, self.label, self.program, self.aag, self.cm = pid, label, program, aag, cm
        self.nprocs, self.start, self.clock, self.inputs = nprocs, start, start, inputs
        self.library = library
        self.cats = {c: 0.0 for c in CATEGORIES}
        self.stats = {}
        self.handles = {}
        self.decisions = ()  # (replay: its shadow's, a DecisionView)
        self.state, self.request, self.finish = "ready", None, None
        self.last_recv_end = self.spawn_end = self._library_values = None
        self.counted_by_user = False
        self.trace = self.timeline = self.current_aau = None
        self.critical_names = critical_names(aag)
        self.needed = needed_names(aag)
        self.kept = kept_statements(aag)
        self.functions = self.budget = self.gen = None
        self.steps = 0
        self.max_steps = MAX_STEPS.get()


def replay(p: Process, classes: Classes) -> Generator:
    shadow = classes.first(p.pid)
    log = shadow.rec.log
    view = p.decisions = DecisionView(shadow)
    env: dict[int, dict] = {}  # the member's tainted values, by store and key
    entered: list = []
    # _fast_value's, the member's own: its values repeat by iteration, not by rank (one memo
    # for all members held P times the values of one and missed every time past 100,000)
    memo: dict = {}
    k = 0
    while True:  # (the events by how often they come; a member's clock advanced in place:
        # Process.advance's, with the shadow's seconds already as_time's, no timeline with
        # the classes)
        ev = log[k] if k < len(log) else shadow.event(k)
        code = ev[0]
        if code == ADV:
            seconds = ev[2]
            p.cats[ev[1]] += seconds
            p.clock += seconds
        elif code == ENTER:
            entered.append(p.clock)
        elif code == LEAVE:
            tau = entered.pop()
            p.record(ev[1], tau, p.clock - tau, ev[2])
            p.steps += 1
        elif code == REQ:
            req = _request(p, ev, env, memo)
            if (req is None) != (ev[2] is None):
                shadow = view.shadow = classes.split(shadow, k, ("null", req is None), p.pid)
                log = shadow.rec.log
                continue
            if req is not None:
                view.n = ev[4]
                if tree_broadcast(p, req):  # the member's own part of the tree
                    yield from tree_part(p, req, lambda r: _performed(p, r))
                else:
                    _before(p, req)
                    _after(p, req, (yield req))
        elif code == STEP:
            tau = p.clock
            cats = p.cats
            for category, seconds in ev[3]:
                cats[category] += seconds
                p.clock += seconds
            p.record(ev[1], tau, p.clock - tau, ev[2])
            p.steps += 1
        elif code == CHECK:  # (_fast_value's memo first: a decision's value by iteration)
            hit = memo.get(id(ev[6])) if ev[6] is not None else None
            got = _check(p, ev, env, memo) if hit is None or isinstance(hit, sp.Basic) \
                else (OK, hit)
            if got != ev[5]:
                shadow = view.shadow = classes.split(shadow, k, ("check", got), p.pid)
                log = shadow.rec.log
                continue
        elif code == LOOP:
            view.n = ev[4]
            reply = yield LoopHead(ev[1], p, ev[2], ev[3])
            jump = reply.jump if reply is not None else None
            if k not in shadow.jumps:
                shadow.jumps[k] = jump
            elif not _same_jump(shadow.jumps[k], jump):
                shadow = view.shadow = classes.split(shadow, k, ("jump", jump), p.pid)
                log = shadow.rec.log
        elif code == ASSIGN:
            _assign(p, ev, env)
            memo.clear()  # (its values by the shadow's reads: the member's own changed)
        elif code == UNTAINT:
            env.get(ev[1], {}).pop(ev[2], None)
            memo.clear()
        elif code == CLOSED:
            p.record_closed_form(ev[1], ev[2])
        elif code == ASSUME:
            p.assumptions[ev[1]] = ev[2]
        else:  # END
            view.n = len(shadow.proc.decisions)
            p.notes = list(shadow.proc.notes)
            return None
        k += 1


def _same_jump(a, b) -> bool:
    return a is b or (a is not None and b is not None and a == b)


MEMO_LIMIT = 64  # values kept in a member's memo (values that differ every time: no use)


def _fast_value(reads: tuple, e: ast.Expr, table, env: dict, memo: dict):
    """The value of ``e`` for a member as a Python number: the shadow's resolver's answers,
    the member's own for the tainted keys; None when a value is not a plain number (the
    evaluation is then done in full, over the snapshot). ``memo``: the member's values already
    worked out, by the id of the shadow's reads (one tuple for the same expression, table and
    reads, Recorder._reads; the shadow's log holds it). The member's own values are the same
    until its memo is cleared (replay: at every change of them)."""
    hit = memo.get(id(reads))
    if hit is not None:
        return hit
    values = _member_reads(reads, env)
    if values is None:
        return None
    value = numeric_value(e, table, values.get)
    if len(memo) >= MEMO_LIMIT:
        memo.clear()
    memo[id(reads)] = value
    return value


PLAIN = (int, float, sp.Integer, sp.Float)


def _member_reads(reads: tuple, env: dict) -> dict | None:
    """The shadow's reads with the member's own values for its tainted keys; None when one of
    those is not a plain number."""
    values = {}
    for key, value, sid in reads:
        if sid is not None:
            value = env.get(sid, {}).get(key)
            if not isinstance(value, PLAIN):
                return None
        values[key] = value
    return values


def _check(p: Process, ev: tuple, env: dict, memo: dict) -> tuple:
    _, kind, e, extra, snap, _, reads = ev
    if reads is not None:
        fast = _fast_value(reads, e, snap.table, env, memo)
        if fast is not None:
            return _key((OK, fast))
    frame = snap.frame(env)
    memo.clear()  # (an evaluation over the member's values may write them)
    try:
        out = p.raw_value(e, frame, extra) if kind == RAW else p.closed_value(e, frame, extra)
    except ClassBreak:
        raise
    except Exception as err:
        return (ERR, type(err).__name__, _message(err))
    return _key((OK, out))


def _assign(p: Process, ev: tuple, env: dict) -> None:
    _, s, snap, keys, reads = ev
    if reads is not None and _fast_assign(p, s, snap.table, keys, reads, env):
        return
    frame = snap.frame(env, scratch=True)
    p.exec_stmt(s, frame)
    stores = {snap.local_id: frame.local, snap.common_id: frame.common}
    for sid, key in keys:
        if sid not in stores or key not in stores[sid].over:
            raise ClassBreak("a member's assignment lands elsewhere")
        env.setdefault(sid, {})[key] = stores[sid].over[key]


def _fast_assign(p: Process, s, table, keys: tuple, reads: tuple, env: dict) -> bool:
    """``X = e`` for a member as Process.exec_stmt assigns it when ``e``'s value is a plain
    number (the shadow's reads, the member's own for the tainted keys; no FUNCTION in ``e``:
    Recorder.statement), converted to X's type; False when it is not (exec_stmt then)."""
    name = s.target.name
    if type(s) is not ast.Assign or p.budget is not None or not p._needed(s) or \
            len(keys) != 1 or keys[0][1] != name:
        return False
    values = _member_reads(reads, env)
    if values is None:
        return False
    try:
        value = numeric_value(s.value, table, values.get)
    except Exception:  # (exec_stmt says why: an Unknown)
        return False
    if value is None:
        return False
    sid = keys[0][0]
    env.setdefault(sid, {})[name] = assigned_value(value, table.lookup(name, s.target.loc).type)
    return True


def _request(p: Process, ev: tuple, env: dict, memo: dict):
    """The member's request at a REQ event: the shadow's with the member as its process,
    or built again from the member's values when the shadow's read a tainted value."""
    _, a, req, snap, _, partner, reads = ev
    if partner is not None:
        value = _fast_value(reads, partner, snap.table, env, memo)
        if type(value) is not int:
            memo.clear()  # (an evaluation over the member's values may write them)
            value = p.concrete(partner, snap.frame(env), "a partner")
        new = _with_partner(p, a, req, value)
        if new is not None:
            return new
    if snap is not None:
        memo.clear()
        out = build_request(p, a, snap.frame(env))
        if p.null_handles:
            raise ClassBreak("MPI_PROC_NULL handles")
        return out
    if req is None:
        return None
    if isinstance(req, WaitReq):
        return wait_request(p, req.aau, req.handle)
    if isinstance(req, SendReq) and req.broadcast:
        raise ClassBreak("a broadcast's destinations depend on the sender")
    new = _for_member(p, req)
    if isinstance(req, SendReq):
        new.dests = list(req.dests)
    if isinstance(req, CollReq):
        new.payload = dict(req.payload)
    return new


def _with_partner(p: Process, a, req, partner: int):
    """The shadow's point-to-point request with the member's partner; None when the partner
    is not a plain rank (MPI_PROC_NULL, any source, out of range): built in full then."""
    shadows = req.dests[0] if isinstance(req, SendReq) else req.source
    if partner < 0 or shadows is None or shadows < 0 or partner >= p.nprocs:
        return None
    if req.comm is not None:
        comm = p.communicator(req.comm)
        if comm is None or partner >= comm.size:
            return None
        partner = comm.pid(partner, "a partner", a.loc)
    new = _for_member(p, req)
    if isinstance(req, SendReq):
        new.dests = [partner]
    else:
        new.source = partner
    return new


def _for_member(p: Process, req):
    """The shadow's request as the member's: a copy with the member as its process and, for a
    send on a communicator, the member's rank in it."""
    new = object.__new__(type(req))
    new.__dict__.update(req.__dict__)
    new.process = p
    if isinstance(req, SendReq) and req.comm is not None:
        new.rank = p.communicator(req.comm).rank(p.pid)
    return new


def _before(p: Process, req) -> None:
    """requests.exchange for a member, before its request is served."""
    if isinstance(req, RecvReq) and not req.synchronous and req.handle:
        p.handles[f"buf:{req.handle}"] = req.buf


def _performed(p: Process, req) -> Generator:
    """A member's request to the scheduler and its reply's effects (requests.exchange's
    part for a member)."""
    reply = yield req
    _after(p, req, reply)
    return reply


def _after(p: Process, req, reply: Reply) -> None:
    """requests.exchange for a member: its reply's effects on the process (its values are
    the shadow's: what a reply brings is read by no decision, Shadow._guard)."""
    cats = p.cats
    for cat, seconds in reply.parts.items():
        cats[cat] += seconds
    p.clock = reply.end
    if reply.newcomm is not None:
        raise ClassBreak("a new communicator")
    if reply.payload is not None and isinstance(req, WaitReq):
        p.handles.pop(f"buf:{req.handle}", None)
    if isinstance(req, RecvReq) or (isinstance(req, WaitReq) and reply.payload is not None):
        p.last_recv_end = p.clock
