"""Broadcasts and global operations, as the machine filter's logarithmic rounds of messages.

NX/2's ``csend`` to node −1, ``gdsum``/``gsync``… and MPI's collectives are replaced by the
sequence of point-to-point messages ``interp.system.collective_rounds`` gives (binomial trees,
recursive doubling, the ring of pairwise exchanges), among the ranks of the collective's
communicator (MPI_COMM_WORLD, or one MPI_COMM_SPLIT/DUP made). Each message is priced by
:class:`~interp.engine.messages.MessageModel`; an MPI collective's messages share links with
each other and with messages already priced (``Network.price_batch``).

MPI_COMM_SPLIT is priced as the MPI_ALLGATHER of every rank's (color, key), two integers (how
MPICH and Open MPI learn the groups); MPI_COMM_DUP as an MPI_ALLREDUCE of one integer (the
agreement on a new context id).
"""

from __future__ import annotations

import math
from functools import reduce
from operator import and_, itemgetter, or_, xor

from dataclasses import dataclass, field

import sympy as sp

from interp.engine.comms import Communicator, split
from interp.engine.edges import CommEdge, collective_pattern
from interp.engine.messages import is_eager, wire_start
from interp.engine.network import Flow
from interp.engine.process import HOST_ID, Process
from interp.engine.requests import CollReq, Reply, SendReq
from interp.engine.sync import GlobalSync, Problem
from interp.engine.timeval import (Lin, as_time, earlier, is_symbolic, later, latest,
                                   note_numbers)
from interp.engine.values import UNKNOWN, Unknown, is_unknown
from interp.system import collective_rounds
from interp.system.filter import comm_split


ZERO = 0.0
_MOVE_ONLY = ("gather", "scatter", "allgather", "alltoall", "alltoallv", "scan", "exscan")
BLOCKING = frozenset({"bcast", "reduce", "scatter", "gather"})
"""Collectives whose algorithms send with a blocking send (SMPI's binomial trees, linear
scatter and gather); the others exchange with sendrecv (``MessageModel.collective_time``)."""
_PRICED_AS = {"comm_split": ("comm_split", 8), "comm_dup": ("allreduce", 4),
              "cart_create": ("allreduce", 4)}
"""New communicators: the collective they are priced as, and its message size in bytes."""
_LINEAR = {"scatter": "the root's sends to each rank in turn (SMPI's scatter__ompi_basic_linear)",
           "gather": "each rank's send to the root, received in rank order (SMPI's "
                     "gather__ompi_basic_linear)",
           "allgather": "P - 1 rounds of sends to the right neighbour (SMPI's allgather__ring)",
           "scan": "each rank's sends to every higher rank, one after another (SMPI's scan)",
           "exscan": "each rank's sends to every higher rank, one after another (SMPI's "
                     "exscan)"}
"""How MPI_SCATTER, GATHER and ALLGATHER are priced (interp.system.collectives), said in a note."""


class Relay:
    """A node forwarding a broadcast: it sends on the original sender's behalf."""

    def __init__(self, pid: int, origin: Process):
        self.pid = pid
        self.label = f"node {pid} (relaying for {origin.label})"


def nx_broadcast(s: GlobalSync, p: Process, req: SendReq, tau: sp.Expr) -> sp.Expr:
    """NX/2 csend to -1: the logarithmic broadcast of the machine filter. A host broadcast
    enters the cube at node 0 and spreads from there. Returns when the sender is done."""
    if p.pid == HOST_ID:
        first = s.post(p, 0, req, tau)
        ready, sender_done = {0: first}, first
        root = 0
    else:
        root, ready, sender_done = p.pid, {p.pid: tau}, tau
    for rnd in collective_rounds("broadcast", s.nprocs, root):
        for src, dst in rnd:
            if src not in ready:
                continue
            sender = p if src == p.pid else Relay(src, p)
            done = s.post(sender, dst, req, ready[src])
            ready[dst] = s.messages.last.arrival
            ready[src] = done
            if src == p.pid:
                sender_done = done
    return sender_done


def price(s: GlobalSync, inst: dict[int, tuple[Process, CollReq, sp.Expr]]) -> list[tuple[Process, Reply]]:
    """Every member's reply once all have reached the global operation."""
    procs = {pid: p for pid, (p, _, _) in inst.items()}
    reqs = {pid: req for pid, (_, req, _) in inst.items()}
    if len({req.kind for req in reqs.values()}) > 1:
        s.problems.append(Problem(
            "mismatch", "processes meet in different global operations: " + ", ".join(
                f"{procs[pid].label} in {reqs[pid].kind}" for pid in sorted(reqs)),
            [r.aau.loc for r in reqs.values()]))
    t_in = {pid: arr for pid, (_, _, arr) in inst.items()}
    any_req = next(iter(reqs.values()))
    kind = any_req.kind
    members = any_req.comm.members if any_req.comm is not None else tuple(range(s.nprocs))
    algorithm, size = _PRICED_AS.get(kind, (kind, any_req.size))
    if kind in _LINEAR:
        note = f"MPI_{kind.upper()} is priced as {_LINEAR[kind]}, one rank's share a message"
        if note not in s.notes:
            s.notes.append(note)
    rounds = [[(members[a], members[b]) for a, b in rnd]
              for rnd in collective_rounds(algorithm, len(members), any_req.root or 0)]
    if kind == "comm_split" and comm_split(s.sag) == "gather_send":
        rounds = _gather_send(members, reqs)
    size_of = _sizes(size, reqs, members) if kind == "alltoallv" else (lambda src, dst: size)
    plan, (before, after) = _known_plan(s, (kind, algorithm, members, any_req.root, size),
                                        size_of, rounds, reqs)
    t = _with_contention(s, Stage(kind, size_of, rounds, reqs, t_in, plan=plan))
    lost = _lost_parts(s, kind, size_of, rounds, reqs, t_in, t) if any(
        p.timeline is not None for p in procs.values()) else {}
    for rnd in rounds:
        for src, dst in rnd:
            _edge(s, procs[src], reqs[src], procs[dst], reqs[dst], size_of(src, dst))
    root = members[any_req.root or 0]
    payload = combine(kind, any_req, reqs, root)
    newcomms = new_communicators(s, kind, reqs, members)
    arrival_max = latest(list(t_in.values()))
    out = []
    for pid, p in procs.items():
        start = t_in[pid]
        end = t[pid]
        # its own sends' startups are call overhead, as a point-to-point send's: a broadcast's
        # root that only sends did not wait for the others (it was all 'waiting'); those it
        # makes before its first receive come first, the others after the others' entry
        own = start + before.get(pid, ZERO)
        first = earlier(end, own) - start
        reach = later(arrival_max, start + first, bounded=False)  # (a part's bound only)
        # its wait for the last member to enter, but no longer than it stayed: a member that
        # leaves first (a reduce's leaf) would otherwise have a negative transmission
        wait = earlier(end, reach) - start - first
        rest = start + first + wait + after.get(pid, ZERO)
        call = earlier(end, rest) - start - wait
        sync, contention = lost.get(pid, (ZERO, ZERO))
        out.append((p, Reply(end=end, parts={"call": call, "waiting": wait,
                                             "transmission": end - start - call - wait},
                             payload=payload.get(pid), newcomm=newcomms.get(pid), sync=sync,
                             contention=contention)))
    return out


def _startups(s: GlobalSync, kind: str, size_of, rounds) -> tuple[dict, dict]:
    """Each member's startup time summed over the messages it sends in the operation: those
    of the rounds up to the first in which it receives (sent before it can wait for anyone),
    and those of the later rounds."""
    before: dict[int, object] = {}
    after: dict[int, object] = {}
    heard: set[int] = set()
    for rnd in rounds:
        for src, dst in rnd:
            if kind in ("gsync", "barrier"):
                c = as_time(s.sag.seconds(f"{s.sag.nodes}.cs.sync.overhead", s.bound))
            else:
                c = s.msgs.collective_time(src, dst, size_of(src, dst), kind in BLOCKING).startup
            side = after if src in heard else before
            side[src] = side.get(src, ZERO) + c
        heard.update(dst for _, dst in rnd)
    return before, after


def _lost_parts(s: GlobalSync, kind: str, size_of, rounds, reqs: dict[int, CollReq], t_in: dict,
                t: dict) -> dict[int, tuple[float, float]]:
    """For lost-cycles analysis, each member's (sync, contention). ``sync``: its time in the
    operation until the latest entry of the members whose messages reach it, directly or
    through others along the rounds (it waited for members not yet there); ``contention``:
    how much later it ends than with every message on idle links. Numbers only."""
    if any(is_symbolic(x) for x in (*t_in.values(), *t.values())):
        return {}
    heard = {pid: as_time(when) for pid, when in t_in.items()}
    for rnd in rounds:
        before = dict(heard)
        for src, dst in rnd:
            heard[dst] = max(heard[dst], before[src])
    alone = _rounds(s, kind, size_of, rounds, reqs, t_in, {})[0]
    out = {}
    for pid, start in t_in.items():
        start, end = as_time(start), as_time(t[pid])
        sync = max(min(end, heard[pid]) - start, ZERO)
        out[pid] = (sync, min(max(end - as_time(alone[pid]), ZERO), end - start - sync))
    return out


def _gather_send(members: tuple[int, ...], reqs: dict[int, CollReq]) -> list[list[tuple[int, int]]]:
    """SMPI's MPI_COMM_SPLIT (``cs.spec.comm_split: gather_send``): every member sends its
    (color, key) to the parent's rank 0 at once; rank 0 then sends each other member of each
    group its group, one message a round, the groups in the order of their first member and
    each group in its new rank order; then each new communicator of more than one rank
    broadcasts its id from its rank 0 (SMPI's ``Comm`` constructor: a binomial MPI_BCAST of
    one integer, priced here at the split's 8 bytes)."""
    root = members[0]
    groups = split(members, {pid: r.split[0] for pid, r in reqs.items()},
                   {pid: r.split[1] for pid, r in reqs.items()})
    ids = [[(group[a], group[b]) for a, b in rnd]
           for group in groups.values() if len(group) > 1
           for rnd in collective_rounds("mpi_bcast", len(group), 0)]
    return [[(pid, root) for pid in members[1:]]] + [
        [(root, pid)] for group in groups.values() for pid in group if pid != root] + ids


def _sizes(size, reqs: dict[int, CollReq], members: tuple[int, ...]):
    """MPI_ALLTOALLV: a message's bytes are what its sender's SENDCOUNTS gives its receiver."""
    rank = {pid: r for r, pid in enumerate(members)}
    return lambda src, dst: reqs[src].sizes[rank[dst]]


def new_communicators(s: GlobalSync, kind: str, reqs: dict[int, CollReq],
                      members: tuple[int, ...]) -> dict[int, Communicator]:
    """The communicator MPI_COMM_SPLIT, MPI_COMM_DUP or MPI_CART_CREATE gives each member
    (none for a rank whose color is MPI_UNDEFINED, or beyond the Cartesian grid)."""
    if kind == "cart_create":  # the first ranks, as many as the grid holds
        dims, periods = next(iter(reqs.values())).cart
        size = math.prod(dims)
        comm = Communicator(s.next_handle, members[:size], dims, periods)
        s.next_handle += 1
        return {pid: comm for pid in members[:size]}
    if kind == "comm_dup":
        groups = [members]
    elif kind == "comm_split":
        groups = list(split(members, {pid: r.split[0] for pid, r in reqs.items()},
                            {pid: r.split[1] for pid, r in reqs.items()}).values())
    else:
        return {}
    out = {}
    for group in groups:
        comm = Communicator(s.next_handle, group)
        s.next_handle += 1
        out.update({pid: comm for pid in group})
    return out


def _rounds(s: GlobalSync, kind: str, size_of, rounds, reqs: dict[int, CollReq], t: dict,
            delay: dict, plan: list | None = None) -> tuple[dict, list]:
    """When each member ends the operation, given each message's contention delay; and the
    messages as (key, depart, MessageTime), key = (round, src, dst). ``plan``: the rounds'
    message times when all are numbers (``_plan``), for the same sums in floats."""
    if plan is not None:
        if all(type(x) is float for x in t.values()):
            return _rounds_numeric(plan, t, delay)
        terms = _common_terms(t)
        if terms is not None:  # c_x + T for every member: the rounds decide on the c_x
            ends, msgs = _rounds_numeric(plan, {x: v.c for x, v in t.items()}, delay)
            return ({x: Lin(c, terms) for x, c in ends.items()},
                    [(key, Lin(depart, terms), mt) for key, depart, mt in msgs])
    flows = []
    for i, rnd in enumerate(rounds):
        # each node ends the round when its own send is done and it has taken what it
        # received: each message in turn, from its arrival, with the receive overhead and the
        # combine (the SyncSeq's Seq); a root that several send to in one round (SMPI's
        # split gathers so) pays each receive, as SMPI does, in the order they arrive
        ready = {x: [t[x]] for x in t}
        taken = {x: [] for x in t}
        leaves = dict(t)  # a sender's next message of the round leaves after its last (scan)
        posted = dict(t)  # when a receiver's next receive is posted (rendezvous messages)
        for src, dst in rnd:
            if kind in ("gsync", "barrier"):
                c_send = as_time(s.sag.seconds(f"{s.sag.nodes}.cs.sync.overhead", s.bound))
                hop = s.msgs.time(src, dst, ZERO, True).transmission
                arrive, recv = t[src] + c_send + hop, ZERO
                busy = t[src] + c_send
            else:
                blocking = kind in BLOCKING
                mt = s.msgs.collective_time(src, dst, size_of(src, dst), blocking)
                depart = leaves[src]
                # an MPI message above the eager threshold (rendezvous): its data leaves once
                # the receiver is in the round, and the send is complete at its arrival
                rdv = is_eager(reqs[src].aau) and s.msgs.collective_rendezvous(size_of(src, dst))
                if rdv:
                    depart = later(depart + mt.startup, posted[dst]) - mt.startup
                arrive = depart + mt.startup + mt.transmission + delay.get((i, src, dst), ZERO)
                if rdv and blocking:  # a root takes its messages one blocking receive after
                    posted[dst] = arrive + mt.receive  # another (a sendrecv's: posted at once)
                recv = mt.receive + reqs[dst].combine_seconds
                busy = arrive if rdv else \
                    depart + mt.startup + (ZERO if is_eager(reqs[src].aau) else mt.transmission)
                leaves[src] = busy
                flows.append(((i, src, dst), depart, mt))
            ready[src].append(busy)
            taken[dst].append((arrive, recv))
        t = {x: _take(latest(ready[x]), taken[x]) for x in t}
    return t, flows


def _plan(s: GlobalSync, kind: str, size_of, rounds, reqs: dict[int, CollReq]) -> list | None:
    """Each round's messages as (src, dst, MessageTime, receive overhead with the combine,
    eager sender), when every time is a number and no message is rendezvous (a barrier's
    messages, and a message that waits for its receiver, are priced by ``_rounds``)."""
    if kind in ("gsync", "barrier"):
        return None
    plan = []
    for rnd in rounds:
        row = []
        for src, dst in rnd:
            size = size_of(src, dst)
            if s.msgs.collective_rendezvous(size):
                return None
            mt = s.msgs.collective_time(src, dst, size, kind in BLOCKING)
            recv = mt.receive + reqs[dst].combine_seconds
            if not (type(mt.startup) is type(mt.transmission) is type(recv) is float):
                return None
            row.append((src, dst, mt, recv, is_eager(reqs[src].aau)))
        plan.append(row)
    return plan


def _known_plan(s: GlobalSync, key: tuple, size_of, rounds,
                reqs: dict[int, CollReq]) -> tuple[list | None, tuple[dict, dict]]:
    """``_plan`` and ``_startups``, kept for the next call of the same collective (a loop's
    ALLREDUCE: every iteration the same messages): ``key`` is (kind, algorithm, members,
    root, size), and the members must share the call and the combine's time. Not kept where
    the messages depend on more (MPI_ALLTOALLV's counts, MPI_COMM_SPLIT's colors)."""
    kind = key[0]
    calls = {(id(r.aau), r.combine_seconds) for r in reqs.values()}
    if kind in ("alltoallv", "comm_split") or len(calls) != 1 or \
            not isinstance(key[-1], (int, sp.Integer)):
        return _plan(s, kind, size_of, rounds, reqs), _startups(s, kind, size_of, rounds)
    key += calls.pop()
    if key not in s.plans:
        if len(s.plans) >= 64:
            s.plans.clear()
        s.plans[key] = (_plan(s, kind, size_of, rounds, reqs),
                        _startups(s, kind, size_of, rounds))
    return s.plans[key]


def _common_terms(t: dict) -> dict | None:
    """The symbolic part every member's entry shares, when they differ by numbers only (a
    loop's ALLREDUCE after the same work in N on every rank): then every time of the
    operation is a number plus that part, and every comparison the numbers'."""
    first = next(iter(t.values()))
    if not isinstance(first, Lin):
        return None
    terms = first.terms
    if all(isinstance(v, Lin) and (v.terms is terms or v.terms == terms) for v in t.values()):
        return terms
    return None


def _rounds_numeric(plan: list, t: dict, delay: dict) -> tuple[dict, list]:
    """``_rounds`` with every time a float: the same sums in the same order, and the same
    comparisons noted (``timeval.later``'s, member by member), without a call per time."""
    margins: list[float] = []
    signs: list[bool] = []
    t = dict(t)
    flows = []
    for i, rnd in enumerate(plan):
        busy_of: dict[int, list] = {}
        got: dict[int, list] = {}
        leaves: dict[int, float] = {}
        for src, dst, mt, recv, eager in rnd:
            depart = leaves.get(src)
            if depart is None:
                depart = t[src]
            arrive = depart + mt.startup + mt.transmission
            if delay:
                arrive += delay.get((i, src, dst), 0.0)
            busy = depart + mt.startup if eager else depart + mt.startup + mt.transmission
            leaves[src] = busy
            flows.append(((i, src, dst), depart, mt))
            busy_of.setdefault(src, []).append(busy)
            got.setdefault(dst, []).append((arrive, recv))
        for x in t:  # (in the members' order: the comparisons are noted in _rounds' order)
            busies, messages = busy_of.get(x), got.get(x)
            if busies is None and messages is None:
                continue
            clock = t[x]
            for v in busies or ():
                first = clock >= v
                margins.append(clock - v)
                signs.append(first)
                if not first:
                    clock = v
            if messages is not None:
                if len(messages) > 1:
                    messages.sort(key=_ARRIVAL)
                for arrive, recv in messages:
                    first = clock >= arrive
                    margins.append(clock - arrive)
                    signs.append(first)
                    clock = (clock if first else arrive) + recv
            t[x] = clock
    note_numbers(margins, signs)
    return t, flows


_ARRIVAL = itemgetter(0)


def _take(clock, messages: list) -> object:
    """When a node has taken ``messages`` ((arrival, receive overhead)) from ``clock`` on:
    each from its arrival or the end of the one before, the first arrived first (in the
    round's order when an arrival is symbolic)."""
    if len(messages) > 1 and not any(is_symbolic(a) for a, _ in messages):
        messages = sorted(messages, key=lambda m: as_time(m[0]))
    for arrive, recv in messages:
        clock = later(clock, arrive) + recv
    return clock


@dataclass
class Stage:
    """A collective priced on the links. Its flows stay open to the next collective of the
    same members (or more) while nothing else communicates in between: the next one's flows
    may share links with this one's late flows, and then both are priced again together."""
    kind: str
    size_of: object  # (src, dst) -> bytes
    rounds: list
    reqs: dict[int, CollReq]
    entry: dict  # each member's clock when it entered
    plan: list | None = None  # its messages' times when all are numbers (_plan)
    t_in: dict = field(default_factory=dict)  # the entries last priced (moved by the stage before)
    replied: dict = field(default_factory=dict)  # the ends its members were given
    delay: dict = field(default_factory=dict)  # (round, src, dst) -> contention delay
    segments: list = field(default_factory=list)  # (links, segments) fixed on the network
    last: float = 0.0  # when its last flow ends
    serial: int = 0

    def shift(self, d: float) -> None:
        """Every time later by ``d``, as ``Network.shift`` moves the link time it fixed (a
        steady-state jump that moves every process alike)."""
        for times in (self.entry, self.t_in, self.replied):
            for pid in times:
                times[pid] += d
        self.segments = [(links, [(a + d, b + d, r) for a, b, r in segs])
                         for links, segs in self.segments]
        self.last += d


def _with_contention(s: GlobalSync, new: Stage) -> dict:
    """The members' end times. An MPI collective's messages share links (E4) with each other,
    with the messages already priced and with the open flows of the collectives just before
    it (``_still_open``): max-min shares both ways, so the earlier collective's late flows
    slow down too, and the members' entries to the later one move with the ends of the
    earlier (they did only local work in between). Which flows overlap depends on the times
    they give, so all are priced again until the delays repeat (each flow only depends on
    flows that start before it ends, which do not depend on it)."""
    net, msgs = s.msgs.network, s.msgs
    contend = net is not None and new.kind not in ("gsync", "barrier") and all(
        is_eager(r.aau) for r in new.reqs.values())
    t, first = _rounds(s, new.kind, new.size_of, new.rounds, new.reqs, new.entry, {}, new.plan)
    if not contend or not first:  # (one member: no message)
        msgs.open_collectives = []
        return t
    if msgs.left_unpriced(
            *[x for _, depart, mt in first for x in (depart, mt.startup, mt.transmission, mt.wire)]):
        _record(s, first)
        msgs.open_collectives = []
        return t
    msgs.serial += 1
    new.serial, new.t_in = msgs.serial, dict(new.entry)
    stages, others = _still_open(s, new)
    stages = stages + [new]
    for st in stages[:-1]:  # priced again below, with the new one
        net.unfix(st.segments)
    delay = {(j, *k): d for j, st in enumerate(stages) for k, d in st.delay.items()}
    fresh = delay
    for n in range(sum(len(rnd) for st in stages for rnd in st.rounds) + 2):
        delay = fresh
        if n == 0 and len(stages) == 1 and not delay:  # (the rounds priced above)
            ends, t_ins, flows = [t], [new.t_in], _flows(s, 0, first, delay)
        else:
            ends, t_ins, flows = _chain_rounds(s, stages, delay)
        shared = net.price_batch(flows)
        fresh = {f.key: max(shared[f.key].end - f.start - f.demand, 0.0) if f.key in shared
                 else 0.0 for f in flows}
        if all(abs(fresh[k] - delay.get(k, 0.0)) <= 1e-12 for k in fresh):
            break
    else:
        msgs.flows = None  # (delays that did not settle: no proof of flows apart)
    # (what the open collectives' flows met stays: the next collective prices them again)
    floor, first = s.clock_floor(), min([f.start for f in flows] + [
        a for chain in others for st in chain for _, segs in st.segments for a, _, _ in segs])
    net.forget_before(first if floor is None else min(floor, first))
    for st in stages:
        st.segments, st.delay, st.last = [], {}, 0.0
    for f in flows:  # later messages share what these left, until priced again
        j, key = f.key[0], f.key[1:]
        st = stages[j]
        segs = shared[f.key].segments if f.key in shared else (
            [(f.start, f.start + f.demand, 1.0)] if f.demand > 0 else [])
        net.fix(f.links, segs)
        st.segments.append((f.links, segs))
        for _, b, _ in segs:
            if b > st.last:
                st.last = b
        st.delay[key] = delay.get(f.key, 0.0)
        if fresh[f.key] > 0:
            msgs.collective_delays[(st.serial, *key)] = fresh[f.key]
        elif msgs.collective_delays:
            msgs.collective_delays.pop((st.serial, *key), None)
        if j == len(stages) - 1:
            msgs.record(f.links, f.start, f.demand, f.sender)  # (for ``apart_at``)
    for st, t_in in zip(stages, t_ins):
        st.t_in = t_in
    new.replied = ends[-1]
    msgs.open_collectives = others + [stages]
    msgs.open_mark = (s.messages.posted, len(s.messages))
    return ends[-1]


def _still_open(s: GlobalSync, new: Stage) -> tuple[list[Stage], list[list[Stage]]]:
    """The collectives priced before ``new`` whose flows it may still share links with and
    whose ends move its members' entries, and the open chains of other members that stay
    open beside it. Each chain holds the collectives of one set of members (concurrent
    collectives on disjoint communicators each have theirs); ``new`` continues every chain
    whose last collective's members are all in ``new`` (one chain of them all from then on)
    and closes every other chain that shares a member with it. None continues if a message
    was sent or received since (a member's time since is then not its own work alone); a
    chain continued loses those whose flows all end before ``new``'s first member enters."""
    chains = s.msgs.open_collectives
    if not chains or s.msgs.open_mark != (s.messages.posted, len(s.messages)):
        return [], []
    members = set(new.reqs)
    mine = [c for c in chains if set(c[-1].reqs) <= members]
    others = [c for c in chains if not members & set().union(*(st.reqs for st in c))]
    if not mine or any(map(is_symbolic, new.entry.values())):
        return [], others
    first = min(as_time(x) for x in new.entry.values())
    kept = []
    for chain in mine:
        k = 0
        while k < len(chain) and chain[k].last <= first:
            k += 1
        kept += chain[k:]
    return kept, others


def _chain_rounds(s: GlobalSync, stages: list[Stage], delay: dict) -> tuple[list, list, list]:
    """Each stage's ends and entries and the flows of all, given each message's contention
    delay (keys (stage, round, src, dst)). A stage none of whose members was in a stage
    before it enters as last priced (the first of each chain); a later stage's member enters
    when it did, moved by as much as its end of its own stage before (the latest that holds
    it) moved from the end it was given."""
    ends, t_ins, flows = [], [], []
    before: dict[int, int] = {}  # member -> the latest stage so far that holds it
    for j, st in enumerate(stages):
        if not any(pid in before for pid in st.entry):
            t_in = st.t_in
        else:
            t_in = {pid: x + as_time(ends[before[pid]][pid] - stages[before[pid]].replied[pid])
                    if pid in before and pid in stages[before[pid]].replied else x
                    for pid, x in st.entry.items()}
        before.update((pid, j) for pid in st.reqs)
        mine = {k[1:]: d for k, d in delay.items() if k[0] == j}
        t, msgs = _rounds(s, st.kind, st.size_of, st.rounds, st.reqs, t_in, mine, st.plan)
        ends.append(t)
        t_ins.append(t_in)
        flows += _flows(s, j, msgs, delay)
    return ends, t_ins, flows


def _flows(s: GlobalSync, j: int, msgs: list, delay: dict) -> list[Flow]:
    """Stage ``j``'s messages ((key, depart, MessageTime)) as flows on their links, each
    ending at its end alone plus its contention delay (keys (stage, round, src, dst))."""
    out = []
    pair = s.msgs.pair
    for key, depart, mt in msgs:
        links, weight, _, _ = pair(key[1], key[2])
        start = wire_start(depart, mt)
        k = (j, *key)
        out.append(Flow(k, links, start, mt.wire, weight, start + mt.wire + delay.get(k, 0.0),
                        sender=key[1]))
    return out


def _record(s: GlobalSync, msgs) -> None:
    """Note the collective's flows for ``MessageModel.apart_at``."""
    for key, depart, mt in msgs:
        links = s.msgs.pair(key[1], key[2])[0]
        s.msgs.record(links, depart + mt.startup + mt.hops, mt.wire, key[1])


def _edge(s: GlobalSync, sp_: Process, sr: CollReq, dp: Process, dr: CollReq, size) -> None:
    key = (sp_.pid, sr.aau.id, dp.pid, dr.aau.id)
    e = s.edges.get(key)
    if e is None:
        s.edges[key] = CommEdge("collective", collective_pattern(sr.aau.call.name), sp_.label,
                                sr.aau.id, dp.label, dr.aau.id, str(size), None)
    else:
        e.count += 1


def _bitwise(fn):
    """An NX/2 bitwise global operation (GIAND, GIOR, GIXOR) on INTEGER values; not followed
    when one is not a number."""
    def op(*vals):
        if all(isinstance(v, (int, sp.Integer)) and not isinstance(v, bool) for v in vals):
            return sp.Integer(reduce(fn, map(int, vals)))
        return Unknown("it is a bitwise combination of values interp does not all know")
    return op


_OPERATORS = {"sum": sp.Add, "prod": sp.Mul, "max": sp.Max, "min": sp.Min, "land": sp.And,
              "lor": sp.Or, "band": _bitwise(and_), "bor": _bitwise(or_), "bxor": _bitwise(xor)}


def combine(kind: str, req: CollReq, reqs: dict[int, CollReq], root: int) -> dict[int, dict | None]:
    """The values each process holds after the operation (followed when all are known);
    ``root``: the root's world rank."""
    if kind in ("gsync", "barrier", *_PRICED_AS):
        return {}
    if kind in _MOVE_ONLY:
        return {pid: {} for pid in reqs}  # the values moved are not followed
    if kind == "bcast":
        return {pid: dict(reqs[root].payload) for pid in reqs}
    if req.reduce in ("maxloc", "minloc"):  # (value, index) pairs: the values are not followed
        return {pid: {} for pid in reqs}
    op = _OPERATORS[req.reduce or "sum"]
    keys = set().union(*(r.payload.keys() for r in reqs.values()))
    result = {}
    for key in keys:
        vals = [r.payload.get(key, UNKNOWN) for r in reqs.values()]
        result[key] = Unknown(f"it is the result of {req.aau.call.name} at line "
                              f"{req.aau.loc.line}, whose operands interp does not all follow") \
            if any(is_unknown(v) or v is None for v in vals) else op(*vals)
    if kind == "reduce":
        return {root: result}
    return {pid: dict(result) for pid in reqs}
