"""Seed 000 (Xu, Zhang, Sun), Table I: algorithm G, the thread graph played event by event.

**The graph** Π(χ, N): one :class:`Event` list per thread (an MPI rank). The segment
s = ⟨e_i, e_{i+1}⟩ between two events of a thread is the event's ``then``: tt(s) seconds; an
event's own ``tt`` is tt^e. A loop that communicates is explicit: a ``loop_entry`` event, its
body, a ``loop_exit`` event holding the index of its entry and the estimated iterations
``est``; the remaining count ``rem`` lives in the player.

**Table I as written**: put the ready events in a pool; pick one by the policy; process it by
its semantics; if it is not a loop exit or its loop has no iterations left, its successor on
the thread goes in the pool (and a loop exit's ``rem`` is reset); otherwise ``rem`` goes down
by one and the loop's entry goes in the pool.

**Where the paper is silent** (the sheet's gaps; docs/accuracy.md):

- *Time.* G has no clock; here each thread has one. An event is *ready* at its thread's clock
  when the segment before it ends (the previous event's completion plus its ``then``). The
  pool is ordered by that time: the event picked is the earliest ready one, so the play is a
  discrete-event simulation and clocks never go back.
- *Random policy.* Among events ready at the same time, each is equally likely to be picked
  next (a seeded :class:`random.Random`: a play is reproducible from its seed).
- *Per-event semantics.* ``send``: the message leaves at the thread's clock τ and the send
  completes at τ + tt^e (eager: it never waits for its receive). ``recv``: completes at
  max(τ, the matching send's τ) + tt^e, so tt^e holds the transfer. Matching is MPI's: the
  oldest message from the named sender with the same tag (``frm`` None: from any sender, the
  first one processed, which is where the pick order can matter); ``frm`` −1 (MPI_PROC_NULL)
  receives nothing and completes at τ + tt^e. ``sendrecv``: its send leaves first, then it
  receives. ``irecv`` posts a receive and ``wait`` completes the oldest posted one
  (``waitall``: every one) as a ``recv`` would. ``collective``: the k-th collective of each
  member is one instance; each member completes at the latest member's arrival + its own
  tt^e (a reduce or bcast synchronizes as a barrier does: the model's choice, as in
  Σ_s max_r). ``loop_entry`` and ``loop_exit`` take their tt^e (0 unless given).
- *The loop count.* ``rem`` starts at ``est`` − 1: the body runs ``est`` times, as θ(e) (2.1)
  counts (the text's "initialized to the estimated number of iterations" with Table I's test
  would run it est + 1 times).
- *Time-sharing.* Each thread is an MPI rank on its own processor (N = P): the equal-priority
  time-sharing of more threads than processors does not arise and is not played.

T_p is the latest thread's completion. A pool that empties while events still wait is a
deadlock: an error naming the waiting events.
"""

from __future__ import annotations

import heapq
import random
from collections import deque
from dataclasses import dataclass, field

from interp.errors import InterpError

KINDS = frozenset({"start", "end", "send", "recv", "sendrecv", "irecv", "wait", "waitall",
                   "collective", "loop_entry", "loop_exit"})
PROC_NULL = -1


@dataclass(frozen=True)
class Event:
    """One event of a thread; ``then`` is tt of the segment from it to its successor."""

    kind: str
    then: float = 0.0  # tt(s) of the segment ⟨this, next⟩, seconds
    tt: float = 0.0  # tt^e, seconds
    to: int | None = None  # send, sendrecv: the receiving thread (PROC_NULL: none)
    frm: int | None = None  # recv, irecv, sendrecv: the sender (None: any; PROC_NULL: none)
    tag: int | None = None  # the send's tag
    rtag: int | None = None  # the receive's tag (None: any)
    name: str = ""  # collective: bcast, reduce, …; otherwise a label for errors
    members: tuple[int, ...] = ()  # collective: its threads
    entry: int | None = None  # loop_exit: the index of its loop_entry on the thread
    est: int = 0  # loop_exit: the estimated iterations


@dataclass
class Graph:
    """Π(χ, N): the threads' events in program order, each list from ``start`` to ``end``."""

    threads: list[list[Event]]


@dataclass
class Result:
    seconds: float  # T_p: the latest thread's end
    finish: list[float]  # each thread's end
    processed: int  # events processed: Θ (2.2)
    picks_tied: int = 0  # picks made among two or more events ready at the same time


@dataclass
class _Message:
    src: int
    tag: int | None
    time: float


@dataclass
class _Request:
    """A posted irecv: whom from, which tag, its tt^e, and the message once matched."""

    frm: int | None
    tag: int | None
    tt: float
    message: _Message | None = None

    @property
    def open(self) -> bool:
        return self.message is None and self.frm != PROC_NULL


@dataclass
class _Play:
    graph: Graph
    rng: random.Random
    rem: dict[tuple[int, int], int] = field(default_factory=dict)
    mail: dict[int, list[_Message]] = field(default_factory=dict)  # by receiving thread
    posted: dict[int, deque[_Request]] = field(default_factory=dict)  # by thread, in order
    waiting: dict[int, tuple[int, float]] = field(default_factory=dict)  # thread → (i, τ)
    arrived: dict[tuple, list[tuple[int, float]]] = field(default_factory=dict)
    count: dict[tuple[int, tuple], int] = field(default_factory=dict)  # collectives done
    pool: list = field(default_factory=list)
    finish: list[float] = field(default_factory=list)
    processed: int = 0
    tied: int = 0


def play(graph: Graph, seed: int = 0) -> Result:
    """Algorithm G (Table I) on ``graph``; ``seed`` drives the random pick among ties."""
    check(graph)
    n = len(graph.threads)
    g = _Play(graph, random.Random(seed), finish=[float("nan")] * n)
    g.mail = {t: [] for t in range(n)}
    g.posted = {t: deque() for t in range(n)}
    for t in range(n):  # {Put all ready events into a ready event pool.}
        _ready(g, t, 0, 0.0)
    while g.pool:  # While (there are ready events)
        tau, _key, t, i = heapq.heappop(g.pool)  # the earliest, ties in random order
        if g.pool and g.pool[0][0] == tau:
            g.tied += 1
        g.processed += 1
        _process(g, t, i, tau)
    if g.waiting:
        names = ", ".join(f"thread {t} {graph.threads[t][i].kind} {graph.threads[t][i].name}"
                          .rstrip() for t, (i, _) in sorted(g.waiting.items()))
        raise InterpError(f"algorithm G: the thread graph deadlocks: {names} wait for events "
                          "that never come",
                          hint="the graph's sends and receives (or collectives) do not pair up")
    return Result(max(g.finish, default=0.0), g.finish, g.processed, g.tied)


def check(graph: Graph) -> None:
    for t, events in enumerate(graph.threads):
        if not events or events[0].kind != "start" or events[-1].kind != "end":
            raise InterpError(f"algorithm G: thread {t} must run from a start to an end event")
        for i, e in enumerate(events):
            if e.kind not in KINDS:
                raise InterpError(f"algorithm G: thread {t} event {i}: unknown kind {e.kind!r}")
            if e.kind == "loop_exit" and (e.entry is None or e.est < 1
                                          or events[e.entry].kind != "loop_entry"):
                raise InterpError(f"algorithm G: thread {t} event {i}: a loop exit needs its "
                                  "loop entry and est ≥ 1")


def _ready(g: _Play, t: int, i: int, tau: float) -> None:
    heapq.heappush(g.pool, (tau, g.rng.random(), t, i))


def _process(g: _Play, t: int, i: int, tau: float) -> None:
    """Process the event by its semantics; completion may wait for another thread."""
    e = g.graph.threads[t][i]
    if e.kind in ("send", "sendrecv") and e.to is not None and e.to != PROC_NULL:
        _post(g, t, e, tau)
    if e.kind in ("recv", "sendrecv"):
        got = _take(g, t, e.frm, e.rtag)
        if got is None and e.frm != PROC_NULL:
            g.waiting[t] = (i, tau)
            return
        _done(g, t, i, max(tau, got.time) + e.tt if got else tau + e.tt)
    elif e.kind == "irecv":
        req = _Request(e.frm, e.rtag, e.tt)
        if req.open:
            req.message = _take(g, t, e.frm, e.rtag)
        g.posted[t].append(req)
        _done(g, t, i, tau)
    elif e.kind in ("wait", "waitall"):
        _complete_wait(g, t, i, tau)
    elif e.kind == "collective":
        key = (e.members, g.count.get((t, e.members), 0))
        g.count[(t, e.members)] = key[1] + 1
        here = g.arrived.setdefault(key, [])
        here.append((t, tau))
        if len(here) < len(e.members):
            g.waiting[t] = (i, tau)
            return
        last = max(x for _, x in here)
        del g.arrived[key]
        for m, _ in here:
            j = i if m == t else g.waiting.pop(m)[0]
            other = g.graph.threads[m][j]
            if other.kind != "collective" or other.name != e.name:
                raise InterpError(f"algorithm G: collective {key[1] + 1} is {e.name} on thread "
                                  f"{t} but {other.name or other.kind} on thread {m}")
            _done(g, m, j, last + other.tt)
    else:
        _done(g, t, i, tau + e.tt)


def _post(g: _Play, t: int, e: Event, tau: float) -> None:
    """A message leaves thread t at τ: to a waiting receive or posted irecv, else the mail."""
    m = _Message(t, e.tag, tau)
    dst = e.to
    for req in g.posted[dst]:
        if req.open and _matches(m, req.frm, req.tag):
            req.message = m
            if dst in g.waiting and g.graph.threads[dst][g.waiting[dst][0]].kind in (
                    "wait", "waitall"):
                i, t_wait = g.waiting.pop(dst)
                _complete_wait(g, dst, i, t_wait)
            return
    if dst in g.waiting:
        i, t_recv = g.waiting[dst]
        r = g.graph.threads[dst][i]
        if r.kind in ("recv", "sendrecv") and _matches(m, r.frm, r.rtag):
            del g.waiting[dst]
            _done(g, dst, i, max(t_recv, tau) + r.tt)
            return
    g.mail[dst].append(m)


def _matches(m: _Message, frm: int | None, tag: int | None) -> bool:
    return (frm is None or m.src == frm) and (tag is None or m.tag == tag)


def _take(g: _Play, t: int, frm: int | None, tag: int | None) -> _Message | None:
    """The oldest message in thread t's mail that the receive matches (removed)."""
    box = g.mail[t]
    for k, m in enumerate(box):
        if _matches(m, frm, tag):
            return box.pop(k)
    return None


def _complete_wait(g: _Play, t: int, i: int, tau: float) -> None:
    """``wait``: the oldest posted irecv; ``waitall``: all of them; each at max(τ, its
    message's time) + its tt^e. Unmatched ones: the thread waits."""
    e = g.graph.threads[t][i]
    reqs = g.posted[t]
    todo = list(reqs) if e.kind == "waitall" else list(reqs)[:1]
    if any(r.open for r in todo):
        g.waiting[t] = (i, tau)
        return
    end = tau + e.tt
    for r in todo:
        reqs.popleft()
        end = max(end, max(tau, r.message.time if r.message else tau) + r.tt)
    _done(g, t, i, end)


def _done(g: _Play, t: int, i: int, when: float) -> None:
    """Lines 6–18 of Table I: the event completed at ``when``; its successor is ready."""
    events = g.graph.threads[t]
    e = events[i]
    if e.kind == "end":
        g.finish[t] = when
        return
    if e.kind == "loop_exit":
        rem = g.rem.get((t, i), e.est - 1)
        if rem != 0:
            g.rem[(t, i)] = rem - 1
            _ready(g, t, e.entry, when)
            return
        g.rem[(t, i)] = e.est - 1  # reset: the loop may be entered again
    _ready(g, t, i + 1, when + e.then)


def theta(graph: Graph) -> int:
    """Θ (2.2) = Σ_e θ(e), θ(e) the product of the sizes of the loops around e (2.1)."""
    total = 0
    for events in graph.threads:
        factor = [1] * len(events)
        for j, e in enumerate(events):
            if e.kind == "loop_exit":
                for k in range(e.entry, j + 1):
                    factor[k] *= e.est
        total += sum(factor)
    return total

