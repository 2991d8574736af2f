"""Algorithm 2 (core paper §3.4.1) over the processes, with the global synchronization structure.

Each active chain (process) is interpreted until an AAU cannot be evaluated for want of
synchronization; the scheduler then moves to the next active chain. Communication follows the
paper's model (Figure 11): call overhead + transmission + waiting, with broadcasts and global
operations replaced by the logarithmic sequence of point-to-point messages the machine filter
gives. Waiting is ``max(0, arrival − τ)``, decided whenever the order is fixed for every
admissible input, kept as ``Max`` only where either side can really be late.

Steady state: when every live process is at the head of an IterSync iteration (or blocked),
the scheduler takes a cut. When three successive cuts differ by the same shift Δ of every
clock, the same control decisions and the same messages in flight, the iterations between
them repeat exactly; the remaining ones are added in closed form (``m·Δ``) instead of being
interpreted, so the cost of a prediction does not grow with the iteration count.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import networkx as nx
import sympy as sp

from interp.application import aau as A
from interp.engine.process import (
    CATEGORIES, HOST_ID, AAUStat, CollReq, LoopHead, Process, RecvReq, Reply, Request, SendReq,
    SpawnReq, WaitReq,
)
from interp.application.catalog import mpi_constants, mpi_datatype_names
from interp.application.expr import numeric_value
from interp.engine.network import Network, route_links
from interp.engine.timeval import (
    FormulaTooLarge, as_count, as_time, is_earlier, is_symbolic, later, latest, same, scaled,
)
from interp.engine.values import UNKNOWN
from interp.errors import InterpError, SourceLocation
from interp.system import (
    HOST, SAG, channel, collective_rounds, contention, crossbar, message_cost, message_seconds,
    overlap_fraction, route, static_condition,
)

ZERO = 0.0
MPI_TYPES = {n: c for n, c in mpi_constants().items() if n in mpi_datatype_names()}
BLOCKED = object()  # a static-buffer send that must wait for receives not interpreted yet


@dataclass(frozen=True)
class _Cost:
    """A message's cost with numeric parts as floats (the engine's fast path)."""

    startup: object
    transmission: object  # per_byte·size + per_hop·hops
    receive: object
    wire: object  # per_byte·size: the part that occupies the links (see network.py)


@dataclass
class Message:
    """A message in flight (the global synchronization structure's record of it)."""

    id: int
    src: Process
    dst: int
    tag: int
    size: sp.Expr
    payload: dict
    arrival: sp.Expr
    receive: sp.Expr  # receiver's call overhead
    send_aau: A.AAU
    synchronous: bool
    static: bool = False  # holds one of the receiver's static buffers until received
    depart: sp.Expr = 0.0  # when the sender started it
    broadcast: bool = False
    alone: tuple[float, float] | None = None  # (arrival, end on the wire) with idle links
    datatype: int | None = None  # MPI datatype handle of the send


@dataclass
class MessageTrace:
    """A matched message, for flow arrows in an exported trace."""

    src: int
    src_aau: int
    arrival: sp.Expr
    dst: int
    dst_aau: int
    size: sp.Expr
    tag: int
    depart: sp.Expr


@dataclass
class Edge:
    """A communication/synchronization edge of the SAAG between two process-AAU pairs."""

    kind: str  # sync (⇔) | async (⇒) | collective (⇐)
    src: str
    src_aau: int
    dst: str
    dst_aau: int
    size: str
    tag: int | None
    count: sp.Expr = 1
    pattern: str = "point-to-point"  # or broadcast (an NX/2 csend to all nodes)


@dataclass
class Problem:
    kind: str  # deadlock | mismatch | unmatched | collective
    message: str
    locations: list[SourceLocation] = field(default_factory=list)

    def to_json(self) -> dict:
        return {"kind": self.kind, "message": self.message,
                "locations": [loc.to_json() for loc in self.locations]}


@dataclass
class _Cut:
    clocks: dict[int, sp.Expr]
    positions: dict[int, tuple]
    cats: dict[int, dict[str, sp.Expr]]
    stats: dict[int, dict[int, tuple[sp.Expr, sp.Expr]]]
    decisions: dict[int, int]  # length of each process's decision log
    pending: list[tuple]
    edges: dict[tuple, sp.Expr]


class Scheduler:
    def __init__(self, sag: SAG, nprocs: int, bound: str, spawner, extend: bool = True,
                 timing: bool = True):
        self.sag, self.nprocs, self.bound = sag, nprocs, bound
        self.spawner = spawner  # (program, dests, start) -> list[Process]
        self.extend = extend
        # timing=False (interp check): a loop repeats when its communication pattern does;
        # when each message happens does not matter for matching.
        self.timing = timing
        self.processes: list[Process] = []
        self.messages: list[Message] = []
        self.receives: dict[int, list[RecvReq]] = {}  # posted receives per process, in order
        self.handles: dict[tuple[int, str], dict] = {}
        self.collectives: dict[int, dict[int, tuple[Process, CollReq, sp.Expr]]] = {}
        self.coll_count: dict[int, int] = {}
        self.edges: dict[tuple, Edge] = {}
        self.problems: list[Problem] = []
        self.hung = False
        self.notes: list[str] = []
        self.assumptions: list[sp.Basic] = []
        self.cuts: list[_Cut] = []
        self._msg_ids = 0
        self._costs: dict[tuple, object] = {}  # message costs by (src, dst, size, sync)
        self._overlaps: dict[str, float] = {}
        self._static: dict[tuple, bool] = {}  # (size, synchronous) → uses static buffers
        self.full_senders: list[SendReq] = []
        self.trace: list[MessageTrace] | None = None  # matched messages, when tracing
        self.static_log: dict[int, list[list]] = {}  # receiver → [posted, received, message id]
        self._static_entry: dict[int, list] = {}  # message id → its static_log entry
        limit = f"{sag.nodes}.cs.spec.static_buffers"
        self.static_buffers = int(sag.value(limit)) if sag.has(limit) else None
        self.extensions = 0
        self.network = Network(channel(sag)) if contention(sag) and timing else None
        self._crossbar = crossbar(sag)
        self._in_flight: dict[int, Message] = {}  # messages whose flow is open, by id
        self.contention: dict[int, float] = {}  # message id → how much later links made it
        self._routes: dict[tuple[int, int], list[int]] = {}

    # ---- driving ----
    def add(self, p: Process) -> None:
        if self.trace is not None:
            p.trace = []
        self.processes.append(p)
        self.receives.setdefault(p.pid, [])

    def run(self) -> None:
        while True:
            for p in list(self.processes):
                if p.state == "ready":
                    self._step(p, None)
            if self._match():
                continue
            live = [p for p in self.processes if p.state != "done"]
            if not live:
                break
            if any(p.state == "ready" for p in live):
                continue
            paused = [p for p in live if p.state == "paused"]
            if paused:
                self._cut(live, paused)
                continue
            self._hang(live)
            break
        self._leftovers()

    def _step(self, p: Process, reply: Reply | None) -> None:
        """Run ``p`` until it waits for synchronization, pauses at a loop head, or ends."""
        p.state = "ready"
        while True:
            try:
                req = p.gen.send(reply)
            except StopIteration:
                p.state = "done"
                p.finish = p.clock
                return
            reply = self._serve(req)
            if reply is None:
                return  # blocked or paused

    # ---- requests ----
    def _serve(self, req: Request) -> Reply | None:
        p = req.process
        if isinstance(req, LoopHead):
            if not self.extend:
                return Reply(end=p.clock)
            p.state, p.request = "paused", req
            return None
        if isinstance(req, SpawnReq):
            cost = as_time(self.sag.seconds(
                f"{self.sag.host if p.pid == HOST_ID else self.sag.nodes}.p.nx.load", self.bound)
            ) if self._has_load(p) else ZERO
            end = p.clock + cost
            for child in self.spawner(req.program, req.dests, end, req.aau):
                self.add(child)
            return Reply(end=end, parts={"call": cost})
        if isinstance(req, SendReq):
            return self._send(req)
        if isinstance(req, RecvReq):
            self.receives[p.pid].append(req)
            if not req.synchronous:
                self.handles[(p.pid, req.handle or "")] = {"recv": req, "message": None,
                                                           "aau": req.aau}
                return Reply(end=p.clock)
            p.state, p.request = "blocked", req
            return None
        if isinstance(req, WaitReq):
            return self._wait(req)
        if isinstance(req, CollReq):
            k = self.coll_count.get(p.pid, 0)
            self.coll_count[p.pid] = k + 1
            self.collectives.setdefault(k, {})[p.pid] = (p, req, p.clock)
            p.state, p.request = "blocked", req
            return None
        raise AssertionError(req)  # pragma: no cover

    def _has_load(self, p: Process) -> bool:
        sau = self.sag.host if p.pid == HOST_ID else self.sag.nodes
        return self.sag.has(f"{sau}.p.nx.load")

    def _where(self, pid: int) -> int:
        return HOST if pid == HOST_ID else pid

    def _route(self, src: int, dst: int) -> list[int]:
        key = (src, dst)
        if key not in self._routes:
            self._routes[key] = route(self.sag, self._where(src), self._where(dst), self.nprocs)
        return self._routes[key]

    def _cost(self, src: int, dst: int, size: sp.Expr, synchronous: bool) -> _Cost:
        """A message's cost; it depends on the route only through its length and whether it
        crosses the host link, so it is memoised on those."""
        path = self._route(src, dst)
        key = (len(path), HOST in path, size, synchronous)
        cost = self._costs.get(key)
        if cost is None:
            c = message_cost(self.sag, self._where(src), self._where(dst), self.nprocs, size,
                             self.bound, synchronous=synchronous)
            wire = message_seconds(self.sag, size, 0, self.bound, synchronous=synchronous,
                                   sau=self.sag.host_link if HOST in path else None)
            cost = self._costs[key] = _Cost(as_time(c.startup), as_time(c.transmission),
                                            as_time(c.receive), as_time(wire.transmission))
        return cost

    def _contend(self, msg: "Message", cost: _Cost) -> None:
        """Put the message's bytes on its route's links (network.py): messages crossing a
        link at the same time share it, so this one and those sharing links with it may
        arrive later. Messages with symbolic times are left alone (their overlap is not
        decided)."""
        if self.network is None or any(is_symbolic(x) for x in (
                msg.depart, cost.startup, cost.transmission, cost.wire)):
            return
        path = self._route(msg.src.pid, msg.dst)
        start = _wire_start(msg.depart, cost)
        msg.alone = (as_time(msg.arrival), start + cost.wire)
        self._in_flight[msg.id] = msg
        for key, end in self.network.add(msg.id, route_links(path, self._crossbar), start,
                                         cost.wire, self._weight(path), msg.src.pid).items():
            m = self._in_flight[key]
            delay = max(end - m.alone[1], 0.0)
            m.arrival = m.alone[0] + delay
            if delay > 0 or key in self.contention:
                self.contention[key] = delay
        if msg.id % 4096 == 0:  # close flows that no message can share any more
            floor_ = self._clock_floor()
            if floor_ is not None:
                self.network.forget_before(floor_)

    def _weight(self, path: list[int]) -> float:
        """A flow's share weight: its route length (SimGrid CM02's latency penalty); the ports
        of a crossbar are all alike."""
        return 1.0 if self._crossbar else max(len(path) - 1, 1)

    def _clock_floor(self) -> float | None:
        """The earliest numeric clock of a live process: nothing can happen before it."""
        return min((as_time(q.clock) for q in self.processes if q.state != "done"
                    and not is_symbolic(q.clock)), default=None)

    def _overlap(self, kind: str) -> float:
        """1 − f_overlap: the part of a communication's time not hidden behind computation."""
        if kind not in self._overlaps:
            try:
                self._overlaps[kind] = as_time(1 - overlap_fraction(self.sag, kind, bound=self.bound))
            except InterpError:
                self._overlaps[kind] = 1.0
        return self._overlaps[kind]

    def _post(self, p: Process, dst: int, req: SendReq, depart: sp.Expr) -> sp.Expr:
        """Put one message in flight; returns when the sender is done with it."""
        cost = self._cost(p.pid, dst, req.size, req.synchronous)
        self._msg_ids += 1
        done = depart + cost.startup + cost.transmission
        static = self._is_static(p.pid, dst, req.size, req.synchronous)
        if static and self.static_buffers is not None:
            entry = [depart, None, self._msg_ids]
            self.static_log.setdefault(dst, []).append(entry)
            self._static_entry[self._msg_ids] = entry
        msg = Message(self._msg_ids, p, dst, int(req.tag), req.size, req.payload, done,
                      cost.receive, req.aau, req.synchronous, static, depart, req.broadcast,
                      datatype=req.datatype)
        self.messages.append(msg)
        self._contend(msg, cost)
        return msg.arrival  # a csend's sender is busy until its message is through

    def _send(self, req: SendReq, free_at=None) -> Reply | None:
        """A send; ``free_at``: when a static buffer freed up for a sender that had to wait."""
        p = req.process
        if not all(d == HOST_ID or 0 <= d < self.nprocs for d in req.dests):
            bad = next(d for d in req.dests if not (d == HOST_ID or 0 <= d < self.nprocs))
            who = "rank" if p.library == "mpi" else "node"
            raise InterpError(f"{p.label} sends to {who} {bad}, which does not exist with "
                              f"P = {self.nprocs}", req.aau.loc,
                              hint="check the destination expression, or run with more nodes")
        if free_at is None:
            free_at = self._buffer_free_at(req)
            if free_at is BLOCKED:  # every static buffer is taken until receives not yet seen
                p.state, p.request = "blocked", req
                self.full_senders.append(req)
                return None
        tau = p.clock if free_at is None else later(p.clock, free_at)
        waited = tau - p.clock
        if len(req.dests) == 1:
            done = self._post(p, req.dests[0], req, tau)
        else:
            done = self._broadcast(p, req, tau)
        if not req.synchronous:  # isend: returns after the startup; the wait sees the rest
            cost = self._cost(p.pid, req.dests[0], req.size, False)
            end = tau + cost.startup * self._overlap("async_send")
            self.handles[(p.pid, req.handle or "")] = {"send_done": done, "aau": req.aau}
            return Reply(end=end, parts={"call": end - tau})
        cost = self._cost(p.pid, req.dests[0], req.size, True)
        f = self._overlap("sync_send")
        call = cost.startup * f if len(req.dests) == 1 else ZERO
        # NX/2 csend returns once the message is out (the paper's model: startup +
        # transmission); an MPI standard send is eager: it returns after its startup.
        trans = ZERO if _eager(req.aau) else (done - tau) * f - call
        parts = {"call": call, "transmission": trans}
        if free_at is not None:
            parts["waiting"] = waited
        return Reply(end=tau + call + trans, parts=parts)

    def _is_static(self, src: int, dst: int, size, synchronous: bool) -> bool:
        if dst == HOST_ID or src == HOST_ID:
            return False
        key = (size, synchronous)
        if key not in self._static:
            self._static[key] = static_condition(self.sag, size, synchronous) == sp.true
        return self._static[key]

    def _buffer_free_at(self, req: SendReq):
        """Paper §3.4.2: a static-buffer send waits only while all of the receiver's ~1000
        buffers hold messages not yet received. Returns None (no wait), the time a buffer
        frees, or BLOCKED when that depends on receives not interpreted yet."""
        if len(req.dests) != 1 or not req.synchronous or self.static_buffers is None:
            return None
        dst, tau = req.dests[0], req.process.clock
        log = self.static_log.get(dst, [])
        if len(log) < self.static_buffers or not self._is_static(req.process.pid, dst, req.size, True):
            return None
        # Forget buffers freed before every clock now: no later send can see them held. Done
        # before every full scan, so a log of mostly received messages stays short.
        floor_ = self._clock_floor()
        if floor_ is not None:
            log[:] = [e for e in log if e[1] is None or is_symbolic(e[1]) or as_time(e[1]) > floor_]
            if len(log) < self.static_buffers:
                return None
        held = [e for e in log
                if not is_earlier(tau, e[0]) and (e[1] is None or is_earlier(tau, e[1]))]
        excess = len(held) - self.static_buffers + 1
        if excess <= 0:
            return None
        freed = sorted(as_time(e[1]) for e in held if e[1] is not None and not is_symbolic(e[1]))
        return freed[excess - 1] if len(freed) >= excess else BLOCKED

    def _buffer_freed(self, msg: "Message", when) -> None:
        """A static buffer at the receiver was emptied at ``when``: waiting senders retry."""
        entry = self._static_entry.pop(msg.id, None)
        if entry is not None:
            entry[1] = when
        for req in [r for r in self.full_senders if r.dests[0] == msg.dst]:
            free_at = self._buffer_free_at(req)
            if free_at is not BLOCKED:
                self.full_senders.remove(req)
                self._step(req.process, self._send(req, free_at=free_at or req.process.clock))

    def _broadcast(self, p: Process, req: SendReq, tau: sp.Expr) -> sp.Expr:
        """NX/2 csend to -1: the logarithmic broadcast of the machine filter. A host broadcast
        enters the cube at node 0 and spreads from there. Returns when the sender is done."""
        if p.pid == HOST_ID:
            first = self._post(p, 0, req, tau)
            root, ready, sender_done = 0, {0: first}, first
        else:
            root, ready, sender_done = p.pid, {p.pid: tau}, tau
        for rnd in collective_rounds("broadcast", self.nprocs, root):
            for src, dst in rnd:
                if src not in ready:
                    continue
                sender = p if src == p.pid else _Relay(src, p)
                done = self._post(sender, dst, req, ready[src])
                ready[dst] = self.messages[-1].arrival
                ready[src] = done
                if src == p.pid:
                    sender_done = done
        return sender_done

    def _wait(self, req: WaitReq) -> Reply | None:
        p = req.process
        h = self.handles.get((p.pid, req.handle))
        if h is None:
            raise InterpError(f"{p.label} waits on {req.handle}, which no isend/irecv started",
                              req.aau.loc, hint="start the message with isend/irecv first")
        if "send_done" in h:
            del self.handles[(p.pid, req.handle)]
            end = later(p.clock, h["send_done"])
            return Reply(end=end, parts={"waiting": end - p.clock})
        if h["message"] is None:
            p.state, p.request = "blocked", req
            return None
        return self._complete_async_recv(p, req, h)

    def _complete_async_recv(self, p: Process, req: WaitReq, h: dict) -> Reply:
        del self.handles[(p.pid, req.handle)]
        m: Message = h["message"]
        ready = later(p.clock, m.arrival)
        end = ready + m.receive
        return Reply(end=end, parts={"waiting": ready - p.clock, "call": m.receive},
                     payload=m.payload, status=(m.src.pid, m.tag, m.size))

    # ---- matching (level 2: the communication edges) ----
    def _candidates(self, pid: int, rq: RecvReq) -> list[Message]:
        out, seen = [], set()
        for m in self.messages:
            if m.dst != pid or m.src.pid in seen:
                continue
            if (rq.source is None or m.src.pid == rq.source) and (rq.tag is None or m.tag == rq.tag):
                out.append(m)
                seen.add(m.src.pid)  # FIFO per sender: only its oldest matching message
        return out

    def _match(self) -> bool:
        progressed = self._settle()
        for p in self.processes:
            queue = self.receives.get(p.pid, [])
            while queue:
                rq = queue[0]
                cands = [m for m in self._candidates(p.pid, rq) if self._settled(m)]
                if not cands:
                    break
                m = cands[0] if len(cands) == 1 else self._earliest(cands)
                self.messages.remove(m)
                if self._in_flight.pop(m.id, None) is not None:
                    self.network.close(m.id)  # its arrival is used now: its link time is final
                queue.pop(0)
                if self.trace is not None:
                    self.trace.append(MessageTrace(m.src.pid, m.send_aau.id, m.arrival, p.pid,
                                                   rq.aau.id, m.size, m.tag, m.depart))
                self._edge("sync" if m.synchronous and rq.synchronous else "async", m, p, rq)
                self._check_sizes(m, p, rq)
                if rq.synchronous:
                    ready = later(p.clock, m.arrival)
                    f = self._overlap("recv")
                    reply = Reply(end=ready + m.receive * f,
                                  parts={"waiting": ready - p.clock, "call": m.receive * f},
                                  payload=m.payload, status=(m.src.pid, m.tag, m.size))
                    if m.static and self.static_buffers is not None:
                        self._buffer_freed(m, ready)
                    self._step(p, reply)
                    progressed = True
                else:
                    h = self.handles.get((p.pid, rq.handle or ""))
                    if h is not None:
                        h["message"] = m
                    if p.state == "blocked" and isinstance(p.request, WaitReq) and \
                            p.request.handle == (rq.handle or ""):
                        self._step(p, self._complete_async_recv(p, p.request, h))
                        progressed = True
        for k in sorted(self.collectives):
            inst = self.collectives[k]
            if len(inst) == self.nprocs and all(pid >= 0 and pid != HOST_ID for pid in inst):
                del self.collectives[k]
                for p, reply in self._collective(inst):
                    self._step(p, reply)
                progressed = True
        return progressed

    def _settle(self) -> bool:
        """Make final the flows no later message can share a link with any more (network.py,
        ``settle``): a process that is not blocked can still send from its clock on."""
        if self.network is None:
            return False
        free = [as_time(q.clock) for q in self.processes if q.state in ("ready", "paused")
                and not is_symbolic(q.clock)]
        return bool(self.network.settle(min(free, default=float("inf"))))

    def _settled(self, m: Message) -> bool:
        """May ``m`` be received: is its arrival final (no flow of it left open)?"""
        return self.network is None or m.id not in self.network.open

    def _earliest(self, cands: list[Message]) -> Message:
        best = cands[0]
        for m in cands[1:]:
            if is_earlier(m.arrival, best.arrival):
                best = m
        return best

    def _check_sizes(self, m: Message, p: Process, rq: RecvReq) -> None:
        untyped = {MPI_TYPES.get("MPI_BYTE"), MPI_TYPES.get("MPI_PACKED"), None}
        if m.datatype != rq.datatype and m.datatype not in untyped and rq.datatype not in untyped:
            names = {code: name for name, code in MPI_TYPES.items()}
            self.problems.append(Problem(
                "mismatch",
                f"{m.src.label} sends {names.get(m.datatype, m.datatype)} (tag {m.tag}) to "
                f"{p.label}, which receives it as {names.get(rq.datatype, rq.datatype)}: MPI "
                "requires matching type signatures", [m.send_aau.loc, rq.aau.loc]))
        over = sp.expand(m.size - rq.capacity)
        if over.is_number and over > 0:
            self.problems.append(Problem(
                "mismatch",
                f"{m.src.label} sends {m.size} bytes (type/tag {m.tag}) to {p.label}, whose receive "
                f"buffer holds only {rq.capacity} bytes",
                [m.send_aau.loc, rq.aau.loc]))

    def _edge(self, kind: str, m: Message, p: Process, rq: RecvReq) -> None:
        key = (m.src.pid, m.send_aau.id, p.pid, rq.aau.id)
        e = self.edges.get(key)
        if e is None:
            self.edges[key] = Edge(kind, m.src.label, m.send_aau.id, p.label, rq.aau.id,
                                   str(m.size), m.tag,
                                   pattern="broadcast" if m.broadcast else "point-to-point")
        else:
            e.count += 1

    # ---- collectives ----
    def _collective(self, inst: dict[int, tuple[Process, CollReq, sp.Expr]]):
        kinds = {req.kind for _, req, _ in inst.values()}
        procs = {pid: p for pid, (p, _, _) in inst.items()}
        reqs = {pid: req for pid, (_, req, _) in inst.items()}
        if len(kinds) > 1:
            self.problems.append(Problem(
                "mismatch", "processes meet in different global operations: " + ", ".join(
                    f"{procs[pid].label} in {reqs[pid].kind}" for pid in sorted(reqs)),
                [r.aau.loc for r in reqs.values()]))
        t = {pid: arr for pid, (_, _, arr) in inst.items()}
        any_req = next(iter(reqs.values()))
        kind, size = any_req.kind, any_req.size
        if kind in ("gather", "scatter", "allgather", "alltoall"):
            note = (f"MPI_{kind.upper()} is priced as a logarithmic tree/exchange of messages each "
                    "carrying one rank's share (a lower bound: real algorithms forward the shares "
                    "of whole subtrees)")
            if note not in self.notes:
                self.notes.append(note)
        root = any_req.root or 0
        arrival_max = latest(list(t.values()))
        rounds = collective_rounds(kind, self.nprocs, root)
        t_in, delay = t, {}  # delay: (round, src, dst) -> how much later shared links make it
        # MPI collectives' messages share links (E4) with each other and with the messages
        # already priced; which ones overlap depends on the times they give, so the rounds are
        # priced again until the delays repeat (each flow only depends on earlier ones)
        contend = self.network is not None and kind not in ("gsync", "barrier") and all(
            _eager(r.aau) for r in reqs.values())
        for _ in range(sum(map(len, rounds)) + 2):
            t, flows = t_in, []
            for i, rnd in enumerate(rounds):
                # each node ends the round at max(its own send done, its partners' arrivals)
                # plus, if it received, the receive overhead and the combine (the SyncSeq's Seq)
                ready = {x: [t[x]] for x in t}
                extra = {x: ZERO for x in t}
                for src, dst in rnd:
                    if kind in ("gsync", "barrier"):
                        c_send = as_time(self.sag.seconds(f"{self.sag.nodes}.cs.sync.overhead",
                                                          self.bound))
                        hop = self._cost(src, dst, ZERO, True).transmission
                        arrive, recv = t[src] + c_send + hop, ZERO
                        busy = t[src] + c_send
                    else:
                        cost = self._cost(src, dst, size, True)
                        arrive = t[src] + cost.startup + cost.transmission + delay.get(
                            (i, src, dst), ZERO)
                        recv = cost.receive + reqs[dst].combine_seconds
                        busy = t[src] + cost.startup + (
                            ZERO if _eager(reqs[src].aau) else cost.transmission)
                        flows.append(((i, src, dst), t[src], cost))
                    ready[dst].append(arrive)
                    ready[src].append(busy)
                    extra[dst] = later(extra[dst], recv)
                t = {x: latest(ready[x]) + extra[x] for x in t}
            if not contend or any(is_symbolic(x) for _, depart, c in flows
                                  for x in (depart, c.startup, c.transmission, c.wire)):
                break
            net, starts, route_of, used = Network(self.network.channel), {}, {}, {}
            for key, depart, c in flows:
                starts[key] = _wire_start(depart, c)
                route_of[key] = self._route(key[1], key[2])
                for link in route_links(route_of[key], self._crossbar):
                    used.setdefault(link, []).append(key)
            floor_ = min(starts.values(), default=0.0)
            wire = {key: c.wire for key, _, c in flows}
            shared = set()  # messages whose bytes meet others' on a link; the rest go alone
            for link, keys in used.items():  # background: what messages already priced use
                net.fixed[link] = [g for g in self.network.fixed.get(link, ())
                                   if g[1] > floor_] + [
                    g for k in self.network.by_link.get(link, ())
                    for g in self.network.open[k].segments if g[1] > floor_]
                spans = sorted([(starts[k], starts[k] + wire[k] + delay.get(k, 0.0), k)
                                for k in keys] + [(a, b, None) for a, b, _ in net.fixed[link]],
                               key=lambda x: x[0])
                holder, reach = None, -1.0
                for a, b, k in spans:
                    if a < reach - 1e-15:
                        shared.update(x for x in (k, holder) if x is not None)
                    if b > reach:
                        holder, reach = k, b
            ends = {}
            for n, key in enumerate(sorted(shared, key=starts.get)):
                path = route_of[key]
                net.add(n, route_links(path, self._crossbar), starts[key], wire[key],
                        self._weight(path), key[1])
                ends[key] = net.open[n]
            new = {key: max(f.end - starts[key] - wire[key], 0.0) for key, f in ends.items()}
            new.update({key: 0.0 for key in starts if key not in shared})
            if all(abs(new[k] - delay.get(k, 0.0)) <= 1e-12 for k in new):
                live_floor = self._clock_floor()
                self.network.forget_before(floor_ if live_floor is None else live_floor)
                for key in starts:  # later messages share what these left
                    segs = ends[key].segments if key in ends else [
                        (starts[key], starts[key] + wire[key], 1.0)] if wire[key] > 0 else []
                    for link in route_links(route_of[key], self._crossbar):
                        self.network.fixed.setdefault(link, []).extend(segs)
                    if new[key] > 0:
                        self.contention[-len(self.contention) - 1] = new[key]
                break
            delay = new
        for rnd in rounds:
            for src, dst in rnd:
                self._coll_edge(procs[src], reqs[src], procs[dst], reqs[dst], size)
        payload = self._combine(kind, any_req, reqs)
        out = []
        for pid, p in procs.items():
            start = inst[pid][2]
            wait = later(arrival_max, start) - start
            end = t[pid]
            reply = Reply(end=end, parts={"waiting": wait, "transmission": end - start - wait},
                          payload=payload.get(pid))
            out.append((p, reply))
        return out

    def _coll_edge(self, sp_: Process, sr: CollReq, dp: Process, dr: CollReq, size) -> None:
        key = (sp_.pid, sr.aau.id, dp.pid, dr.aau.id)
        e = self.edges.get(key)
        if e is None:
            self.edges[key] = Edge("collective", sp_.label, sr.aau.id, dp.label, dr.aau.id,
                                   str(size), None)
        else:
            e.count += 1

    def _combine(self, kind: str, req: CollReq, reqs: dict[int, CollReq]) -> dict[int, dict | None]:
        """The values each process holds after the operation (followed when all are known)."""
        if kind in ("gsync", "barrier"):
            return {}
        if kind in ("gather", "scatter", "allgather", "alltoall"):
            return {pid: {} for pid in reqs}  # the values moved are not followed
        if kind == "bcast":
            root = req.root or 0
            return {pid: dict(reqs[root].payload) for pid in reqs}
        op = {"sum": sp.Add, "prod": sp.Mul, "max": sp.Max, "min": sp.Min}.get(req.reduce or "sum",
                                                                                sp.Add)
        keys = set().union(*(r.payload.keys() for r in reqs.values()))
        result = {}
        for key in keys:
            vals = [r.payload.get(key, UNKNOWN) for r in reqs.values()]
            result[key] = UNKNOWN if any(v is UNKNOWN or v is None for v in vals) else op(*vals)
        if kind == "reduce":
            root = req.root or 0
            return {root: result}
        return {pid: dict(result) for pid in reqs}

    # ---- steady state ----
    def _snapshot(self, live: list[Process]) -> _Cut:
        positions, clocks, cats, stats, decisions = {}, {}, {}, {}, {}
        for p in live:
            req = p.request
            if p.state == "paused":
                positions[p.pid] = ("paused", req.aau.id, req.iteration, req.count)
            else:
                positions[p.pid] = ("blocked", req.aau.id if req else None)
            clocks[p.pid] = p.clock
            cats[p.pid] = dict(p.cats)
            stats[p.pid] = {k: (s.count, s.total) for k, s in p.stats.items()}
            decisions[p.pid] = len(p.decisions)
        pending = [(m.src.pid, m.dst, m.tag, m.size, m.arrival) for m in self.messages]
        edges = {k: e.count for k, e in self.edges.items()}
        return _Cut(clocks, positions, cats, stats, decisions, pending, edges)

    def _cut(self, live: list[Process], paused: list[Process]) -> None:
        cut = self._snapshot(live)
        self.cuts.append(cut)
        jump = self._period(live) if len(self.cuts) >= 3 else None
        if jump is not None:
            self.cuts.clear()
        for p in paused:
            self._step(p, Reply(end=p.clock, jump=jump))

    def _period(self, live: list[Process]) -> sp.Expr | None:
        c0, c1, c2 = self.cuts[-3:]
        if not (set(c0.positions) == set(c1.positions) == set(c2.positions)):
            return None
        delta = None
        for pid, pos in c2.positions.items():
            p0, p1 = c0.positions[pid], c1.positions[pid]
            if pos[0] != p1[0] or pos[0] != p0[0] or pos[1] != p1[1] or pos[1] != p0[1]:
                return None
            if pos[0] == "blocked":
                if self.timing and not (c2.clocks[pid] == c1.clocks[pid] == c0.clocks[pid]):
                    return None
                continue
            if not (same(pos[2] - p1[2], 1) and same(p1[2] - p0[2], 1)):
                return None
            if not self.timing:
                delta = ZERO
                continue
            d1, d2 = c1.clocks[pid] - c0.clocks[pid], c2.clocks[pid] - c1.clocks[pid]
            if delta is None:
                delta = d2
            if not (same(d1, delta) and same(d2, delta)):
                return None
        if delta is None:
            return None
        procs = {p.pid: p for p in live}
        for pid in c2.positions:
            log = procs[pid].decisions
            a = log[c0.decisions[pid]:c1.decisions[pid]]
            b = log[c1.decisions[pid]:c2.decisions[pid]]
            if not _same_log(a, b):
                self._note_varying(procs[pid], a, b)
                return None
        if len(c1.pending) != len(c2.pending) or any(
            x[:3] != y[:3] or not same(x[3], y[3]) for x, y in zip(c1.pending, c2.pending)
        ):
            return None
        if any(h for h in self.handles.values()):
            return None
        remaining = [c2.positions[pid][3] - c2.positions[pid][2] for pid in c2.positions
                     if c2.positions[pid][0] == "paused"]
        m = remaining[0]
        for r in remaining[1:]:
            if not same(r, m):
                if r.is_number and m.is_number:
                    m = min(r, m)
                else:
                    return None
        if m.is_number and m <= 0:
            return None
        self._apply_jump(live, c1, c2, m, delta)
        return m

    def _shift_flows(self, d) -> None:
        """A jump of ``d`` seconds: the flows in flight move with the messages (or, when ``d``
        is symbolic, are forgotten: later messages cannot be compared with them)."""
        if self.network is None:
            return
        if is_symbolic(d):
            self.network.forget_before(float("inf"))
            self._in_flight.clear()
            return
        self.network.shift(as_time(d))
        for msg in self._in_flight.values():
            msg.alone = (msg.alone[0] + as_time(d), msg.alone[1] + as_time(d))

    def _note_varying(self, p: Process, a: list, b: list) -> None:
        """Say why a loop is interpreted iteration by iteration: what its decisions read
        (a partner, a size, a condition) changes from one iteration to the next."""
        changed = sorted({k1 for (k1, v1), (k2, v2) in zip(a, b) if k1 == k2 and not v1 == v2}
                         or {k for k, _ in a} ^ {k for k, _ in b})
        loop = p.request.aau
        note = (f"line {loop.loc.line}: the loop's decisions read values that change from one "
                f"iteration to the next ({', '.join(changed) or 'its control flow'}), so its "
                "iterations are interpreted one by one")
        if note not in self.notes:
            self.notes.append(note)

    def _apply_jump(self, live: list[Process], c1: _Cut, c2: _Cut, m: sp.Expr, delta: sp.Expr) -> None:
        self.extensions += 1
        m_iter, m = m, as_count(m)
        for p in live:
            if p.state != "paused":
                continue
            p.clock += scaled(delta, m)
            for c in CATEGORIES:
                p.cats[c] += scaled(c2.cats[p.pid][c] - c1.cats[p.pid][c], m)
            for k, (cnt, tot) in c2.stats[p.pid].items():
                c_prev, t_prev = c1.stats[p.pid].get(k, (ZERO, ZERO))
                st = p.stats.setdefault(k, AAUStat())
                st.count += m * (cnt - c_prev)
                st.total += scaled(tot - t_prev, m)
        for msg in self.messages:
            msg.arrival += scaled(delta, m)
        self._shift_flows(scaled(delta, m))
        for key, e in self.edges.items():
            e.count += m * (c2.edges.get(key, ZERO) - c1.edges.get(key, ZERO))
        if is_symbolic(m_iter):
            self.assumptions.append(sp.Ge(m_iter, 0))
        self.notes.append(f"steady state reached after {len(self.cuts)} iterations: {m} more "
                          "added in closed form")

    # ---- the end ----
    def _hang(self, live: list[Process]) -> None:
        """No chain can go on (Algorithm 2, step 3): say why, with every call involved."""
        blocked = [p for p in live if p.state == "blocked"]
        explained = self._mismatches(blocked) | self._broken_collectives(blocked)
        rest = [p for p in blocked if p.pid not in explained]
        graph = nx.DiGraph()  # who could unblock whom; an explained process is a dead end
        for p in blocked:
            graph.add_node(p.pid)
            if p.pid in explained:
                continue
            for q in self._waits_for(p, blocked):
                graph.add_edge(p.pid, q.pid)
        procs = {p.pid: p for p in rest}
        cycle = [procs[pid] for pid in _cycle_of_waits(graph.subgraph(procs))]
        if cycle:
            self.problems.append(Problem(
                "deadlock",
                "each process waits for another that is itself waiting: " + " -> ".join(
                    f"{p.label} waits in {_describe(p.request)} at {_at(p.request.aau.loc)}"
                    for p in cycle) + f" -> {cycle[0].label}",
                [p.request.aau.loc for p in cycle]))
        for p in rest:
            if p in cycle:
                continue
            if graph.out_degree(p.pid) == 0:
                self.problems.append(Problem(
                    "unmatched",
                    f"{p.label} waits in {_describe(p.request)} at {_at(p.request.aau.loc)}, but "
                    "no process is left that could send it", [p.request.aau.loc]))
        for p in blocked:
            p.state = "hung"
        self.hung = True

    def _waits_for(self, p: Process, blocked: list[Process]) -> list[Process]:
        """The blocked processes that could satisfy what ``p`` waits for: the named source,
        or any whose program sends that type/tag."""
        req = p.request
        if isinstance(req, WaitReq):
            h = self.handles.get((p.pid, req.handle))
            req = h["recv"] if h and "recv" in h else req
        if isinstance(req, RecvReq) and req.source is not None:
            return [q for q in blocked if q.pid == req.source]
        if isinstance(req, RecvReq):  # who fed this receive before is who it waits for now
            fed = {src for (src, _sa, dst, da) in self.edges if dst == p.pid and da == req.aau.id}
            if fed:
                return [q for q in blocked if q.pid in fed]
        if isinstance(req, CollReq):
            return [q for q in blocked if q is not p and not isinstance(q.request, CollReq)]
        if isinstance(req, RecvReq) and req.tag is not None:
            return [q for q in blocked if q is not p and _can_use_tag(q, "send", req.tag)]
        return [q for q in blocked if q is not p]

    def _mismatches(self, blocked: list[Process]) -> set[int]:
        """A receive that waits while a message for it sits unmatched: their type/tag or
        source never agree."""
        out = set()
        for p in blocked:
            req = p.request
            if isinstance(req, WaitReq):
                h = self.handles.get((p.pid, req.handle))
                req = h["recv"] if h and "recv" in h else None
            if not isinstance(req, RecvReq):
                continue
            if req.tag is None:
                continue
            # A message of another type waits for p, and either nothing can ever send the type
            # p waits for, or its sender in turn waits for p: the types never agree. (Otherwise
            # a send is missing, which the wait-for graph reports.)
            unsendable = not any(_can_use_tag(q, "send", req.tag) for q in self.processes)
            later_use = _tags_of(p, "recv")[0]  # types p's own later receives name
            pending = [m for m in self.messages if m.dst == p.pid and m.tag != req.tag and (
                unsendable or (m.tag not in later_use and isinstance(m.src, Process)
                               and m.src in blocked and p in self._waits_for(m.src, blocked)))]
            if not pending:
                continue
            m = pending[0]
            want = "any type" if req.tag is None else f"type/tag {req.tag}"
            src = "" if req.source is None else f" from {self._label(req.source)}"
            self.problems.append(Problem(
                "mismatch",
                f"{p.label} waits for {want}{src} in {req.aau.call.name} at {_at(req.aau.loc)}, "
                f"but {m.src.label} sent it type/tag {m.tag} in {m.send_aau.call.name} at "
                f"{_at(m.send_aau.loc)}: they never match",
                [m.send_aau.loc, req.aau.loc]))
            self.messages.remove(m)
            out.add(p.pid)
        return out

    def _broken_collectives(self, blocked: list[Process]) -> set[int]:
        out = set()
        for k, inst in sorted(self.collectives.items()):
            req = next(iter(inst.values()))[1]
            missing = [i for i in range(self.nprocs) if i not in inst]
            why = []
            for i in missing:
                q = next((x for x in self.processes if x.pid == i), None)
                if q is None or q.state == "done":
                    why.append(f"{self._label(i)} (finished)")
                else:
                    why.append(f"{self._label(i)} (waiting in {_describe(q.request)} at "
                               f"{_at(q.request.aau.loc)})")
            self.problems.append(Problem(
                "collective",
                f"{req.aau.call.name} at {_at(req.aau.loc)} is reached by "
                f"{', '.join(self._label(i) for i in sorted(inst))} but never by {', '.join(why)}",
                [r.aau.loc for _, r, _ in inst.values()]))
            out.update(inst)
        self.collectives.clear()
        return out

    def _leftovers(self) -> None:
        self._broken_collectives([])
        labels = {q.pid: q for q in self.processes}
        for (pid, handle), h in self.handles.items():
            p = labels.get(pid)
            if p is None or p.library != "mpi" or p.state != "done":
                continue
            a = h["aau"]
            self.problems.append(Problem(
                "unwaited",
                f"{p.label}: the request {handle} of {a.call.name} at line {a.loc.line} is never "
                "completed (MPI_WAIT or MPI_WAITALL): its buffer is never safe to reuse",
                [a.loc]))
        delays = [d for d in self.contention.values() if d > 0]
        if delays:
            self.notes.append(
                f"link contention: {len(delays)} messages shared links with others on the way "
                f"and arrived up to {max(delays) * 1e6:.3f} us later (cs.spec.contention: none "
                "gives the paper's contention-free model)")
        for m in self.messages:
            dst = self._label(m.dst)
            self.problems.append(Problem(
                "unmatched",
                f"{m.src.label} sends type/tag {m.tag} to {dst} at line {m.send_aau.loc.line}, "
                "but no receive ever takes it",
                [m.send_aau.loc]))

    def _label(self, pid: int) -> str:
        for p in self.processes:
            if p.pid == pid:
                return p.label
        return "the host" if pid == HOST_ID else f"node {pid}"


class _Relay:
    """A node forwarding a broadcast: it sends on the original sender's behalf."""

    def __init__(self, pid: int, origin: Process):
        self.pid = pid
        self.label = f"node {pid} (relaying for {origin.label})"


def _same_log(a: list, b: list) -> bool:
    if len(a) != len(b):
        return False
    for (k1, v1), (k2, v2) in zip(a, b):
        if k1 != k2 or v1 is UNKNOWN or v2 is UNKNOWN or not (v1 == v2):
            return False
    return True


def _cycle_of_waits(graph: nx.DiGraph) -> list[int]:
    """The processes of the largest set that wait only on each other, in the order of a cycle
    through them (ascending ranks when they form one, as in a ring that receives first)."""
    sccs = [c for c in nx.strongly_connected_components(graph)
            if len(c) > 1 or any(graph.has_edge(n, n) for n in c)]
    if not sccs:
        return []
    members = sorted(max(sccs, key=len))
    ring = all(graph.has_edge(a, b) for a, b in zip(members, members[1:] + members[:1]))
    if ring or len(members) == 1:
        return members
    return [a for a, _ in nx.find_cycle(graph.subgraph(members))]


def _tags_of(p: Process, op: str) -> tuple[frozenset[int], bool]:
    """The message types/tags the sends (or receives) of ``p``'s program can use: the constant
    ones, and whether some are computed (or a wildcard) and so could be any."""
    key = (p.program.name, op)
    memo = p.aag.__dict__.setdefault("_tags_of", {})  # per AAG: the programs do not change
    if key in memo:
        return memo[key]
    tags, any_tag, seen, todo = set(), False, set(), [p.program.name]
    while todo:
        unit = p.aag.units[todo.pop()]
        if unit.name in seen:
            continue
        seen.add(unit.name)
        for a in unit.walk():
            if isinstance(a, A.Call):
                todo.append(a.callee)
            if not isinstance(a, A.Comm) or a.call.op not in (op, "sendrecv"):
                continue
            if a.call.op == "sendrecv":
                e = a.arg("sendtag" if op == "send" else "recvtag")
            else:
                e = a.arg("type") if a.arg("type") is not None else a.arg("tag")
            v = numeric_value(e, unit.symbols) if e is not None else 0
            if isinstance(v, int) and v >= 0:
                tags.add(v)
            else:
                any_tag = True
    memo[key] = result = (frozenset(tags), any_tag)
    return result


def _can_use_tag(p: Process, op: str, tag: int) -> bool:
    tags, any_tag = _tags_of(p, op)
    return any_tag or tag in tags


def _wire_start(depart, cost: _Cost) -> float:
    """When a message's bytes start to move: after its startup and its route latency."""
    return as_time(depart) + cost.startup + (cost.transmission - cost.wire)


def _eager(a: A.AAU) -> bool:
    """MPI sends (and MPI collectives' messages) are eager: the sender is free after the
    startup, the message still arrives after its transmission. NX/2 keeps the paper's model."""
    call = getattr(a, "call", None)
    return call is not None and call.library == "mpi"


def _at(loc: SourceLocation) -> str:
    return f"{loc.file}:{loc.line}:{loc.column}"


def _describe(req: Request) -> str:
    a = req.aau
    name = a.call.name if getattr(a, "call", None) else a.type
    if isinstance(req, RecvReq):
        who, kind = ("rank", "tag") if req.process.library == "mpi" else ("node", "type")
        src = f"any {who}" if req.source is None else f"{who} {req.source}"
        tag = f"any {kind}" if req.tag is None else f"{kind} {req.tag}"
        return f"{name} (from {src}, {tag})"
    return name
