"""Seed 000 §2.1.1: the thread graph Π(χ, N) of an MPI program, fully instantiated from
interp's engine run, with the fitted segment times of :mod:`interp.analysis.semiemp`.

**Threads** are the ranks. A thread's events are its MPI calls in the order the engine ran
them (its trace, every iteration interpreted): a send names its receiver and tag, a receive
its sender and tag, as the engine matched the messages (``MPI_ANY_SOURCE`` and
``MPI_ANY_TAG`` stay "any": algorithm G's policy matches them); a collective is one of all
the ranks; ``MPI_PROC_NULL`` is a partner that never sends or receives. Calls that do not
synchronize (setup, queries, COMM_SPLIT and COMM_DUP) are not events.

**Segments** are the timed segments of ``interp run`` (:func:`interp.analysis.realrun.plan`).
A segment's fitted time on a rank, tt(s, r) = a_s·F + b_s, is the whole run's; each of its
visits gets an equal share (the paper's restriction: static trip counts, identical
iterations). Within a visit the share is spread over the stretches between its calls in the
proportions of the engine's computation there (all of it before the first call when the
engine has none). A call of the segment's own AAUs costs tt^e = its microbenchmarked price,
as Σ_s max_r prices it; a call inside a routine the segment calls is an event with tt^e = 0,
its time being in the segment's F (as :func:`interp.analysis.semiemp.counts` counts it).

**Loops.** A communicating loop cut into segments is a loop of the graph: its own segment's
time before a ``loop_entry``, its body, its control's share at the end of each iteration, and
a ``loop_exit`` with ``est`` = the iterations. When the iterations' events differ (another
partner, a call skipped), the loop is unrolled instead; either way the times add up the same.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

from interp.analysis import algorithm_g as G
from interp.analysis import realrun as R
from interp.application import aau as A
from interp.application import ast
from interp.application.aag import AAG
from interp.errors import InterpError

COLLECTIVES = frozenset({"barrier", "bcast", "reduce", "allreduce", "gather", "scatter",
                         "allgather", "alltoall", "alltoallv"})
NOT_EVENTS = frozenset({"setup", "query", "comm_split", "comm_dup", "abort"})
ANY_SOURCE, ANY_TAG = "MPI_ANY_SOURCE", "MPI_ANY_TAG"

Price = Callable[[int], float]  # a call's tt^e, by its AAU's id


@dataclass
class Built:
    graph: G.Graph
    loops: int  # communicating loops kept as loops of the graph (over all threads)
    unrolled: int  # loops unrolled: their iterations' events differ


@dataclass
class _Loop:
    iterations: list[list]  # each: items (float seconds | Event | _Loop)


def build(aag: AAG, plan: R.Plan, pred, tt: Sequence[dict[str, float]], price: Price) -> Built:
    """Π(χ, N) from the engine's traced run ``pred`` of ``aag`` (the configured AAG the trace's
    AAU ids are of); ``tt[r][column]`` is segment ``column``'s fitted time on rank r."""
    by_id = aag.by_id()
    by_line: dict[int, A.AAU] = {}
    for a in R.main_unit(aag).walk():
        by_line.setdefault(a.loc.line, a)
    nprocs = len(pred.processes)
    sends, recvs = _messages(pred)
    built = Built(G.Graph([]), 0, 0)
    for r, proc in enumerate(pred.processes):
        if proc.trace is None:
            raise InterpError("the thread graph needs the engine's trace (predict with trace=True)")
        items = _thread(r, proc.trace, plan, by_line, by_id, tt[r], price, nprocs,
                        sends, recvs, built)
        built.graph.threads.append(_seal(items))
    return built


def _messages(pred) -> tuple[dict, dict]:
    """Matched messages by (sender, send AAU) in departure order and by (receiver, receive
    AAU) in the order they were taken."""
    sends: dict[tuple[int, int], list] = {}
    recvs: dict[tuple[int, int], list] = {}
    for m in pred.scheduler.trace or []:
        sends.setdefault((m.src, m.src_aau), []).append(m)
        recvs.setdefault((m.dst, m.dst_aau), []).append(m)
    for v in sends.values():
        v.sort(key=lambda m: float(m.depart))
    return sends, recvs


def _thread(r, trace, plan, by_line, by_id, tt, price, nprocs, sends, recvs, built) -> list:
    seg_of = {by_line[s.line].id: s for s in plan.segments if s.type != "loop"}
    control = {s.within: s for s in plan.segments if s.type == "loop"}
    cut = {s.within for s in plan.segments if s.within}
    visits: dict[str, int] = {}
    for span in trace:
        s = seg_of.get(span.aau)
        if s is not None and span.name != "waiting":
            visits[s.column] = visits.get(s.column, 0) + 1
    comm_spans = [x for x in trace if x.name != "waiting" and _is_event(by_id.get(x.aau))]
    events = _events(r, comm_spans, by_id, nprocs, sends, recvs)
    own = {s.column: {x.id for x in _own_leaves(by_line[s.line])} for s in plan.segments
           if s.type != "loop"}
    items: list = []
    loop: _Loop | None = None
    last_child = -1
    pending: list = []  # (span, event) since the last segment ended
    k = 0
    order = {s.key: n for n, s in enumerate(plan.segments)}
    for span in trace:
        if span.name == "waiting":
            continue
        if k < len(comm_spans) and span is comm_spans[k]:  # (a call may be a segment too)
            pending.append((span, events[k]))
            k += 1
        s = seg_of.get(span.aau)
        if s is None:
            continue
        if s.key in cut:  # the loop's own span closes it (it ends after its body)
            if loop is None:  # a loop whose body never ran: its own time only
                items.append(tt.get(s.column, 0.0) / visits[s.column])
            else:
                items += _close(loop, tt, control.get(s.key), built)
            loop = None
            continue
        visit = _visit(s, span, pending, tt.get(s.column, 0.0) / visits[s.column], price,
                       own[s.column])
        pending = []
        if s.within is None:
            items += visit
            continue
        if loop is None:  # the loop opens: its own segment's time comes first
            outer = next(x for x in plan.segments if x.key == s.within)
            items.append(tt.get(outer.column, 0.0) / max(visits.get(outer.column, 1), 1))
            loop, last_child = _Loop([[]]), -1
        if order[s.key] <= last_child:
            loop.iterations.append([])
        last_child = order[s.key]
        loop.iterations[-1] += visit
    items += [e for _, e in pending]
    return items


def _is_event(a) -> bool:
    return (isinstance(a, A.LibraryAAU) and a.call is not None and a.call.library == "mpi"
            and a.call.op not in NOT_EVENTS)


def _own_leaves(a: A.AAU) -> list[A.LibraryAAU]:
    """The segment's calls Σ_s max_r prices (as :func:`semiemp._comm_leaves`)."""
    return [x for x in a.walk() if isinstance(x, A.LibraryAAU) and x.call is not None
            and x.type in A.SYNC_TYPES]


def _visit(s: R.Segment, span, pending: list, share: float, price: Price,
           own: set[int]) -> list:
    """One visit of a segment: its share of tt spread between its calls as the engine's
    computation is, the calls as events."""
    calls = sorted(pending, key=lambda p: float(p[0].start))
    edges = [float(span.start)] + [x for c, _ in calls for x in (float(c.start), float(c.end))]
    edges.append(float(span.end))
    gaps = [max(edges[2 * i + 1] - edges[2 * i], 0.0) for i in range(len(calls) + 1)]
    total = sum(gaps)
    weights = [g / total for g in gaps] if total > 0 else [1.0] + [0.0] * len(calls)
    out: list = [share * weights[0]]
    for (c, e), w in zip(calls, weights[1:]):
        out += [replace(e, tt=price(c.aau) if c.aau in own else 0.0), share * w]
    return out


def _close(loop: _Loop, tt: dict, control: R.Segment | None, built: Built) -> list:
    """A loop of the graph when every iteration has the same events, else its iterations in
    a row; its control's time at the end of each iteration."""
    n = len(loop.iterations)
    per = tt.get(control.column, 0.0) / n if control else 0.0
    for it in loop.iterations:
        it.append(per)
    if n == 1:
        return loop.iterations[0]
    shapes = {tuple(x if isinstance(x, G.Event) else None for x in it)
              for it in loop.iterations}
    if len(shapes) == 1:
        built.loops += 1
        return [_Loop([_mean(loop.iterations)])]
    built.unrolled += 1
    return [x for it in loop.iterations for x in it]


def _mean(iterations: list[list]) -> list:
    """One iteration standing for all: each stretch of computation the iterations' mean
    (the events are the same); the count rides on the loop."""
    first = iterations[0]
    out: list = []
    for j, x in enumerate(first):
        out.append(sum(it[j] for it in iterations) / len(iterations)
                   if isinstance(x, float) else x)
    out.append(len(iterations))
    return out


def _seal(items: list) -> list[G.Event]:
    """Items → events, each computation added to the ``then`` of the event before it."""
    events: list[G.Event] = [G.Event("start")]

    def add(xs: list) -> None:
        for x in xs:
            if isinstance(x, float):
                events[-1] = replace(events[-1], then=events[-1].then + x)
            elif isinstance(x, _Loop):
                body, est = x.iterations[0][:-1], x.iterations[0][-1]
                entry = len(events)
                events.append(G.Event("loop_entry"))
                add(body)
                events.append(G.Event("loop_exit", entry=entry, est=est))
            else:
                events.append(x)

    add(items)
    events.append(G.Event("end"))
    return events


def _events(r: int, spans: list, by_id: dict, nprocs: int, sends: dict,
            recvs: dict) -> list[G.Event]:
    """Each call span of rank r as an event (tt^e set later), partners from the messages."""
    out = []
    taken: dict[int, int] = {}
    seen: dict[int, int] = {}
    counts: dict[int, int] = {}
    for x in spans:
        counts[x.aau] = counts.get(x.aau, 0) + 1
    for x in spans:
        a = by_id[x.aau]
        op = a.call.op
        line = f"line {a.loc.line}"
        if op in COLLECTIVES:
            out.append(G.Event("collective", name=op, members=tuple(range(nprocs))))
            continue
        if op in ("wait", "waitall"):
            out.append(G.Event(op, name=line))
            continue
        to = tag = frm = rtag = None
        if op in ("send", "sendrecv"):
            to, tag = _sent(sends.get((r, x.aau), []), taken, x)
        if op in ("recv", "sendrecv"):
            frm, rtag = _received(a, recvs.get((r, x.aau), []), seen, counts[x.aau], line)
        kind = "irecv" if op == "recv" and not a.call.sync else op
        out.append(G.Event(kind, to=to, tag=tag, frm=frm, rtag=rtag, name=line))
    return out


def _sent(msgs: list, taken: dict[int, int], span) -> tuple[int, int | None]:
    """The message this send span sent (departing within it), or none: MPI_PROC_NULL."""
    k = taken.get(span.aau, 0)
    if k < len(msgs) and float(span.start) <= float(msgs[k].depart) <= float(span.end):
        taken[span.aau] = k + 1
        return msgs[k].dst, msgs[k].tag
    return G.PROC_NULL, None


def _received(a: A.LibraryAAU, msgs: list, seen: dict[int, int], visits: int,
              line: str) -> tuple[int | None, int | None]:
    """The sender and tag of this visit's message: the engine's match, in order; "any" for a
    wildcard; MPI_PROC_NULL when the call never received."""
    k = seen.get(a.id, 0)
    seen[a.id] = k + 1
    if not msgs:
        return G.PROC_NULL, None
    if len(msgs) != visits:
        raise InterpError(f"the thread graph: the receive at {line} ran {visits} times and "
                          f"took {len(msgs)} messages; which visits received from "
                          "MPI_PROC_NULL is not known",
                          hint="algorithm G plays receives whose partner is fixed or always "
                               "MPI_PROC_NULL; interp semiemp predict --method sum-of-max "
                               "does without G")
    m = msgs[k]
    any_source = _named(a.arg("source"), ANY_SOURCE)
    any_tag = _named(a.arg("tag") if a.call.op != "sendrecv" else a.arg("recvtag"), ANY_TAG)
    return (None if any_source else m.src), (None if any_tag else m.tag)


def _named(e, name: str) -> bool:
    return isinstance(e, ast.Var) and e.name.upper() == name
