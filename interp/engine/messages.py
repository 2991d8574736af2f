"""The time of one message: the one place where the communication model is read and changed.

The paper's model (Figure 11, Table 3): the sender pays its call overhead (``startup``) and the
transmission (``per_byte·size + per_hop·hops``); the message arrives when both are done; the
receiver pays ``max(0, arrival − τ)`` waiting and its own call overhead (``receive``). On top:

* **overlap** (§3.4.2): a communication AAU costs ``(1 − f_overlap)·t_comm``, per kind
  (``sync_send``, ``async_send``, ``recv``) from the spec's ``cs.overlap``;
* **eager** MPI sends: the sender is free after its startup; the message still arrives after
  its transmission (NX/2 keeps the paper's blocking csend);
* **rendezvous** MPI sends, above the spec's ``cs.spec.eager_threshold``: the data leaves once
  the matching receive is posted, at ``max(τ_send + startup, τ_recv)``, and the send completes
  when it has arrived (:meth:`MessageModel.rendezvous`, ``Scheduler._handshake``);
* **contention** (:mod:`interp.engine.network`): messages that cross a link at the same time
  share it, so one may arrive later than it would alone (``Message.contention``).

``MessageModel.time`` gives a message's parts; ``sender_reply`` and ``receiver_reply`` turn
them into the δ of the sending and the receiving AAU. The scheduler asks; it never recomputes.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import sympy as sp

from interp.application import aau as A
from interp.application.expr import as_sympy
from interp.engine.network import MustDefer, Network, route_links
from interp.engine.requests import Reply, SendReq
from interp.engine.timeval import Lin, Time, as_time, is_symbolic, later, symbol_names
from interp.errors import InterpError
from interp.system import (
    HOST, SAG, channel, contention, crossbar, eager_threshold, message_cost, message_seconds,
    overlap_fraction, route,
)
from interp.system.filter import any_source, rendezvous_cost

ZERO = 0.0


@dataclass(frozen=True)
class MessageTime:
    """One message's time in named parts (numeric parts as floats: the fast path)."""

    startup: Time  # the sender's call overhead
    transmission: Time  # per_byte·size + per_hop·hops
    wire: Time  # per_byte·size: the part that occupies the links (see network.py)
    receive: Time  # the receiver's call overhead

    @property
    def hops(self) -> Time:
        """per_hop·hops: the route's latency, which links do not share."""
        return self.transmission - self.wire


@dataclass(slots=True)  # one per message in flight: no instance dict
class Message:
    """A message in flight (the global synchronization structure's record of it)."""

    id: int
    src: object  # the sending Process (or a node relaying a broadcast for it)
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
    contention: float = 0.0  # how much later than alone shared links made it arrive
    comm: int | None = None  # MPI communicator handle: only its receives match it
    rank: int | None = None  # the sender's rank in that communicator (MPI_SOURCE)
    rendezvous: SendReq | None = None  # its send, while it waits for the receive (no arrival yet)
    heard: object = None  # a tree broadcast's: the latest entry of the members its data left

    @property
    def status(self) -> tuple[int, int, sp.Expr]:
        """What its receive (or probe) tells the program: source, tag, bytes."""
        return self.src.pid if self.rank is None else self.rank, self.tag, self.size


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


RENDEZVOUS_CALLS = ("MPI_SEND", "MPI_ISEND", "MPI_RSEND", "MPI_BCAST")  # (MPI_BCAST: its tree's sends)
BLOCKING_SENDS = ("MPI_SEND", "MPI_RSEND", "MPI_BCAST")  # wait in the call for a rendezvous
SYNCHRONOUS_MODE = ("MPI_SSEND", "MPI_ISSEND")  # rendezvous at any size (MPI 3.1 §3.4)


def is_eager(a: A.AAU) -> bool:
    """MPI sends (and MPI collectives' messages) are eager: the sender is free after the
    startup, the message still arrives after its transmission. NX/2 keeps the paper's model."""
    call = getattr(a, "call", None)
    return call is not None and call.library == "mpi"


MAX_FLOWS = 200_000  # flows noted for MessageModel.apart_at, at most
PURGE_EVERY = 4096  # flows added between two purges of the network, at least


class MessageModel:
    """Messages on one machine configuration: their time, their overlap, their links."""

    def __init__(self, sag: SAG, nprocs: int, bound: str, host_id: int, timing: bool = True,
                 defer: int = 0, exact: bool = False):
        self.sag, self.nprocs, self.bound, self.host_id = sag, nprocs, bound, host_id
        # the exact mode prices link sharing by the whole-component reference
        self.network = Network(channel(sag), defer, incremental=not exact) \
            if contention(sag) and timing else None
        self.crossbar = crossbar(sag)
        self.threshold = eager_threshold(sag)
        self.transfer_only = rendezvous_cost(sag) == "transfer"
        self.match_posted = any_source(sag) == "posted"
        self.notes: list[str] = []
        self.assumptions: list[sp.Basic] = []  # eager sends of symbolic size: size <= threshold
        self._routes: dict[tuple[int, int], list[int]] = {}  # (collectives')
        # a pair's links, share weight and what its time depends on (the route's length, the
        # host link), kept instead of its route: one tuple of links for every message of the
        # pair, each link one object for every pair that crosses it (``_link``)
        self._pairs: dict[tuple[int, int], tuple[tuple, float, int, bool]] = {}
        self._links: dict[tuple, tuple] = {}
        self._times: dict[tuple, MessageTime] = {}
        self._last_time: tuple = (None,) * 5  # (src, dst, size, synchronous, its time)
        self._overlaps: dict[str, float] = {}
        self._in_flight: dict[int, Message] = {}  # messages whose flow is open, by id
        self._added, self._purge_at = 0, PURGE_EVERY  # flows put on links; the next purge
        self.delays: dict[int, float] = {}  # message id → contention delay, once delayed
        # those of collectives' messages, by (collective, round, src, dst): a collective
        # priced again with the next one (``collectives.Stage``) updates its own
        self.collective_delays: dict[tuple, float] = {}
        # chains of collectives.Stage, one per set of members: flows the next collective of
        # the same members may share (collectives on other communicators leave them open)
        self.open_collectives: list[list] = []
        self.open_mark: tuple | None = None  # messages (sent, in flight) when they were priced
        self.serial = 0  # collectives priced on the links
        # the symbols in the times of messages whose link sharing was not priced (which
        # messages overlap is not decided for all their values): predict interprets again
        # with the values it has for them, so the formula at a point is the numeric result
        self.unpriced: set[str] = set()
        # every flow the links carry or were left (links, start, wire, sender; times may be
        # symbolic), until a steady-state jump moves flows or there are too many: whether
        # any two can meet at the inputs given is then decided here (``apart_at``), not by
        # interpreting again with numbers
        self.flows: list[tuple] | None = [] if self.network is not None else None
        self.repeats: list[tuple] = []  # steady-state jumps: ``repeat``
        self._ids = 0

    def new_id(self) -> int:
        self._ids += 1
        return self._ids

    def where(self, pid: int) -> int:
        return HOST if pid == self.host_id else pid

    def route(self, src: int, dst: int) -> list[int]:
        key = (src, dst)
        if key not in self._routes:
            self._routes[key] = route(self.sag, self.where(src), self.where(dst), self.nprocs)
        return self._routes[key]

    # ---- the time of one message ----
    def time(self, src: int, dst: int, size: sp.Expr, synchronous: bool) -> MessageTime:
        """A message's parts; they depend on the route only through its length and whether
        it crosses the host link, so they are memoised on those (and the last one asked for:
        a send asks twice, GlobalSync.post and sender_reply)."""
        last = self._last_time
        if last[0] == src and last[1] == dst and last[2] is size and last[3] is synchronous:
            return last[4]
        t = self._time(src, dst, size, synchronous)
        self._last_time = (src, dst, size, synchronous, t)
        return t

    def pair(self, src: int, dst: int) -> tuple[tuple, float, int, bool]:
        """A pair's route as the messages need it: its links, its share weight, its length
        and whether it crosses the host link (the route itself is not kept: ~0.3 KB a
        pair at large P)."""
        key = (src, dst)
        known = self._pairs.get(key)
        if known is None:
            path = route(self.sag, self.where(src), self.where(dst), self.nprocs)
            interned = self._links
            links = tuple(interned.setdefault(link, link)
                          for link in route_links(path, self.crossbar))
            known = self._pairs[key] = (links, self.weight(path), len(path), HOST in path)
        return known

    def _time(self, src: int, dst: int, size: sp.Expr, synchronous: bool) -> MessageTime:
        _, _, length, host = self.pair(src, dst)
        key = (length, host, size, synchronous)
        t = self._times.get(key)
        if t is None:
            c = message_cost(self.sag, self.where(src), self.where(dst), self.nprocs, size,
                             self.bound, synchronous=synchronous)
            wire = message_seconds(self.sag, size, 0, self.bound, synchronous=synchronous,
                                   sau=self.sag.host_link if host else None)
            t = self._times[key] = MessageTime(as_time(c.startup), as_time(c.transmission),
                                               as_time(wire.transmission), as_time(c.receive))
        return t

    def sizes(self) -> set[int]:
        """The sizes (bytes) of the messages priced, those that are numbers: what an export to
        SimGrid must price exactly (``interp validate``)."""
        return {int(k[2]) for k in self._times if isinstance(k[2], (int, sp.Integer))}

    def rendezvous(self, req: SendReq) -> bool:
        """Is this an MPI standard send (MPI_SEND, MPI_ISEND, MPI_RSEND) of more bytes than
        the spec's eager threshold? MPI_BSEND buffers, and MPI_SENDRECV's send stays eager
        (a sendrecv cannot block on its own send). MPI_SSEND and MPI_ISSEND complete only
        once their receive has started: rendezvous at any size."""
        call = getattr(req.aau, "call", None)
        if call is not None and call.name in SYNCHRONOUS_MODE and len(req.dests) == 1:
            return True
        if self.threshold is None or call is None or len(req.dests) != 1 or \
                call.name not in RENDEZVOUS_CALLS or getattr(req.aau, "sendrecv", False):
            return False
        if isinstance(req.size, (int, sp.Integer)):  # (a number: without SymPy's comparison)
            return int(req.size) > self.threshold
        limit = sp.Integer(int(self.threshold)) if float(self.threshold).is_integer() \
            else sp.Float(self.threshold)
        eager = as_sympy(req.size) <= limit
        if eager in (sp.true, sp.false):
            return eager == sp.false
        # a size in symbols: eager, as an assumption (a given value that breaks it is
        # interpreted with its value: predict._violated)
        self.assumptions.append(eager)
        note = (f"{call.name} at line {req.aau.loc.line} is taken to be eager ({req.size} <= "
                f"{self.threshold:g} B, the eager threshold); above it, it would wait for its "
                "receive: give the sizes' inputs with --set to decide")
        if note not in self.notes:
            self.notes.append(note)
        return False

    def handshake_time(self, t: MessageTime, blocking: bool) -> MessageTime:
        """A rendezvous message's parts. ``rendezvous_cost: overheads`` (the default): those of
        any message of its size. ``transfer`` (SMPI 3.32's rendezvous): its receive pays no
        call overhead (SMPI's ``smpi/or`` is for detached sends only), and a ``blocking``
        standard send (MPI_SEND, MPI_RSEND, a tree broadcast's send) no startup either
        (``smpi/os`` likewise): its data leaves when sender and receive are both there."""
        if not self.transfer_only:
            return t
        return MessageTime(ZERO if blocking else t.startup, t.transmission, t.wire, ZERO)

    def collective_time(self, src: int, dst: int, size: sp.Expr, blocking: bool) -> MessageTime:
        """A collective's message: rendezvous above the eager threshold, as a point-to-point
        send of that size (``handshake_time``); ``blocking``: the algorithm sends it with a
        blocking send (SMPI's binomial reduce, linear scatter and gather), not a sendrecv."""
        t = self.time(src, dst, size, True)
        return self.handshake_time(t, blocking) if self.collective_rendezvous(size) else t

    def collective_rendezvous(self, size: sp.Expr) -> bool:
        """Is a collective's message of ``size`` bytes above the eager threshold (a number:
        a symbolic size is eager, as a point-to-point send's is taken to be)?"""
        return self.threshold is not None and isinstance(size, (int, float, sp.Number)) \
            and float(size) > self.threshold

    def overlap(self, kind: str) -> float:
        """1 − f_overlap: the part of a communication's time not hidden behind computation."""
        if kind not in self._overlaps:
            try:
                f = overlap_fraction(self.sag, kind, bound=self.bound)
            except InterpError:
                f = 0
                self.notes.append(f"the spec gives no {self.sag.nodes}.cs.overlap.{kind}: "
                                  "no overlap was assumed for it (f_overlap = 0)")
            self._overlaps[kind] = as_time(1 - f)
        return self._overlaps[kind]

    def sender_reply(self, req: SendReq, tau: sp.Expr, done: sp.Expr,
                     waited: sp.Expr | None = None, delay: float = 0.0) -> tuple[Reply, sp.Expr]:
        """The sending AAU's δ from τ (its call overhead and transmission, after overlap), and
        when the send is complete (what an isend's wait waits for). ``waited``: the seconds
        before τ it waited for a static buffer at the receiver; ``delay``: how much later than
        alone link sharing made its message(s) through (within ``done``)."""
        t = self.time(req.process.pid, req.dests[0], req.size, req.synchronous)
        if not req.synchronous:  # isend: returns after the startup; the wait sees the rest
            end = tau + t.startup * self.overlap("async_send")
            # an eager MPI_ISEND is complete once its data is copied out, when MPI_SEND would
            # return (its startup), not when the message arrives; NX/2's isend keeps the
            # paper's model (its msgwait sees the transmission)
            return Reply(end=end, parts={"call": end - tau}), \
                tau + t.startup if is_eager(req.aau) else done
        f = self.overlap("sync_send")
        call = t.startup * f if len(req.dests) == 1 else ZERO
        # NX/2 csend returns once the message is out (the paper's model: startup +
        # transmission); an MPI standard send is eager: it returns after its startup.
        trans = ZERO if is_eager(req.aau) else (done - tau) * f - call
        parts = {"call": call, "transmission": trans}
        reply = Reply(end=tau + call + trans, parts=parts)
        if waited is not None:  # the receiver had not freed a buffer yet: idle
            parts["waiting"] = waited
            reply.idle = (tau - waited, tau)
        if delay and not is_symbolic(trans):
            reply.contention = min(delay * as_time(f), as_time(trans))
        return reply, done

    def wait_parts(self, start: sp.Expr, end: sp.Expr, ready: sp.Expr,
                   delay: float) -> tuple[tuple[float, float] | None, float]:
        """How a wait from ``start`` to ``end`` for a message splits, for lost-cycles analysis:
        the interval it idles (before ``ready``, when the message's data could start to move:
        its partner was not there yet) and the seconds of link-sharing ``delay`` in it (the
        last part of the wait). Numbers only: (None, 0) for symbolic times."""
        if any(is_symbolic(x) for x in (start, end, ready)):
            return None, ZERO
        start, end, ready = as_time(start), as_time(end), as_time(ready)
        idle_end = min(end, ready)
        idle = (start, idle_end) if idle_end > start else None
        return idle, max(ZERO, end - max(start, idle_end, end - delay))

    def receiver_reply(self, m: Message, clock: sp.Expr, overlap: bool = True) -> Reply:
        """The receiving AAU's δ: waiting ``max(0, arrival − τ)``, then its call overhead."""
        ready = later(clock, m.arrival)
        call = m.receive * self.overlap("recv") if overlap else m.receive
        idle, delay = self.wait_parts(clock, ready, m.depart, m.contention)
        sync = ZERO
        if m.heard is not None:  # a collective's message: its wait for members not yet there
            idle, sync, delay = self.collective_parts(clock, ready, m.heard, m.contention)
        return Reply(end=ready + call, parts={"waiting": ready - clock, "call": call},
                     payload=m.payload,
                     status=m.status,
                     idle=idle, sync=sync, contention=delay)

    def probe_reply(self, m: Message, clock: sp.Expr) -> Reply:
        """MPI_PROBE's δ: it returns when the message is there, with its status (no call
        overhead of its own: the receive that takes the message pays it)."""
        # (a rendezvous send's data waits for the receive; its envelope is there once posted)
        ready = later(clock, m.depart if m.rendezvous is not None else m.arrival)
        idle, delay = self.wait_parts(clock, ready, m.depart, m.contention)
        return Reply(end=ready, parts={"waiting": ready - clock}, status=m.status, idle=idle,
                     contention=delay)

    @staticmethod
    def collective_parts(start, end, heard, delay) -> tuple[None, float, float]:
        """A wait from ``start`` to ``end`` for a collective's message, as a collective's δ
        splits (collectives._lost_parts): ``sync`` until ``heard``, the latest entry of the
        members whose data it brings, then the link-sharing ``delay`` in the rest. Numbers
        only: (None, 0, 0) for symbolic times."""
        if any(is_symbolic(x) for x in (start, end, heard)):
            return None, ZERO, ZERO
        start, end, heard = as_time(start), as_time(end), as_time(heard)
        sync = max(min(end, heard) - start, ZERO)
        return None, sync, min(max(delay, ZERO), end - start - sync)

    # ---- links ----
    def contend(self, msg: Message, t: MessageTime, floor) -> None:
        """Put the message's bytes on its route's links: messages crossing a link at the
        same time share it, so this one and those sharing links with it may arrive later.
        Messages with symbolic times are left alone (their overlap is not decided), their
        symbols noted (``unpriced``). ``floor()``: the earliest clock of a live process
        (nothing happens before it)."""
        if self.network is None:
            return
        links, weight, _, _ = self.pair(msg.src.pid, msg.dst)
        if self.left_unpriced(msg.depart, t.startup, t.transmission, t.wire):
            self.record(links, msg.depart + t.startup + t.hops, t.wire, msg.src.pid)
            return
        start = wire_start(msg.depart, t)
        self.record(links, start, t.wire, msg.src.pid)
        msg.alone = (as_time(msg.arrival), start + t.wire)
        self._in_flight[msg.id] = msg
        for key, end in self.network.add(msg.id, links, start, t.wire, weight,
                                         msg.src.pid).items():
            m = self._in_flight[key]
            m.contention = max(end - m.alone[1], 0.0)
            m.arrival = m.alone[0] + m.contention
            if m.contention > 0 or key in self.delays:
                self.delays[key] = m.contention
        if self.network.needs > self.network.defer:  # what is left of this run is wasted
            raise MustDefer(self.network.needs)
        self._added += 1
        if self._added >= self._purge_at:  # close flows that no message can share any more
            floor_ = floor()
            kept = self.network.forget_before(floor_) if floor_ is not None else self._added
            # the next purge after as many more flows as this one kept: each costs what it
            # scans, so the purges stay linear in the messages even when nothing can be
            # dropped (a ring keeps its first lap until its last rank receives)
            self._purge_at = self._added + max(PURGE_EVERY, kept)

    def record(self, links: tuple, start, wire, sender) -> None:
        """Note a flow for ``apart_at`` (none once it cannot tell)."""
        if self.flows is None or not links:
            return
        if len(self.flows) >= MAX_FLOWS:
            self.flows = None
            return
        self.flows.append((links, start, wire, sender))

    def apart_at(self, values: dict[str, sp.Expr]) -> bool:
        """Can no message be delayed by link sharing at ``values`` (names of the symbols in
        the flows' times)? True when no message was delayed in this run and, with the flows'
        times at ``values``, no two flows on a link, nor two of one sender (fifo queues its
        flows), are on the wire at the same time: a numeric run, whose flows are among these
        at those values, then prices every flow alone. A steady-state jump's periods are
        copies of the one before it shifted by its Δ: only the copies near the flows before
        and after the jump, and as many as one period's flows span, can meet anything, and
        those are checked. False when it cannot tell (more than one jump, processes that
        shift apart, a time that is not a number there, two flows that come close)."""
        if self.flows is None or self.delayed() or (self.network and self.network.violated) \
                or len(self.repeats) > 1:
            return False
        cache: dict = {}
        flows: list[tuple | None] = []  # (the links and the sender's queue, start, end)
        for links, start, wire, sender in self.flows:
            a, w = _at(start, values, cache), _at(wire, values, cache)
            if a is None or w is None:
                return False
            # (a flow on no link, or of no bytes, the network leaves alone)
            flows.append(((*links, ("sender", sender)), a, a + w) if w > 0 else None)
        for since, until, d, m in self.repeats:
            copies = _copies(flows, since, until, _at(d, values, cache), _at(m, values, cache))
            if copies is None:
                return False
            flows += copies
        return _apart([f for f in flows if f is not None])

    def left_unpriced(self, *times) -> bool:
        """Are any of a message's ``times`` symbolic? Then its link sharing is not priced,
        and their symbols are noted in ``unpriced``."""
        symbolic = [x for x in times if is_symbolic(x)]
        for x in symbolic:
            self.unpriced.update(symbol_names(x))
        return bool(symbolic)

    def settled(self, m: Message, free_clock) -> bool:
        """May ``m`` be received: is its arrival final? It is once no later message of its
        sender can share a link with it (``Network.settle_one``); ``free_clock(pid)``: the
        clock of a process that can still send without first receiving, else None."""
        if self.network is None or m.id not in self._in_flight:
            return True
        if not self.network.settle_one(m.id, free_clock):
            return False
        del self._in_flight[m.id]
        return True

    def shift(self, d) -> None:
        """A steady-state jump of ``d`` seconds: the flows in flight move with the messages
        (or, when ``d`` is symbolic, are forgotten: later messages cannot be compared with
        them)."""
        if self.network is None:
            return
        if is_symbolic(d):
            self._drop()
            return
        d = as_time(d)
        self.network.shift(d)
        for chain in self.open_collectives:  # (the next collective may still share links)
            for stage in chain:
                stage.shift(d)
        for msg in self._in_flight.values():
            msg.alone = (msg.alone[0] + d, msg.alone[1] + d)

    def repeat(self, since: int, until: int, d, m) -> None:
        """A steady-state jump: the flows noted from ``since`` to ``until`` (one period)
        recur ``m`` more times, each ``d`` seconds after the one before (for ``apart_at``)."""
        if self.flows is not None:
            self.repeats.append((since, until, d, m))

    def forget(self) -> None:
        """Drop every flow on the links (a jump after which no message is in flight; the
        processes' shifts differ, so which flows recur when is not noted)."""
        self.flows = None
        if self.network is not None:
            self._drop()

    def _drop(self) -> None:
        self.network.forget_before(float("inf"))
        self._in_flight.clear()
        self.open_collectives = []

    def _delays(self) -> list[float]:
        return [d for d in self.delays.values() if d > 0] + [
            d for d in self.collective_delays.values() if d > 0]

    def delayed(self) -> bool:
        """Did link sharing delay any message?"""
        return bool(self._delays())

    def contention_note(self) -> str | None:
        delays = self._delays()
        if not delays:
            return None
        return (f"link contention: {len(delays)} messages shared links with others on the way "
                f"and arrived up to {max(delays) * 1e6:.3f} us later (cs.spec.contention: none "
                "gives the paper's contention-free model)")

    def weight(self, path: list[int]) -> float:
        """A flow's share weight: its route length (SimGrid CM02's latency penalty); the ports
        of a crossbar are all alike."""
        return 1.0 if self.crossbar else max(len(path) - 1, 1)


def _at(x, values: dict[str, sp.Expr], cache: dict) -> float | None:
    """The time ``x`` at ``values`` (None: not a number there); ``cache``: the monomials'."""
    if not is_symbolic(x):
        return as_time(x)
    lin = Lin.of(x)
    total = lin.c
    for m, k in lin.terms.items():
        v = cache.get(m)
        if v is None:
            v = as_sympy(as_sympy(m).xreplace({s: values[s.name] for s in m.free_symbols
                                                if s.name in values}))
            v = cache[m] = float(v) if v.is_number else False
        if v is False:
            return None
        total += k * v
    return total


def _copies(flows: list, since: int, until: int, d: float | None,
            m: float | None) -> list[tuple] | None:
    """The copies of one period's flows (``flows[since:until]``) a jump of ``m`` periods of
    ``d`` seconds stands for that can meet another flow: the first ones (near the flows
    before, and each other: a period's flows meet their copies only within their span) and
    the last ones (near the flows after). None when there is no such bound."""
    if d is None or m is None or d <= 0:
        return None
    m = round(m)
    period = [f for f in flows[since:until] if f is not None]
    if m <= 0 or not period:
        return []
    before = [f for f in flows[:until] if f is not None]
    after = [f for f in flows[until:] if f is not None]
    first, last = min(f[1] for f in period), max(f[2] for f in period)
    early = math.ceil((max(f[2] for f in before) - first) / d) + 1
    late = math.ceil((last + m * d - min(f[1] for f in after)) / d) + 1 if after else 0
    ks = set(range(1, min(m, early) + 1)) | set(range(max(1, m - late), m + 1))
    if len(ks) * len(period) > MAX_FLOWS:
        return None
    return [(keys, a + k * d, b + k * d) for k in sorted(ks) for keys, a, b in period]


def _apart(flows: list[tuple]) -> bool:
    """Are no two ``(keys, start, end)`` flows that share a key on the wire at once?"""
    spans: dict[object, list[tuple[float, float]]] = {}
    for keys, a, b in flows:
        for key in keys:
            spans.setdefault(key, []).append((a, b))
    for intervals in spans.values():
        intervals.sort()
        end = -math.inf
        for a, b in intervals:
            # round-off between this run's sums and a numeric run's: a margin, on the side
            # of running it
            if a < end + 1e-9 * max(1.0, abs(end)):
                return False
            end = max(end, b)
    return True


def wire_start(depart, t: MessageTime) -> float:
    """When a message's bytes start to move: after its startup and its route latency."""
    return as_time(depart) + t.startup + t.hops

