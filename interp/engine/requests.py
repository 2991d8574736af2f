"""What a communication AAU asks of the scheduler, and what the answer does to the process.

The hand-off, in one place: a process interprets its chain as a generator. At a Comm, Sync,
SyncSeq or Spawn AAU (and at the head of each IterSync iteration) it builds a ``Request`` and
calls :func:`ask`, which yields the request to the scheduler; ``Scheduler.serve`` (a table
keyed by request type) answers with a :class:`Reply` — at once, or later when the partner
arrives — carrying the AAU's completion time and how its δ splits (call, transmission,
waiting). :func:`exchange` applies the reply to the process.
"""

from __future__ import annotations

import functools
import math

from dataclasses import dataclass, field
from typing import Generator

import sympy as sp

from interp.application import aau as A
from interp.application import ast
from interp.application.catalog import lookup, mpi_constants, mpi_datatype_bytes
from interp.application.expr import as_sympy, element_key
from interp.engine.comms import NULL, Communicator
from interp.engine.costs import compute_seconds
from interp.engine.indextests import mark_tag
from interp.engine.timeval import as_time, is_earlier, later
from interp.engine.values import Frame
from interp.errors import InterpError
from interp.system import collective_rounds
from interp.system.filter import channel, self_sendrecv

from interp.engine.process import Process, TraceSpan


@dataclass
class Request:
    aau: A.AAU
    process: Process


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
    comm: int | None = None  # MPI communicator handle (None: NX/2)
    rank: int | None = None  # the sender's rank in that communicator
    rendezvous: bool = False  # above the eager threshold: waits for the matching receive
    heard: object = None  # a tree broadcast's: the latest entry of the members its data left


@dataclass
class RecvReq(Request):
    source: int | None  # None: any source
    tag: int | None  # None: any type/tag
    capacity: sp.Expr
    buf: str | None
    synchronous: bool
    handle: str | None = None
    datatype: int | None = None  # MPI datatype handle (None: NX/2 bytes)
    comm: int | None = None  # MPI communicator handle (None: NX/2)
    posted: sp.Expr = 0.0  # when the receive was posted (a rendezvous send waits for it)
    room: int | None = None  # bytes its buffer array holds from the element named (if known)
    peek: bool = False  # MPI_PROBE: the message is matched and its status given, not taken


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
    comm: Communicator | None = None  # MPI: the communicator it runs over (None: every node)
    sizes: list[sp.Expr] | None = None  # MPI_ALLTOALLV: bytes to each rank of the communicator
    split: tuple[int, int] | None = None  # MPI_COMM_SPLIT: this rank's (color, key)
    cart: tuple[tuple[int, ...], tuple[bool, ...]] | None = None  # MPI_CART_CREATE's grid
    newcomm: str | None = None  # MPI_COMM_SPLIT/DUP: the variable that gets the new handle


@dataclass
class AbortReq(Request):
    """MPI_ABORT: every process of the job ends here."""


@dataclass
class SpawnReq(Request):
    program: str | None
    dests: list[int]


@dataclass
class LoopHead(Request):
    iteration: sp.Expr
    count: sp.Expr


@dataclass(slots=True)  # one per request served: no instance dict
class Reply:
    """The scheduler's answer: when the AAU completes and how its δ splits."""

    end: sp.Expr
    parts: dict[str, sp.Expr] = field(default_factory=dict)
    payload: dict | None = None
    jump: sp.Expr | None = None  # LoopHead: skip this many iterations (steady-state extension)
    period: int = 1  # LoopHead: the jump is whole periods of this many iterations
    status: tuple[int, int, sp.Expr] | None = None  # a received message's (source, tag, bytes)
    newcomm: Communicator | None = None  # the communicator MPI_COMM_SPLIT/DUP made for it
    # for lost-cycles analysis (numbers only; Process.timeline): when the process idled, its
    # partner not yet there; the seconds it waited in a collective for members not yet there;
    # the seconds its messages arrived late because they shared links
    idle: tuple[sp.Expr, sp.Expr] | None = None
    sync: sp.Expr = 0.0
    contention: sp.Expr = 0.0


def ask(req: Request) -> Generator:
    """Hand ``req`` to the scheduler (``Scheduler.serve``) and return its :class:`Reply`."""
    reply = yield req
    return reply


# ---- Ω of a communication AAU: its requests, in order ----------------------------------------


def communicate(p: Process, a: A.AAU, frame: Frame) -> Generator:
    p.advance("computation", compute_seconds(a.arg_ops, p.cm))
    op = a.call.op if isinstance(a, A.LibraryAAU) and a.call else None
    if op == "sendrecv":  # MPI_SENDRECV: its (eager) send, then its receive
        send, recv = _Part(a, "MPI_SEND", SENDRECV_SEND), _Part(a, "MPI_RECV", SENDRECV_RECV)
        if self_sendrecv(p.cm.sag) == "copy" and p.recorder is None and \
                _copied_to_self(p, send, recv, frame):
            return None
        yield from exchange(p, send, frame)
        yield from exchange(p, recv, frame)
    elif op == "bcast" and channel(p.cm.sag) == "fair":  # as SimGrid: the tree's messages
        yield from _broadcast(p, a, frame)
    elif op == "test":
        yield from _test(p, a, frame)
    elif op == "waitall":  # MPI_WAITALL: each request of the array, in order
        n = p.concrete(a.arg("count"), frame, f"the count of MPI_WAITALL at line {a.loc.line}")
        name = _name(a.arg("request"))
        keys = _request_elements(p, frame, a.arg("request"), n, a.loc)
        for i in range(1, n + 1):
            handle = name + keys[i - 1] if keys else element_key(name, [sp.Integer(i)])
            req = wait_request(p, a, handle)
            if req is not None:  # a request of MPI_PROC_NULL's is complete already
                yield from exchange(p, a, frame, req)
    else:
        yield from exchange(p, a, frame)
    return None


def _copied_to_self(p: Process, send: _Part, recv: _Part, frame: Frame) -> bool:
    """An MPI_SENDRECV whose destination and source are both the calling rank, under
    ``cs.spec.self_sendrecv: copy``: the send buffer is copied into the receive buffer, no
    message and no time (SMPI's Request::sendrecv). False for any other sendrecv."""
    sent, taken = build_request(p, send, frame), build_request(p, recv, frame)
    if not (isinstance(sent, SendReq) and isinstance(taken, RecvReq)) or \
            sent.dests != [p.pid] or taken.source != p.pid:
        return False
    if taken.buf:
        at = _sequence(p, frame, recv.arg("recvbuf") or recv.arg("buf"),
                       recv.arg("recvcount") or recv.arg("count"))
        frame.receive(taken.buf, sent.payload, f"it is received at line {recv.loc.line}, and "
                                              "the values sent are not followed", at)
    _record_status(p, recv, frame, p.pid if sent.rank is None else sent.rank, int(sent.tag),
                   sent.size)
    return True


COLLECTIVE_CONTEXT = -1_000_000  # minus the communicator's handle: its collectives' messages
BCAST_TAG = -3  # (SMPI's COLL_TAG_BCAST)


def _broadcast(p: Process, a: A.AAU, frame: Frame) -> Generator:
    """MPI_BCAST under ``cs.spec.channel: fair``, as SMPI runs it: the binomial tree's
    point-to-point messages (:func:`tree_part`). Each message leaves when its sender
    gets there and shares links, both ways, with every other message of the time; priced as
    one batch when the last member entered, a broadcast's messages could not slow the
    point-to-point messages received before that, nor be slowed by those sent after. A
    relay forwards what it received. A class's shadow records the call as it is, and each
    member sends its own part of the tree (classes.py)."""
    req = build_request(p, a, frame)
    if p.recorder is not None:
        yield from exchange(p, a, frame, req)
        return

    def forward(sends: list[SendReq]) -> None:  # a relay sends on what it received
        payload = _payload(p, a.arg("buf"), frame, a.arg("count"))
        for send in sends:
            send.payload = payload
    yield from tree_part(p, req, lambda r: exchange(p, a, frame, r), forward)


def tree_part(p: Process, req: CollReq, perform, received=None) -> Generator:
    """``p``'s part of MPI_BCAST ``req`` as its tree's messages (:func:`_broadcast_messages`),
    each request run by ``perform`` (a generator that returns its reply): the receive from
    its parent, ``received(sends)`` once that came, then its sends, each carrying the latest
    entry of the members whose data reached it (its own, or its parent message's: the
    receive's ``sync`` runs until then)."""
    recv, sends = _broadcast_messages(p, req)
    heard = p.clock  # (its entry)
    if recv is not None:
        tau = p.clock
        reply = yield from perform(recv)
        heard = later(heard, tau + reply.sync)
        if received is not None:
            received(sends)
    for send in sends:
        send.heard = heard
        yield from perform(send)


def tree_broadcast(p: Process, req: Request) -> bool:
    """Whether ``req`` is an MPI_BCAST sent as its tree's messages (``channel: fair``)."""
    return isinstance(req, CollReq) and req.kind == "bcast" and channel(p.cm.sag) == "fair"


def _broadcast_messages(p: Process, req: CollReq) -> tuple[RecvReq | None, list[SendReq]]:
    """``p``'s part of MPI_BCAST ``req`` as SMPI's binomial tree (``interp.system.
    collective_rounds``): the receive from its parent (none at the root), then its sends to its
    children in the rounds' order, in a context of the communicator's own so that no receive
    of the program takes them."""
    members = req.comm.members if req.comm is not None else tuple(range(p.nprocs))
    me = members.index(p.pid)
    rounds = collective_rounds("bcast", len(members), req.root or 0)
    context = COLLECTIVE_CONTEXT - (req.comm.handle if req.comm is not None else 0)
    parent = next((src for rnd in rounds for src, dst in rnd if dst == me), None)
    recv = None if parent is None else RecvReq(req.aau, p, members[parent], BCAST_TAG,
                                               req.size, req.buf, True, comm=context)
    sends = [SendReq(req.aau, p, [members[dst]], sp.Integer(BCAST_TAG), req.size,
                     dict(req.payload), True, comm=context, rank=me)
             for rnd in rounds for src, dst in rnd if src == me]
    return recv, sends


def exchange(p: Process, a: A.AAU, frame: Frame, req: Request | None = None) -> Generator:
    """One request to the scheduler and what its reply does to the process."""
    if p.recorder is not None:  # a class's shadow (classes.py): the request is an event
        req = p.recorder.request(p, a, frame, req, build_request)
    else:
        req = req if req is not None else build_request(p, a, frame)
    if req is None:  # MPI_PROC_NULL: the call returns at once
        return None
    if isinstance(req, RecvReq) and not req.synchronous and req.handle:
        p.handles[f"buf:{req.handle}"] = req.buf  # filled when the wait completes
    tau = p.clock
    reply = yield from ask(req)
    if p.trace is not None and reply.parts.get("waiting"):
        start = tau if isinstance(req, (RecvReq, WaitReq, CollReq)) else reply.end - reply.parts["waiting"]
        p.trace.append(TraceSpan(a.id, "waiting", start, start + reply.parts["waiting"]))
    for cat, seconds in reply.parts.items():
        p.cats[cat] += seconds
    if p.timeline is not None:
        p.timeline.exchange(a.id, tau, reply.end, reply.idle, reply.sync, reply.contention)
    p.clock = reply.end
    if reply.payload is not None and isinstance(req, (RecvReq, CollReq, WaitReq)):
        buf = req.buf if not isinstance(req, WaitReq) else p.handles.pop(f"buf:{req.handle}", None)
        if buf:
            at = None if isinstance(req, WaitReq) else _sequence(
                p, frame, a.arg("recvbuf") or a.arg("buf"), a.arg("recvcount") or a.arg("count"))
            frame.receive(buf, reply.payload, f"it is received at line {a.loc.line}, and "
                                              "the values sent are not followed", at)
    if reply.status is not None:
        _record_status(p, a, frame, *reply.status)
    if reply.newcomm is not None:  # MPI_COMM_SPLIT/DUP: the new communicator's handle
        p.comms[reply.newcomm.handle] = reply.newcomm
        frame.set(req.newcomm, sp.Integer(reply.newcomm.handle))
    elif isinstance(req, CollReq) and req.newcomm:  # MPI_UNDEFINED color: MPI_COMM_NULL
        frame.set(req.newcomm, sp.Integer(NULL))
    if isinstance(req, RecvReq) and not req.peek or (isinstance(req, WaitReq)
                                                      and reply.payload is not None):
        p.last_recv_end = p.clock
    if isinstance(req, SpawnReq):
        p.spawn_end = p.clock
    return reply


def completion(p: Process, a: A.AAU, frame: Frame, handle: str) -> Generator:
    """When the request ``handle`` completes: the instant its message is there (MSGWAIT or
    MPI_WAIT would return then, less the receive overhead), learnt by waiting for it through
    the scheduler with the process's clock and categories put back; a poll (MSGDONE in a
    loop's test) compares its own clock with it. The buffer gets the message's values, as a
    wait gives them. A class's ranks are then interpreted one by one (their polls differ)."""
    if p.recorder is not None:
        p.recorder.refuse("a loop polls a message")
    req = wait_request(p, a, handle)
    if req is None:  # a null request: complete at once
        return p.clock
    saved = p.clock, dict(p.cats), p.trace, p.timeline, p.last_recv_end
    p.trace = p.timeline = None
    try:
        reply = yield from ask(req)
        if reply.payload is not None:
            buf = p.handles.pop(f"buf:{req.handle}", None)
            if buf:
                frame.receive(buf, reply.payload, f"it is received by the request {handle} "
                              f"polled at line {a.loc.line}, and the values sent are not followed")
    finally:
        p.clock, p.cats, p.trace, p.timeline, p.last_recv_end = saved
    return reply.end - reply.parts.get("call", 0.0)


def _test(p: Process, a: A.AAU, frame: Frame) -> Generator:
    """MPI_TEST: FLAG says whether the request's message is there at the call. The first
    test of a request learns when it will be (:func:`completion`), a later one compares its
    clock with that; the test that finds it completes the request, as MPI_WAIT would. A test
    at the same clock as the last one of the same request (a loop whose polls cost nothing:
    computation off) waits until then instead: polls without cost are countless."""
    handle = _handle(p, a, frame)
    key = f"tested:{handle}"
    if handle in p.null_handles:  # MPI_PROC_NULL's request: complete
        p.null_handles.discard(handle)
        done, last = p.clock, None
    elif key in p.handles:
        done, last = p.handles[key]
    else:
        done, last = (yield from completion(p, a, frame, handle)), None
    if last is not None and last == p.clock and is_earlier(p.clock, done):
        p.advance("waiting", done - p.clock)
        note = (f"MPI_TEST at line {a.loc.line} is called again at no cost (computation is "
                "off): the loop is taken to end when the message is there, its tests not counted")
        if note not in p.notes:
            p.notes.append(note)
    arrived = not is_earlier(p.clock, done)
    if arrived:
        p.handles.pop(key, None)
    else:
        p.handles[key] = (done, p.clock)
    flag = a.arg("flag")
    if isinstance(flag, (ast.Var, ast.Ref)):
        p.assign_argument(flag, sp.true if arrived else sp.false, frame,
                          f"the FLAG index at line {a.loc.line}")


def _record_status(p: Process, a: A.LibraryAAU, frame: Frame, source: int, tag: int, size) -> None:
    """What a receive tells the program about its message: NX/2's infonode(), infotype()
    and infocount(); MPI's STATUS(MPI_SOURCE) and STATUS(MPI_TAG)."""
    values = p.library_values()
    values.update(INFONODE=sp.Integer(source), INFOTYPE=sp.Integer(tag), INFOCOUNT=as_sympy(size))
    status = a.arg("status")
    if isinstance(status, ast.Var) and p.library == "mpi":
        consts = mpi_constants()
        frame.assign(status.name, [sp.Integer(consts["MPI_SOURCE"])], sp.Integer(source))
        frame.assign(status.name, [sp.Integer(consts["MPI_TAG"])], sp.Integer(tag))
        p.handles[f"count:{status.name}"] = as_sympy(size)  # bytes, for MPI_GET_COUNT


def build_request(p: Process, a: A.LibraryAAU, frame: Frame) -> Request | None:
    call = a.call
    line = a.loc.line
    buf = a.arg("buf")
    buf_name = buf.name if isinstance(buf, (ast.Var, ast.Ref)) else None
    comm = p.comm(a.arg("comm"), frame, f"the communicator of {call.name} at line {line}") \
        if a.arg("comm") is not None and call.op != "abort" else None
    if isinstance(a, A.Spawn):
        dest = p.concrete(a.arg("dest"), frame, f"the node of the load at line {line}") \
            if a.arg("dest") is not None else -1
        dests = list(range(p.nprocs)) if dest == -1 else [dest]
        return SpawnReq(a, p, a.program, dests)
    if call.op == "send":
        dest = p.concrete(a.arg("dest"), frame, f"the destination of the send at line {line}")
        if _is_null(p, dest, a, frame):
            return None
        tag = _tag(p, a, frame)
        if comm is not None:
            dest = comm.pid(dest, f"the destination of {call.name} at line {line}", a.loc)
        dests = [d for d in range(p.nprocs) if d != p.pid] if dest == -1 else [dest]
        if not dests:  # a broadcast on one node reaches no one: it returns at once
            if not call.sync:
                p.null_handles.add(_handle(p, a, frame))
            return None
        return SendReq(a, p, dests, tag, _size(p, a, frame), _payload(p, buf, frame, a.arg("count")),
                       call.sync, handle=_handle(p, a, frame), broadcast=dest == -1,
                       datatype=_datatype(p, a, frame),
                       comm=comm and comm.handle, rank=comm and comm.rank(p.pid))
    if call.op in ("recv", "probe"):
        source = None
        if a.arg("source") is not None:
            s = p.concrete(a.arg("source"), frame, f"the source of the receive at line {line}")
            if _is_null(p, s, a, frame):
                return None
            source = None if s < 0 else s  # MPI_ANY_SOURCE
            if comm is not None and source is not None:
                source = comm.pid(source, f"the source of {call.name} at line {line}", a.loc)
        tag = _tag(p, a, frame)
        if call.op == "probe":
            return RecvReq(a, p, source, None if int(tag) < 0 else int(tag), sp.Integer(0),
                           None, True, comm=comm and comm.handle, peek=True)
        return RecvReq(a, p, source, None if int(tag) < 0 else int(tag), _size(p, a, frame),
                       buf_name, call.sync, handle=_handle(p, a, frame),
                       datatype=_datatype(p, a, frame), comm=comm and comm.handle,
                       room=p.buffer_bytes(buf, frame))
    if call.op == "wait":
        return wait_request(p, a, _handle(p, a, frame))
    if call.op == "abort":
        return AbortReq(a, p)
    root = None
    if call.op == "global_op":
        n = p.value(a.arg("count"), frame, f"the count of the global operation at line {line}")
        size = n * call.elem_bytes
    else:
        size = _size(p, a, frame)
    if a.arg("root") is not None:
        root = p.concrete(a.arg("root"), frame, f"the root of the collective at line {line}")
        if comm is not None:  # a rank of the communicator (an error at the call otherwise)
            comm.pid(root, f"the root of {call.name} at line {line}", a.arg("root").loc)
    combine = 0.0
    if isinstance(a, A.SyncSeq):
        combine = as_time(_combined(p, a, frame, size) * p.cm.op("add_sub"))
    kind = call.name.lower() if call.library == "nx2" else call.op
    # the result lands in MPI's recvbuf; NX/2's global operations and MPI_BCAST work in place
    result = _name(a.arg("recvbuf")) or buf_name
    req = CollReq(a, p, kind, size, root, _payload(p, buf, frame, a.arg("count")), result, combine,
                  _reduce_op(p, a, frame), comm=comm, newcomm=_name(a.arg("newcomm")))
    if call.op == "alltoallv":
        req.sizes = _counts(p, a, frame, comm)
    if call.op == "cart_create":
        req.cart = _grid(p, a, frame, comm)
    if call.op == "comm_split":
        what = f"the {{}} of MPI_COMM_SPLIT at line {line}"
        req.split = (p.concrete(a.arg("color"), frame, what.format("color")),
                     p.concrete(a.arg("key"), frame, what.format("key")))
    return req


def _grid(p: Process, a: A.LibraryAAU, frame: Frame, comm: Communicator):
    """MPI_CART_CREATE's DIMS and PERIODS; a grid larger than its communicator is an error."""
    what = f"the {{}} of MPI_CART_CREATE at line {a.loc.line}"
    n = p.concrete(a.arg("ndims"), frame, what.format("NDIMS"))
    dims = tuple(p.array_elements(a.arg("dims"), n, frame, what.format("DIMS")))
    periods = tuple(p.array_elements(a.arg("periods"), n, frame, what.format("PERIODS"),
                                   logical=True))
    if any(d < 1 for d in dims) or math.prod(dims) > comm.size:
        raise InterpError(f"MPI_CART_CREATE: a grid of {' x '.join(map(str, dims))} ranks does "
                          f"not fit in a communicator of {comm.size}", a.arg("dims").loc,
                          hint="make the product of DIMS at most the number of processes "
                               "(MPI_DIMS_CREATE fills the zeros of DIMS so)")
    return dims, periods


MPI_OPS = {mpi_constants()[f"MPI_{op.upper()}"]: op for op in ("sum", "prod", "max", "min",
                                                                "land", "lor", "maxloc",
                                                                "minloc")}


def _reduce_op(p: Process, a: A.LibraryAAU, frame: Frame) -> str | None:
    """The operator of a reduction: NX/2's from the catalog, MPI's from its argument."""
    if a.arg("reduce_op") is None:
        return a.call.reduce
    code = p.concrete(a.arg("reduce_op"), frame, f"the operation of {a.call.name} at line "
                                                 f"{a.loc.line}")
    if code not in MPI_OPS:
        raise InterpError(f"{a.call.name}: operation {code} is not one interp knows", a.loc,
                          hint="use MPI_SUM, MPI_PROD, MPI_MAX, MPI_MIN, MPI_LAND, MPI_LOR, "
                               "MPI_MAXLOC or MPI_MINLOC")
    return MPI_OPS[code]


def _counts(p: Process, a: A.LibraryAAU, frame: Frame, comm: Communicator) -> list[sp.Expr]:
    """MPI_ALLTOALLV: the bytes this rank sends to each rank of ``comm`` (its SENDCOUNTS
    array, from the element the argument names on, times the datatype's size)."""
    e = a.arg("sendcounts")
    first = ast.Num(1, "INTEGER", a.loc) if isinstance(e, ast.Var) else \
        e.args[0] if isinstance(e, ast.Ref) and len(e.args) == 1 else None
    if first is None:
        raise InterpError("the SENDCOUNTS of MPI_ALLTOALLV must be a one-dimensional array",
                          a.loc, hint="pass the array (or its first element) of counts")
    elem = _type_of(p, a, frame)[1]
    k = p.concrete(first, frame, f"the SENDCOUNTS index of MPI_ALLTOALLV at line {a.loc.line}")
    out = []
    for r in range(comm.size):
        element = ast.Ref(e.name, [ast.Num(k + r, "INTEGER", a.loc)], a.loc)
        out.append(p.value(element, frame, f"the count that MPI_ALLTOALLV at line {a.loc.line} "
                                           f"sends to rank {r}") * elem)
    return out


COMPLEX_DATATYPES = ("MPI_COMPLEX", "MPI_DOUBLE_COMPLEX", "MPI_COMPLEX16")


def _combined(p: Process, a: A.LibraryAAU, frame: Frame, size) -> sp.Expr:
    """The adds that combine one received partial result of ``size`` bytes: one an element
    (NX/2's element size, the MPI datatype's: 4-byte MPI_INTEGER and MPI_REAL as 8-byte
    MPI_DOUBLE_PRECISION), two a complex element (its real and imaginary parts)."""
    if a.call.elem_bytes is not None:
        return size / a.call.elem_bytes
    code = _datatype(p, a, frame)
    nbytes = mpi_datatype_bytes().get(code)
    if nbytes is None:  # no datatype named (or a derived one's unknown element): 8 bytes an add
        return size / 8
    codes = mpi_constants()
    return size / nbytes * (2 if code in (codes.get(n) for n in COMPLEX_DATATYPES) else 1)


def _datatype(p: Process, a: A.LibraryAAU, frame: Frame) -> int | None:
    """The element type of the message's datatype (a derived type's: MPI matches type
    signatures, the sequence of element types)."""
    if a.arg("datatype") is None:
        return None
    return _type_of(p, a, frame)[0]


def _type_of(p: Process, a: A.LibraryAAU, frame: Frame) -> tuple[int, sp.Expr]:
    code = p.concrete(a.arg("datatype"), frame, f"the MPI datatype at line {a.loc.line}")
    if code in p.datatypes and code not in p.committed:  # (MPI 3.1 §4.1.9)
        raise InterpError(f"{a.call.name}: the derived datatype {ast.expr_text(a.arg('datatype'))} "
                          "is used before MPI_TYPE_COMMIT", a.arg("datatype").loc,
                          hint="commit a derived datatype before a communication uses it")
    return p.datatype(code, a.arg("datatype").loc)


def _handle(p: Process, a: A.LibraryAAU, frame: Frame) -> str | None:
    """The name an async message is waited on by: NX/2's msgid variable, MPI's request
    (an element of a request array counts by itself: REQ(1), REQ(2))."""
    if a.result:
        if a.result_index:  # MID(K) = IRECV(...): the element, as MSGWAIT(MID(K)) names it
            idx = [p.value(i, frame, f"the message id index at line {a.loc.line}")
                   for i in a.result_index]
            return element_key(a.result, idx)
        return a.result
    e = a.arg("request")
    if isinstance(e, ast.Ref):
        idx = [p.value(i, frame, f"the request index at line {a.loc.line}") for i in e.args]
        return element_key(e.name, idx)
    return _name(e)


def _is_null(p: Process, partner: int, a: A.LibraryAAU, frame: Frame) -> bool:
    """MPI_PROC_NULL as partner: the call does nothing (its request completes at once)."""
    if p.library != "mpi" or partner != mpi_constants()["MPI_PROC_NULL"]:
        return False
    if not a.call.sync:
        p.null_handles.add(_handle(p, a, frame))
    return True


def wait_request(p: Process, a: A.LibraryAAU, handle: str | None) -> WaitReq | None:
    """The wait on ``handle``; None when it is a null request's (nothing to wait for)."""
    if handle in p.null_handles:
        p.null_handles.discard(handle)
        return None
    return WaitReq(a, p, handle)


def _size(p: Process, a: A.LibraryAAU, frame: Frame) -> sp.Expr:
    if a.arg("size") is not None:
        return p.value(a.arg("size"), frame, f"the length of the message at line {a.loc.line}")
    count = a.arg("count")
    if count is None:
        return sp.Integer(0)
    n = p.value(count, frame, f"the count of the message at line {a.loc.line}")
    return n * _type_of(p, a, frame)[1]


def _payload(p: Process, buf: ast.Expr | None, frame: Frame, count: ast.Expr | None) -> dict:
    """The values a message carries, as far as they are followed ({} when they are not):
    by suffix for a whole array or a scalar, by position ``@k`` for ``count`` elements from an
    element (Fortran's sequence association: ``BCAST(V(0), 8, …)`` sends V(0)…V(7)). A
    buffer no decision can read (engine/needed.py) carries nothing: MG's faces were thousands
    of elements gathered for every message."""
    if buf is None:
        return {}
    if not isinstance(buf, (ast.Var, ast.Ref)):  # a constant sent as is: MPI_SEND(0, 1, …)
        try:
            return {"": p.value(buf, frame, "the value a message carries")}
        except InterpError:
            return {}
    if buf.name not in p.needed:
        return {}
    if isinstance(buf, ast.Var):
        return dict(frame.elements(buf.name))
    seq = _sequence(p, frame, buf, count)
    if seq is not None:
        held = frame.elements_at(buf.name, seq)
        return {f"@{k}": v for k, v in enumerate(held) if v is not None}
    if isinstance(buf, ast.Ref):
        try:
            idx = [p.value(i, frame, "an index") for i in buf.args]
        except InterpError:  # an index interp does not follow: the element is not followed
            return {}
        value = frame.get(element_key(buf.name, idx))
        return {"": value} if value is not None else {}
    return {}


MAX_FOLLOWED_ELEMENTS = 4096  # a longer message's values are not followed


def _sequence(p: Process, frame: Frame, buf: ast.Expr | None,
              count: ast.Expr | None) -> tuple[str, ...] | None:
    """The suffixes of the ``count`` elements stored from array element ``buf`` on, in
    Fortran's column-major order; None when they are not known (or too many to follow)."""
    sym = frame.table.symbols.get(buf.name) if isinstance(buf, ast.Ref) else None
    if sym is None or not sym.is_array or count is None or len(buf.args) != len(sym.dims):
        return None
    try:
        n = p.concrete(count, frame, "a count")
        start = [p.concrete(i, frame, "an index") for i in buf.args]
        lows = [p.concrete(lo, frame, "a bound") if lo is not None else 1 for lo, _ in sym.dims]
        extents = [p.concrete(hi, frame, "a bound") - low + 1
                   for (_, hi), low in zip(sym.dims[:-1], lows)]
    except InterpError:
        return None
    if not 0 < n <= MAX_FOLLOWED_ELEMENTS:
        return None
    offset = 0  # the start's position in storage order, from the first element
    for i in reversed(range(len(start))):
        offset = offset * (extents[i] if i < len(extents) else 1) + start[i] - lows[i]
    return _suffixes(int(offset), int(n), tuple(map(int, extents)), tuple(map(int, lows)))


@functools.lru_cache(maxsize=4096)
def _suffixes(offset: int, n: int, extents: tuple[int, ...], lows: tuple[int, ...]
              ) -> tuple[str, ...]:
    """The element suffixes of storage positions ``offset`` .. ``offset + n - 1``: the same
    for every message of a buffer (CG's exchanges send the same stretch of W at every
    iteration), so made once."""
    out = []
    for k in range(offset, offset + n):
        idx = []
        for extent, low in zip(extents, lows):
            idx.append(k % extent + low)
            k //= extent
        idx.append(k + lows[-1])
        out.append("(" + ",".join(map(str, idx)) + ")")
    return tuple(out)


def _request_elements(p: Process, frame: Frame, e: ast.Expr | None, n: int,
                      loc) -> list[str] | None:
    """The element suffixes of the ``n`` requests MPI_WAITALL waits on, from the array's
    first element (its declared lower bounds: ``REQ(0:11)`` starts at REQ(0)) or from the
    element passed; None when not known (then REQ(1)..REQ(n))."""
    sym = frame.table.symbols.get(e.name) if isinstance(e, (ast.Var, ast.Ref)) else None
    if sym is None or not sym.is_array:
        return None
    if isinstance(e, ast.Var):
        e = ast.Ref(e.name, [lo if lo is not None else ast.Num(1, "INTEGER", loc)
                             for lo, _ in sym.dims], loc)
    return _sequence(p, frame, e, ast.Num(n, "INTEGER", loc))


def _tag(p: Process, a: A.LibraryAAU, frame: Frame) -> sp.Expr:
    role = "type" if a.arg("type") is not None else "tag"
    e = a.arg(role)
    if e is None:
        return sp.Integer(0)
    value = p.concrete(e, frame, f"the message {role} at line {a.loc.line}")
    mark_tag(p, e, frame, value)
    return sp.Integer(value)


SENDRECV_SEND = {"buf": "sendbuf", "count": "sendcount", "datatype": "sendtype", "tag": "sendtag"}
SENDRECV_RECV = {"buf": "recvbuf", "count": "recvcount", "datatype": "recvtype", "tag": "recvtag"}


class _Part:
    """One half of an MPI_SENDRECV (or MPI_SENDRECV_REPLACE, whose one buffer, count and
    datatype serve both) read as the MPI_SEND or MPI_RECV it performs: its arguments by that
    call's roles, everything else (id, location) the AAU's own."""

    sendrecv = True  # its send never waits for a rendezvous (messages.py)

    def __init__(self, aau: A.LibraryAAU, call: str, roles: dict[str, str]):
        self._aau, self._roles = aau, roles
        self.call = lookup(call)

    def arg(self, role: str):
        mapped = self._roles.get(role, role)
        if self._aau.call.role_index(mapped) is None:  # MPI_SENDRECV_REPLACE: one buffer
            mapped = role
        return self._aau.arg(mapped)

    def __getattr__(self, name):
        return getattr(self._aau, name)


def _name(e: ast.Expr | None) -> str | None:
    return e.name if isinstance(e, (ast.Var, ast.Ref)) else None
