"""Decisions on a loop's own index, for the steady state (:mod:`interp.engine.steady`).

A time-step loop that prints its progress every twentieth step (NPB's
``IF (MOD(STEP, 20) .EQ. 0 .OR. STEP .EQ. 1) WRITE …``) reads its index in a decision, so the
values its decisions read change from one iteration to the next and no two iterations look
alike: the loop was interpreted to the end. What repeats is the *outcome*. While an IterSync
loop is stepped (``Process.index_loops``), an IF in its frame whose conditions read its index
is logged by the arm it took and the other values it read (:func:`mark`), not by the index's
value. When the steady state would jump, it asks each such IF how many of the iterations
ahead take the same arm (:meth:`IndexTest.same_for`, its conditions evaluated at each future
index with the values it read) and jumps no further: the iteration that decides otherwise is
interpreted, and the steady state is found again after it.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from interp.application import aau as A
from interp.application import ast
from interp.application.expr import numeric_value, walk

INDEX_TEST = "index test"  # the first item of the key of a decision logged by its outcome
INDEX_TAG = "index tag"  # the first item of the key of a message tag that is a loop's index
LOOK_AHEAD = 100_000  # iterations evaluated ahead at one jump (a longer jump is made in parts)


@dataclass(eq=False, repr=False)
class SteppedLoop:
    """An IterSync loop being stepped: its index is ``start + (i − 1)·step`` at iteration i."""

    aau: A.Iter
    frame: object
    start: object
    step: object
    tests: dict = field(default_factory=dict)  # Condt id → its IndexTest (the log's entries
    # name the IF and the loop, not this run of it: an inner loop's runs compare equal)


@dataclass(eq=False, repr=False)
class IndexTest:
    """An IF whose conditions read the index of the stepped loop ``loop``: logged with the
    outcome, equal to the same IF's in another run of the same loop (an inner loop's)."""

    a: A.Condt
    loop: SteppedLoop

    def __eq__(self, other) -> bool:
        return type(other) is IndexTest and (self.a is other.a
                                             and self.loop.aau is other.loop.aau)

    def __hash__(self) -> int:
        return hash((self.a.id, self.loop.aau.id))

    def __repr__(self) -> str:
        return f"IndexTest(IF at line {self.a.loc.line}, DO {self.loop.aau.var})"

    def arm_at(self, iteration: int, reads: tuple) -> int | None | str:
        """The arm the IF takes at ``iteration`` of the loop, the other values it reads being
        ``reads``; "unknown" when a condition is not a number (a value not read then)."""
        loop = self.loop
        index = loop.start + (iteration - 1) * loop.step
        values = dict(reads)
        var = loop.aau.var

        def resolve(key):
            return index if key == var else values.get(key)
        resolve.function = None

        for k, b in enumerate(self.a.branches):
            if b.cond is None:
                return k
            v = numeric_value(b.cond, loop.frame.table, resolve)
            if type(v) is not bool:
                return "unknown"
            if v:
                return k
        return None

    def same_for(self, outcome: tuple, first: int, count: int) -> int:
        """How many iterations from ``first`` on (at most ``count``) take the arm ``outcome``
        logged (with the values it read)."""
        taken, reads, _ = outcome
        for j in range(min(count, LOOK_AHEAD)):
            if self.arm_at(first + j, reads) != taken:
                return j
        return min(count, LOOK_AHEAD)


def mark(p, a: A.Condt, frame, n0: int, events: int, taken: int | None) -> None:
    """Log the IF ``a`` just decided by its outcome when its conditions read the index of a
    loop stepped in ``frame`` (the reads of the index since ``n0`` replaced by one entry).
    Not when they read a value that depends on the rank (a class's shadow recorded a check
    since its ``events``-th event): the shadow's value would decide the members' future."""
    log = p.decisions
    reads = log[n0:]
    loop = next((s for s in reversed(p.index_loops) if s.frame is frame
                 and any(k == s.aau.var for k, _ in reads)), None)
    if loop is None or _calls_functions(p, a) or (
            p.recorder is not None and len(p.recorder.log) != events):
        return
    test = loop.tests.get(a.id)
    if test is None:
        test = loop.tests[a.id] = IndexTest(a, loop)
    others = tuple(r for r in reads if r[0] != loop.aau.var)
    del log[n0:]
    log.extend(others)
    log.append(((INDEX_TEST, a.id, loop.aau.id), (taken, others, test)))


def _calls_functions(p, a: A.Condt) -> bool:
    """Whether a condition of ``a`` references a FUNCTION of the program (its value may have
    effects: not evaluated again ahead)."""
    units = p.aag.units
    return any(b.cond is not None and any(getattr(e, "name", None) in units
                                          for e in walk(b.cond))
               for b in a.branches)


def stepped_index(p, frame, e) -> SteppedLoop | None:
    """The loop being stepped whose index ``e`` is: its index variable in the loop's own
    frame, or a dummy argument bound to it (``Frame.aliases``); None for anything else."""
    if not isinstance(e, ast.Var):
        return None
    for s in reversed(p.index_loops):
        if s.frame is frame and s.aau.var == e.name:
            return s
    return (frame.aliases or {}).get(e.name)


def mark_tag(p, e, frame, value: int) -> None:
    """A message tag that is the index of a loop being stepped, or the index plus or minus an
    integer constant (``tag = K``, ``K + 100``, or a routine's dummy bound to K), is logged as
    that loop's index and the offset, not by its value: iterations that differ only in their
    tags compare equal. Tags that follow the index on every side match the same way at every
    shift of it, so the steady state may jump, but only with no message in flight and no
    process blocked at its cuts (steady: the tags to come then meet as the interpreted ones
    did). A dummy changed since it was bound is logged by its value."""
    var, offset = e, 0
    if isinstance(e, ast.BinOp) and e.op in ("+", "-") and _integer(e.right):
        var, offset = e.left, e.right.value if e.op == "+" else -e.right.value
    elif isinstance(e, ast.BinOp) and e.op == "+" and _integer(e.left):
        var, offset = e.right, e.left.value
    loop = stepped_index(p, frame, var)
    log = p.decisions
    if loop is None or not log or log[-1] != (var.name, value - offset) \
            or loop.frame.get(loop.aau.var) != value - offset:
        return
    log[-1] = ((INDEX_TAG, loop.aau.id), offset)


def _integer(e) -> bool:
    return isinstance(e, ast.Num) and e.kind == "INTEGER"
