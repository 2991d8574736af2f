"""The steady state of communicating loops: cut, period, jump.

When every live process is at the head of an IterSync iteration (or blocked), the scheduler
takes a *cut*. When three successive cuts differ by the same shift Δ of every clock, the same
control decisions and the same messages in flight, the iterations between them repeat
exactly (the *period*); the remaining m iterations are added in closed form (``m·Δ``, the
*jump*) instead of being interpreted, so the cost of a prediction does not grow with the
iteration count.

A loop whose iterations alternate (odd and even phases of a sort, red and black sweeps, a
reduction whose arrival order flips) repeats every k iterations instead: three cuts k apart
are compared in the same way, for k up to ``PERIODS``, and the remaining iterations jump by
whole periods (the last < k + 1 interpreted). Only a known count of remaining iterations
jumps by k > 1 (a symbolic count would leave a remainder of unknown length).

The processes need not share Δ: the leaves of a reduce that never wait run ahead of its root
at their own pace. With a shift Δ_p per process, every time compared in an iteration moves
with its process's clock, so each comparison's margin changes by the same amount every
iteration (the difference of its margins in the two periods). The decisions of the last
iteration hold to the end of the loop when every margin keeps its sign after m more such
changes (linear in m: checking the end is enough); then each clock moves by m·Δ_p.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import chain
from operator import attrgetter

import sympy as sp

from interp.engine.classes import DecisionView
from interp.engine.indextests import INDEX_TAG, INDEX_TEST
from interp.engine.process import CATEGORIES, AAUStat, Process
from interp.engine.sync import GlobalSync
from interp.engine.timeval import (Comparisons, as_count, decided_sign, difference,
                                   is_symbolic, record_comparisons, same, scaled)
from interp.engine.values import is_unknown


ZERO = 0.0
PERIODS = 4  # the longest period looked for, in iterations
# Cuts hold a column per rank: beyond this many live ranks only a period of one iteration is
# looked for (three cuts kept, not 2·PERIODS + 1), so memory per rank stays as it was.
LONG_PERIOD_RANKS = 4096
PLACES = 16  # the places whose cuts are kept (LRU; 2 beyond LONG_PERIOD_RANKS ranks)
# A place cut this many times without a jump there is cut no more: BT's and SP's ``DO STAGE``
# loops (ncells iterations, a few) are entered at every sweep of every time step, and their
# cuts, 90% of all, never folded anything; each copies every rank's per-AAU statistics.
COLD_CUTS = 32
_COUNT_TOTAL = attrgetter("count", "total")


@dataclass
class Cut:
    """The live processes at one cut, as columns in their order (a cut holds every rank, three
    cuts at a time: a list entry each, not a dict's, and one position tuple for the ranks of a
    class at the same loop head)."""

    pids: list[int]
    clocks: list[sp.Expr]
    positions: list[tuple]
    decisions: list[int]  # length of each process's decision log
    # of the paused processes only (a jump moves only them; None for the others):
    cats: list[tuple | None]  # each process's seconds by category, in CATEGORIES' order
    stats: list[tuple[tuple, tuple] | None]  # its AAUs' ids, and their count, total in turn
    pending: list[tuple]
    edges: dict[tuple, sp.Expr]
    mark: int  # the comparisons of times up to this cut: SteadyState.chunks[:mark]
    delays: int  # messages link sharing has delayed so far
    flows: int  # flows noted so far (MessageModel.flows)


class SteadyState:
    def __init__(self, sched: GlobalSync):
        self.sched = sched
        # The cuts since the last jump, by *place* (the AAU each live process is at): a period
        # is read off cuts at the same place. A time-step loop around loops that synchronize
        # (SP's ADI sweeps) is cut at its own head once an iteration and at the inner heads
        # in between; its own cuts are compared with each other, not with the inner ones.
        self.cuts: dict[tuple, list[Cut]] = {}
        self.taken: dict[tuple, int] = {}  # cuts since the last jump by place (the note)
        self.compared: Comparisons | None = None  # being recorded since the last cut
        # the windows of comparisons between successive cuts (any place) since the last
        # jump, the first ``chunk0`` dropped (no cut kept reads them): two cuts at one place
        # see the comparisons between them joined (_window)
        self.chunks: list[Comparisons | None] = []
        self.chunk0 = 0
        # one tuple of AAU ids for the ranks of the same AAUs, in every cut (_jump pairs the
        # statistics of two cuts without a dict when a rank's tuple is the same)
        self.aau_ids: dict[tuple, tuple] = {}
        # loop id → [its note's index, iterations before the first jump, iterations added,
        # jumps, why]: a loop's jumps said in one note (_note_fold)
        self.folds: dict[int, list] = {}
        # cuts by place over the whole run, and the places that ever jumped (COLD_CUTS)
        self.tried: dict[tuple, int] = {}
        self.jumped: set[tuple] = set()
        self.period = 1  # the iterations of a period at the last jump

    def cut(self, live: list[Process]) -> sp.Expr | None:
        """Take a cut; returns the number of iterations to jump when a period is found. A
        place cut COLD_CUTS times without ever jumping is not cut again (None: the loop is
        stepped, which a jump only shortens)."""
        place = tuple(p.request.aau.id if p.request else None for p in live)
        tried = self.tried.get(place, 0)
        if tried >= COLD_CUTS and place not in self.jumped:
            return None
        if len(self.tried) > 1000:  # (a master's places that keep changing)
            self.tried.clear()
        self.tried[place] = tried + 1
        c = self._snapshot(live)
        cuts = self.cuts.pop(place, [])
        self.cuts[place] = cuts  # (the most recently cut place last)
        cuts.append(c)
        self.taken[place] = self.taken.get(place, 0) + 1
        longest = PERIODS if len(live) <= LONG_PERIOD_RANKS else 1
        jump = self._period(live, cuts, longest, self.taken[place])
        if jump is not None:
            self.jumped.add(place)
            self.cuts.clear()
            self.taken.clear()
            self.chunks.clear()
            self.chunk0 = 0
        else:  # (a master that never repeats kept a cut per iteration: 0.7 GB for mworker)
            del cuts[:-2 * longest]
            while len(self.cuts) > (PLACES if len(live) <= LONG_PERIOD_RANKS else 2):
                old = next(iter(self.cuts))  # the place cut least recently
                del self.cuts[old], self.taken[old]
            oldest = min(cut.mark for kept in self.cuts.values() for cut in kept)
            del self.chunks[:oldest - self.chunk0]  # (chunk g: the window after cut mark g)
            self.chunk0 = oldest
        if self.sched.timing:  # (interp check folds on the pattern alone)
            self.compared = Comparisons()
            record_comparisons(self.compared)
        return jump

    def stop(self) -> None:
        """The interpretation is over (or failed): record no more comparisons."""
        record_comparisons(None)
        self.compared = None

    def _snapshot(self, live: list[Process]) -> Cut:
        keys = self.aau_ids
        if len(keys) > 1000:  # (a master's AAUs that keep changing)
            keys.clear()
        places: dict[tuple, tuple] = {}  # one tuple for the ranks at the same place (this cut's)
        positions, cats, stats = [], [], []
        for p in live:
            req = p.request
            if p.state == "paused":
                key = (req.aau.id, id(req.iteration), id(req.count))
                pos = places.get(key)
                if pos is None:
                    pos = places[key] = ("paused", req.aau.id, req.iteration, req.count)
                positions.append(pos)
                cats.append(tuple(map(p.cats.__getitem__, CATEGORIES)))
                st, ids = p.stats, tuple(p.stats)
                stats.append((keys.setdefault(ids, ids),
                              tuple(chain.from_iterable(map(_COUNT_TOTAL, st.values())))))
            else:
                positions.append(("blocked", req.aau.id if req else None))
                cats.append(None)
                stats.append(None)
        pending = [(m.src.pid, m.dst, m.tag, m.size, m.arrival) for m in self.sched.messages]
        edges = {k: e.count for k, e in self.sched.edges.items()}
        msgs = self.sched.msgs
        return Cut([p.pid for p in live], [p.clock for p in live], positions,
                   [len(p.decisions) for p in live], cats, stats, pending, edges,
                   self._close_window(),
                   len(msgs.delays) + len(msgs.collective_delays),
                   len(msgs.flows) if msgs.flows is not None else 0)

    def _close_window(self) -> int:
        """End the window of comparisons since the cut before; the new cut's mark."""
        self.chunks.append(self.compared)
        return self.chunk0 + len(self.chunks)

    def _window(self, before: Cut, after: Cut) -> Comparisons:
        """The comparisons of times made between two cuts (at one place: the windows of the
        cuts at other places in between joined)."""
        lo, hi = before.mark - self.chunk0, after.mark - self.chunk0
        parts = self.chunks[lo:hi] if lo >= 0 else [None]
        if len(parts) == 1 and parts[0] is not None:
            return parts[0]
        return Comparisons.joined(parts)

    def _period(self, live: list[Process], cuts: list[Cut], longest: int,
                taken: int) -> sp.Expr | None:
        """The iterations to jump, at the shortest period k ≤ ``longest`` the cuts (at one
        place) show."""
        varying = None
        for k in range(1, longest + 1):
            if len(cuts) < 2 * k + 1:
                return None
            c0, c1, c2 = cuts[-2 * k - 1], cuts[-k - 1], cuts[-1]
            jump = self._repeats(live, k, c0, c1, c2, taken)
            if isinstance(jump, tuple):
                varying = varying or jump
            elif jump is not None:
                return jump
        if varying is not None:  # (said once every period was tried)
            self._note_varying(*varying)
        return None

    def _repeats(self, live: list[Process], k: int, c0: Cut, c1: Cut, c2: Cut, taken: int):
        """The iterations to jump when the cuts ``k`` iterations apart repeat (jumping there);
        None, or the (process, decisions, decisions) that vary, when they do not."""
        deltas = self._shifts(c0, c1, c2, k)
        if deltas is None:
            return None
        varying = _varying(live, c0.decisions, c1.decisions, c2.decisions)
        if varying is not None:
            return varying
        if (c1.pending or c2.pending or any(pos[0] != "paused" for pos in c2.positions)) \
                and _index_tags(live, c1.decisions, c2.decisions):
            return None  # (tags that follow the index: only with nothing in flight)
        if len(c1.pending) != len(c2.pending) or any(
            x[:3] != y[:3] or not same(x[3], y[3]) for x, y in zip(c1.pending, c2.pending)
        ):
            return None
        if any(h for h in self.sched.handles.values()):
            return None
        left: dict[tuple, sp.Expr] = {}  # (the ranks of a class share their loop's values: each
        for pos in c2.positions:  # difference once, by the values' ids, in order)
            if pos[0] == "paused":
                key = (id(pos[2]), id(pos[3]))
                if key not in left:
                    left[key] = pos[3] - pos[2]
        remaining = list(left.values())
        m = remaining[0]
        for r in remaining[1:]:
            if not same(r, m):
                if r.is_number and m.is_number:
                    m = min(r, m)
                else:
                    return None
        if m.is_number and m <= 0:
            return None
        values = [d for d in deltas if d is not None]
        drift = any(not same(d, values[0]) for d in values[1:])
        ahead = self._index_limit(live, c1, c2, m, k)  # a decision on the loop's index
        if ahead == 0:
            return None
        upto = ""
        if ahead is not None and ahead < m:
            m, upto = sp.Integer(ahead), "an IF on the loop's index decides otherwise"
        if k > 1:  # whole periods of a known count
            if drift or not m.is_number or m < k:  # (the clocks shifted alike)
                return None
            periods = sp.Integer(int(m) // k)
            self._jump(live, c1, c2, periods, deltas, False, k, taken, upto)
            return periods * k
        if drift:
            held = self._drift_limit(c0, c1, c2, m)
            if held is None:
                return None
            if held < m:
                m, upto = held, "a wait would be decided otherwise"
        self._jump(live, c1, c2, m, deltas, drift, 1, taken, upto)
        return m

    def _index_limit(self, live: list[Process], c1: Cut, c2: Cut, m: sp.Expr,
                     k: int) -> int | None:
        """The iterations ahead that decide every IF on the cut loop's index as the last one
        did (indextests): at most ``m``; None when no such IF ran, 0 when none may be jumped
        (a symbolic count, or a period of ``k`` iterations that decide it differently)."""
        limit, seen, outcomes = None, set(), {}
        for p, pos, n1, n2 in zip(live, c2.positions, c1.decisions, c2.decisions):
            log = p.decisions
            key = (id(log.shadow) if type(log) is DecisionView else id(log), n1, n2)
            if pos[0] != "paused" or key in seen:
                continue
            seen.add(key)
            for read, outcome in log[n1:n2]:
                if type(read) is not tuple or read[0] != INDEX_TEST or read[2] != pos[1]:
                    continue
                if not m.is_number or outcomes.setdefault((key, read), outcome) != outcome:
                    return 0
                count = int(m) if limit is None else limit
                limit = outcome[2].same_for(outcome, int(pos[2]), count)
                if limit == 0:
                    return 0
        return limit

    def _shifts(self, c0: Cut, c1: Cut, c2: Cut, k: int) -> list[sp.Expr | None] | None:
        """Each paused process's clock shift Δ_p, the same over the three cuts ``k``
        iterations apart, if there is one (in the cuts' order; None for a blocked process)."""
        if not (c0.pids == c1.pids == c2.pids):  # (the processes only grow: the same set is
            return None  # the same order)
        timing = self.sched.timing
        deltas: list[sp.Expr | None] = []
        steps: dict[tuple, bool] = {}  # k iterations apart, by the values' ids (a class's ranks
        # share them: SymPy's subtraction once)
        for pos, p1, p0, t2, t1, t0 in zip(c2.positions, c1.positions, c0.positions,
                                           c2.clocks, c1.clocks, c0.clocks):
            if pos[0] != p1[0] or pos[0] != p0[0] or pos[1] != p1[1] or pos[1] != p0[1]:
                return None
            if pos[0] == "blocked":
                if timing and not (t2 == t1 == t0):
                    return None
                deltas.append(None)
                continue
            key = (id(p0[2]), id(p1[2]), id(pos[2]))
            step = steps.get(key)
            if step is None:
                step = steps[key] = same(pos[2] - p1[2], k) and same(p1[2] - p0[2], k)
            if not step:
                return None
            if not timing:  # interp check: a loop repeats when its communication pattern does
                deltas.append(ZERO)
                continue
            d1, d2 = t1 - t0, t2 - t1
            if not same(d1, d2):
                return None
            deltas.append(d2)
        return deltas if any(d is not None for d in deltas) else None

    def _drift_limit(self, c0: Cut, c1: Cut, c2: Cut, m: sp.Expr) -> sp.Expr | None:
        """With shifts that differ between processes: for how many of the m iterations left
        do the last iteration's decisions hold (None: none)? Every comparison of times in the
        period must be made again with the same outcome, and its margin, changing by the
        same amount each iteration, must keep its sign: to the end (linear in m: checking the
        end is enough), or, when m is a number, up to the iteration before the first that
        changes sign, which is then interpreted. Messages in flight at a cut, asynchronous requests
        and link sharing (decided by the network model, not here) are left to the common
        shift."""
        if c1.pending or c2.pending or c2.delays != c0.delays or not self.sched.timing:
            return None
        a, b = self._window(c0, c1), self._window(c1, c2)
        if len(a) != len(b) or a.spoilt or b.spoilt:
            return None
        for (m1, s1), (m2, s2) in zip(a, b):
            if s1 is None or s1 != s2:
                return None
            if same(m1, m2):
                continue
            rate = difference(m2, m1)
            sign = 1 if s2 else -1
            end = rate if is_symbolic(m) else m2 + scaled(rate, m)
            if decided_sign(end) == sign:
                continue
            if is_symbolic(m):
                return None
            m = sp.Integer(_held_for(m2, rate, sign, int(m)))
            if m == 0:
                return None
        return m

    def _note_varying(self, p: Process, a: list, b: list) -> None:
        """Say why a loop is interpreted iteration by iteration: what its decisions read
        (a partner, a size, a condition) changes from one iteration to the next."""
        changed = sorted({_read(k1, v1) for (k1, v1), (k2, v2) in zip(a, b)
                          if k1 == k2 and not v1 == v2}
                         or {_read(*r) for r in a} ^ {_read(*r) for r in b})
        loop = p.request.aau
        note = (f"line {loop.loc.line}: the loop's decisions read values that change from one "
                f"iteration to the next ({', '.join(changed) or 'its control flow'}), so its "
                "iterations are interpreted one by one")
        if note not in self.sched.notes:
            self.sched.notes.append(note)

    def _jump(self, live: list[Process], c1: Cut, c2: Cut, m: sp.Expr,
              deltas: list[sp.Expr | None], drift: bool, period: int, taken: int,
              upto: str = "") -> None:
        """Move every paused process on by ``m`` periods of ``period`` iterations (c1 to c2)."""
        m_iter, m = m, as_count(m)
        self.period = period
        for p, d, cats2, cats1, st2, st1 in zip(live, deltas, c2.cats, c1.cats, c2.stats,
                                                c1.stats):
            if p.state != "paused":
                continue
            p.clock += scaled(d, m)
            for c, x2, x1 in zip(CATEGORIES, cats2, cats1):
                p.cats[c] += scaled(x2 - x1, m)
            (keys1, flat1), (keys2, flat2) = st1, st2
            if keys1 is keys2:  # the same AAUs (one tuple for equal ids, _snapshot): in turn
                pairs = zip(flat1[::2], flat1[1::2])
            else:
                before = dict(zip(keys1, zip(flat1[::2], flat1[1::2])))
                pairs = (before.get(k, (ZERO, ZERO)) for k in keys2)
            stats = p.stats
            for k, cnt, tot, (c_prev, t_prev) in zip(keys2, flat2[::2], flat2[1::2], pairs):
                st = stats.get(k)
                if st is None:
                    st = stats[k] = AAUStat()
                st.count += m * (cnt - c_prev)
                st.total += scaled(tot - t_prev, m)
        if drift:  # nothing in flight (_drift_holds); the flows of the links stay behind
            self.sched.msgs.forget()
        else:
            delta = next(d for d in deltas if d is not None)
            for msg in self.sched.messages:
                msg.arrival += scaled(delta, m)
            self.sched.msgs.shift(scaled(delta, m))
            self.sched.msgs.repeat(c1.flows, c2.flows, delta, m)
        for key, e in self.sched.edges.items():
            e.count += m * (c2.edges.get(key, ZERO) - c1.edges.get(key, ZERO))
        if is_symbolic(m_iter):
            self.sched.assumptions.append(sp.Ge(m_iter, 0))
        why = []
        if period > 1:
            why.append(f" (the iterations repeat in periods of {period})")
        if drift:
            why.append(" (the processes' clocks advance by different amounts each iteration; "
                       + ("no wait they decide changes before the loop ends)" if not upto
                          else "no wait they decide changes in them)"))
        if upto:
            why.append(f" (up to the iteration where {upto}, which is interpreted)")
        self._note_fold(next(p.request.aau for p in live if p.state == "paused"), taken,
                        m * period, why)

    def _note_fold(self, loop, taken: int, added, why: list[str]) -> None:
        """Say how a loop was folded: one note a loop, its jumps added up (a jump that stops
        before an iteration deciding otherwise is followed by others)."""
        fold = self.folds.get(loop.id)
        if fold is None:
            self.folds[loop.id] = [len(self.sched.notes), taken, added, 1, why]
            self.sched.notes.append(f"steady state reached after {taken} iterations: {added} "
                                    "more added in closed form" + "".join(why))
            return
        fold[2] += added
        fold[3] += 1
        fold[4] += [w for w in why if w not in fold[4]]
        at, taken, added, jumps, why = fold
        self.sched.notes[at] = (f"steady state reached after {taken} iterations: {added} more "
                                f"added in closed form in {jumps} jumps" + "".join(why))


def _varying(live: list[Process], d0: list[int], d1: list[int],
             d2: list[int]) -> tuple[Process, list, list] | None:
    """The first process whose decisions between the first two cuts (``d0``, ``d1``: the
    lengths of its log then) are not those between the last two, with both; None when every
    process's repeat. The members of a class read their shadow's log (DecisionView): it is
    compared once per shadow and the same three lengths."""
    repeated: set[tuple] = set()  # (shadow, lengths) found to repeat
    for p, n0, n1, n2 in zip(live, d0, d1, d2):
        log = p.decisions
        key = (id(log.shadow), n0, n1, n2) if type(log) is DecisionView else None
        if key in repeated:
            continue
        a, b = log[n0:n1], log[n1:n2]
        if not _same_log(a, b):
            return p, a, b
        if key is not None:
            repeated.add(key)
    return None


def _index_tags(live: list[Process], d1: list[int], d2: list[int]) -> bool:
    """Whether a message tag read between two cuts was logged as a loop's index
    (indextests.mark_tag)."""
    seen: set = set()
    for p, n1, n2 in zip(live, d1, d2):
        log = p.decisions
        key = id(log.shadow) if type(log) is DecisionView else id(log)
        if key in seen:
            continue
        seen.add(key)
        if any(type(k) is tuple and k[0] == INDEX_TAG for k, _ in log[n1:n2]):
            return True
    return False


def _read(key, value) -> str:
    """A decision log's entry as the note names it (a value, or an IF on a loop's index)."""
    if type(key) is tuple and key[0] == INDEX_TEST:
        return f"the IF at line {value[2].a.loc.line} on the index of DO {value[2].loop.aau.var}"
    return str(key)


def _held_for(margin, rate, sign: int, m: int) -> int:
    """The most iterations j ≤ m after which ``margin + j·rate`` is still decided to have
    ``sign`` for every admissible input: those j are an interval from 0 (its bounds are
    linear in j), found by bisection."""
    def holds(j: int) -> bool:
        return decided_sign(margin + scaled(rate, j)) == sign

    if not holds(0):
        return 0
    lo, hi = 0, m
    if holds(hi):
        return hi
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if holds(mid):
            lo = mid
        else:
            hi = mid
    return lo


def _same_log(a: list, b: list) -> bool:
    if len(a) != len(b):
        return False
    for (k1, v1), (k2, v2) in zip(a, b):
        if k1 != k2 or is_unknown(v1) or is_unknown(v2) or not (v1 == v2):
            return False
    return True
