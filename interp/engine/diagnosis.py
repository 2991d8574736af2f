"""Diagnosis (core paper Algorithm 2, step 3, and level-2 checks): why chains cannot finish.

When no chain can go on, the scheduler asks :func:`diagnose_hang` why: a receive whose message
of another type/tag waits for it (``mismatch``), a global operation some process never reaches
(``collective``), a cycle of processes each waiting for the next (``deadlock``), or a wait
nothing is left to satisfy (``unmatched``). After the run, :func:`leftovers` reports messages
no receive took and MPI requests never completed; :func:`check_sizes` checks each matched
pair (type signatures, a message longer than the receive buffer).
"""

from __future__ import annotations


from typing import TYPE_CHECKING

import sympy as sp

from interp.application import aau as A
from interp.application.catalog import mpi_constants, mpi_datatype_names
from interp.application.expr import numeric_value
from interp.engine.messages import SYNCHRONOUS_MODE, Message
from interp.engine.process import Process
from interp.engine.requests import CollReq, RecvReq, Request, SendReq, WaitReq
from interp.engine.sync import GlobalSync, Problem
from interp.errors import SourceLocation

if TYPE_CHECKING:
    import networkx as nx


MPI_TYPES = {n: c for n, c in mpi_constants().items() if n in mpi_datatype_names()}
UNTYPED = {MPI_TYPES.get("MPI_BYTE"), MPI_TYPES.get("MPI_PACKED"), None}


def check_sizes(s: GlobalSync, m: Message, p: Process, rq: RecvReq) -> None:
    if m.datatype != rq.datatype and m.datatype not in UNTYPED and rq.datatype not in UNTYPED:
        names = {code: name for name, code in MPI_TYPES.items()}
        s.problems.append(Problem(
            "mismatch",
            f"{m.src.label} sends {names.get(m.datatype, m.datatype)} (tag {m.tag}) to "
            f"{p.label}, which receives it as {names.get(rq.datatype, rq.datatype)}: MPI "
            "requires matching type signatures", [m.send_aau.loc, rq.aau.loc]))
    size, capacity = m.size, rq.capacity
    if isinstance(size, (int, sp.Integer)) and isinstance(capacity, (int, sp.Integer)):
        over = int(size) - int(capacity)  # (the common case, without SymPy's arithmetic)
    else:
        over = sp.expand(size - capacity)
    if (isinstance(over, int) or over.is_number) and over > 0:
        s.problems.append(Problem(
            "mismatch",
            f"{m.src.label} sends {m.size} bytes (type/tag {m.tag}) to {p.label}, whose receive "
            f"buffer holds only {rq.capacity} bytes",
            [m.send_aau.loc, rq.aau.loc]))
    elif rq.room is not None and _numeric(size) and int(size) > rq.room:
        # the receive's count allows it, its array does not: a real MPI writes past the end
        s.problems.append(Problem(
            "mismatch",
            f"{m.src.label} sends {m.size} bytes (type/tag {m.tag}) to {p.label}, whose receive "
            f"buffer {rq.buf} has room for only {rq.room} bytes (its declared size, from the "
            "element the receive names)", [m.send_aau.loc, rq.aau.loc]))


def _numeric(x) -> bool:
    return isinstance(x, (int, sp.Integer)) or (isinstance(x, sp.Expr) and x.is_Integer)


def diagnose_hang(s: GlobalSync, live: list[Process]) -> None:
    """No chain can go on (Algorithm 2, step 3): say why, with every call involved."""
    import networkx as nx  # 0.1 s to import: only when a program hangs

    blocked = Blocked(p for p in live if p.state == "blocked")
    explained = _mismatches(s, blocked) | broken_collectives(s, blocked)
    rest = [p for p in blocked if p.pid not in explained]
    graph = nx.DiGraph()  # who could unblock whom; an explained process is a dead end
    for p in blocked:
        graph.add_node(p.pid)
        if p.pid in explained:
            continue
        for q in waits_for(s, p, blocked):
            graph.add_edge(p.pid, q.pid)
    procs = {p.pid: p for p in rest}
    cycle = [procs[pid] for pid in cycle_of_waits(graph.subgraph(procs))]
    in_cycle = {p.pid for p in cycle}
    if cycle:
        s.problems.append(Problem(
            "deadlock",
            "each process waits for another that is itself waiting: "
            + " -> ".join(_waiting_runs(cycle)) + f" -> {cycle[0].label}",
            [p.request.aau.loc for p in cycle]))
    for p in rest:
        if p.pid in in_cycle:
            continue
        if graph.out_degree(p.pid) == 0:
            s.problems.append(Problem(
                "unmatched",
                f"{p.label} waits in {describe(p.request)} at {at(p.request.aau.loc)}, but "
                "no process is left that could send it", [p.request.aau.loc]))
    for p in blocked:
        p.state = "hung"
    s.hung = True


def _waiting_runs(cycle: list[Process]) -> list[str]:
    """The cycle's links, a run of processes waiting in the same call at the same place said
    once (16 nodes in one CRECV were 16 copies of its line). A run of consecutive processes,
    in order, is written ``node 0 .. node 15 (16 processes)``."""
    runs: list[tuple[str, list[Process]]] = []
    for p in cycle:
        where = f"{describe(p.request)} at {at(p.request.aau.loc)}"
        if runs and runs[-1][0] == where:
            runs[-1][1].append(p)
        else:
            runs.append((where, [p]))
    return [f"{ps[0].label} waits in {where}" if len(ps) == 1 else
            f"{_run_label(ps)} each wait in {where}, each for the next" for where, ps in runs]


def _run_label(ps: list[Process]) -> str:
    step = ps[1].pid - ps[0].pid
    if step in (1, -1) and all(b.pid - a.pid == step for a, b in zip(ps, ps[1:])):
        return f"{ps[0].label} .. {ps[-1].label} ({len(ps)} processes)"
    return " -> ".join(p.label for p in ps)


class Blocked(list):
    """The blocked processes in order, with their positions by pid: who a process waits for
    is looked up, not searched for (a deadlock of P ranks cost P² to explain)."""

    def __init__(self, procs):
        super().__init__(procs)
        self.pos = {p.pid: i for i, p in enumerate(self)}
        self._fed: dict | None = None

    def of(self, pids) -> list[Process]:
        """The blocked processes among ``pids``, in the order of the list."""
        return [self[i] for i in sorted({self.pos[x] for x in pids if x in self.pos})]

    def has(self, p: Process) -> bool:
        i = self.pos.get(p.pid)
        return i is not None and self[i] is p

    def fed(self, s: GlobalSync, pid: int, aau: int) -> set[int]:
        """The senders whose messages receive ``aau`` of ``pid`` took before."""
        if self._fed is None:
            self._fed = {}
            for (src, _sa, dst, da) in s.edges:
                self._fed.setdefault((dst, da), set()).add(src)
        return self._fed.get((pid, aau), set())


def waits_for(s: GlobalSync, p: Process, blocked: Blocked) -> list[Process]:
    """The blocked processes that could satisfy what ``p`` waits for: the named source,
    or any whose program sends that type/tag."""
    req = p.request
    if isinstance(req, WaitReq):
        h = s.handles.get((p.pid, req.handle))
        req = h["recv"] if h and "recv" in h else req
        if h and "rendezvous" in h:  # an MPI_ISEND waiting for its receive
            return blocked.of([h["dest"]])
    if isinstance(req, SendReq):  # a rendezvous MPI_SEND (or one without a static buffer)
        # waits for its receiver
        return blocked.of(req.dests)
    if isinstance(req, RecvReq) and req.source is not None:
        return blocked.of([req.source])
    if isinstance(req, RecvReq):  # who fed this receive before is who it waits for now
        fed = blocked.fed(s, p.pid, req.aau.id)
        if fed:
            return blocked.of(fed)
    if isinstance(req, CollReq):
        return [q for q in blocked if q is not p and not isinstance(q.request, CollReq)]
    if isinstance(req, RecvReq) and req.tag is not None:
        return [q for q in blocked if q is not p and can_use_tag(q, "send", req.tag)]
    return [q for q in blocked if q is not p]


def _mismatches(s: GlobalSync, blocked: Blocked) -> set[int]:
    """A receive that waits while a message for it sits unmatched: their type/tag or
    source never agree."""
    out = set()
    sendable: dict[int, bool] = {}  # type/tag → can some process's program send it
    for p in blocked:
        req = p.request
        if isinstance(req, WaitReq):
            h = s.handles.get((p.pid, req.handle))
            req = h["recv"] if h and "recv" in h else None
        if not isinstance(req, RecvReq):
            continue
        if req.tag is None:
            continue
        # A message of another type waits for p, and either nothing can ever send the type
        # p waits for, or its sender in turn waits for p: the types never agree. (Otherwise
        # a send is missing, which the wait-for graph reports.)
        if req.tag not in sendable:
            sendable[req.tag] = any(can_use_tag(q, "send", req.tag) for q in s.processes)
        unsendable = not sendable[req.tag]
        later_use = tags_of(p, "recv")[0]  # types p's own later receives name
        pending = [m for m in s.messages.to(p.pid) if m.tag != req.tag and (
            unsendable or (m.tag not in later_use and isinstance(m.src, Process)
                           and blocked.has(m.src) and p in waits_for(s, m.src, blocked)))]
        if not pending:
            continue
        m = pending[0]
        want = "any type" if req.tag is None else f"type/tag {req.tag}"
        src = "" if req.source is None else f" from {s.label(req.source)}"
        s.problems.append(Problem(
            "mismatch",
            f"{p.label} waits for {want}{src} in {req.aau.call.name} at {at(req.aau.loc)}, "
            f"but {m.src.label} sent it type/tag {m.tag} in {m.send_aau.call.name} at "
            f"{at(m.send_aau.loc)}: they never match",
            [m.send_aau.loc, req.aau.loc]))
        s.messages.remove(m)
        out.add(p.pid)
    return out


def broken_collectives(s: GlobalSync, blocked: Blocked) -> set[int]:
    out = set()
    for k, inst in sorted(s.collectives.items()):
        req = next(iter(inst.values()))[1]
        missing = [i for i in range(s.nprocs) if i not in inst]
        why = []
        for i in missing:
            q = s.by_pid.get(i)
            if q is None or q.state == "done":
                why.append(f"{s.label(i)} (finished)")
            else:
                why.append(f"{s.label(i)} (waiting in {describe(q.request)} at "
                           f"{at(q.request.aau.loc)})")
        s.problems.append(Problem(
            "collective",
            f"{req.aau.call.name} at {at(req.aau.loc)} is reached by "
            f"{', '.join(s.label(i) for i in sorted(inst))} but never by {', '.join(why)}",
            [r.aau.loc for _, r, _ in inst.values()]))
        out.update(inst)
    s.collectives.clear()
    return out


def leftovers(s: GlobalSync) -> None:
    broken_collectives(s, Blocked([]))
    labels = {q.pid: q for q in s.processes}
    for (pid, handle), h in s.handles.items():
        p = labels.get(pid)
        if p is None or p.state != "done":
            continue
        a = h["aau"]
        if p.library != "mpi":  # NX/2: a message id need not be waited on; its message must come
            recv = h.get("recv")
            if recv is not None and h.get("message") is None:
                kind = "any type" if recv.tag is None else f"type {recv.tag}"
                s.problems.append(Problem(
                    "unmatched",
                    f"{p.label} posts {a.call.name} ({kind}) at line {a.loc.line}, but no "
                    "message ever reaches it: the program ends with the receive pending",
                    [a.loc]))
            continue
        s.problems.append(Problem(
            "unwaited",
            f"{p.label}: the request {handle} of {a.call.name} at line {a.loc.line} is never "
            "completed (MPI_WAIT or MPI_WAITALL): its buffer is never safe to reuse",
            [a.loc]))
    for m in s.messages:
        if m.rendezvous is not None and m.src.state == "hung":
            continue  # its sender's wait is already reported
        dst = s.label(m.dst)
        s.problems.append(Problem(
            "unmatched",
            f"{m.src.label} sends type/tag {m.tag} to {dst} at line {m.send_aau.loc.line}, "
            "but no receive ever takes it",
            [m.send_aau.loc]))


def cycle_of_waits(graph: nx.DiGraph) -> list[int]:
    """The processes of the largest set that wait only on each other, in the order of a cycle
    through them (ascending ranks when they form one, as in a ring that receives first)."""
    import networkx as nx  # only when a program hangs

    sccs = [c for c in nx.strongly_connected_components(graph)
            if len(c) > 1 or any(graph.has_edge(n, n) for n in c)]
    if not sccs:
        return []
    members = sorted(max(sccs, key=len))
    ring = all(graph.has_edge(a, b) for a, b in zip(members, members[1:] + members[:1]))
    if ring or len(members) == 1:
        return members
    return [a for a, _ in nx.find_cycle(graph.subgraph(members))]


def tags_of(p: Process, op: str) -> tuple[frozenset[int], bool]:
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


def can_use_tag(p: Process, op: str, tag: int) -> bool:
    tags, any_tag = tags_of(p, op)
    return any_tag or tag in tags


def at(loc: SourceLocation) -> str:
    return f"{loc.file}:{loc.line}:{loc.column}"


def describe(req: Request) -> str:
    a = req.aau
    name = a.call.name if getattr(a, "call", None) else a.type
    if isinstance(req, RecvReq):
        who, kind = ("rank", "tag") if req.process.library == "mpi" else ("node", "type")
        src = f"any {who}" if req.source is None else f"{who} {req.source}"
        tag = f"any {kind}" if req.tag is None else f"{kind} {req.tag}"
        return f"{name} (from {src}, {tag})"
    if isinstance(req, SendReq) and req.rendezvous:
        who = "rank" if req.process.library == "mpi" else "node"
        why = "synchronous mode" if name in SYNCHRONOUS_MODE else "above the eager threshold"
        return (f"{name} (to {who} {req.dests[0]}, {req.size} bytes: rendezvous, {why}, it "
                "waits for the matching receive)")
    return name
