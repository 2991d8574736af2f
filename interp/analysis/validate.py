"""Validation against SimGrid/SMPI (design principle 6): the same MPI source, run by SMPI on a
platform exported from the same spec, and predicted by interp.

For each program and P: compile once with ``smpiff``; export the platform and options for P
(:mod:`interp.system.simgrid`); run ``smpirun`` with ``smpi/simulate-computation:no``; predict
with interp on the same spec with every processing and memory cost set to 0
(:func:`interp.system.simgrid.zero_computation`). Both sides then time communication only.

**What is compared.** SMPI's simulated clock at the end of the run (``smpi/display-timing``:
the moment the last rank leaves MPI_FINALIZE) against interp's "time until the last process
finishes". Neither needs the program to time itself; a program's own MPI_WTIME would add
SMPI's per-call injection (``smpi/wtime``) and miss the ranks that end later than rank 0.

A program's own clock reads (MPI_WTIME, NPB's ``timer_read``) cost nothing on either side:
SMPI runs with ``smpi/wtime:0`` (its default injects 10 ns of simulated time per call) and
interp's ``dclock`` is a processing cost that :func:`zero_computation` sets to 0.

**A program of several files** (:class:`Program`), such as an NPB benchmark with its
``common/`` files: smpiff compiles each file on its own and links them; an INCLUDE is found in
the including file's folder on both sides, and ``mpif.h`` is SMPI's for smpiff and interp's
own for interp (a folder holding another ``mpif.h`` is refused: gfortran would take it).

**Relative error** = (interp − SMPI) / SMPI.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import tempfile
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from interp.errors import InterpError
from interp.system import SAG
from interp.system.mapping import max_procs
from interp.system.simgrid import export_simgrid, simgrid_semantics, zero_computation

INSTALL_HINT = ("install SimGrid's SMPI (it provides smpiff and smpirun) and the Fortran "
                "compiler smpiff calls: apt-get install -y libsimgrid-dev gfortran")
# smpi/iprobe: SMPI charges every MPI_IPROBE (and each poll of its MPI_PROBE loop) 100 us by
# default; interp's probe costs nothing of its own (0 here would make the loop spin for ever)
SMPI_OPTIONS = ["smpi/simulate-computation:no", "smpi/display-timing:yes", "smpi/wtime:0",
                "smpi/iprobe:1e-7"]
FFLAGS = ["-O0", "-fallow-argument-mismatch"]  # MPI buffers of any type, as F77 passes them
_SIMULATED = re.compile(r"Simulated time: ([0-9.eE+-]+) seconds")
# gfortran's end of file on a READ of unit 5 (stdin): "At line 30 of file X (unit = 5, ..."
_STDIN_READ = re.compile(r"At line (\d+) of file \S+ \(unit = 5, file = 'stdin'\)")
# a rank that ends in STOP (exit) is logged at its simulated time: "[node1:1:(2) 0.008418] ..."
_EXIT_AT = re.compile(r"^\[[^\]\s]*\s([0-9.eE+-]+)\] .*Process called exit", re.M)
_ACTOR_END = re.compile(r"\[node(\d+):\d+:\(\d+\) ([0-9.]+)\].*should not run anymore")


class SmpiMissing(InterpError):
    """smpiff/smpirun are not installed."""


class SmpiFailed(InterpError):
    """smpirun crashed on the program or ran past its time limit (a row of its own in
    :func:`validate`; what the user must change, such as input to read, stays an error)."""


def smpi_tools() -> tuple[str, str]:
    """Paths of smpiff and smpirun (gfortran must be there too), or SmpiMissing saying how
    to install them."""
    found = {name: shutil.which(name) for name in ("smpiff", "smpirun", "gfortran")}
    missing = [name for name, path in found.items() if path is None]
    if missing:
        raise SmpiMissing(f"{' and '.join(missing)} not found on PATH", hint=INSTALL_HINT)
    return found["smpiff"], found["smpirun"]  # gfortran: smpiff finds it itself


@dataclass
class SmpiRun:
    seconds: float
    wall: float  # seconds smpirun took
    rank_ends: dict[int, float] = field(default_factory=dict)  # when asked for


@dataclass
class Row:
    program: str
    machine: str
    nprocs: int
    smpi: float | None
    interp: float | None
    smpi_wall: float = 0.0
    interp_wall: float = 0.0
    skipped: str = ""  # why this P was not run

    @property
    def error(self) -> float | None:
        if self.smpi is None or self.interp is None or self.smpi == 0:
            return None
        return (self.interp - self.smpi) / self.smpi


@dataclass(frozen=True)
class Program:
    """One MPI program: the source files compiled and linked together (one PROGRAM among
    them), named in the table by ``name``."""

    name: str
    files: tuple[Path, ...]

    @classmethod
    def of(cls, files: Sequence[str | Path], name: str | None = None) -> Program:
        paths = tuple(Path(f) for f in files)
        if not paths:
            raise InterpError("no source files given", hint="name one or more Fortran files")
        return cls(name or _main_stem(paths), paths)


def _main_stem(paths: tuple[Path, ...]) -> str:
    """The stem of the file holding the PROGRAM statement (the first file when none says so)."""
    program = re.compile(r"^[ \t]{6,}program\b", re.I | re.M)
    for path in paths:
        try:
            if program.search(path.read_text(errors="replace")):
                return path.stem
        except OSError:
            break  # the build says which file is missing
    return paths[0].stem


def each_file(files: Sequence[str | Path]) -> list[Program]:
    """Every file a program of its own (``interp validate`` without ``--one-program``)."""
    return [Program.of([f]) for f in files]


def _foreign_mpif(paths: Sequence[Path]) -> Path | None:
    for folder in dict.fromkeys(p.resolve().parent for p in paths):
        for candidate in folder.iterdir():
            if candidate.name.lower() == "mpif.h":
                return candidate
    return None


def compile_program(sources: Path | Sequence[Path], workdir: Path, name: str | None = None,
                    flags: Sequence[str] = FFLAGS,
                    rewritten: dict[Path, str] | None = None) -> Path:
    """Build one program with smpiff: each source on its own (``-c``; given several files at
    once, smpiff appends the later ones to its rewritten copy of the main program's, which then
    defines everything twice), then linked. Each file compiles in its own folder, so an INCLUDE
    is found where interp finds it; smpiff writes its copy of the main program's file there.
    ``rewritten``: files (sources or INCLUDEs) to compile with another text (``--set`` of a
    PARAMETER): the folders of the sources and of those files are copied under ``workdir``
    first, the originals left as they are."""
    paths = [Path(sources)] if isinstance(sources, (str, Path)) else [Path(p) for p in sources]
    name = name or _main_stem(tuple(paths))
    missing = [str(p) for p in paths if not p.is_file()]
    if missing:
        raise InterpError(f"{', '.join(missing)}: no such file", hint="check the file names")
    foreign = _foreign_mpif(paths)
    if foreign is not None:
        raise InterpError(f"{foreign}: this folder has its own mpif.h, which gfortran would "
                          "include instead of SMPI's",
                          hint="rename or move it (interp uses its own mpif.h in any case)")
    if rewritten:
        paths = _copied(paths, rewritten, workdir / f"{name}.sources")
    smpiff, _ = smpi_tools()
    build = workdir / f"{name}.build"
    build.mkdir(parents=True, exist_ok=True)
    objects = []
    for k, src in enumerate(paths):
        obj = build / f"{k}_{src.stem}.o"
        _smpiff([smpiff, *flags, "-c", "-o", str(obj.resolve()), src.resolve().name],
                src.resolve().parent, f"compile {src}")
        objects.append(str(obj.resolve()))
    exe = workdir / name
    _smpiff([smpiff, *flags, "-o", str(exe.resolve()), *objects], workdir,
            f"link {name} ({len(paths)} files)")
    return exe


def _copied(paths: list[Path], rewritten: dict[Path, str], into: Path) -> list[Path]:
    """The sources' and the rewritten files' folders copied under ``into`` (each at its
    absolute path, so an INCLUDE of a sibling folder's file, ``../common/x.h``, still finds
    it if that folder is copied too), the rewritten files' new text written over: the paths
    of the sources' copies."""
    def copy(path: Path) -> Path:
        return into / path.resolve().relative_to(path.resolve().anchor)

    for folder in dict.fromkeys(p.resolve().parent for p in [*paths, *rewritten]):
        target = copy(folder / "x").parent
        target.mkdir(parents=True, exist_ok=True)
        for f in folder.iterdir():
            if f.is_file():
                shutil.copy2(f, target / f.name)
    for path, text in rewritten.items():
        copy(path).write_text(text)
    return [copy(p) for p in paths]


def with_parameters_text(aag, values: dict[str, int | float]) -> dict[Path, str]:
    """The text of each file defining a PARAMETER of ``values`` with the value replaced (the
    ``NAME = expression`` of its PARAMETER statement), for the SMPI build of ``validate
    --set``: the same program interp rebuilds (``with_parameters``). An InterpError when the
    statement cannot be rewritten safely (the expression continues on the next line, or the
    line would pass column 72)."""
    from interp.application.aag import parameters_of

    params = parameters_of(aag)
    sites = {}  # (file, line, column) -> name: a PARAMETER in an INCLUDE is defined once
    for u in aag.units.values():
        for name, sym in u.symbols.symbols.items():
            if name in values and sym.kind == "parameter" and sym.loc is not None:
                sites[(sym.loc.file, sym.loc.line, sym.loc.column)] = name
    texts: dict[Path, list[str]] = {}
    # (right to left along a line: a longer value moves the columns after it)
    for (file, line, column), name in sorted(sites.items(), key=lambda x: (*x[0][:2], -x[0][2])):
        lines = texts.setdefault(Path(file), Path(file).read_text(errors="replace").splitlines(True))
        text = lines[line - 1]
        new = rewritten_line(text, column, name, values[name], params[name].type)
        if new is None:
            raise InterpError(
                f"--set {name}: validate cannot rewrite the PARAMETER at {file}:{line}:{column} "
                "for the SMPI build (its value goes on past this line, or the line would pass "
                "column 72)", hint=f"put {name} = value on one short line of its PARAMETER "
                                   "statement, or change it in a copy of the source")
        lines[line - 1] = new
    return {path: "".join(lines) for path, lines in texts.items()}


def rewritten_line(text: str, column: int, name: str, value, ftype: str) -> str | None:
    """``text`` with the expression after ``NAME =`` (from ``column``, 1-based) up to the
    next comma or closing parenthesis at its level replaced by ``value``; None when that
    end is not on this line or the line gets longer than 72 columns."""
    start = column - 1
    if text[start:start + len(name)].upper() != name:
        return None
    m = re.match(r"\s*=\s*", text[start + len(name):])
    if m is None:
        return None
    begin = start + len(name) + m.end()
    depth, end = 0, None
    for i in range(begin, len(text.rstrip("\n"))):
        c = text[i]
        if c == "(":
            depth += 1
        elif c in ",)" and depth == 0:
            end = i
            break
        elif c == ")":
            depth -= 1
        elif c == "!":
            break
    if end is None:
        return None
    if ftype == "INTEGER":
        literal = str(int(value))
    else:
        literal = repr(float(value)).replace("e", "D" if ftype == "DOUBLE" else "E")
        literal += "D0" if ftype == "DOUBLE" and "D" not in literal else ""
    out = text[:begin] + literal + text[end:]
    return out if len(out.rstrip()) <= 72 else None  # (past 72: gfortran drops it, silently)


def validate_inputs(aag, given: dict) -> tuple[object, dict, dict[Path, str], list[str]]:
    """``validate --set``: a PARAMETER's value goes to both sides (interp's program rebuilt,
    SMPI's built from rewritten sources: :func:`with_parameters_text`); a data-dependent
    symbol (a branch probability, a trip count) to interp's model only, SMPI running the
    program's own decisions. Any other variable is refused: SMPI runs the program as written,
    where the variable's value is the program's own (assigned, READ), so the two would not run
    the same program. Returns interp's program, its inputs, the rewritten texts and notes."""
    from interp.engine.datadep import NAME as DATA_NAME
    from interp.engine.predict import check_given, parameters_set

    if not given:
        return aag, {}, {}, []
    rebuilt, rest, chosen, notes = parameters_set(aag, given)
    for key in rest:
        if not DATA_NAME.match(key):
            raise InterpError(
                f"--set {key}: validate gives values to PARAMETER constants only: SMPI runs the "
                f"program as it is written, where {key.split('(')[0]} gets its value from the "
                "program itself (an assignment or a READ), so interp and SMPI would not run the "
                "same program",
                hint=f"make {key.split('(')[0]} a PARAMETER (validate then rewrites it for "
                     "SMPI too), or assign the value in a copy of the source")
    check_given(rebuilt, rest)
    texts = with_parameters_text(aag, {k.split(".")[-1]: (int(v) if v.is_Integer else float(v))
                                       for k, v in chosen.items()})
    return rebuilt, rest, texts, notes


def _smpiff(cmd: list[str], cwd: Path, what: str) -> None:
    proc = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True)
    if proc.returncode != 0:
        raise InterpError(f"smpiff could not {what}:\n{proc.stdout}{proc.stderr}".rstrip())


def run_smpi(exe: Path, sag: SAG, nprocs: int, workdir: Path, *, rank_ends: bool = False,
             timeout: float = 600.0, model: str = "mpi", extra: Sequence[str] = (),
             stdin: str | None = None, sizes: Iterable[int] = ()) -> SmpiRun:
    """Run ``exe`` on ``nprocs`` ranks of the platform exported from ``sag``; ``extra``: more
    smpirun options (e.g. tracing); ``stdin``: the program's standard input (unit 5);
    ``sizes``: the program's message sizes, priced exactly (:func:`export_simgrid`)."""
    _, smpirun = smpi_tools()
    export = export_simgrid(sag, nprocs, model=model, sizes=sizes)
    files = export.write(workdir / f"{sag.name}{nprocs}.xml")
    cmd = [smpirun, "-np", str(nprocs), "-platform", str(files["platform"]), "-hostfile",
           str(files["hostfile"]), *export.cfg_args(), *(f"--cfg={o}" for o in SMPI_OPTIONS),
           "--log=root.thres:warning", "--log=smpi_utils.thres:info"]
    if rank_ends:
        cmd.append("--log=ker_actor.thres:debug")
    cmd += [*extra, str(exe)]
    start = time.perf_counter()
    try:
        proc = subprocess.run(cmd, cwd=workdir, capture_output=True, text=True, timeout=timeout,
                              input=stdin if stdin is not None else "")
    except subprocess.TimeoutExpired:
        raise SmpiFailed(f"smpirun ran {exe.name} on {nprocs} ranks for more than {timeout:.0f} s") from None
    wall = time.perf_counter() - start
    out = proc.stdout + proc.stderr
    m = _SIMULATED.search(out)
    exits = [float(t) for t in _EXIT_AT.findall(out)]
    if proc.returncode == 0 and m is None and exits:  # STOP after MPI_FINALIZE: SimGrid
        ends = {int(r): float(t) for r, t in _ACTOR_END.findall(out)} if rank_ends else {}
        return SmpiRun(max(exits), wall, ends)  # prints no total, but each exit's time
    stdin = _STDIN_READ.search(out)
    if stdin:  # smpirun gives the ranks no input: say so, not "smpirun failed"
        raise InterpError(f"{exe.name} READs standard input at line {stdin.group(1)}, and "
                          "validate runs it under SMPI with no input to read",
                          hint="validate a copy whose READ of the inputs is replaced by "
                               "assignments of the values (e.g. N = 1000000)")
    if proc.returncode != 0 or m is None:
        # (smpirun echoes its whole command line when a rank dies: not worth repeating)
        tail = "\n".join([ln for ln in out.strip().splitlines() if "--cfg=" not in ln][-15:])
        raise SmpiFailed(f"smpirun failed on {exe.name} with {nprocs} ranks (exit "
                          f"{proc.returncode}):\n{tail}")
    ends = {int(r): float(t) for r, t in _ACTOR_END.findall(out)} if rank_ends else {}
    return SmpiRun(float(m.group(1)), wall, ends)


def predict_communication(aag, sag: SAG, nprocs: int, given: dict | None = None):
    """interp's prediction with computation switched off and SMPI's semantics where the spec
    chooses otherwise (:func:`interp.system.simgrid.simgrid_semantics`)."""
    from interp.engine.predict import predict

    return predict(aag, zero_computation(simgrid_semantics(sag)[0]), nprocs, dict(given or {}))


def _first_line(err: InterpError) -> str:
    """One line for a table cell: a hang names its first blocked call."""
    lines = [ln.strip() for ln in err.message.splitlines() if ln.strip()]
    if len(lines) > 1 and lines[0].endswith(":"):
        return f"{lines[0]} {lines[1]}"
    return lines[0] if lines else err.message


def validate(programs: Sequence[Program | str], nprocs_list: list[int], machine: SAG, *,
             progress=None, workdir: Path | None = None, model: str = "mpi",
             timeout: float = 600.0, flags: Sequence[str] = FFLAGS,
             given: dict | None = None) -> list[Row]:
    """Every program at every P (a file name is a program of its own); a P the machine cannot
    hold becomes a skipped row. ``given``: ``--set`` values (:func:`validate_inputs`)."""
    from interp.application.aag import build_aag

    smpi_tools()
    rows: list[Row] = []
    limit = max_procs(machine)
    with tempfile.TemporaryDirectory(prefix="interp-validate-") as tmp:
        base = Path(workdir or tmp)
        for program in programs:
            if not isinstance(program, Program):
                program = Program.of([program])
            name = program.name
            aag = build_aag([str(f) for f in program.files])  # first: the cheaper to fail
            aag, inputs, texts, _ = validate_inputs(aag, given or {})
            exe = compile_program(program.files, base, name, flags, texts)
            for p in nprocs_list:
                if p > limit:
                    rows.append(Row(name, machine.name, p, None, None,
                                    skipped=f"{machine.name} has {limit} nodes"))
                    continue
                t0 = time.perf_counter()
                try:
                    pred = predict_communication(aag, machine, p, inputs)
                except InterpError as err:  # e.g. a hang: say so in the table, go on
                    rows.append(Row(name, machine.name, p, None, None,
                                    skipped="interp: " + _first_line(err)))
                    continue
                t_interp = time.perf_counter() - t0
                try:
                    run = run_smpi(exe, machine, p, base, model=model, timeout=timeout,
                                   sizes=pred.scheduler.msgs.sizes())
                except SmpiFailed as err:  # SMPI crashed or ran too long: its row says so
                    rows.append(Row(name, machine.name, p, None, pred.seconds,
                                    skipped="SMPI: " + _first_line(err)))
                    continue
                row = Row(name, machine.name, p, run.seconds, pred.seconds, run.wall, t_interp)
                rows.append(row)
                if progress:
                    progress(row)
    return rows


def worst(rows: list[Row]) -> Row | None:
    done = [r for r in rows if r.error is not None]
    return max(done, key=lambda r: abs(r.error)) if done else None


def breakdown(program: Program | str, row: Row, machine: SAG, workdir: Path | None = None,
              model: str = "mpi", given: dict | None = None) -> list[dict]:
    """Per rank: interp's finish and categories beside the time SMPI's rank ended."""
    from interp.application.aag import build_aag

    if not isinstance(program, Program):
        program = Program.of([program])
    aag, inputs, texts, _ = validate_inputs(build_aag([str(f) for f in program.files]),
                                            given or {})
    pred = predict_communication(aag, machine, row.nprocs, inputs)
    with tempfile.TemporaryDirectory(prefix="interp-validate-") as tmp:
        base = Path(workdir or tmp)
        exe = compile_program(program.files, base, program.name, rewritten=texts)
        run = run_smpi(exe, machine, row.nprocs, base, rank_ends=True, model=model,
                       sizes=pred.scheduler.msgs.sizes())
    out = []
    for r in pred.process_rows():
        smpi_end = run.rank_ends.get(r["pid"])
        out.append({"rank": r["pid"], "interp_finish": float(r["finish"]), "smpi_finish": smpi_end,
                    "call": float(r["call"]), "transmission": float(r["transmission"]),
                    "waiting": float(r["waiting"])})
    return out


def _us(x: float | None) -> str:
    return "-" if x is None else f"{x * 1e6:,.1f}"


def table(rows: list[Row]) -> str:
    """The validation table as Markdown (times in microseconds)."""
    lines = ["| program | machine | P | SMPI [us] | interp [us] | error |",
             "|---|---|---:|---:|---:|---:|"]
    for r in rows:
        err = "-" if r.error is None else f"{r.error * 100:+.2f}%"
        if r.skipped:
            err = f"({r.skipped})"
        lines.append(f"| {r.program} | {r.machine} | {r.nprocs} | {_us(r.smpi)} | "
                     f"{_us(r.interp)} | {err} |")
    return "\n".join(lines)


def breakdown_table(parts: list[dict]) -> str:
    lines = ["| rank | SMPI end [us] | interp end [us] | difference [us] | interp call | "
             "interp transmission | interp waiting |",
             "|---:|---:|---:|---:|---:|---:|---:|"]
    for b in parts:
        diff = None if b["smpi_finish"] is None else b["interp_finish"] - b["smpi_finish"]
        lines.append(f"| {b['rank']} | {_us(b['smpi_finish'])} | {_us(b['interp_finish'])} | "
                     f"{_us(diff)} | {_us(b['call'])} | {_us(b['transmission'])} | "
                     f"{_us(b['waiting'])} |")
    return "\n".join(lines)
