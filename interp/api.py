"""interp's Python API: the calls the ``interp`` command makes, for use from Python.

::

    from interp import api

    program = api.Program.load(["programs/trapezoid/host.f", "programs/trapezoid/node.f"])
    machine = api.Machine.load("ipsc860")               # or a YAML file
    pred = api.predict(program, machine, 16, inputs={"N": 10**6, "NITER": 10},
                       what_if=["node.p.ops.real_div *= 0.5"])
    pred.seconds, pred.total                            # the number and its formula (SymPy)

    api.compare(program, machine, 16, {"N": 10**6, "NITER": 10}, what_if=["clock = 80MHz"])
    api.sweep(program, machine, vary={"N": "1e3..1e7:log:20", "P": [1, 2, 4, 8, 16]},
              inputs={"NITER": 10})
    api.sensitivity(program, machine, 16, {"N": 10**6, "NITER": 10})

Inputs are plain Python numbers (``int``, ``float``) keyed by the program's variable names
(``NAME`` or ``UNIT.NAME``); what-ifs are the statements of ``--what-if``
(:mod:`interp.engine.whatif`); ``bound`` picks the end of the spec's ``[min, max]`` ranges
(``"min"``, ``"mid"`` or ``"max"``). Every user mistake raises :class:`interp.errors.InterpError`.
"""

from __future__ import annotations

import numbers
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

import sympy as sp

from interp.analysis import interval as intervals
from interp.analysis.sensitivity import STEP, Sensitivity
from interp.analysis.sensitivity import sensitivity as _sensitivity
from interp.analysis.setup import Setup
from interp.application.aag import AAG, build_aag
from interp.engine.predict import Prediction
from interp.engine.saag import SAAG, build_saag
from interp.engine.values import NeedValue
from interp.engine.whatif import Scenario
from interp.errors import InterpError
from interp.output.numbers import require_numbers
from interp.system import SAG, load_machine

if TYPE_CHECKING:
    from interp.analysis.compare import Comparison
    from interp.analysis.lostcycles import LostCycles
    from interp.analysis.profile import Measured
    from interp.analysis.sweep import Axis, ProgressFn, SweepResult, parse_range, parse_vary

# Imported on first use, not with interp.api: sweeps need NumPy and reports Matplotlib and
# Jinja2, about 0.7 s that a predict does not need (benchmarks/bench_cli.py); the other
# analyses are small but a predict needs none of them either.
_LAZY = {name: "interp.analysis.sweep" for name in ("Axis", "SweepResult", "parse_range",
                                                    "parse_vary")}
_LAZY["Comparison"] = "interp.analysis.compare"


def __getattr__(name: str):
    if name in _LAZY:
        import importlib

        return getattr(importlib.import_module(_LAZY[name]), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


@dataclass(frozen=True)
class Program:
    """A program's Application Abstraction Graph, built from its source files."""

    aag: AAG

    @classmethod
    def load(cls, files: str | Iterable[str], granularity: str = "largest",
             include_dirs: Iterable[str] = (), input_files: Mapping[str, str] | None = None
             ) -> Program:
        """Parse ``files`` (a host program and the node program it loads, or node/MPI programs);
        ``granularity``: ``"largest"`` Seq AAUs, or ``"statement"`` (one per statement);
        ``include_dirs``: folders searched for INCLUDE files after the including file's own
        (``-I DIR``); ``input_files``: NAME → PATH, the real file read where the program OPENs
        NAME (``--input-file``; other names are looked up in the current folder, as the program
        would)."""
        files = [files] if isinstance(files, str) else [str(f) for f in files]
        aag = build_aag(files, granularity, include_dirs)
        aag.input_files = _input_files(input_files or {})
        return cls(aag)

    @property
    def files(self) -> list[str]:
        return list(self.aag.files)

    @property
    def inputs(self) -> list[str]:
        """The external inputs: values the program reads or uses without defining."""
        return list(dict.fromkeys(e.name for e in self.aag.external_inputs))


def _input_files(given: Mapping[str, str]) -> dict[str, str]:
    from pathlib import Path

    for name, path in given.items():
        if not Path(path).is_file():
            raise InterpError(f"--input-file {name}={path}: no such file",
                              hint="name an existing file the program reads")
    return {str(k): str(v) for k, v in given.items()}


@dataclass(frozen=True)
class Machine:
    """A machine's System Abstraction Graph (a spec from ``machine_specs/`` or a YAML file)."""

    sag: SAG

    @classmethod
    def load(cls, name_or_file: str) -> Machine:
        return cls(load_machine(name_or_file))

    @property
    def name(self) -> str:
        return self.sag.name


ProgramLike = Program | AAG | str | Sequence[str]
MachineLike = Machine | SAG | str
AskFn = Callable[[NeedValue], Mapping[str, object]]


def as_aag(program: ProgramLike) -> AAG:
    if isinstance(program, Program):
        return program.aag
    if isinstance(program, AAG):
        return program
    return Program.load(program).aag


def as_sag(machine: MachineLike) -> SAG:
    if isinstance(machine, Machine):
        return machine.sag
    if isinstance(machine, SAG):
        return machine
    return load_machine(machine)


def input_value(name: str, value: object) -> sp.Expr:
    """A plain number as the engine takes it: whole numbers exact, others as floats."""
    if isinstance(value, sp.Basic):
        if not value.is_number:
            raise InterpError(f"input {name}: {value} is not a number")
        return value
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise InterpError(f"input {name}: expected a number, not {value!r}")
    if isinstance(value, numbers.Integral):
        return sp.Integer(int(value))
    value = float(value)
    if value.is_integer() and abs(value) < 2**63:
        return sp.Integer(int(value))
    return sp.Float(value)


def input_values(inputs: Mapping[str, object] | None) -> dict[str, sp.Expr]:
    return {_input_name(k): input_value(k, v) for k, v in (inputs or {}).items()}


def _input_name(name: str) -> str:
    return ".".join(part.upper() for part in "".join(str(name).split()).split("."))


def setup(program: ProgramLike, machine: MachineLike, nprocs: int = 1,
          inputs: Mapping[str, object] | None = None, what_if: Iterable[str] | Scenario = (),
          bound: str = "mid", routines: Mapping[str, float] | None = None,
          iterations: Mapping[str, int] | None = None, vary_p: bool = False) -> Setup:
    """The configuration to predict, with the what-if scenario applied. ``vary_p``: an
    analysis over several P (an error then says at which P it arose)."""
    aag, sag = as_aag(program), as_sag(machine)
    given = input_values(inputs)
    scenario = what_if if isinstance(what_if, Scenario) else Scenario.from_texts(list(what_if))
    sag, nprocs, given = scenario.apply(sag, nprocs, given, aag)
    return Setup(aag, sag, nprocs, given, bound,
                 {k.upper(): v for k, v in (routines or {}).items()} or None,
                 dict(iterations or {}) or None, None if vary_p else nprocs)


def predict(program: ProgramLike, machine: MachineLike, nprocs: int = 1,
            inputs: Mapping[str, object] | None = None, what_if: Iterable[str] | Scenario = (),
            bound: str = "mid", *, symbolic: bool = True,
            routines: Mapping[str, float] | None = None,
            iterations: Mapping[str, int] | None = None, ask: AskFn | None = None,
            trace: bool = False, timeline: bool = False, exact: bool = False,
            interval: bool = False) -> Prediction:
    """Predict the run time of ``program`` on ``nprocs`` nodes of ``machine``.

    Returns a :class:`interp.engine.predict.Prediction`: ``.total`` (the formula, SymPy, in
    the inputs kept symbolic), ``.seconds`` (its value at ``inputs``), ``.process_rows()``,
    ``.aau_rows()``. ``symbolic=False`` uses the inputs' values from the start (faster, no
    formula). When a decision needs an input that was not given, ``ask(need)`` is called for
    the values of ``need.names`` (without ``ask``, :class:`NeedValue` is raised).
    ``timeline``: record each process's timeline for :func:`lost_cycles` (with
    ``symbolic=False``). ``exact``: the slow reference path the fast one is checked against
    (docs/scale.md). ``interval``: start :func:`prediction_interval` of the result in a child
    process while this one predicts (what ``interp predict`` prints beside the time).
    """
    s = setup(program, machine, nprocs, inputs, what_if, bound, routines, iterations)
    early = intervals.start(s) if interval else None
    try:
        pred = _asking(s, ask, symbolic=symbolic, trace=trace, timeline=timeline, exact=exact)
    except BaseException:
        if early is not None:
            early.close()
        raise
    intervals.attach(pred, early)
    return pred


def _asking(s: Setup, ask: AskFn | None, **options) -> Prediction:
    """The prediction of ``s``; an input a decision needs is asked for with ``ask``."""
    from interp.engine.predict import predict as engine_predict

    given = dict(s.given)
    while True:
        try:
            return engine_predict(s.aag, s.sag, s.nprocs, dict(given), s.bound,
                                  routines=dict(s.routines or {}),
                                  iterations=dict(s.iterations or {}), **options)
        except NeedValue as need:
            if ask is None:
                raise
            answers = input_values(ask(need))
            if not answers or all(given.get(k) == v for k, v in answers.items()):
                raise
            given.update(answers)


def lost_cycles(program: ProgramLike, machine: MachineLike, nprocs: int = 1,
                inputs: Mapping[str, object] | None = None, what_if: Iterable[str] = (),
                bound: str = "mid", *, routines=None, iterations=None, ask: AskFn | None = None,
                communication_only: bool = False) -> LostCycles:
    """The lost cycles of the predicted run (Crovella and LeBlanc's categories: LI, IP, SL, CL,
    RC and the remaining pure computation; docs/lost-cycles.md). ``communication_only``:
    predict as ``interp validate`` does, computation switched off and SMPI's semantics, to set
    beside :func:`lost_cycles_smpi`."""
    from interp.analysis.lostcycles import from_prediction
    from interp.system.simgrid import simgrid_semantics, zero_computation

    sag = as_sag(machine)
    if communication_only:
        sag = zero_computation(simgrid_semantics(sag)[0])
    pred = predict(program, sag, nprocs, inputs, what_if, bound, symbolic=False,
                   routines=routines, iterations=iterations, ask=ask, timeline=True)
    return from_prediction(pred, {k: float(v) for k, v in pred.given.items()})


def lost_cycles_smpi(program: Sequence[str], machine: MachineLike, nprocs: int = 1,
                     what_if: Iterable[str] = (), *, timeout: float = 600.0,
                     inputs: Mapping[str, object] | None = None) -> LostCycles:
    """The lost cycles of a run of the MPI program (its source files, compiled and linked
    together) under SimGrid's SMPI, from SimGrid's trace, computation switched off as in
    ``interp validate`` (:mod:`interp.analysis.smpi_lost`). ``what_if`` may change the machine
    and P; the program runs as it is, with ``inputs`` (the variables it READs) on its standard
    input."""
    from interp.analysis.smpi_lost import lost_cycles_smpi as run

    s = setup(list(program), machine, nprocs, inputs, what_if)
    return run(list(program), s.sag, s.nprocs, timeout=timeout,
               inputs={k: float(v) for k, v in s.given.items()})


def report(pred: Prediction, path: str, *, at: Iterable[str] = (), what_if: Iterable[str] = (),
           budget: float = 20.0) -> list[str]:
    """Write the report on ``pred`` to ``path`` (.html or .md): it re-predicts at other inputs
    and P within ``budget`` seconds, and with ``what_if`` applied. Returns the paths written."""
    from interp.analysis.scaling import studies
    from interp.output.report import check_output, write_report  # Matplotlib: on first use

    check_output(path)
    require_numbers(pred, "the report")  # before any re-prediction
    return write_report(pred, path, studies(pred, list(what_if), budget), at=tuple(at))


def saag(program: ProgramLike, machine: MachineLike, nprocs: int = 1,
         inputs: Mapping[str, object] | None = None, what_if: Iterable[str] = ()) -> SAAG:
    """The SAAG: each process's chain of AAUs, the communication edges between them, and the
    problems found (unmatched or mismatched calls, deadlocks)."""
    s = setup(program, machine, nprocs, inputs, what_if)
    return build_saag(s.aag, s.sag, s.nprocs, dict(s.given))


def prediction_interval(pred: Prediction) -> tuple[float | None, float | None]:
    """The prediction's time with every spec value at its min and at its max."""
    return intervals.interval(pred)


def compare(program: ProgramLike, machine: MachineLike, nprocs: int = 1,
            inputs: Mapping[str, object] | None = None, what_if: Iterable[str] = (),
            bound: str = "mid", *, routines=None, iterations=None) -> Comparison:
    """The baseline prediction versus the one with ``what_if`` applied, per component."""
    what_if = list(what_if)
    if not what_if:
        raise InterpError("nothing to compare: give at least one what-if",
                          hint="e.g. --what-if 'node.cs.dynamic.per_byte *= 0.5'")
    base = setup(program, machine, nprocs, inputs, (), bound, routines, iterations)
    new = setup(base.aag, machine, nprocs, inputs, what_if, bound, routines, iterations)
    from interp.analysis.compare import Comparison

    return Comparison.of(base.predict(symbolic=False), new.predict(symbolic=False), what_if)


def axes(vary: Mapping[str, object] | Iterable[str | Axis]) -> list[Axis]:
    """``{"N": "1e3..1e7:log:20", "P": [1, 2, 4]}``, ``["N=1e3..1e7:log:20", ...]`` or
    :class:`Axis` objects (from :func:`parse_vary`)."""
    from interp.analysis.sweep import Axis, parse_vary  # NumPy: on first use

    if isinstance(vary, Mapping):
        out = []
        for name, spec in vary.items():
            if isinstance(spec, str):
                out.append(parse_vary(f"{name}={spec}"))
            else:
                values = [float(input_value(name, v)) for v in spec]
                if not values:
                    raise InterpError(f"--vary {name}: the range is empty")
                out.append(parse_vary(f"{name}=" + ",".join(repr(v) for v in values)))
        return out
    return [v if isinstance(v, Axis) else parse_vary(v) for v in vary]


def _refuse_what_if(what_if: Iterable[str] | Scenario, names: Iterable[str],
                    by: str) -> Scenario:
    """The scenario, refused if it changes a name the command sets itself (P, an input it
    varies): the command would override it without a word."""
    scenario = what_if if isinstance(what_if, Scenario) else Scenario.from_texts(list(what_if))
    stmt = scenario.changing(names)
    if stmt is not None:
        raise InterpError(f"--what-if '{stmt}': {stmt.target} is set by {by}, which would "
                          "override the what-if", hint=f"drop the what-if, or change {by}")
    return scenario


def sweep(program: ProgramLike, machine: MachineLike, vary, nprocs: int = 1,
          inputs: Mapping[str, object] | None = None, what_if: Iterable[str] = (),
          bound: str = "mid", *, band: bool = False, routines=None, iterations=None,
          progress: ProgressFn | None = None, symbolic_p: bool = False,
          p_max: int | None = None) -> SweepResult:
    """Predictions over the product of the ranges in ``vary`` (``P`` may be one of them).
    ``band``: also the predictions with the spec's min and max values. ``symbolic_p``: derive
    the formula in P once (the varied inputs left symbolic) and take the times at the P values
    its verified domain covers from it (``SweepResult.saved`` counts them)."""
    from interp.analysis.sweep import formula_for, sweep as _sweep  # NumPy: on first use

    ax = axes(vary)
    given = {_input_name(k).split(".")[-1] for k in (inputs or {})}
    both = [a.name for a in ax if a.name.upper() in given]
    if both:
        raise InterpError(f"{', '.join(both)} is given twice: by --set and by --vary",
                          hint="--vary sets the values it sweeps: drop the --set")
    what_if = _refuse_what_if(what_if, [a.name for a in ax], "--vary")
    s = setup(program, machine, nprocs, inputs, what_if, bound, routines, iterations,
              any(a.name.upper() == "P" for a in ax))
    fp = formula_for(s, ax, p_max) if symbolic_p else None
    result = _sweep(s, ax, band=band, progress=progress, formula=fp)
    if fp is not None:
        result.interpretations += len(fp.per_p)
        result.notes.append(_formula_note(fp, result))
    return result


def _formula_note(fp, result: SweepResult) -> str:
    if fp.formula is None:
        return f"no formula in P: {fp.reason}; every P interpreted"
    return (f"formula in P ({fp.domain}; {len(fp.per_p)} interpretations to derive it) used "
            f"at {result.saved} of {len(result.nprocs)} P values")


def sensitivity(program: ProgramLike, machine: MachineLike, nprocs: int = 1,
                inputs: Mapping[str, object] | None = None, what_if: Iterable[str] = (),
                bound: str = "mid", *, step: float = STEP, routines=None,
                iterations=None) -> Sensitivity:
    """Elasticities ∂ln T/∂ln p of the predicted time, ranked by magnitude."""
    s = setup(program, machine, nprocs, inputs, what_if, bound, routines, iterations)
    return _sensitivity(s, step)


def formula_in_p(program: ProgramLike, machine: MachineLike,
                 inputs: Mapping[str, object] | None = None, what_if: Iterable[str] = (),
                 bound: str = "mid", *, p_max: int | None = None, routines=None,
                 iterations=None):
    """T(inputs, P) as one closed form, recovered from interpretations at P = 1, 2, 4, …,
    ``p_max`` (default 64) and verified at the three largest, which the fit did not use
    (:mod:`interp.analysis.formula_in_p`); or the reason there is none, with the times per P.
    ``inputs``: values used where a decision needs them and for the check of the time."""
    from interp.analysis.formula_in_p import formula_in_p as derive

    s = setup(program, machine, 1, inputs, what_if, bound, routines, iterations, True)
    return derive(s, p_max)


def scaling(program: ProgramLike, machine: MachineLike, vary: str | Axis,
            inputs: Mapping[str, object] | None = None, what_if: Iterable[str] = (),
            bound: str = "mid", *, p_max: int | None = None, verify_to: int | None = None,
            extrapolate: bool = False, isoefficiency: float | None = None,
            work: str | None = None, routines=None, iterations=None):
    """Time, speedup, efficiency and the P of best time over ``vary`` (``"P=4..65536:log2"``),
    from the formula in P where it is verified, by interpretation elsewhere, and at powers of
    two beyond its domain only with ``extrapolate`` (marked); with ``isoefficiency`` = E and
    ``work`` = an input, W(P) at that efficiency (:mod:`interp.analysis.scaling_in_p`)."""
    from interp.analysis.scaling_in_p import scaling as study
    from interp.analysis.sweep import Axis, parse_vary  # NumPy: on first use

    axis = vary if isinstance(vary, Axis) else parse_vary(vary)
    if axis.name != "P":
        raise InterpError(f"--vary {axis.name}: scaling varies P only",
                          hint="e.g. --vary P=4..65536:log2")
    if (isoefficiency is None) != (work is None):
        raise InterpError("the isoefficiency needs both an efficiency and the work input",
                          hint="e.g. --isoefficiency 0.7 --work N")
    what_if = _refuse_what_if(what_if, ["P"], "--vary")
    s = setup(program, machine, 1, inputs, what_if, bound, routines, iterations, True)
    iso = (isoefficiency, work) if isoefficiency is not None else None
    return study(s, axis.values, p_max, verify_to, extrapolate, iso)


def scalability(program: ProgramLike, machine: MachineLike, nprocs: Sequence[int], path: str,
                efficiency: float, kind: str = "algorithmic",
                inputs: Mapping[str, object] | None = None, what_if: Iterable[str] = (),
                bound: str = "mid", *, routines=None, iterations=None, t_min: int = 1,
                t_max: int | None = None):
    """Zhang and Xu's algorithmic (``kind="algorithmic"``: PRAM against MIRACLE) or
    combination (``"combination"``: the real machine against MIRACLE) scalability: for each P
    the size on ``path`` (``"N=t, M=20"``) where the efficiency reaches ``efficiency``, and
    the Scale table of the latencies there (:mod:`interp.analysis.scalability`)."""
    from interp.analysis.scalability import scalability as study
    from interp.analysis.sizepath import T_MAX, parse_path

    size = parse_path(path)
    what_if = _refuse_what_if(_refuse_what_if(what_if, ["P"], "-P"), size.names, "--path")
    s = setup(program, machine, 1, inputs, what_if, bound, routines, iterations, True)
    return study(s, size, list(nprocs), efficiency, kind, t_min, t_max or T_MAX)


def latency_metric(program: ProgramLike, machine: MachineLike, nprocs: Sequence[int],
                   scale: str, efficiency: float, inputs: Mapping[str, object] | None = None,
                   what_if: Iterable[str] = (), bound: str = "mid", *, work: str | None = None,
                   integral: int = 0, routines=None, iterations=None, t_min: int = 1,
                   t_max: int | None = None):
    """Zhang, Yan and He's latency metric: for each N (= P) the size W on ``scale`` (a path,
    ``"N"`` alone meaning ``"N=t"``) where E reaches ``efficiency``, the average latencies
    there (3.5, both methods), the E-conserved scale table (3.7), Theorem 2's
    ``(W/N)/(W'/N')`` with W = ``work``, isospeed sizes, and with ``integral`` = K the average
    over K efficiencies (3.8) (:mod:`interp.analysis.latency_metric`)."""
    from interp.analysis.latency_metric import latency_metric as study
    from interp.analysis.sizepath import T_MAX, parse_path

    path = parse_path(scale if "=" in scale else f"{scale}=t", "--scale")
    what_if = _refuse_what_if(_refuse_what_if(what_if, ["P"], "-P"), path.names, "--scale")
    s = setup(program, machine, 1, inputs, what_if, bound, routines, iterations, True)
    return study(s, path, list(nprocs), efficiency, work, integral, t_min, t_max or T_MAX)


__all__ = ["Machine", "Program", "Comparison", "Sensitivity", "SweepResult", "Axis",
           "compare", "formula_in_p", "latency_metric", "lost_cycles", "lost_cycles_smpi", "predict", "prediction_interval", "report", "saag", "scalability", "scaling", "sensitivity", "sweep", "setup",
           "parse_range", "parse_vary", "input_value"]


def profile(program: ProgramLike, nprocs: int = 1, inputs: Mapping[str, object] | None = None,
            machine: MachineLike = "ipsc860", *, timeout: float = 600.0) -> dict[str, Measured]:
    """Measure the program's data-dependent symbols (branch probabilities) by compiling it
    with coverage and running it once on ``nprocs`` processes (:mod:`interp.analysis.profile`).
    ``inputs`` serve the prediction that finds the symbols; the program runs as it is."""
    import tempfile
    from pathlib import Path

    from interp.analysis import profile as prof

    aag = as_aag(program)
    if any(getattr(a, "call", None) is not None and a.call.library == "nx2"
           for a in aag.all_aaus()):
        raise InterpError("interp profile cannot run NX/2 programs: no installed message-passing "
                          "library provides csend/crecv and the other NX/2 calls",
                          hint="give the branch probabilities with --set p_FILE_LINE=VALUE")
    mpi = any(getattr(a, "call", None) is not None and a.call.library == "mpi"
              for a in aag.all_aaus())
    with tempfile.TemporaryDirectory(prefix="interp-profile-") as tmp:
        # Built before the prediction: a missing routine is a link error in seconds, not
        # after a prediction of minutes (NPB CG at class W).
        exe = prof.build(aag.files, Path(tmp), mpi)
        pred = predict(aag, machine, nprocs, inputs, symbolic=False)
        if not pred.data:
            return {}
        prof.execute(exe, Path(tmp), nprocs, mpi, timeout)
        counts = prof.line_counts(Path(tmp))
    return prof.measure(pred.data, counts)


def lca(data: Iterable[str], variables: Sequence[str], categories: Sequence[str] = (),
        models: Sequence[str] = (), *, source: str | None = None, program: str | None = None,
        machine: str | None = None, by: str = "program", key: str | None = None,
        fix: Mapping[str, float] | None = None, at: Iterable[Mapping[str, float]] = (),
        crossover: tuple[str, str] | None = None):
    """Lost cycles analysis (Crovella and LeBlanc's ``lca``) of lost-cycles data files: each
    category fitted against ``variables`` with the paper's default models or ``models``
    (:mod:`interp.analysis.lca`); ``at`` points predicted, or two programs' ``crossover``."""
    from interp.analysis import lca as L
    from interp.analysis.lca_data import read

    sel = L.Selection(source, program, machine, by, key,
                      tuple((k.lower(), float(v)) for k, v in (fix or {}).items()))
    req = L.Request(tuple(v.lower() for v in variables), tuple(categories), tuple(models), sel,
                    tuple(tuple((k.lower(), float(v)) for k, v in p.items()) for p in at),
                    tuple(crossover) if crossover else None)
    return L.analyse(read(list(data)), req)
