"""Link contention: messages whose routes cross a directed link at the same time share it.

The paper's Ω prices every message as if it had the network to itself. On a real machine (and
in SimGrid, which the validation compares with) messages that cross the same link at the same
time share its bandwidth. The engine keeps every message in flight as a *flow*: its route's
directed links, the time its bytes start to leave (after the startup and the route latency,
which are not shared) and its *demand*, the seconds its bytes take on an idle link
(per_byte·size). Flows share links by weighted max-min fairness, as SimGrid's CM02 model does:
at every moment the rates are the largest such that no link carries more than its capacity,
a flow's share being inversely proportional to its weight, the length of its route (CM02
weighs a flow by its route latency, the RTT-unfairness of TCP). A flow's end is
``start + demand`` on idle links.

How one sender's messages share its links is the spec's ``cs.spec.channel``:

* ``fair`` -- every flow in flight shares by max-min, also with flows of its own sender, as
  SimGrid's CM02 does: a burst of messages from one sender leaves together and ends together.
* ``fifo`` -- a sender's messages leave one after another in the order sent (its network
  interface's queue): a flow's bytes start when the sender's previous flow's bytes have all
  left. Flows of different senders still share links by max-min.

A flow's times stay open, and are recomputed whenever a new flow joins its links, until no
new flow can reach it any more (:meth:`Network.settle_one`): only then is its end final and its
message may be received. Under ``fair`` how long that is waited for is the network's ``defer``
level: ``AT_ONCE`` (final when matched), ``SENDER`` (until its own sender can add nothing),
``EVERYONE`` (until no process can send before its end); a run that finds a flow joining a
link where a final flow would have shared with it is repeated at the level it needed
(``needs``, ``predict.interpret``). A new flow re-prices only the flows whose rates it changes
(:class:`_Reprice`); the exact mode re-simulates every open flow connected to it through shared
links, the reference the incremental pricing is tested against. The rates it used are then fixed, and later flows share what is left.
Times are numbers; the scheduler does not pass messages whose times are symbolic.
"""

from __future__ import annotations

import bisect
import heapq
from dataclasses import dataclass, field

Link = tuple  # (from, to) for a network link, ("up", n) / ("down", n) for a crossbar port
Segment = tuple[float, float, float]  # (from, to, rate): a flow's use of its links

INF = float("inf")
AT_ONCE, SENDER, EVERYONE = 0, 1, 2  # fair: how long a matched flow waits to be final
_EPS = 1e-15  # seconds (and fractions of a link): round-off, not time or capacity
CHANNELS = ("fifo", "fair")


class MustDefer(Exception):
    """fair: a message was received too early for this run's ``defer`` level; the run stops
    and is interpreted again at ``level`` (``predict.interpret``)."""

    def __init__(self, level: int) -> None:
        super().__init__(f"interpret again deferring at level {level}")
        self.level = level


def route_links(path: list[int], crossbar: bool) -> tuple[Link, ...]:
    """The directed links a message occupies along ``path`` (the nodes it visits). On a
    crossbar every node has a private port each way and the switch itself never contends."""
    if len(path) < 2:
        return ()
    if crossbar:
        return (("up", path[0]), ("down", path[-1]))
    return tuple(zip(path, path[1:]))


@dataclass(slots=True)  # one per message on the links: no instance dict
class Flow:
    key: int  # the message's id
    links: tuple[Link, ...]
    start: float
    demand: float
    weight: float = 1.0  # a smaller share for a longer route
    end: float = 0.0
    segments: list[Segment] = field(default_factory=list)
    sender: object = None  # whose interface it leaves by
    prev: int | None = None  # fifo: the sender's previous flow, while it is open
    after: float = 0.0  # fifo: when the sender's previous flow, now closed, ended
    ready: float = 0.0  # when its bytes may start (its start, or fifo: its queue's turn)


def _max_min(active: list[Flow], capacity: dict[Link, float]) -> dict[int, float]:
    """Weighted max-min fair rates of ``active`` flows on links of the given free capacity
    (progressive filling: rate = level / weight, the link that fills at the lowest level
    fixes its flows' rates first)."""
    rates: dict[int, float] = {}
    left = dict(capacity)
    users: dict[Link, list[Flow]] = {}
    for f in active:
        for link in f.links:
            users.setdefault(link, []).append(f)

    def inverse(fs: list[Flow]) -> float:
        return sum(1.0 / f.weight for f in fs if f.key not in rates)

    for f in active:  # a flow alone on its links: its rate is its links' least capacity
        if f.links and all(len(users[link]) == 1 for link in f.links):
            rates[f.key] = min(max(left[link], 0.0) / (1.0 / f.weight) for link in f.links) \
                / f.weight
    inverses = {link: inv for link, fs in users.items() if (inv := inverse(fs))}
    while len(rates) < len(active):
        best, level = None, None
        for link, inv in inverses.items():
            x = max(left[link], 0.0) / inv
            if level is None or x < level:
                best, level = link, x
        touched = set()
        for f in users[best]:
            if f.key in rates:
                continue
            rates[f.key] = level / f.weight
            for link in f.links:
                left[link] -= rates[f.key]
                touched.add(link)
        for link in touched:  # only these links lost unfixed flows: the others' sums stand
            inverses[link] = inverse(users[link])
            if not inverses[link]:
                del inverses[link]
    return rates


class Network:
    """The flows in flight and the link time already used by received messages."""

    def __init__(self, channel: str = "fair", defer: int = SENDER,
                 incremental: bool = True) -> None:
        if channel not in CHANNELS:
            raise ValueError(f"channel must be one of {', '.join(CHANNELS)}, not {channel!r}")
        self.channel = channel
        # fair: a flow waits to be final while its sender (SENDER) or any process (EVERYONE)
        # can still add a flow to its links, or is final at once (AT_ONCE); ``violated`` says
        # if a later flow of its sender, ``crossed`` if one of another sender, would have
        # shared a link with a final one (then the caller interprets again, deferring more)
        self.defer = defer
        # a new flow re-prices only the flows whose rates it changes (``_Reprice``); the
        # exact mode re-simulates every flow connected to it (``_component``, ``_simulate``)
        self.incremental = incremental
        self.violated = False
        self.crossed = False
        # fair: the latest ends of final flows on a link, of two different senders
        self.closed_end: dict[Link, list[tuple[float, object]]] = {}
        # fair: the latest end of a final flow of each sender on each link it used (a burst
        # to one partner and another alternates links: its last flow is on the other one)
        self.own_end: dict[tuple[object, Link], float] = {}
        self.open: dict[int, Flow] = {}
        self.by_link: dict[Link, set[int]] = {}  # the open flows on each link
        self.fixed: dict[Link, list[Segment]] = {}
        # (``_alone``) no fixed segment, no open flow on a link ends after these
        self.fixed_end: dict[Link, float] = {}
        self.open_end: dict[Link, float] = {}
        self.last: dict[object, Flow] = {}  # fifo: each sender's latest flow
        self.next: dict[int, int] = {}  # fifo: an open flow -> its sender's next flow

    def add(self, key: int, links: tuple[Link, ...], start: float, demand: float,
            weight: float = 1.0, sender: object = None) -> dict[int, float]:
        """A new flow; returns the end of every open flow sharing links with it (itself
        included), recomputed. ``sender``: whose interface it leaves by (``fifo``)."""
        flow = Flow(key, links, start, demand, weight, start + demand, sender=sender)
        self.open[key] = flow
        if not links or demand <= 0:
            return {key: flow.end}  # nothing on a link: nothing can change it
        if sender is not None:
            prev = self.last.get(sender)
            if self.channel == "fifo" and prev is not None and prev.key in self.open:
                flow.prev, self.next[prev.key] = prev.key, key
            elif self.channel == "fifo" and prev is not None:
                flow.after = prev.end
            elif prev is not None and any(self.own_end.get((sender, link), -INF) > start + _EPS
                                          for link in links):
                self.violated = True  # fair: it would have shared a link with a final flow
            self.last[sender] = flow
        if self.channel == "fair" and any(self._closed_end(link, sender) > start + _EPS
                                          for link in links):
            self.crossed = True  # a final flow of another sender is still on one of its links
        by_link = self.by_link
        for link in links:  # (no set made for a link that has one)
            users = by_link.get(link)
            if users is None:
                users = by_link[link] = set()
            users.add(key)
        if self.incremental:
            ends = self._alone(flow)
            if ends is None:
                reprice = _Reprice(self, flow)
                ends = reprice.run()
                self._ends(reprice.changed.values())
            return ends
        group = self._component(flow)
        old = {f.key: f.end for f in group}
        self._simulate(group)
        self._ends(group)
        return {f.key: f.end for f in group if f.key == key or abs(f.end - old[f.key]) > _EPS}

    def _alone(self, flow: Flow) -> dict[int, float] | None:
        """The new flow's end when it meets nothing on its links while its bytes are on the
        wire (no open flow and no received message there between its queue's turn and its
        end at full rate): it changes no other flow, as ``_Reprice`` would find (the flows
        before it keep their max-min rates, those after it start where it ended). None when
        it meets something: ``_Reprice`` prices it then."""
        ready = self.turn(flow)
        rate = 1.0 / (1.0 / flow.weight) / flow.weight  # (_max_min's, for a flow alone)
        end = ready + flow.demand / rate
        t = ready + _EPS
        open_, by_link = self.open, self.by_link
        fixed, fixed_end, open_end = self.fixed, self.fixed_end, self.open_end
        for link in flow.links:
            if fixed_end.get(link, INF) > t and any(  # (the bound before the segments)
                    b > t and a < end for a, b, _ in fixed.get(link, ())) or \
                    open_end.get(link, INF) > t and any(
                        k != flow.key and _meets(open_[k], t, end) for k in by_link[link]):
                return None
        flow.ready, flow.end, flow.segments = ready, end, [(ready, end, rate)]
        self._ends((flow,))
        return {flow.key: end}

    def turn(self, f: Flow) -> float:
        """When ``f``'s bytes may leave: its start, and under ``fifo`` not before its
        sender's previous flow (open, or closed at ``after``) ends."""
        return max(f.start, f.after) if f.prev is None else max(f.start, self.open[f.prev].end)

    def _ends(self, flows) -> None:
        """Flows priced again: the open flows' latest end on their links (an upper bound:
        a flow closed since, or ending earlier now, leaves it as it was)."""
        bound = self.open_end
        for f in flows:
            for link in f.links:
                if bound.get(link, -INF) < f.end:
                    bound[link] = f.end

    def settle_one(self, key: int, free_clock) -> bool:
        """Close flow ``key`` if no later flow of its own sender can change its end; True when
        its end is final. ``free_clock(sender)``: the clock of a sender that can still send
        without first receiving, None for one that waits (or is done). Under ``fifo`` a
        sender's later flows queue behind, so every end is final at once; under ``fair`` a
        flow stays open while its sender is free and earlier than its end: a message it still
        sends would share the link (a burst). Later flows of *other* senders are not waited
        for: they take what the closed flows left (the earlier message keeps its link time)."""
        flow = self.open.get(key)
        if flow is not None and not self._final(flow, free_clock):
            return False
        self.close(key)
        return True

    @property
    def needs(self) -> int:
        """The ``defer`` level this run needed: more than ``defer`` when it was too early."""
        return EVERYONE if self.crossed else SENDER if self.violated else AT_ONCE

    def _final(self, f: Flow, free_clock) -> bool:
        clock = free_clock(f.sender) if self.channel == "fair" and self.defer else None
        return clock is None or clock >= f.end - 1e-12 * max(1.0, abs(f.end))

    def close(self, key: int) -> None:
        """The flow's end is final: the link time it used is fixed."""
        flow = self.open.pop(key, None)
        if flow is None:
            return
        by_link = self.by_link
        links = flow.links if flow.demand > 0 else ()  # (a 0-byte flow is on none)
        for link in links:
            users = by_link[link]
            users.discard(key)
            if not users:  # (a set left per link the run used: ~0.5 KB a rank)
                del by_link[link]
            if self.channel == "fair":
                self._closed(link, flow)
        self.fix(links, flow.segments)
        nxt = self.open.get(self.next.pop(key, None))
        if nxt is not None:  # fifo: the sender's next flow now waits for a fixed time
            nxt.prev, nxt.after = None, max(nxt.after, flow.end)

    def _closed(self, link: Link, flow: Flow) -> None:
        own = (flow.sender, link)
        self.own_end[own] = max(self.own_end.get(own, -INF), flow.end)
        ends = {snd: e for e, snd in self.closed_end.get(link, ())}
        ends[flow.sender] = max(ends.get(flow.sender, -INF), flow.end)
        self.closed_end[link] = sorted(((e, snd) for snd, e in ends.items()),
                                       key=lambda x: -x[0])[:2]

    def _closed_end(self, link: Link, sender: object) -> float:
        """The latest end of a final flow of another sender than ``sender`` on ``link``."""
        return next((e for e, snd in self.closed_end.get(link, ()) if snd != sender), -INF)

    def forget_before(self, floor: float) -> int:
        """No flow can start before ``floor`` any more: drop what lies wholly before it.
        Returns how many open flows and fixed segments are kept."""
        for key in sorted((k for k, f in self.open.items() if f.end <= floor),
                          key=lambda k: self.open[k].end):
            self.close(key)
        kept = len(self.open)
        for link, segs in self.fixed.items():
            self.fixed[link] = left = [s for s in segs if s[1] > floor]
            kept += len(left)
        return kept

    def shift(self, d: float) -> None:
        """Every time later by ``d`` (the scheduler skipped periods of a steady state)."""
        for f in self.open.values():
            f.start, f.end, f.after, f.ready = f.start + d, f.end + d, f.after + d, f.ready + d
            f.segments = [(a + d, b + d, r) for a, b, r in f.segments]
        for link, segs in self.fixed.items():
            self.fixed[link] = [(a + d, b + d, r) for a, b, r in segs]
        for bound in (self.fixed_end, self.open_end):
            for link in bound:
                bound[link] += d
        for link, ends in self.closed_end.items():
            self.closed_end[link] = [(e + d, snd) for e, snd in ends]
        for own in self.own_end:
            self.own_end[own] += d
        for f in self.last.values():
            if f.key not in self.open:
                f.end += d

    # ---- the fluid simulation ----
    def _component(self, flow: Flow) -> list[Flow]:
        """The open flows that ``flow`` can slow down: those still on the wire when it starts,
        connected to it through shared links."""
        seen, todo = {flow.key: flow}, [flow]
        while todo:
            f = todo.pop()
            queue = (f.prev, self.next.get(f.key))  # fifo: the sender's neighbours wait on it
            for k in [k for link in f.links for k in self.by_link.get(link, ())] + [
                    k for k in queue if k in self.open]:
                g = self.open[k]
                if k not in seen and g.end > flow.start + _EPS:
                    seen[k] = g
                    todo.append(g)
        return list(seen.values())

    def _background(self, group: list[Flow], t0: float) -> dict[Link, list[Segment]]:
        """What else uses the group's links after ``t0``: received messages and open flows
        outside the group."""
        inside = {f.key for f in group}
        out: dict[Link, list[Segment]] = {}
        for link in {link for f in group for link in f.links}:
            segs = [s for s in self.fixed.get(link, ()) if s[1] > t0]
            for k in self.by_link.get(link, ()):
                if k not in inside:
                    segs.extend(s for s in self.open[k].segments if s[1] > t0)
            out[link] = segs
        return out

    def _simulate(self, group: list[Flow]) -> None:
        t0 = min(f.start for f in group)
        used = self._background(group, t0)
        breaks = sorted({x for segs in used.values() for a, b, _ in segs for x in (a, b)
                         if x > t0 + _EPS})

        def capacity(link: Link, t: float) -> float:
            return 1.0 - sum(r for a, b, r in used[link] if a <= t + _EPS and b > t + _EPS)

        left = {f.key: f.demand for f in group}
        for f in group:
            f.segments = []
        inside = {f.key for f in group}
        ended: dict[int, float] = {}
        # The flows not yet on the wire, by when they may start (a heap; ties in the group's
        # order, the order they join ``active`` in), and under fifo those whose sender's
        # previous flow, in the group, is still on the wire: they wait behind it.
        waiting: list[tuple[float, int, Flow]] = []
        behind: dict[int, tuple[int, Flow]] = {}
        for i, f in enumerate(group):
            if f.prev in inside:
                behind[f.prev] = (i, f)
            else:
                ready = f.ready = self.turn(f)
                heapq.heappush(waiting, (ready, i, f))
        active: list[Flow] = []
        t = waiting[0][0]
        while waiting or behind or active:
            now = []
            while waiting and waiting[0][0] <= t + _EPS:
                now.append(heapq.heappop(waiting))
            active += [f for _, _, f in sorted(now, key=lambda x: x[1])]
            if not active:
                t = waiting[0][0]
                continue
            rates = _max_min(active, {link: capacity(link, t)
                                      for link in {link for f in active for link in f.links}})
            finish = {f.key: t + left[f.key] / rates[f.key] for f in active
                      if rates[f.key] > _EPS}
            nxt = list(finish.values())
            nxt += [waiting[0][0]] if waiting else []
            k = bisect.bisect_right(breaks, t + _EPS)
            nxt += breaks[k:k + 1]
            # (a link fully taken by received messages frees at a break; a flow never waits
            # for ever, so with nothing to wait for the rest goes at full rate)
            t_next = min(nxt) if nxt else t + max(left[f.key] for f in active)
            # A flow is through when its own finish is the next event: decided on times, not
            # on the residue of subtracting them (far from 0 s a residue never reaches 0).
            tol = 1e-12 * max(1.0, abs(t_next))
            for f in active:
                r = rates[f.key]
                if r > _EPS:
                    f.segments.append((t, t_next, r))
                    left[f.key] = max(left[f.key] - r * (t_next - t), 0.0)
                if finish.get(f.key, float("inf")) <= t_next + tol or not nxt:
                    f.end = ended[f.key] = t_next
                    if f.key in behind:  # fifo: the sender's next flow may leave now
                        i, g = behind.pop(f.key)
                        g.ready = max(g.start, t_next)
                        heapq.heappush(waiting, (g.ready, i, g))
            active = [f for f in active if f.key not in ended]
            t = t_next

    # ---- a batch of flows priced together (a collective's messages) ----
    def price_batch(self, flows: list[Flow]) -> dict[object, Flow]:
        """Flows whose times depend on each other, priced together against what this network
        already carries. ``flow.end`` holds the current guess of each flow's end. Returns the
        flows whose bytes meet others' on a link, re-simulated (their ``end`` and
        ``segments``); the others go alone. The network itself is not changed."""
        floor = min(f.start for f in flows)
        users: dict[Link, list[Flow]] = {}
        for f in flows:
            for link in f.links:
                users.setdefault(link, []).append(f)
        net, shared = Network(self.channel, incremental=self.incremental), set()
        for link, fs in users.items():  # background: what messages already priced use
            net.fixed[link] = [g for g in self.fixed.get(link, ()) if g[1] > floor] + [
                g for k in self.by_link.get(link, ()) for g in self.open[k].segments if g[1] > floor]
            spans = sorted([(f.start, f.end, f.key) for f in fs]
                           + [(a, b, None) for a, b, _ in net.fixed[link]], key=lambda x: x[0])
            holder, reach = None, -1.0
            for a, b, k in spans:
                if a < reach - _EPS:
                    shared.update(x for x in (k, holder) if x is not None)
                if b > reach:
                    holder, reach = k, b
        by_key = {f.key: f for f in flows}
        out = {}
        for n, key in enumerate(sorted(shared, key=lambda k: by_key[k].start)):
            f = by_key[key]
            net.add(n, f.links, f.start, f.demand, f.weight, f.sender)
            out[key] = net.open[n]
        return out

    def fix(self, links: tuple[Link, ...], segments: list[Segment]) -> None:
        """Link time used by messages already received: later flows share what is left."""
        fixed, bound = self.fixed, self.fixed_end
        last = max(s[1] for s in segments) if segments else None  # (mostly one: a flow alone)
        for link in links:
            segs = fixed.get(link)
            if segs is None:
                segs = fixed[link] = []
            segs.extend(segments)
            if not segs:
                continue
            old = bound.get(link)
            # (no bound yet, or none given: ``fixed`` set directly, as price_batch's network)
            end = max(s[1] for s in segs) if old is None or last is None else last
            if old is None or end > old:
                bound[link] = end

    def unfix(self, fixed: list[tuple[tuple[Link, ...], list[Segment]]]) -> None:
        """Take back link time given to ``fix`` as (links, segments): the messages are priced
        again (a collective with the next one). What ``forget_before`` dropped is gone already."""
        drop: dict[Link, dict[Segment, int]] = {}
        for links, segments in fixed:
            for link in links:
                count = drop.setdefault(link, {})
                for seg in segments:
                    count[seg] = count.get(seg, 0) + 1
        for link, count in drop.items():
            kept = []
            for seg in self.fixed.get(link, ()):
                if count.get(seg, 0) > 0:
                    count[seg] -= 1
                else:
                    kept.append(seg)
            self.fixed[link] = kept


def _meets(g: Flow, t: float, end: float) -> bool:
    """Whether open flow ``g`` may be on the wire between ``t`` and ``end``."""
    return g.end > t and (g.ready < end or bool(g.segments) and g.segments[0][0] < end)


def _rate_at(f: Flow, t: float) -> float:
    """A flow's rate at ``t`` by its segments (0 between them)."""
    for a, b, r in f.segments:
        if a <= t + _EPS and b > t + _EPS:
            return r
    return 0.0


_TIGHT = 1e-12  # relative: a link full, a level the highest (tighter only re-prices more flows)


class _Reprice:
    """A new flow's effect on the open flows, priced incrementally. The rates before it
    starts stand. From its start the flows whose rates it can change -- the *changed* set,
    at first the new flow alone -- are simulated as the reference does (``_simulate``) while
    every other flow keeps its rates as background. At every event the result is checked
    against the definition of weighted max-min fairness on the links the changed flows use:
    every flow needs a full link on which no flow has a higher level (rate × weight). A flow
    that lost its bottleneck, or a changed flow's better-off neighbours, join the changed set
    (their rates before that moment stand) and the moment is priced again; so the set grows
    only while rates actually change. Max-min rates being unique, the result is the
    reference's. Under ``fifo`` a changed flow's queue (the sender's later flows) changes
    with it."""

    def __init__(self, net: Network, new: Flow) -> None:
        self.net, self.t = net, new.start
        self.changed: dict[int, Flow] = {}  # in the order they joined
        self.old: dict[int, float] = {}  # their ends before
        self.left: dict[int, float] = {}
        self.waiting: list[tuple[float, int, int]] = []  # (ready, order, key), a heap
        self.queued: set[int] = set()  # the keys in ``waiting`` still waiting there
        self.behind: dict[int, int] = {}  # fifo: a changed flow -> its sender's next flow
        self.active: list[Flow] = []
        self.done: set[int] = set()
        self.touched: set[Link] = set()  # the changed flows' links
        self.fixed: dict[Link, list[Segment]] = {}  # received messages' use after the start
        self.breaks: list[float] = []  # when the background on the touched links changes
        self.stop = new.start  # the background needs checking until the changed flows' old ends
        self.horizon = float("inf")  # a background flow's bottleneck elsewhere holds until
        self._join(new, new.start)

    def run(self) -> dict[int, float]:
        t = self.t
        while True:
            self._activate(t)
            rates = self._priced(t)
            step = self._next(t, rates)
            if step is None:
                break
            t = self._advance(t, step, rates)
        new = next(iter(self.changed))
        return {k: f.end for k, f in self.changed.items()
                if k == new or abs(f.end - self.old[k]) > _EPS}

    # ---- the changed set ----
    def _join(self, f: Flow, t: float) -> None:
        """``f`` is re-priced from ``t``: its segments before ``t`` stand."""
        if f.key in self.changed:
            return
        self.changed[f.key], self.old[f.key] = f, f.end
        self.stop = max(self.stop, f.end)
        left, kept = f.demand, []
        for a, b, r in f.segments:
            if a < t:
                kept.append((a, min(b, t), r))
                left = max(left - r * (min(b, t) - a), 0.0)
        f.segments, self.left[f.key] = kept, left
        open_ = self.net.open
        if f.prev is not None and f.prev in self.changed and f.prev not in self.done:
            self.behind[f.prev] = f.key  # fifo: it leaves when its predecessor, re-priced, ends
        else:
            f.ready = self.net.turn(f)
            heapq.heappush(self.waiting, (f.ready, len(self.changed), f.key))
            self.queued.add(f.key)
        for link in f.links:
            if link not in self.touched:
                self._touch(link)
        nxt = self.net.next.get(f.key)  # fifo: the sender's next flow waits on this one's end
        if nxt is not None and nxt in open_:
            if nxt not in self.changed:
                self._join(open_[nxt], t)
            elif nxt in self.queued:
                self.queued.discard(nxt)
                self.behind[f.key] = nxt

    def _touch(self, link: Link) -> None:
        self.touched.add(link)
        segs = self.fixed[link] = [s for s in self.net.fixed.get(link, ()) if s[1] > self.t]
        times = [x for a, b, _ in segs for x in (a, b)]
        for k in self.net.by_link.get(link, ()):
            g = self.net.open[k]
            times += [g.ready, g.end] + [x for a, b, _ in g.segments for x in (a, b)]
        self.breaks += [x for x in times if x > self.t + _EPS]
        heapq.heapify(self.breaks)

    def _activate(self, t: float) -> None:
        now = []
        while self.waiting and self.waiting[0][0] <= t + _EPS:
            _, i, k = heapq.heappop(self.waiting)
            if k in self.queued:
                self.queued.discard(k)
                now.append(self.changed[k])
        self.active += now

    # ---- one moment: rates, checked ----
    def _priced(self, t: float) -> dict[int, float]:
        """The changed flows' max-min rates at ``t`` on what the background leaves, the
        changed set grown until every flow on the touched links has a bottleneck."""
        while True:
            rates = _max_min(self.active, {
                link: self._capacity(link, t)
                for link in {link for f in self.active for link in f.links}})
            grow = self._unfair(t, rates)
            if not grow:
                return rates
            for f in grow:
                self._join(f, t)
            self._activate(t)

    def _background(self, g: Flow, t: float) -> bool:
        return g.key not in self.changed and g.ready <= t + _EPS and g.end > t + _EPS

    def _capacity(self, link: Link, t: float) -> float:
        fixed = self.fixed[link] if link in self.fixed else self.net.fixed.get(link, ())
        used = sum(r for a, b, r in fixed if a <= t + _EPS and b > t + _EPS)
        open_ = self.net.open
        return 1.0 - used - sum(_rate_at(open_[k], t) for k in self.net.by_link.get(link, ())
                                if self._background(open_[k], t))

    def _unfair(self, t: float, rates: dict[int, float]) -> list[Flow]:
        """The flows to re-price at ``t``: background flows on the touched links without a
        bottleneck, and the background flows above a changed flow that has none."""
        open_, by_link = self.net.open, self.net.by_link
        level: dict[int, float] = {}

        def level_of(g: Flow) -> float | None:  # None: not on the wire at t
            if g.key not in level:
                if g.key in self.changed:
                    level[g.key] = rates[g.key] * g.weight if g.key in rates else None
                else:
                    level[g.key] = _rate_at(g, t) * g.weight if self._background(g, t) else None
            return level[g.key]

        state: dict[Link, tuple[bool, float, float]] = {}

        def link_state(link: Link) -> tuple[bool, float, float]:
            """(full, highest level, when it next changes) at ``t``."""
            if link not in state:
                fixed = self.fixed[link] if link in self.fixed else [
                    s for s in self.net.fixed.get(link, ()) if s[1] > t + _EPS]
                cap = 1.0 - sum(r for a, b, r in fixed if a <= t + _EPS and b > t + _EPS)
                used, top, change = 0.0, 0.0, float("inf")
                if link not in self.touched:  # the background's next change here
                    change = min((x for a, b, _ in fixed for x in (a, b) if x > t + _EPS),
                                 default=change)
                for k in by_link.get(link, ()):
                    g = open_[k]
                    lv = level_of(g)
                    if lv is not None:
                        used += lv / g.weight
                        top = max(top, lv)
                    if link not in self.touched:
                        change = min([change] + [x for a, b, _ in g.segments for x in (a, b)
                                                 if x > t + _EPS]
                                     + [x for x in (g.ready, g.end) if x > t + _EPS])
                state[link] = (used >= max(cap, 0.0) - _TIGHT, top, change)
            return state[link]

        def bottleneck(g: Flow) -> float | None:
            """Until when ``g`` keeps a bottleneck (inf: on a touched link), None: it has none."""
            lv, until = level[g.key], None
            for link in g.links:
                full, top, change = link_state(link)
                if full and lv >= top * (1 - _TIGHT) - _EPS:
                    until = change if until is None else max(until, change)
            return until

        grow: dict[int, Flow] = {}
        for f in self.active:
            level_of(f)
        seen = set()
        for link in self.touched:
            for k in by_link.get(link, ()):
                if k not in seen and level_of(open_[k]) is not None:
                    seen.add(k)
        for k in seen:
            g = open_[k]
            until = bottleneck(g)
            if until is not None:
                if k not in self.changed:
                    self.horizon = min(self.horizon, until)
            elif k not in self.changed:
                grow[k] = g
            else:  # a changed flow starved: the background flows above it on its links yield
                lv = level[k]
                for link in g.links:
                    for j in by_link.get(link, ()):
                        h = open_[j]
                        if j not in self.changed and (level_of(h) or 0.0) > lv * (1 + _TIGHT) + _EPS:
                            grow[j] = h
        return list(grow.values())

    # ---- the next event ----
    def _next(self, t: float, rates: dict[int, float]):
        """The next event after ``t`` and the changed flows' finishes, or None when nothing
        is left to price."""
        finish = {f.key: t + self.left[f.key] / rates[f.key] for f in self.active
                  if rates[f.key] > _EPS}
        while self.waiting and self.waiting[0][2] not in self.queued:
            heapq.heappop(self.waiting)
        while self.breaks and self.breaks[0] <= t + _EPS:
            heapq.heappop(self.breaks)
        live = bool(self.active or self.queued or self.behind)
        nxt = list(finish.values()) + ([self.waiting[0][0]] if self.waiting else [])
        later = [x for x in (self.breaks[0] if self.breaks else None, self.horizon)
                 if x is not None and x < float("inf") and (live or x < self.stop - _EPS)]
        self.horizon = float("inf")
        nxt += later
        if not live and not nxt:
            return None
        return nxt, finish

    def _advance(self, t: float, step, rates: dict[int, float]) -> float:
        nxt, finish = step
        # as in ``_simulate``: with nothing to wait for the rest goes at full rate
        t_next = min(nxt) if nxt else t + max(self.left[f.key] for f in self.active)
        tol = 1e-12 * max(1.0, abs(t_next))
        ended = set()
        for f in self.active:
            r = rates[f.key]
            if r > _EPS:
                if f.segments and f.segments[-1][1] == t and f.segments[-1][2] == r:
                    f.segments[-1] = (f.segments[-1][0], t_next, r)
                else:
                    f.segments.append((t, t_next, r))
                self.left[f.key] = max(self.left[f.key] - r * (t_next - t), 0.0)
            if finish.get(f.key, float("inf")) <= t_next + tol or not nxt:
                f.end = t_next
                ended.add(f.key)
                self.done.add(f.key)
                k = self.behind.pop(f.key, None)
                if k is not None:  # fifo: the sender's next flow may leave now
                    g = self.changed[k]
                    g.ready = max(g.start, t_next)
                    heapq.heappush(self.waiting, (g.ready, len(self.changed) + len(self.done), k))
                    self.queued.add(k)
        self.active = [f for f in self.active if f.key not in ended]
        return t_next
