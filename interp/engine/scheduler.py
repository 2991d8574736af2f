"""Algorithm 2 (core paper §3.4.1) over the processes, with the global synchronization structure.

Each active chain (process) is interpreted until an AAU cannot be evaluated for want of
synchronization; the scheduler then moves to the next active chain. A process hands the
scheduler a request (:mod:`interp.engine.requests`); :meth:`Scheduler.serve` answers it at once
or when its partner arrives. Where the parts live:

* the time of one message: :mod:`interp.engine.messages` (``MessageModel``);
* static message buffers: :mod:`interp.engine.buffers`;
* broadcasts and global operations: :mod:`interp.engine.collectives`;
* the steady state of communicating loops: :mod:`interp.engine.steady`;
* why chains cannot finish, and what is left over: :mod:`interp.engine.diagnosis`.

Waiting is ``max(0, arrival − τ)``, decided whenever the order is fixed for every admissible
input, kept as ``Max`` only where either side can really be late.
"""

from __future__ import annotations

import heapq
from collections.abc import Iterator, Sequence
from typing import Callable

from interp import collector
from interp.engine import collectives
from interp.engine.buffers import BLOCKED
from interp.engine.diagnosis import check_sizes, diagnose_hang, leftovers
from interp.engine.edges import CommEdge
from interp.engine.foldvalues import folded_key
from interp.engine.messages import BLOCKING_SENDS, Message, MessageTrace
from interp.engine.network import EVERYONE
from interp.engine.omega import run_chain
from interp.engine.process import HOST_ID, Process
from interp.engine.requests import (
    AbortReq, CollReq, LoopHead, RecvReq, Reply, Request, SendReq, SpawnReq, WaitReq,
)
from interp.engine.steady import SteadyState
from interp.engine.sync import GlobalSync, Problem
from interp.engine.timeval import as_time, earliest, is_symbolic, later
from interp.errors import InterpError
from interp.system import SAG

ZERO = 0.0


class Scheduler(GlobalSync):
    """Algorithm 2 over the global synchronization structure it extends."""

    def __init__(self, sag: SAG, nprocs: int, bound: str, spawner, extend: bool = True,
                 timing: bool = True, defer: int = 0, exact: bool = False):
        super().__init__(sag, nprocs, bound, timing, defer, exact)
        self.spawner = spawner  # (program, dests, start) -> list[Process]
        self.chain = run_chain  # a process's chain: Ω, or a class's replay (classes.py)
        self.extend = extend
        self.coll_count: dict[tuple[int, int], int] = {}  # (pid, communicator) → collectives
        self.steady = SteadyState(self)
        self.index: dict[int, list[int]] = {}  # pid → its place(s) in ``processes``
        self.full_senders: list[SendReq] = []  # static-buffer sends waiting for a buffer
        self.serve_table: dict[type, Callable[[Request], Reply | None]] = {
            LoopHead: self._loop_head, SpawnReq: self._spawn, SendReq: self._send,
            RecvReq: self._recv, WaitReq: self._wait, CollReq: self._collective,
            AbortReq: self._abort,
        }

    # ---- driving ----
    def add(self, p: Process) -> None:
        """Activate ``p``'s chain (the generator Ω makes of its main program)."""
        p.gen = self.chain(p)
        if self.trace is not None:
            p.trace = []
        self.index.setdefault(p.pid, []).append(len(self.processes))
        self.processes.append(p)
        self.by_pid[p.pid] = p
        self.receives.setdefault(p.pid, [])

    def run(self) -> None:
        try:
            with collector.off():  # every rank's state lives until the end
                self._run()
        finally:
            self.steady.stop()

    def _run(self) -> None:
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
                jump = self.steady.cut(live)
                for p in paused:
                    self._step(p, Reply(end=p.clock, jump=jump, period=self.steady.period))
                continue
            diagnose_hang(self, live)
            break
        leftovers(self)
        self.notes.extend(n for n in self.msgs.notes if n not in self.notes)
        self.assumptions.extend(self.msgs.assumptions)
        note = self.msgs.contention_note()
        if note:
            self.notes.append(note)

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
            reply = self.serve(req)
            if reply is None:
                return  # blocked or paused

    def serve(self, req: Request) -> Reply | None:
        """Answer a process's request now, or return None: it waits (``p.state``)."""
        return self.serve_table[type(req)](req)

    def _wait_for(self, req: Request, state: str = "blocked") -> None:
        req.process.state, req.process.request = state, req

    def _loop_head(self, req: LoopHead) -> Reply | None:
        if not self.extend or folded_key(req.aau) in req.process.inputs.unfolded:
            return Reply(end=req.process.clock)
        self._wait_for(req, "paused")
        return None

    def _spawn(self, req: SpawnReq) -> Reply:
        p = req.process
        sau = self.sag.host if p.pid == HOST_ID else self.sag.nodes
        load = f"{sau}.p.nx.load"
        cost = as_time(self.sag.seconds(load, self.bound)) if self.sag.has(load) else ZERO
        end = p.clock + cost
        for child in self.spawner(req.program, req.dests, end, req.aau):
            self.add(child)
        return Reply(end=end, parts={"call": cost})

    def _recv(self, req: RecvReq) -> Reply | None:
        p = req.process
        req.posted = p.clock
        self.receives[p.pid].append(req)
        if not req.synchronous:
            self.handles[(p.pid, req.handle or "")] = {"recv": req, "message": None, "aau": req.aau}
            return Reply(end=p.clock)
        self._wait_for(req)
        return None

    def _collective(self, req: CollReq) -> None:
        """A collective waits for every member of its communicator: the k-th collective of
        each member on that communicator is the same operation."""
        p = req.process
        comm = req.comm.handle if req.comm is not None else -1
        k = self.coll_count.get((p.pid, comm), 0)
        self.coll_count[(p.pid, comm)] = k + 1
        self.collectives.setdefault((comm, k), {})[p.pid] = (p, req, p.clock)
        self._wait_for(req)
        return None

    def _abort(self, req: AbortReq) -> None:
        """MPI_ABORT: every process ends where it is; nothing pending completes."""
        p = req.process
        loc = req.aau.loc
        self.problems.append(Problem(
            "abort", f"{p.label} calls MPI_ABORT at {loc.file}:{loc.line}:{loc.column}: every "
            "process of the job ends there", [loc]))
        self.notes.append(f"{p.label} calls MPI_ABORT at line {loc.line}: the job ends there, "
                          "and the time is the time until then")
        for q in self.processes:
            if q.state != "done":
                q.state, q.finish = "done", q.clock
                q.gen.close()
        self.messages.clear()
        self.receives = {pid: [] for pid in self.receives}
        self.collectives.clear()
        self.handles.clear()
        self.full_senders.clear()
        return None

    def _send(self, req: SendReq, free_at=None) -> Reply | None:
        """A send; ``free_at``: when a static buffer freed up for a sender that had to wait."""
        p = req.process
        bad = [d for d in req.dests if not (d == HOST_ID or 0 <= d < self.nprocs)]
        if bad:
            who = "rank" if p.library == "mpi" else "node"
            raise InterpError(f"{p.label} sends to {who} {bad[0]}, which does not exist with "
                              f"P = {self.nprocs}", req.aau.loc,
                              hint="check the destination expression, or run with more nodes")
        if free_at is None:
            free_at = self._buffer_free_at(req)
            if free_at is BLOCKED:  # every static buffer is taken until receives not yet seen
                self._wait_for(req)
                self.full_senders.append(req)
                return None
        tau = p.clock if free_at is None else later(p.clock, free_at)
        if self.msgs.rendezvous(req):
            return self._rendezvous_send(req)
        if len(req.dests) == 1:
            done = self.post(p, req.dests[0], req, tau)
            delay = self.messages.last.contention  # (its message, the last put in flight)
        else:
            first = self.messages.posted
            done = collectives.nx_broadcast(self, p, req, tau)
            # its own messages leave one after another: their link-sharing delays add up in done
            delay = sum(m.contention for m in self.messages.since(first) if m.src is p)
        reply, send_done = self.msgs.sender_reply(
            req, tau, done, None if free_at is None else tau - p.clock, delay)
        if not req.synchronous:
            self.handles[(p.pid, req.handle or "")] = {"send_done": send_done, "aau": req.aau,
                                                       "ready": tau, "delay": delay}
        return reply

    def _rendezvous_send(self, req: SendReq) -> Reply | None:
        """A send above the eager threshold: its message waits for the matching receive
        (``_handshake``). MPI_SEND blocks until then; MPI_ISEND returns after its startup and
        its wait blocks instead."""
        p = req.process
        req.rendezvous = True
        self.post(p, req.dests[0], req, p.clock, rendezvous=True)
        if req.synchronous:
            self._wait_for(req)
            return None
        self.handles[(p.pid, req.handle or "")] = {"rendezvous": True, "aau": req.aau,
                                                   "dest": req.dests[0]}
        reply, _ = self.msgs.sender_reply(req, p.clock, p.clock)
        return reply

    def _handshake(self, m: Message, rq: RecvReq) -> Callable[[], None]:
        """Rendezvous message ``m`` meets its receive ``rq``: the data leaves at
        max(τ_send + startup, τ_recv posted) and arrives a transmission later; the send
        completes then. Returns what moves the sender on (after the receiver is served)."""
        req, sender = m.rendezvous, m.src
        call = getattr(req.aau, "call", None)
        t = self.msgs.handshake_time(self.msgs.time(sender.pid, m.dst, m.size, True),
                                     call is not None and call.name in BLOCKING_SENDS)
        tau = m.depart
        ready = later(tau + t.startup, rq.posted)
        m.depart, m.arrival, m.rendezvous = ready - t.startup, ready + t.transmission, None
        self.msgs.contend(m, t, self.clock_floor)
        if req.synchronous:  # no overlap: the sender waits in the call until the data is in
            # it idles until the receive is posted; its data may then arrive late (contention)
            idle, delay = self.msgs.wait_parts(tau + t.startup, m.arrival, ready, m.contention)
            reply = Reply(end=m.arrival, parts={
                "call": t.startup, "waiting": ready - tau - t.startup,
                "transmission": m.arrival - ready}, idle=idle, contention=delay)
            return lambda: self._step(sender, reply)
        h = self.handles[(sender.pid, req.handle or "")]
        del h["rendezvous"]
        h.update(send_done=m.arrival, ready=ready, delay=m.contention)

        def wake() -> None:
            w = sender.request
            if sender.state == "blocked" and isinstance(w, WaitReq) and \
                    w.handle == (req.handle or ""):
                self._step(sender, self._wait(w))
        return wake

    def _buffer_free_at(self, req: SendReq):
        if len(req.dests) != 1 or not req.synchronous or not self.buffers.counted():
            return None
        return self.buffers.free_at(req.process.pid, req.dests[0], req.size, req.process.clock,
                                    self.clock_floor)

    def _buffer_freed(self, msg: Message, when) -> None:
        """A static buffer at the receiver was emptied at ``when``: waiting senders retry."""
        self.buffers.release(msg.id, when)
        for req in [r for r in self.full_senders if r.dests[0] == msg.dst]:
            free_at = self._buffer_free_at(req)
            if free_at is not BLOCKED:
                self.full_senders.remove(req)
                self._step(req.process, self._send(req, free_at=free_at or req.process.clock))

    def _wait(self, req: WaitReq) -> Reply | None:
        p = req.process
        h = self.handles.get((p.pid, req.handle))
        if h is None:
            raise InterpError(f"{p.label} waits on {req.handle}, which no isend/irecv started",
                              req.aau.loc, hint="start the message with isend/irecv first")
        if "rendezvous" in h:  # its receive is not posted yet
            self._wait_for(req)
            return None
        if "send_done" in h:
            del self.handles[(p.pid, req.handle)]
            end = later(p.clock, h["send_done"])
            idle, delay = self.msgs.wait_parts(p.clock, end, h["ready"], h["delay"])
            return Reply(end=end, parts={"waiting": end - p.clock}, idle=idle, contention=delay)
        if h["message"] is None:
            self._wait_for(req)
            return None
        return self._complete_async_recv(p, req, h)

    def _complete_async_recv(self, p: Process, req: WaitReq, h: dict) -> Reply:
        del self.handles[(p.pid, req.handle)]
        return self.msgs.receiver_reply(h["message"], p.clock, overlap=False)

    # ---- matching (level 2: the communication edges) ----
    @staticmethod
    def _matches(rq: RecvReq, m: Message) -> bool:
        return (rq.source is None or m.src.pid == rq.source) and (
            rq.tag is None or m.tag == rq.tag) and m.comm == rq.comm

    def _candidates(self, pid: int, rq: RecvReq, earlier: Sequence[RecvReq] = ()) -> list[Message]:
        """The messages ``rq`` may take: per sender its oldest matching one, unless a receive
        posted before ``rq`` (``earlier``) matches it (MPI gives a message to the first
        posted receive that matches it)."""
        out, seen = [], set()
        source, tag, comm = rq.source, rq.tag, rq.comm  # (_matches, inlined: an any-source
        for m in self.messages.to(pid):  # receive scans every message to its process)
            src = m.src.pid
            if src in seen or (source is not None and src != source) or (
                    tag is not None and m.tag != tag) or m.comm != comm:
                continue
            seen.add(src)  # FIFO per sender: only its oldest matching message
            if not earlier or not any(self._matches(e, m) for e in earlier):
                out.append(m)
        return out

    def _match(self, defer: bool = True) -> bool:
        """One pass over the posted receives and the collectives; True when something moved.
        ``defer``: an any-source receive may wait for a message another waiting process could
        still cause (``_wakes_first``); when that left everything where it was (such receives
        waiting for each other), the pass is made again taking the messages as they are."""
        progressed = deferred = False
        # deferring for EVERYONE a message taken is progress even if no process moves: it
        # was the first arrival of a waiting process, and ``_floor`` moves on
        taken = self.msgs.network is not None and self.msgs.network.defer >= EVERYONE
        # (the exact mode passes over every process: the reference ``_addressed`` is checked on)
        for p in self._addressed() if self.messages.indexed else self.processes:
            queue = self.receives.get(p.pid)
            if not queue:
                continue
            i = 0
            while i < len(queue):
                # a posted receive that no message matches yet does not hold back a later one
                # (two MPI_IRECVs by tag, the second's message first: NPB MG's comm3)
                rq = queue[i]
                found = self._candidates(p.pid, rq, queue[:i])
                cands = [m for m in found if self.msgs.settled(m, self._free_clock)]
                if not cands:
                    if found:  # one may still be overtaken by an earlier message: wait
                        break
                    i += 1
                    continue
                m = cands[0] if len(cands) == 1 else self._earliest(cands)
                if defer and rq.source is None and self._wakes_first(p, m):
                    deferred = True
                    break  # an any-source receive: another may send it an earlier message
                queue.pop(i)
                if rq.peek:  # MPI_PROBE: its status, the message left for the receive after
                    self._step(p, self.msgs.probe_reply(m, p.clock))
                    progressed = True
                    i = 0
                    continue
                self.messages.remove(m)
                progressed |= self._deliver(p, rq, m) or taken
                i = 0  # (a sender it woke may have sent what an earlier receive waits for)
        for k in sorted(self.collectives):
            inst = self.collectives[k]
            comm = next(iter(inst.values()))[1].comm
            size = self.nprocs if comm is None else comm.size
            if len(inst) == size and all(pid >= 0 and pid != HOST_ID for pid in inst):
                del self.collectives[k]
                for p, reply in collectives.price(self, inst):
                    self._step(p, reply)
                progressed = True
        if deferred and not progressed:  # (any-source receives that waited for each other)
            return self._match(defer=False)
        return progressed

    def _addressed(self) -> Iterator[Process]:
        """The processes in their order with a message in flight to them when their turn
        comes (the others' receives can match nothing): as a pass over every process, without
        looking at the P − D others (a master's loop made P steps per iteration)."""
        index, messages = self.index, self.messages
        heap = [i for d in messages.destinations() for i in index.get(d, ())]
        heapq.heapify(heap)
        last = -1
        while heap:
            i = heapq.heappop(heap)
            if i <= last:
                continue
            last, posted = i, messages.posted
            yield self.processes[i]
            for m in messages.since(posted):  # sent meanwhile: to a later process, its turn
                for j in index.get(m.dst, ()):  # in this pass; to an earlier one, the next
                    if j > i:
                        heapq.heappush(heap, j)

    def _free_clock(self, pid: int) -> float | None:
        """The earliest time process ``pid`` may send again: its clock if it can send without
        first receiving; if it waits in a receive or a wait, the arrival of the earliest
        message already in flight that one of its posted receives takes (it may wake then
        and send: SP's pipelines wait for a message that arrives before their previous
        send is through); None if it waits for nothing sent yet, or is done. Deferring for
        EVERYONE: the earliest time any process may send (``_floor``), whoever ``pid`` is."""
        if self.msgs.network.defer >= EVERYONE:
            return self._floor()
        q = self.by_pid.get(pid)
        if q is None or is_symbolic(q.clock):
            return None
        if q.state in ("ready", "paused"):
            return as_time(q.clock)
        if q.state == "blocked" and isinstance(q.request, CollReq):
            # it sends again once the collective is complete: when its last member enters,
            # which no process can do before the earliest time any may act
            return self._floor()
        if q.state != "blocked" or not isinstance(q.request, (RecvReq, WaitReq)):
            return None
        return self._first_arrival(pid)

    def _first_arrival(self, pid: int) -> float | None:
        """The earliest arrival of a message in flight that the first posted receive of
        ``pid`` with one may take (per sender its oldest; ``_match`` serves the receives in
        that order): when it may wake, if a message already sent wakes it."""
        queue = self.receives.get(pid) or ()
        for i, rq in enumerate(queue):
            found = self._candidates(pid, rq, queue[:i])
            if found:
                arrivals = [m.arrival for m in found if m.rendezvous is None]
                if not arrivals or any(is_symbolic(a) for a in arrivals):
                    return None
                return min(as_time(a) for a in arrivals)
        return None

    def _floor(self) -> float | None:
        """The earliest time a process may send: a free process's clock, or the first
        arrival a waiting one may be woken by (one waiting for nothing in flight is woken by
        another's later message); None when a clock is symbolic."""
        times = []
        for q in self.processes:
            if q.state == "done":
                continue
            if is_symbolic(q.clock):
                return None
            if q.state in ("ready", "paused"):
                times.append(as_time(q.clock))
                continue
            if isinstance(q.request, CollReq):
                entered = self._entered(q)
                if entered is not None:
                    times.append(entered)
                continue
            first = self._first_arrival(q.pid)
            if first is not None:
                times.append(max(as_time(q.clock), first))
        return min(times, default=None)

    def _entered(self, q: Process) -> float | None:
        """For a process blocked in a collective every member of which has entered (it is
        priced at the end of this pass of ``_match``): the latest entry, before which it
        cannot leave; None while a member is missing (that member's own time bounds it)."""
        for inst in self.collectives.values():
            if q.pid in inst and inst[q.pid][1] is q.request:
                comm = q.request.comm
                if len(inst) != (self.nprocs if comm is None else comm.size):
                    return None
                clocks = [entry for _, _, entry in inst.values()]
                return None if any(is_symbolic(c) for c in clocks) else \
                    max(as_time(c) for c in clocks)
        return None

    def _deliver(self, p: Process, rq: RecvReq, m: Message) -> bool:
        """Message ``m`` is taken by receive ``rq`` of ``p``; True when ``p`` or a
        rendezvous sender it frees moved on."""
        wake = self._handshake(m, rq) if m.rendezvous is not None else None
        moved = self._take(p, rq, m)
        if wake is not None:
            wake()
        return moved or wake is not None

    def _take(self, p: Process, rq: RecvReq, m: Message) -> bool:
        if self.trace is not None:
            self.trace.append(MessageTrace(m.src.pid, m.send_aau.id, m.arrival, p.pid,
                                           rq.aau.id, m.size, m.tag, m.depart))
        self._edge("sync" if m.synchronous and rq.synchronous else "async", m, p, rq)
        check_sizes(self, m, p, rq)
        reply = self.msgs.receiver_reply(m, p.clock) if rq.synchronous else None
        if m.static and self.buffers.counted():  # out of the buffer into the receive's own
            # (a blocking receive waits from when it was posted: its clock is ``posted``)
            self._buffer_freed(m, later(rq.posted, m.arrival))
        if reply is not None:
            self._step(p, reply)
            return True
        h = self.handles.get((p.pid, rq.handle or ""))
        if h is not None:
            h["message"] = m
        if p.state == "blocked" and isinstance(p.request, WaitReq) and \
                p.request.handle == (rq.handle or ""):
            self._step(p, self._complete_async_recv(p, p.request, h))
            return True
        return False

    def _wakes_first(self, p: Process, m: Message) -> bool:
        """Whether a process other than ``p`` and ``m``'s sender, waiting, has a settled
        message to take that arrives before ``m`` would be chosen (its arrival or post):
        woken, it might send ``p`` a message that comes first; it is served first."""
        key = self._key(m)
        if is_symbolic(key):
            return False
        key = as_time(key)
        for dst in list(self.messages.destinations()):  # (only those with a message to take)
            q = self.by_pid.get(dst)
            if q is None or q is p or q is m.src or q.state != "blocked" or \
                    not isinstance(q.request, (RecvReq, WaitReq)):
                continue
            for rq in self.receives.get(q.pid) or ():
                for x in self._candidates(q.pid, rq):
                    if not is_symbolic(x.arrival) and as_time(x.arrival) < key and \
                            self.msgs.settled(x, self._free_clock):
                        return True
        return False

    def _key(self, m: Message):
        """What orders the messages an any-source receive may take (``cs.spec.any_source``)."""
        if self.msgs.match_posted:  # SMPI's mailbox: the first send posted (after its startup)
            return m.depart + self.msgs.time(m.src.pid, m.dst, m.size, m.synchronous).startup
        return m.arrival

    def _earliest(self, cands: list[Message]) -> Message:
        """The message an any-source receive takes of ``cands`` (their arrival is a lower
        bound while unsettled: sharing only delays)."""
        return cands[earliest([self._key(m) for m in cands])]

    def _edge(self, kind: str, m: Message, p: Process, rq: RecvReq) -> None:
        key = (m.src.pid, m.send_aau.id, p.pid, rq.aau.id)
        e = self.edges.get(key)
        if e is None:
            self.edges[key] = CommEdge(kind, "broadcast" if m.broadcast else "point-to-point",
                                       m.src.label, m.send_aau.id, p.label, rq.aau.id,
                                       str(m.size), m.tag)
        else:
            e.count += 1
