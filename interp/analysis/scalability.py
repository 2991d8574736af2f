"""Algorithmic and combination scalability (Zhang and Xu, ICS '95; seed 002;
docs/scalability.md).

Three times per problem size χ and machine size P:

* ``T_s``, the program on one node, communication free (:meth:`Runs.ts`);
* ``T_p^P``, on P nodes of the PRAM (:func:`interp.analysis.ideal.pram`);
* ``T_p``, on P nodes of the real machine;

and the MIRACLE's ``T_p^M = T_s/P`` (eq. 6-7). From them (eq. 2-5)::

    L_a = T_p^P - T_p^M   algorithmic latency     E_a = T_p^M / T_p^P
    L   = T_p   - T_p^M   parallel latency        E   = T_p^M / T_p

For each P the size χ(P) on the path where ``E_a`` (``--kind algorithmic``) or ``E``
(``combination``) reaches the target is found (:func:`interp.analysis.sizepath.find_size`),
and the upper-triangular table ``Scale(P, P') = Lat(χ(P), P) / Lat(χ(P'), P')`` (eq. 8-9) is
made from those latencies. Every entry is a ratio of two latencies of one list, so the table
obeys ``Scale(P, P'') = Scale(P, P')·Scale(P', P'')`` exactly.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property

from interp.analysis.ideal import miracle_time, pram
from interp.analysis.setup import Setup, missing_inputs
from interp.analysis.sizepath import T_MAX, Root, SizePath, find_size
from interp.engine.predict import Hang, Prediction
from interp.errors import InterpError
from interp.system import SAG

KINDS = ("algorithmic", "combination")
REAL, PRAM = "real", "pram"


# ---- the paper's equations -----------------------------------------------------------------


def latency(tp: float, ts: float, nprocs: int) -> float:
    """Eq. 2-3: ``L_a`` (``tp`` on the PRAM) or ``L`` (on the real machine): ``tp - T_s/P``."""
    return tp - miracle_time(ts, nprocs)


def efficiency(tp: float, ts: float, nprocs: int) -> float:
    """Eq. 4-5 with 6-7: ``E_a`` or ``E`` = ``T_p^M / tp = T_s / (P·tp)``."""
    return miracle_time(ts, nprocs) / tp if tp > 0 else float("inf")


def scale_table(lat: Mapping[int, float | None]) -> dict[tuple[int, int], float | None]:
    """Eq. 8-9: ``Scale(P, P') = lat[P] / lat[P']`` for every P < P' (None where a latency is
    unknown or not positive: a latency <= 0 means an efficiency >= 1, where the ratio of two
    latencies says nothing about scaling)."""
    ps = sorted(lat)
    out: dict[tuple[int, int], float | None] = {}
    for i, p in enumerate(ps):
        for q in ps[i:]:
            a, b = lat[p], lat[q]
            out[(p, q)] = a / b if a is not None and b is not None and a > 0 and b > 0 else None
    return out


def product_rule(table: Mapping[tuple[int, int], float | None]
                 ) -> list[tuple[int, int, int, float, float]]:
    """Every ``(P, P', P'', Scale(P,P''), Scale(P,P')·Scale(P',P''))`` with P < P' < P'' the
    table has all three entries for."""
    ps = sorted({p for pair in table for p in pair})
    out = []
    for i, p in enumerate(ps):
        for j in range(i + 1, len(ps)):
            for k in range(j + 1, len(ps)):
                q, r = ps[j], ps[k]
                a, b, c = table.get((p, r)), table.get((p, q)), table.get((q, r))
                if None not in (a, b, c):
                    out.append((p, q, r, a, b * c))
    return out


# ---- predictions along the path ------------------------------------------------------------


@dataclass
class Runs:
    """The program's predictions along a path, on the real machine and its PRAM, each made
    once (cached by machine, P and t): a root search and the tables ask for the same points
    again and again."""

    setup: Setup
    path: SizePath
    cache: dict[tuple[str, int, int], Prediction] = field(default_factory=dict)
    integer: frozenset[str] = frozenset()  # the path's INTEGER inputs

    def __post_init__(self) -> None:
        self.integer = _check_path_names(self.setup, self.path)
        given = {k.split(".")[-1] for k in self.setup.given}
        both = [n for n in self.path.names if n.split(".")[-1] in given]
        if both:
            raise InterpError(f"{', '.join(both)} is given twice: by --set and by the path "
                              f"{self.path.text!r}", hint="the path sets the sizes it scales: "
                                                          "drop the --set")

    @cached_property
    def machines(self) -> dict[str, SAG]:
        return {REAL: self.setup.sag, PRAM: pram(self.setup.sag)}

    def prediction(self, machine: str, nprocs: int, t: int) -> Prediction:
        key = (machine, nprocs, t)
        if key not in self.cache:
            sizes = self.path.at(t, nprocs)
            for name in self.integer:
                if not sizes[name].is_Integer:
                    raise InterpError(f"{self.path.option} {self.path.text!r}: at t = {t} it "
                                      f"gives {name} = {float(sizes[name]):g}, and {name} is "
                                      "an INTEGER", hint="make it whole for every t, e.g. "
                                                         "floor(t/2) or 2*t")
            given = {**self.setup.given, **sizes}
            try:
                pred = self.setup.predict(symbolic=False, nprocs=nprocs, given=given,
                                          sag=self.machines[machine])
            except Hang as err:  # say which run of the study hangs: P = 1 is T_s's
                what = ("T_s, the program on one process (eq. 6-7: the MIRACLE's T_s/P)"
                        if nprocs == 1 else f"the program on P = {nprocs}")
                on = "the PRAM" if machine == PRAM else "the real machine"
                raise InterpError(f"{what} at {self.path.show(t, nprocs)} on {on}: "
                                  f"{err.message}",
                                  hint="the study predicts the program on one process and on "
                                       "each -P; it must run on all of them") from None
            if pred.seconds is None:
                raise missing_inputs(pred, "the scalability study")
            self.cache[key] = pred
        return self.cache[key]

    def seconds(self, machine: str, nprocs: int, t: int) -> float:
        return float(self.prediction(machine, nprocs, t).seconds)

    def ts(self, t: int) -> float:
        """``T_s`` = ``T_s^P`` (eq. 7): the program on one node, its communication at no cost.
        On one node a message-passing program still sends (host to node, a rank to itself);
        those messages are the parallel program's overhead, not sequential work, and the
        paper's one-node runs of its shared-memory programs had none. A path naming ``P`` is
        taken at P = 1 here (NPB built for one process)."""
        return self.seconds(PRAM, 1, t)

    def efficiency(self, kind: str, nprocs: int, t: int) -> float:
        machine = PRAM if kind == "algorithmic" else REAL
        return efficiency(self.seconds(machine, nprocs, t), self.ts(t), nprocs)


def _check_path_names(setup: Setup, path: SizePath) -> frozenset[str]:
    """Every input the path sizes must be a variable or PARAMETER of the program, named in
    terms of the option that gave it (not the --set it becomes); the INTEGER ones."""
    import difflib

    from interp.application.aag import parameters_of
    from interp.engine.predict import known_variables

    variables, params = known_variables(setup.aag), parameters_of(setup.aag)
    known = set(variables) | set(params)
    integer = {name for table in (variables, params) for name, sym in table.items()
               if sym.type == "INTEGER"}
    for name in path.names:
        if name not in known:
            close = difflib.get_close_matches(name, sorted(known), n=1)
            raise InterpError(f"{path.option} {path.text!r}: the program has no input {name}",
                              hint=f"did you mean {close[0]}?" if close else
                              "name an external input or PARAMETER (see `interp graph`)")
    return frozenset(n for n in path.names if n in integer)


# ---- the study -----------------------------------------------------------------------------


@dataclass(frozen=True)
class SizePoint:
    """χ(P) and the times and latencies there."""

    nprocs: int
    root: Root
    chi: str  # χ(P) as ``N=244, M=20``
    t: int
    ts: float
    tp: float  # real machine
    tpp: float  # PRAM

    @property
    def tpm(self) -> float:
        return miracle_time(self.ts, self.nprocs)

    @property
    def la(self) -> float:
        return latency(self.tpp, self.ts, self.nprocs)

    @property
    def l(self) -> float:  # noqa: E743 -- the paper's name
        return latency(self.tp, self.ts, self.nprocs)

    @property
    def ea(self) -> float:
        return efficiency(self.tpp, self.ts, self.nprocs)

    @property
    def e(self) -> float:
        return efficiency(self.tp, self.ts, self.nprocs)


@dataclass
class Scalability:
    kind: str
    target: float
    path: SizePath
    program: str
    machine: str
    points: list[SizePoint]

    def latencies(self) -> dict[int, float | None]:
        """The latency of the study's kind at χ(P), for the P whose target was reached."""
        return {p.nprocs: (p.la if self.kind == "algorithmic" else p.l) if p.root.reached
                else None for p in self.points}

    @property
    def table(self) -> dict[tuple[int, int], float | None]:
        return scale_table(self.latencies())


def check_study(nprocs: Sequence[int], target: float, kind: str) -> None:
    if kind not in KINDS:
        raise InterpError(f"unknown kind {kind!r}", hint="choose " + " or ".join(KINDS))
    if not 0 < target <= 1:
        raise InterpError(f"efficiency {target}: expected a number in (0, 1]",
                          hint="e.g. --efficiency 0.7")
    if len(set(nprocs)) < 2:
        raise InterpError("a scalability table needs at least two machine sizes",
                          hint="e.g. -P 2,4,8,16")


def scalability(setup: Setup, path: SizePath, nprocs: Sequence[int], target: float,
                kind: str = "algorithmic", t_min: int = 1, t_max: int = T_MAX,
                runs: Runs | None = None) -> Scalability:
    """For each P, χ(P) on ``path`` with ``E_a`` (or ``E``) = ``target``, and the latencies
    there."""
    from interp.analysis.lostcycles import program_name

    check_study(nprocs, target, kind)
    runs = runs or Runs(setup, path)
    points = []
    for p in sorted(set(nprocs)):
        root = find_size(lambda t, p=p: runs.efficiency(kind, p, t), target, t_min, t_max)
        points.append(point(runs, p, root))
    return Scalability(kind, target, path, program_name(setup.aag), setup.sag.name, points)


def point(runs: Runs, nprocs: int, root: Root) -> SizePoint:
    t = root.t
    return SizePoint(nprocs, root, runs.path.show(t, nprocs), t, runs.ts(t),
                     runs.seconds(REAL, nprocs, t), runs.seconds(PRAM, nprocs, t))
