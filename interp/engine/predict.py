"""The interpreter engine's entry point: SAAG × SAG × μ → performance statistics.

``predict`` instantiates the processes of a configuration (a host program that ``load``s a
node program, or P copies of a node/MPI program), interprets them with Algorithm 2 and returns
a :class:`Prediction`: the headline time as a closed-form SymPy formula in the external inputs,
its value at the inputs given, and the breakdown per process and per AAU.

External inputs stay symbols while the interpretation can proceed without their values; a
value is used only where a decision needs it (a branch, a partner, an unrollable loop). So the
formula and the number are two views of one result: the number is the formula evaluated at
the inputs given.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import sympy as sp

from interp.application import aau as A
from interp.application.aag import AAG, UnitAAG, parameters_of, with_parameters
from interp.application.expr import as_sympy
from interp.engine import stepbudget
from interp.engine.foldvalues import unfold_note
from interp.engine.costs import CostModel
from interp.application.ast import expr_text
from interp.engine.datadep import (NAME as DATA_NAME, DataSymbol, given_value as datadep_given,
                                   symbol_name)
from interp.engine.network import AT_ONCE, MustDefer
from interp.engine.omega import call_overhead
from interp.engine.process import CATEGORIES, HOST_ID, ClassBreak, Process, Timeline
from interp.engine.sync import Problem
from interp.engine.classes import Classes, Member, ShadowProcess
from interp.engine.scheduler import Scheduler
from interp.engine.timeval import FormulaTooLarge, Time, latest
from interp.engine.values import Inputs, NeedValue, NotClosedForm, Unfold, input_symbol
from interp.errors import InterpError
from interp.system import SAG, check_nprocs, subcube_note

BOUNDS = ("min", "max", "mid")
MAX_RERUNS = 16


@dataclass
class Prediction:
    """The result of interpreting a program on a machine."""

    total: sp.Expr  # the headline time (formula in the remaining symbols)
    headline: str  # what the headline time measures
    processes: list[Process]
    scheduler: Scheduler
    aag: AAG
    machine: SAG
    nprocs: int
    bound: str
    given: dict[str, sp.Expr]  # inputs the user gave
    fixed: dict[str, sp.Expr]  # inputs whose values the interpretation needed
    notes: list[str] = field(default_factory=list)
    data: dict[str, DataSymbol] = field(default_factory=dict)  # data-dependent symbols met

    @property
    def symbols(self) -> dict[str, sp.Symbol]:
        return {s.name: s for s in self.total.free_symbols}

    def substitution(self) -> dict[sp.Symbol, sp.Expr]:
        out = {}
        for name, sym in self.symbols.items():
            value = self.given.get(name)
            if value is None:
                value = next((v for k, v in self.given.items() if k.split(".")[-1] == name), None)
            if value is None and name in self.data:
                value = self.data_value(name)
            if value is not None:
                out[sym] = value
        return out

    def evaluate(self, expr) -> sp.Expr:
        expr = as_sympy(expr)
        if not expr.free_symbols:
            return expr
        # xreplace rebuilds bottom-up: a Max of numbers is cheap, while subs re-simplifies
        # every partly substituted Max (nested Max of data symbols took minutes).
        return expr.xreplace(self.substitution())

    def data_value(self, name: str) -> sp.Expr:
        """The value a data-dependent symbol takes: the user's, else its default."""
        value = datadep_given(self.given, name)
        return value if value is not None else sp.Float(self.data[name].default)

    @property
    def seconds(self) -> float | None:
        v = self.evaluate(self.total)
        return float(v) if v.is_number else None

    @property
    def end_time(self) -> sp.Expr:
        return latest([p.finish for p in self.processes if p.finish is not None] or [0.0])

    def process_rows(self) -> list[dict]:
        end = self.end_time
        rows = []
        for p in self.processes:
            row = {"process": p.label, "pid": p.pid, "start": p.start, "finish": p.finish}
            row.update({c: p.cats[c] for c in CATEGORIES})
            row["idle"] = (end - p.finish) if p.finish is not None else 0.0
            rows.append(row)
        return rows

    def aau_rows(self) -> list[dict]:
        """Per AAU: activation τ (first), executions, δ summed over executions and processes,
        and ``own``: that δ without the δ of the AAUs inside it (:func:`own_delta`), so that
        the rows' ``own`` add up to the processes' busy time."""
        by_id = self.aag.by_id()
        merged: dict[int, dict] = {}
        for p in self.processes:
            for k, st in p.stats.items():
                row = merged.setdefault(k, {"id": k, "count": 0, "total": 0.0, "own": 0.0,
                                            "tau": st.tau, "processes": 0})
                row["count"] += st.count
                row["total"] += st.total
                a = by_id.get(k)
                row["own"] += own_delta(p, a, self.aag) if a is not None else st.total
                row["processes"] += 1
        out = []
        for k, row in sorted(merged.items()):
            a = by_id.get(k)
            if a is None:
                continue
            row.update(type=a.type, unit=a.unit, file=a.loc.file, line=a.loc.line,
                       end_line=a.end_line)
            out.append(row)
        return out


def own_delta(p: Process, a: A.AAU, aag: AAG) -> Time:
    """δ of ``a`` on ``p`` summed over its executions, without the δ of the AAUs inside it: a
    loop's or a conditional's own overhead (Table 1's fixed and per-iteration costs, the
    conditions tested), a CALL's call and arguments when its callee's AAUs ran (else the
    whole, e.g. a ``--routine`` time or a callee costed in closed form). 0 if it never ran."""
    st = p.stats.get(a.id)
    if st is None:
        return 0.0
    if isinstance(a, A.Call):
        unit = aag.units.get(a.callee)
        if unit is not None and any(x.id in p.stats for x in unit.aaus):
            return st.count * call_overhead(p, a)
        return st.total
    if isinstance(a, (A.Iter, A.Condt)):
        return st.total - sum((p.stats[c.id].total for c in a.children if c.id in p.stats), 0.0)
    return st.total


# ---- configuration ---------------------------------------------------------------------------


def _has_spawn(unit: UnitAAG, aag: AAG, seen=None) -> bool:
    seen = seen or set()
    for a in unit.walk():
        if isinstance(a, A.Spawn):
            return True
        if isinstance(a, A.Call) and a.callee not in seen:
            seen.add(a.callee)
            if _has_spawn(aag.units[a.callee], aag, seen):
                return True
    return False


def _uses_mpi(aag: AAG) -> bool:
    return any(getattr(a, "call", None) is not None and a.call.library == "mpi"
               for a in aag.all_aaus())


def _node_program(aag: AAG, host: UnitAAG | None, loaded: str | None) -> UnitAAG:
    programs = [u for u in aag.programs() if u is not host]
    if host is not None and loaded:
        want = loaded.strip().upper()
        for u in programs:
            if Path(u.file).stem.upper() == want or u.name == want:
                return u
        raise InterpError(
            f"the host loads {loaded!r}, but no given file is named {loaded} or holds "
            f"PROGRAM {loaded.upper()}", hint="give the node program's source file too")
    if len(programs) == 1:
        return programs[0]
    if not programs:
        raise InterpError("no node program to run",
                          hint="give the node program's source file (a PROGRAM unit)")
    names = ", ".join(f"{u.name} ({u.file})" for u in programs)
    raise InterpError(f"several main programs and none of them loads the others: {names}",
                      hint="give one node program, or a host program that calls load()")


def _loaded_name(host: UnitAAG, aag: AAG) -> str | None:
    for a in host.walk():
        if isinstance(a, A.Spawn):
            return a.program
    for u in aag.units.values():
        for a in u.walk():
            if isinstance(a, A.Spawn):
                return a.program
    return None


def interpret(aag: AAG, sag: SAG, nprocs: int, inputs: Inputs, bound: str = "mid",
              extend: bool = True, trace: bool = False,
              timing: bool = True, defer: int = AT_ONCE,
              timeline: bool = False,
              exact: bool = False,
              classes: bool = True) -> tuple[Scheduler, list[Process], Process | None]:
    """Run Algorithm 2; NeedValue propagates when a decision needs a missing value. Under
    ``channel: fair`` messages are received as soon as they arrive; if a later message of the
    same sender would have shared a link with one already received, the run is repeated with
    every message waiting until its sender can add nothing to its burst (``defer`` SENDER);
    if one of another sender would have, until no process can send before its end
    (EVERYONE: SP's pipelines at P = 9, where a rank's next message joins a link that
    another rank's message, already received, was still on). A run stops as soon as it
    finds it received a message too early (``MustDefer``).
    ``timeline``: record each process's :class:`Timeline` (lost cycles); every iteration is
    then interpreted (a steady-state jump would leave a hole in it). ``exact``: the slow
    reference path of docs/scale.md (no index of the messages in flight, a world communicator
    per process), to compare the fast one with. ``classes``: the ranks of an MPI program are
    interpreted once per class of ranks that behave alike (classes.py); when the classes
    cannot follow the program, it is interpreted again rank by rank."""
    if bound not in BOUNDS:
        raise InterpError(f"unknown bound {bound!r}", hint="choose min, max or mid")
    check_nprocs(sag, nprocs)
    hosts = [u for u in aag.programs() if _has_spawn(u, aag)]
    host = hosts[0] if hosts else None
    node_prog = _node_program(aag, host, _loaded_name(host, aag) if host else None)
    if host is not None and sag.host is None:
        load = next((a for a in host.walk() if isinstance(a, A.Spawn)), None)
        raise InterpError(f"{host.name} is a host program (it loads the node program), but "
                          f"the machine {sag.name} has no host processor (machine.host) to run it",
                          load.loc if load is not None else None,
                          hint="predict the node program alone, or choose a machine with a "
                               "host (--machine ipsc860)")
    library = "mpi" if _uses_mpi(aag) else "nx2"
    node_cm = CostModel(sag, sag.nodes, bound)  # shared by the nodes: costs are computed once
    label = "rank" if library == "mpi" else "node"

    def recorded(p: Process) -> Process:
        p.timeline = Timeline() if timeline else None
        return p

    classes = classes and host is None and library == "mpi" and not (exact or trace or timeline)

    def make_nodes(program, dests, start, spawn_aau=None):
        if classes:  # (a class's members: classes.Member; no timeline with the classes)
            return [Member(k, f"{label} {k}", node_prog, aag, node_cm, nprocs, start, inputs,
                           library) for k in dests]
        return [recorded(Process(k, f"{label} {k}", node_prog, aag, node_cm, nprocs, start,
                                 inputs, library, exact)) for k in dests]

    sched = Scheduler(sag, nprocs, bound, make_nodes, extend=extend and not timeline,
                      timing=timing, defer=defer, exact=exact)
    if classes:
        def shadow(rec, pid):
            return ShadowProcess(rec, pid, f"{label} {pid}", node_prog, aag, node_cm, nprocs,
                                 0.0, inputs, library)
        functions = frozenset(n for n, u in aag.units.items() if u.unit.kind == "FUNCTION")
        sched.chain = Classes(shadow, functions).chain
    if trace:
        sched.trace = []
    host_proc = None
    if host is not None:
        host_cm = CostModel(sag, sag.host or sag.nodes, bound)
        host_proc = recorded(Process(HOST_ID, "host", host, aag, host_cm, nprocs, 0.0, inputs,
                                     library))
        sched.add(host_proc)
    else:
        for p in make_nodes(None, range(nprocs), 0.0):
            sched.add(p)
    try:
        sched.run()  # (with the cyclic collector off: Scheduler.run)
    except MustDefer as more:  # fair: a message was received too early for this level
        return interpret(aag, sag, nprocs, inputs, bound, extend, trace, timing,
                         defer=more.level, timeline=timeline, exact=exact, classes=classes)
    except Unfold as unfold:  # a value a folded loop changed is needed: step that loop
        if unfold.loop in inputs.unfolded:
            raise
        inputs.unfolded[unfold.loop] = unfold_note(unfold.loop, unfold.name)
        return interpret(aag, sag, nprocs, inputs, bound, extend, trace, timing, defer,
                         timeline, exact, classes)
    except stepbudget.OverBudget as over:
        left = stepbudget.leave_unfollowed(over, inputs)
        if not left and not classes:
            raise
        # a computing loop past the budget: again with it not followed (stepbudget.py), or
        # rank by rank for the error's per-rank wording, as below
        return interpret(aag, sag, nprocs, inputs, bound, extend, trace, timing, defer,
                         timeline, exact, classes=classes and left)
    except (ClassBreak, InterpError, FormulaTooLarge, NotClosedForm):
        if not classes:
            raise
        # the classes could not follow it (ClassBreak), or it stops as a program or formula
        # can (an error, a value needed, a formula too large): rank by rank, as ever, so the
        # error and its wording are the per-rank ones; an internal error is not hidden
        return interpret(aag, sag, nprocs, inputs, bound, extend, trace, timing, defer,
                         timeline, exact, classes=False)
    sched.notes.extend(n for n in inputs.unfolded.values() if n not in sched.notes)
    return sched, sched.processes, host_proc


def predict(aag: AAG, sag: SAG, nprocs: int, given: dict[str, sp.Expr] | None = None,
            bound: str = "mid", extend: bool = True, symbolic: bool = True,
            routines: dict[str, float] | None = None,
            iterations: dict[str, int] | None = None, trace: bool = False,
            timeline: bool = False, exact: bool = False,
            apart: bool = True) -> Prediction:
    """Predict the run time of the program in ``aag`` on ``nprocs`` nodes of ``sag``.

    ``symbolic``: keep given inputs as symbols wherever possible (the formula); False uses
    their values from the start (a purely numeric interpretation). ``extend``: add steady-state
    iterations in closed form; False interprets every iteration. ``routines`` and
    ``iterations`` are the user's interpretation functions (see :class:`Inputs`). ``trace``:
    record every interpreted AAU execution and message (``Prediction.processes[i].trace``,
    ``Prediction.scheduler.trace``) for trace export. ``timeline``: record each process's
    :class:`~interp.engine.process.Timeline` for lost-cycles analysis (with ``symbolic=False``:
    it needs numbers; every iteration is interpreted). ``exact``: the slow reference path
    (:func:`interpret`). When the formula's messages were not priced for link sharing (their
    times are symbols), whether link sharing delays a message at the inputs given is asked of
    a numeric run; ``apart``: not where the flows' times at those inputs show no two flows
    meeting (``MessageModel.apart_at``: then none is delayed); False (and ``exact``) always
    runs it (the reference the shortcut is tested against).
    """
    routines = {k.upper(): v for k, v in (routines or {}).items()}
    for name in routines:
        if name not in aag.units:
            raise InterpError(f"--routine {name}: the program has no subroutine or function {name}",
                              hint="name one of: " + ", ".join(sorted(aag.units)))
    given = dict(given or {})
    aag, given, constants, rebuilt = parameters_set(aag, given)
    check_iterations(aag, iterations or {})
    check_given(aag, given)
    fixed: dict[str, sp.Expr] = {} if symbolic else dict(given)
    # the formula takes integer inputs to be positive: one given as 0 or less is used as its
    # value from the start (a DO loop it bounds runs zero times), and said so
    not_positive = {k: v for k, v in given.items() if v.is_Integer and v <= 0 and "(" not in k}
    fixed.update(not_positive)
    formula_notes: list[str] = []
    contended = None  # does link sharing delay a message at the inputs given?
    numeric_run = None  # the run that said so: (scheduler, processes, host), its inputs
    unfollowed: set = set()  # (the reruns meet the loops the first left unfollowed)
    unfolded: dict = {}  # (and the loops it had to step to the end)
    for _ in range(MAX_RERUNS):
        try:
            inputs = Inputs(fixed, routines, dict(iterations or {}), given, numeric=not symbolic,
                            unfollowed=unfollowed, unfolded=unfolded)
            sched, procs, host = interpret(aag, sag, nprocs, inputs, bound, extend, trace,
                                           timeline=timeline, exact=exact)
            # the latest of many processes' ends can be too large as well (NPB EP, P = 256)
            total, headline = _end(procs, host)
        except FormulaTooLarge as big:  # keep the number exact: use the values given
            new = _values_for(big.symbols, given, inputs, fixed)
            if not new:
                missing = list(dict.fromkeys(list(big.symbols) + _not_given(aag, given)))
                raise InterpError(
                    "the predicted time depends on " + ", ".join(big.symbols) + " in too many "
                    "ways to keep as a formula; inputs not given: " + ", ".join(missing),
                    hint=set_hint(missing)) from None
            fixed.update(new)
            formula_notes.append("the waiting structure depended on " + ", ".join(sorted(new))
                                 + " in too many ways for a closed form; their given (or "
                                 "default) values were used")
            continue
        except NeedValue as need:
            new = {n: _given_value(given, n) for n in need.names if _given_value(given, n) is not None}
            missing = [n for n in need.names if n not in new]
            if missing:
                raise _missing(aag, need, given) from None
            if all(n in fixed for n in new):
                raise
            fixed.update(new)
            where = f" ({need.location.file.rsplit('/', 1)[-1]}:{need.location.line})" \
                if need.location else ""
            formula_notes.append(
                f"{need.message.split(' depends on ')[0]}{where} depends on "
                + ", ".join(sorted(new)) + (": its given value was used (the formula has its "
                                            "number)" if len(new) == 1 else ": their given "
                                            "values were used (the formula has their numbers)"))
            continue
        # which messages share links, and so when they arrive, is decided with numbers only:
        # when link sharing delays messages at the inputs given, the inputs the unpriced
        # messages' times depend on are used with their values (as a numeric run does)
        unpriced = _values_for(sorted(sched.msgs.unpriced), given, inputs, fixed)
        # (the flows are the numeric run's only where the run's assumptions hold there)
        if unpriced and contended is None and apart and not exact and \
                not _violated(sched, procs, given, fixed) and sched.msgs.apart_at(unpriced):
            contended = False  # no two flows meet there: no run needed to say so
        if unpriced and contended is None:
            contended, numeric_run = _contended(aag, sag, nprocs, given, bound, extend,
                                                routines, iterations, exact)
        if unpriced and contended:
            fixed.update(unpriced)
            formula_notes.append(
                "link contention: which messages share links depends on " + ", ".join(
                    sorted(unpriced)) + "; their values were used (the formula has their numbers)")
            if numeric_run is not None and not (trace or timeline or numeric_run[1].data) \
                    and _all_fixed(sched, procs, total, given, fixed, inputs):
                # the run again with every value fixed would be the numeric run just made
                # (which records no trace or timeline)
                (sched, procs, host), inputs = numeric_run
                total, headline = _end(procs, host)
                break
            continue
        broken = _violated(sched, procs, given, fixed)
        if broken:  # a given value lies outside what the formula assumed: interpret it exactly
            fixed.update(broken)
            continue
        break
    else:  # pragma: no cover
        raise InterpError("the interpretation needed too many input values")
    if sched.hung:
        raise Hang(sched.problems)
    valid = [f"the formula assumes {a}" for a in assumptions(sched, procs)]
    total = as_sympy(total)
    notes = list(dict.fromkeys(rebuilt + sched.notes + [n for p in procs for n in p.notes] + valid
                               + formula_notes
                               + _unpriced_note(sched, given, inputs)))
    check_data_given(given, inputs.data)
    # a PARAMETER set is a value the formula has as its number: given, and fixed
    pred = Prediction(total, headline, procs, sched, aag, sag, nprocs, bound,
                      {**given, **constants}, {**fixed, **constants}, notes,
                      dict(sorted(inputs.data.items(), key=lambda kv: (kv[1].file, kv[1].line))))
    cube = subcube_note(sag, nprocs)
    if cube:
        pred.notes.append(cube)
    for key, value in not_positive.items():
        pred.notes.append(f"{key} = {value} is not positive: interpreted with this value, not "
                          "as a symbol (a DO loop it bounds runs zero times)")
    ints = sorted(s.name for s in total.free_symbols if s.is_integer)
    if ints:
        pred.notes.append("integer inputs " + ", ".join(ints) + " are taken to be positive")
    return pred


def _contended(aag: AAG, sag: SAG, nprocs: int, given: dict[str, sp.Expr], bound: str,
               extend: bool, routines: dict[str, float], iterations: dict[str, int] | None,
               exact: bool) -> tuple[bool, tuple | None]:
    """Does link sharing delay a message at the inputs given? And the numeric run that says
    so, with its inputs (None when it is not a point)."""
    point = Inputs(dict(given), routines, dict(iterations or {}), given, numeric=True)
    try:
        run = interpret(aag, sag, nprocs, point, bound, extend, exact=exact)
    except (NeedValue, FormulaTooLarge):  # not a point: the formula stays as it is
        return False, None
    return run[0].msgs.delayed(), (run, point)


def _all_fixed(sched: Scheduler, procs: list[Process], total, given: dict[str, sp.Expr],
               fixed: dict[str, sp.Expr], inputs: Inputs) -> bool:
    """Would the run again with ``fixed`` hold no symbol at all? Every input given is fixed,
    and so is every symbol the run's time and assumptions hold; no data-dependent quantity
    was met (a numeric run gives those their defaults, a symbolic one keeps them)."""
    if inputs.data or any("(" not in k and k not in fixed for k in given):
        return False
    held = set(as_sympy(total).free_symbols)
    for a in assumptions(sched, procs):
        held |= a.free_symbols
    return all(s.name in fixed for s in held)


def _end(procs: list[Process], host: Process | None) -> tuple[Time, str]:
    """The predicted time and what it measures."""
    if host is not None and host.spawn_end is not None:
        end = host.last_recv_end if host.last_recv_end is not None else host.finish
        return end - host.spawn_end, ("time on the host from the load of the node program "
                                      "until the last result is received (as measured in "
                                      "the paper)")
    return (latest([p.finish for p in procs if p.finish is not None] or [0.0]),
            "time until the last process finishes")


def assumptions(sched: Scheduler, procs: list[Process]) -> list[sp.Basic]:
    """What the symbolic run assumed, each once: ``NITER >= 4`` and ``NITER - 4 >= 0`` are one."""
    found = [a for p in procs for a in p.assumptions.values()] + list(sched.assumptions)
    out: list[sp.Basic] = []
    seen = set()
    for a in found:
        if a in (sp.true, True):
            continue
        key = _canonical(a)
        if key not in seen:
            seen.add(key)
            out.append(a)
    return out


def _canonical(rel: sp.Basic):
    """``x >= y`` and ``x - y >= 0`` alike: (difference that must be ≥ or > 0, strict)."""
    if isinstance(rel, (sp.Ge, sp.Gt)):
        return sp.expand(rel.lhs - rel.rhs), isinstance(rel, sp.Gt)
    if isinstance(rel, (sp.Le, sp.Lt)):
        return sp.expand(rel.rhs - rel.lhs), isinstance(rel, sp.Lt)
    return rel


def _violated(sched: Scheduler, procs: list[Process], given: dict, fixed: dict) -> dict:
    """Given inputs that break an assumption of the symbolic run (e.g. NITER >= 4 with
    NITER = 2): they are interpreted with their values instead."""
    out = {}
    for a in assumptions(sched, procs):
        subs = {}
        for s in a.free_symbols:
            v = _given_value(given, s.name)
            if v is not None and s.name not in fixed:
                subs[s] = v
        if subs and a.subs(subs) == sp.false:
            out.update({s.name: v for s, v in subs.items()})
    return out


class Hang(InterpError):
    """The program would hang: chains remain that can never finish (Algorithm 2, step 3)."""

    exit_code = 1

    def __init__(self, problems: list[Problem]):
        self.problems = problems
        lines = [pr.message for pr in problems]
        super().__init__("the program hangs:\n  " + "\n  ".join(lines),
                         hint="run `interp check` with the same files and -P for the full report")


def _given_value(given: dict[str, sp.Expr], name: str) -> sp.Expr | None:
    if name in given:
        return given[name]
    for key, value in given.items():
        if key.split(".")[-1] == name:
            return value
    return None


def _loop_keys(a: A.Iter) -> tuple[str, ...]:
    """The names ``--iterations`` may give a loop by (as :meth:`Inputs.iterations_for`)."""
    return (f"{a.unit}:{a.loc.line}", f"{a.loc.file}:{a.loc.line}",
            f"{a.loc.file.rsplit('/', 1)[-1]}:{a.loc.line}")


def check_iterations(aag: AAG, iterations: dict[str, int]) -> None:
    """Every ``--iterations WHERE`` must name the first line of a loop (it was silently
    ignored); the error lists the loops nearest the line named."""
    if not iterations:
        return
    loops = [a for a in aag.all_aaus() if isinstance(a, A.Iter)]
    known = {k: a for a in loops for k in _loop_keys(a)}
    for key in iterations:
        if key in known:
            if not isinstance(known[key], A.IterND):
                raise _counted_loop(key, known[key])
            continue
        where, _, line = key.rpartition(":")
        near = sorted((a for a in loops if where in (k.rsplit(":", 1)[0] for k in _loop_keys(a))),
                      key=lambda a: abs(a.loc.line - int(line)) if line.isdigit() else 0)
        listing = ", ".join(_loop_keys(a)[2] for a in near[:5])
        raise InterpError(
            f"--iterations {key}: no loop starts at {key}",
            hint=(f"loops in {where}: {listing}" if listing else
                  "name a loop as FILE:LINE or UNIT:LINE of its first line; the program's loops: "
                  + (", ".join(_loop_keys(a)[2] for a in loops[:8]) or "none")))


def _counted_loop(key: str, a: A.Iter) -> InterpError:
    """``--iterations`` on a DO loop, whose count comes from its limits (it was ignored)."""
    limits = f"{expr_text(a.start)} to {expr_text(a.stop)}"
    if a.limits_at_run_time:
        trip = symbol_name("trip count", a.loc.file, a.loc.line)
        return InterpError(f"--iterations {key}: the DO loop at {key} runs from {limits}, "
                           "values of the run; its iterations are a trip count",
                           hint=f"give them with --set {trip}=COUNT")
    return InterpError(f"--iterations {key}: the DO loop at {key} is counted from its limits "
                       f"({limits}); --iterations gives the count of a loop interp cannot count",
                       hint="set the inputs in its limits with --set NAME=VALUE instead")


def parameters_set(aag: AAG, given: dict[str, sp.Expr]
                    ) -> tuple[AAG, dict[str, sp.Expr], dict[str, sp.Expr], list[str]]:
    """``--set NAME=V`` of a PARAMETER constant (no variable of that name): the program
    rebuilt with that value (``with_parameters``), the other inputs, the PARAMETERs' given
    values, and a note per value."""
    if not given:
        return aag, given, {}, []
    params = parameters_of(aag)
    variables = {name for u in aag.units.values() for name, sym in u.symbols.symbols.items()
                 if sym.kind in ("variable", "array")}
    chosen = {k: v for k, v in given.items()
              if k.split(".")[-1] in params and k.split(".")[-1] not in variables}
    if not chosen:
        return aag, given, {}, []
    values = {}
    for key, v in chosen.items():
        name = key.split(".")[-1]
        if params[name].type == "INTEGER" and not v.is_Integer:
            raise InterpError(f"--set {key}={float(v):g}: {name} is an INTEGER PARAMETER "
                              f"({params[name].loc}); give a whole number")
        values[name] = int(v) if v.is_Integer else float(v)
    notes = [f"{name} = {value:g} replaces the PARAMETER at {params[name].loc}: the program was "
             "rebuilt with it" for name, value in values.items()]
    rest = {k: v for k, v in given.items() if k not in chosen}
    return with_parameters(aag, values), rest, chosen, notes


def known_variables(aag: AAG) -> dict:
    """The program's variables and arrays, by name and by ``UNIT.NAME``: what an input
    given by name may be."""
    known = {}
    for u in aag.units.values():
        for name, sym in u.symbols.symbols.items():
            if sym.kind in ("variable", "array") or sym.is_array:
                known[name] = known[f"{u.name}.{name}"] = sym
    return known


def check_given(aag: AAG, given: dict[str, sp.Expr]) -> None:
    """Every --set name must be a variable of the program (with a did-you-mean)."""
    import difflib

    known = known_variables(aag)
    for key in given:
        name, _, indices = key.partition("(")
        sym = known.get(name)
        if sym is None and DATA_NAME.match(key):
            continue  # a data-dependent symbol: checked once the run has met them all
        if sym is None:
            close = difflib.get_close_matches(name, list(known), n=1)
            raise InterpError(f"--set {key}: the program has no variable {name}",
                              hint=f"did you mean {close[0]}?" if close else
                              "name an external input (see `interp graph`)")
        if sym.type == "INTEGER" and not given[key].is_Integer:
            raise InterpError(f"--set {key}={float(given[key]):g}: {name} is an INTEGER variable, and "
                              f"{float(given[key]):g} is not a whole number",
                              hint=f"give a whole number, e.g. --set {name}={int(given[key])}")
        if indices and (not sym.is_array or len(sym.dims) != indices.count(",") + 1):
            raise InterpError(f"--set {key}: {name} is "
                              + (f"an array of rank {len(sym.dims)}" if sym.is_array else
                                 "not an array"),
                              hint=f"give the element with {len(sym.dims)} indices, or the whole "
                                   f"array with --set {name}=VALUE" if sym.is_array else
                                   f"give it with --set {name}=VALUE")


def check_data_given(given: dict[str, sp.Expr], data: dict[str, DataSymbol]) -> None:
    """Every --set of a data-dependent symbol must name one the program has."""
    import difflib

    names = {d.upper(): d for d in data}
    for key in given:
        if DATA_NAME.match(key) and key.upper() not in names:
            close = difflib.get_close_matches(key.lower(), list(data), n=1)
            raise InterpError(f"--set {key}: the program has no data-dependent decision "
                              f"{key.lower()}",
                              hint=f"did you mean {close[0]}?" if close else
                              "see the data-dependent section of `interp predict`")


def _values_for(names, given: dict[str, sp.Expr], inputs: Inputs,
                fixed: dict[str, sp.Expr]) -> dict[str, sp.Expr]:
    """The values of the symbols ``names`` not fixed yet that have one: an input's given
    value, a data-dependent quantity's given value or default."""
    values = {n: _given_value(given, n) if n not in inputs.data else
              _data_value(given, inputs.data[n]) for n in names}
    return {n: v for n, v in values.items() if v is not None and n not in fixed}


def _unpriced_note(sched: Scheduler, given: dict[str, sp.Expr], inputs: Inputs) -> list[str]:
    """What the formula assumes of the messages whose link sharing was not priced."""
    names = sorted(sched.msgs.unpriced)
    valued = sorted(_values_for(names, given, inputs, {}))
    missing = [n for n in names if n not in valued]
    out = []
    if valued:
        out.append("link contention: no message shares a link at the inputs given; the formula "
                   "assumes so for the messages whose times depend on " + ", ".join(valued))
    if missing:
        out.append("link contention was not priced for messages whose times depend on "
                   + ", ".join(missing) + " (which of them overlap is not decided): give their "
                   "values with --set to include it")
    return out


def _data_value(given: dict[str, sp.Expr], s: DataSymbol) -> sp.Expr:
    value = datadep_given(given, s.name)
    return value if value is not None else sp.Float(s.default)


def _not_given(aag: AAG, given: dict[str, sp.Expr]) -> list[str]:
    """The program's critical external inputs the user gave no value for."""
    return [e.name for e in aag.external_inputs
            if e.critical and _given_value(given, e.name) is None]


def set_hint(names: list[str]) -> str:
    """How to pass ``names``: one ``--set NAME=VALUE`` each."""
    return "give each with --set NAME=VALUE: " + " ".join(f"--set {n}=VALUE" for n in names)


def _missing(aag: AAG, need: NeedValue, given: dict[str, sp.Expr]) -> NeedValue:
    names = set(need.names) | set(_not_given(aag, given))
    missing = sorted(n for n in names if _given_value(given, n) is None)
    err = NeedValue(missing, need.message.split(" depends on ")[0], need.location, need.loop)
    err.message = (f"{need.message.split(' depends on ')[0]} depends on input values that were "
                   f"not given: {', '.join(missing)}")
    return err


def symbol_for(aag: AAG, name: str) -> sp.Symbol:
    """The symbol an external input appears as in formulas."""
    for u in aag.units.values():
        sym = u.symbols.symbols.get(name)
        if sym is not None:
            return input_symbol(name, sym.type)
    return input_symbol(name, "REAL")


__all__ = ["Hang", "Prediction", "Problem", "predict", "interpret", "BOUNDS", "symbol_for"]
