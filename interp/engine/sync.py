"""The global synchronization structure (core paper §3.4.1): what the processes' chains share.

Algorithm 2 (:mod:`interp.engine.scheduler`) keeps here the messages in flight, the posted
receives, the pending collectives and asynchronous requests, the communication edges found so
far and the problems; the steady-state detection, the collectives and the diagnosis read and
write the same structure.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import sympy as sp

from interp.engine.buffers import StaticBuffers
from interp.engine.comms import FIRST_HANDLE
from interp.engine.edges import CommEdge
from interp.engine.inflight import InFlight
from interp.engine.messages import Message, MessageModel, MessageTrace
from interp.engine.process import HOST_ID, Process
from interp.engine.requests import CollReq, RecvReq, SendReq
from interp.engine.timeval import as_time, is_symbolic
from interp.errors import SourceLocation
from interp.system import SAG


@dataclass
class Problem:
    kind: str  # deadlock | mismatch | unmatched | collective | unwaited
    message: str
    locations: list[SourceLocation] = field(default_factory=list)

    def to_json(self) -> dict:
        return {"kind": self.kind, "message": self.message,
                "locations": [loc.to_json() for loc in self.locations]}


class GlobalSync:
    def __init__(self, sag: SAG, nprocs: int, bound: str, timing: bool = True,
                 defer: int = 0, exact: bool = False):
        self.sag, self.nprocs, self.bound = sag, nprocs, bound
        # timing=False (interp check): a loop repeats when its communication pattern does;
        # when each message happens does not matter for matching.
        self.timing = timing
        self.processes: list[Process] = []
        self.by_pid: dict[int, Process] = {}
        self.messages = InFlight(indexed=not exact)  # sent, not yet received
        self.receives: dict[int, list[RecvReq]] = {}  # posted receives per process, in order
        self.handles: dict[tuple[int, str], dict] = {}  # asynchronous requests not yet waited
        # pending collectives by (communicator handle, how many each member did before)
        self.collectives: dict[tuple, dict[int, tuple[Process, CollReq, sp.Expr]]] = {}
        self.edges: dict[tuple, CommEdge] = {}
        self.problems: list[Problem] = []
        self.hung = False
        self.notes: list[str] = []
        self.assumptions: list[sp.Basic] = []
        self.msgs = MessageModel(sag, nprocs, bound, HOST_ID, timing, defer, exact)
        self.buffers = StaticBuffers(sag, HOST_ID)
        self.trace: list[MessageTrace] | None = None  # matched messages, when tracing
        self.next_handle = FIRST_HANDLE  # of the next communicator MPI_COMM_SPLIT/DUP makes
        self.plans: dict[tuple, list | None] = {}  # collectives' message times (collectives.py)

    def label(self, pid: int) -> str:
        p = self.by_pid.get(pid)
        if p is not None:
            return p.label
        return "the host" if pid == HOST_ID else f"node {pid}"

    def clock_floor(self) -> float | None:
        """The earliest numeric clock of a live process: nothing can happen before it."""
        return min((as_time(q.clock) for q in self.processes if q.state != "done"
                    and not is_symbolic(q.clock)), default=None)

    def post(self, sender, dst: int, req: SendReq, depart: sp.Expr,
             rendezvous: bool = False) -> sp.Expr:
        """Put one message in flight; returns when the sender is done with it. A rendezvous
        message waits for its receive: its times are set when it is matched."""
        t = self.msgs.time(sender.pid, dst, req.size, req.synchronous)
        msg_id = self.msgs.new_id()
        static = self.buffers.is_static(sender.pid, dst, req.size, req.synchronous)
        if static and self.buffers.counted():
            self.buffers.hold(dst, depart, msg_id)
        msg = Message(msg_id, sender, dst, int(req.tag), req.size, req.payload,
                      depart + t.startup + t.transmission, t.receive, req.aau, req.synchronous,
                      static, depart, req.broadcast, datatype=req.datatype, comm=req.comm,
                      rank=req.rank, heard=req.heard)
        self.messages.append(msg)
        if rendezvous:
            msg.rendezvous = req
            msg.receive = self.msgs.handshake_time(t, False).receive
            return None
        self.msgs.contend(msg, t, self.clock_floor)
        return msg.arrival  # a csend's sender is busy until its message is through
