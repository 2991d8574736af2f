"""The steady state of communicating loops: cut, period, jump.

When every live process is at the head of an IterSync iteration (or blocked), the scheduler
takes a *cut*. When three successive cuts differ by the same shift Δ of every clock, the same
control decisions and the same messages in flight, the iterations between them repeat
exactly (the *period*); the remaining m iterations are added in closed form (``m·Δ``, the
*jump*) instead of being interpreted, so the cost of a prediction does not grow with the
iteration count.
"""

from __future__ import annotations

from dataclasses import dataclass
import sympy as sp

from interp.engine.process import CATEGORIES, AAUStat, Process
from interp.engine.sync import GlobalSync
from interp.engine.timeval import as_count, is_symbolic, same, scaled
from interp.engine.values import is_unknown


ZERO = 0.0


@dataclass
class Cut:
    clocks: dict[int, sp.Expr]
    positions: dict[int, tuple]
    cats: dict[int, dict[str, sp.Expr]]
    stats: dict[int, dict[int, tuple[sp.Expr, sp.Expr]]]
    decisions: dict[int, int]  # length of each process's decision log
    pending: list[tuple]
    edges: dict[tuple, sp.Expr]


class SteadyState:
    def __init__(self, sched: GlobalSync):
        self.sched = sched
        self.cuts: list[Cut] = []

    def cut(self, live: list[Process]) -> sp.Expr | None:
        """Take a cut; returns the number of iterations to jump when a period is found."""
        self.cuts.append(self._snapshot(live))
        jump = self._period(live) if len(self.cuts) >= 3 else None
        if jump is not None:
            self.cuts.clear()
        return jump

    def _snapshot(self, live: list[Process]) -> Cut:
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
        pending = [(m.src.pid, m.dst, m.tag, m.size, m.arrival) for m in self.sched.messages]
        edges = {k: e.count for k, e in self.sched.edges.items()}
        return Cut(clocks, positions, cats, stats, decisions, pending, edges)

    def _period(self, live: list[Process]) -> sp.Expr | None:
        c0, c1, c2 = self.cuts[-3:]
        delta = self._shift(c0, c1, c2)
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
        if any(h for h in self.sched.handles.values()):
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
        self._jump(live, c1, c2, m, delta)
        return m

    def _shift(self, c0: Cut, c1: Cut, c2: Cut) -> sp.Expr | None:
        """The common clock shift Δ of three cuts one iteration apart, if there is one."""
        if not (set(c0.positions) == set(c1.positions) == set(c2.positions)):
            return None
        timing = self.sched.timing
        delta = None
        for pid, pos in c2.positions.items():
            p0, p1 = c0.positions[pid], c1.positions[pid]
            if pos[0] != p1[0] or pos[0] != p0[0] or pos[1] != p1[1] or pos[1] != p0[1]:
                return None
            if pos[0] == "blocked":
                if timing and not (c2.clocks[pid] == c1.clocks[pid] == c0.clocks[pid]):
                    return None
                continue
            if not (same(pos[2] - p1[2], 1) and same(p1[2] - p0[2], 1)):
                return None
            if not timing:  # interp check: a loop repeats when its communication pattern does
                delta = ZERO
                continue
            d1, d2 = c1.clocks[pid] - c0.clocks[pid], c2.clocks[pid] - c1.clocks[pid]
            if delta is None:
                delta = d2
            if not (same(d1, delta) and same(d2, delta)):
                return None
        return delta

    def _note_varying(self, p: Process, a: list, b: list) -> None:
        """Say why a loop is interpreted iteration by iteration: what its decisions read
        (a partner, a size, a condition) changes from one iteration to the next."""
        changed = sorted({k1 for (k1, v1), (k2, v2) in zip(a, b) if k1 == k2 and not v1 == v2}
                         or {k for k, _ in a} ^ {k for k, _ in b})
        loop = p.request.aau
        note = (f"line {loop.loc.line}: the loop's decisions read values that change from one "
                f"iteration to the next ({', '.join(changed) or 'its control flow'}), so its "
                "iterations are interpreted one by one")
        if note not in self.sched.notes:
            self.sched.notes.append(note)

    def _jump(self, live: list[Process], c1: Cut, c2: Cut, m: sp.Expr, delta: sp.Expr) -> None:
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
        for msg in self.sched.messages:
            msg.arrival += scaled(delta, m)
        self.sched.msgs.shift(scaled(delta, m))
        for key, e in self.sched.edges.items():
            e.count += m * (c2.edges.get(key, ZERO) - c1.edges.get(key, ZERO))
        if is_symbolic(m_iter):
            self.sched.assumptions.append(sp.Ge(m_iter, 0))
        self.sched.notes.append(f"steady state reached after {len(self.cuts)} iterations: {m} "
                                "more added in closed form")


def _same_log(a: list, b: list) -> bool:
    if len(a) != len(b):
        return False
    for (k1, v1), (k2, v2) in zip(a, b):
        if k1 != k2 or is_unknown(v1) or is_unknown(v2) or not (v1 == v2):
            return False
    return True
