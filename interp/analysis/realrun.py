"""``interp run``: build and run an MPI program for real, with segment timers, and record the
run in a runs file (the ground truth of seed 000's semi-empirical prediction).

**Segments** (seed 000, §1 step 1): the program is cut at the AAU boundaries interp already
knows. In the main PROGRAM unit, between its MPI_INIT and MPI_FINALIZE, every top-level AAU
is a segment; a top-level loop that communicates is cut further, each AAU of its body being
a segment and the loop's own control (the DO and its ENDDO) another. The timers are calls
``CALL INTPTM(k)`` inserted in a *copy* of the source in a scratch folder, each before the
first line of its segment: a call adds the time since the previous call to the segment that
was running and makes segment k the running one, so the segments partition the timed span
and a loop's iterations add up. ``CALL INTPTM(-1)`` before MPI_FINALIZE writes each rank's
times (``interp_times.<rank>``). The user's files are never written.

**Inputs** (``--set NAME=V``): a PARAMETER constant of the main file is rewritten in the copy,
else one of a file it INCLUDEs (NPB's ``npbparams.h``: the rewritten file goes in a scratch
folder searched first); a value the program READs from unit 5 is written to the run's standard input, one line per
READ statement in source order (mpirun gives standard input to rank 0).

**The runs file** (CSV, one row per run; :data:`COLUMNS`, then one ``seg_L<line>`` column per
segment of the main file, holding each rank's seconds in that segment as ``r0;r1;…``):

- ``program`` (the main file's stem), ``files`` (``;``-separated), ``P``, ``inputs``
  (``NAME=V;…`` as given), ``opt`` (the -O level), ``cores`` (this machine's),
  ``oversubscribed`` (1 when P > cores), ``run`` (0.. within one ``--repeat``), ``started``
  (ISO time); ``load`` (the machine's 1-minute load average when the run started: on a
  shared machine, other work on the cores the ranks need);
- ``wall_seconds``: mpirun's wall time, start-up included;
- ``timed_seconds``: the longest rank's span from its first timer to MPI_FINALIZE;
- ``proc_seconds``: each rank's span, ``r0;r1;…``.
"""

from __future__ import annotations

import csv
import os
import re
import shutil
import tempfile
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path

from interp.analysis import profile as prof
from interp.application import aau as A
from interp.application.aag import AAG
from interp.errors import InterpError

WHO = "interp run"
COLUMNS = ["program", "files", "P", "inputs", "opt", "cores", "oversubscribed", "run",
           "started", "load", "wall_seconds", "timed_seconds", "proc_seconds"]
SEGMENT_PREFIX = "seg_L"
TIMES_FILE = "interp_times."
_INIT = re.compile(r"^[ \t0-9]{6}.*\bCALL\s+MPI_INIT\s*\(", re.I)
_FINALIZE = re.compile(r"^[ \t0-9]{6}.*\bCALL\s+MPI_FINALIZE\s*\(", re.I)
_LOOP_END = re.compile(r"^[ \t0-9]{5} \s*(END\s*DO|CONTINUE)\s*$", re.I)


@dataclass(frozen=True)
class Segment:
    """One timed segment: an AAU of the main unit (``key`` ``L<line>``), or a loop's own
    control (``kind`` ``loop``), timed from the line ``at``."""

    key: str
    aau_id: int
    type: str
    line: int
    end_line: int
    within: str | None = None  # the key of the communicating loop it is cut from

    @property
    def column(self) -> str:
        return SEGMENT_PREFIX + self.key[1:]


@dataclass(frozen=True)
class Mark:
    line: int  # the timer call goes before this line (1-based)
    segment: int  # 1-based index into the segments; -1: the end


@dataclass
class Plan:
    """Where the timers go in the main file."""

    main: Path
    segments: list[Segment]
    marks: list[Mark]


@dataclass
class Run:
    """One real run: its settings and what it measured."""

    program: str
    files: list[str]
    nprocs: int
    inputs: dict[str, str]
    opt: str
    cores: int
    run: int
    started: str
    wall: float
    procs: list[float]  # each rank's timed span
    segments: dict[str, list[float]] = field(default_factory=dict)  # column → per rank
    load: float = 0.0  # 1-minute load average at the start

    @property
    def oversubscribed(self) -> bool:
        return self.nprocs > self.cores

    @property
    def timed(self) -> float:
        return max(self.procs) if self.procs else 0.0

    def row(self) -> dict[str, str]:
        out = {"program": self.program, "files": ";".join(self.files), "P": str(self.nprocs),
               "inputs": ";".join(f"{k}={v}" for k, v in self.inputs.items()),
               "opt": self.opt, "cores": str(self.cores),
               "oversubscribed": "1" if self.oversubscribed else "0", "run": str(self.run),
               "started": self.started, "load": f"{self.load:.2f}", "wall_seconds": f"{self.wall:.6f}",
               "timed_seconds": f"{self.timed:.9f}",
               "proc_seconds": ";".join(f"{t:.9f}" for t in self.procs)}
        out.update({k: ";".join(f"{t:.9g}" for t in v) for k, v in self.segments.items()})
        return out


# --- where the timers go ----------------------------------------------------------------------


def main_unit(aag: AAG):
    programs = aag.programs()
    if len(programs) != 1:
        raise InterpError(f"{WHO}: expected one PROGRAM among the files, found {len(programs)}",
                          hint="give the files of one program")
    return programs[0]


def plan(aag: AAG) -> Plan:
    """The segments of the main unit and the lines their timers go before."""
    unit = main_unit(aag)
    main = Path(unit.file)
    lines = main.read_text(errors="replace").splitlines()
    first = min((a.loc.line for a in unit.aaus), default=1)
    last = max((a.end_line for a in unit.aaus), default=len(lines))
    init = _find(lines, _INIT, first, last)
    fin = _find(lines, _FINALIZE, first, last)
    if init is None or fin is None:
        raise InterpError(f"{main}: {WHO} times the main program between its CALL MPI_INIT and "
                          "CALL MPI_FINALIZE, and found "
                          + ("neither" if init is None and fin is None else
                             "no MPI_INIT" if init is None else "no MPI_FINALIZE"),
                          hint="call both in the main program")
    after_init = _next_statement(lines, init)
    segments: list[Segment] = []
    marks: list[Mark] = []

    def add(a: A.AAU, at: int, within: str | None = None, kind: str | None = None) -> None:
        if at >= fin or a.end_line < after_init:
            return
        segments.append(Segment(f"L{a.loc.line}" + ("c" if kind == "loop" else ""), a.id,
                                kind or a.type, a.loc.line, a.end_line, within))
        marks.append(Mark(max(at, after_init), len(segments)))

    for a in unit.aaus:
        if a.type in ("Start", "End"):
            continue
        add(a, a.loc.line)
        if isinstance(a, A.Iter) and a.has_sync() and a.loc.line >= after_init:
            loop = segments[-1].key
            for child in a.children:
                add(child, child.loc.line, loop)
            if _LOOP_END.match(lines[a.end_line - 1]) and a.end_line < fin:
                add(a, a.end_line, loop, "loop")
    marks.append(Mark(fin, -1))
    seen: set[int] = set()
    unique = []
    for m in marks:  # two segments starting on one line: the later one times it
        if m.line in seen:
            unique = [u for u in unique if u.line != m.line]
        seen.add(m.line)
        unique.append(m)
    return Plan(main, segments, sorted(unique, key=lambda m: m.line))


def _find(lines: list[str], pattern: re.Pattern, first: int, last: int) -> int | None:
    for n in range(first, min(last, len(lines)) + 1):
        if pattern.match(lines[n - 1]):
            return n
    return None


def _next_statement(lines: list[str], line: int) -> int:
    """The first line after the statement starting at ``line`` (past its continuations)."""
    n = line + 1
    while n <= len(lines):
        text = lines[n - 1]
        if text[:1] in ("c", "C", "*", "!") or not text.strip():
            n += 1
            continue
        if len(text) > 5 and text[5] not in (" ", "0"):
            n += 1
            continue
        break
    return n


def instrument(source: str, marks: Sequence[Mark]) -> str:
    """``source`` with ``CALL INTPTM(k)`` before each mark's line."""
    at = {m.line: m.segment for m in marks}
    out = []
    for n, text in enumerate(source.splitlines(), start=1):
        if n in at:
            out.append(f"      CALL INTPTM({at[n]})")
        out.append(text)
    return "\n".join(out) + "\n"


def timer_source(nseg: int) -> str:
    """The timer routine: MPI_WTIME at each call, per-segment sums and counts, and at the end
    (k = -1) one file per rank: ``k count seconds`` lines, then ``0 1 span``."""
    n = max(nseg, 1)
    return f"""      SUBROUTINE INTPTM(K)
      INCLUDE 'mpif.h'
      INTEGER K, NSEG, I, ME, IERR
      PARAMETER (NSEG = {n})
      DOUBLE PRECISION ACC(NSEG), T0, TLAST, TNOW
      INTEGER CNT(NSEG), ICUR
      CHARACTER*40 FNAME
      SAVE ACC, CNT, T0, TLAST, ICUR
      DATA ICUR /0/
      TNOW = MPI_WTIME()
      IF (ICUR .EQ. 0) THEN
         DO 10 I = 1, NSEG
            ACC(I) = 0.0D0
            CNT(I) = 0
   10    CONTINUE
         T0 = TNOW
      ELSE
         ACC(ICUR) = ACC(ICUR) + (TNOW - TLAST)
      END IF
      TLAST = TNOW
      IF (K .GT. 0) THEN
         CNT(K) = CNT(K) + 1
         ICUR = K
         RETURN
      END IF
      CALL MPI_COMM_RANK(MPI_COMM_WORLD, ME, IERR)
      WRITE (FNAME, '(A,I6.6)') '{TIMES_FILE}', ME
      OPEN (UNIT=987, FILE=FNAME, STATUS='UNKNOWN')
      DO 20 I = 1, NSEG
         WRITE (987, '(I8,1X,I14,1X,ES24.16)') I, CNT(I), ACC(I)
   20 CONTINUE
      WRITE (987, '(I8,1X,I14,1X,ES24.16)') 0, 1, TNOW - T0
      CLOSE (987)
      ICUR = -1
      RETURN
      END
"""


# --- inputs -----------------------------------------------------------------------------------


def set_parameters(source: str, values: Mapping[str, str]) -> tuple[str, set[str]]:
    """``source`` with each PARAMETER constant named in ``values`` given that value; the
    names it set."""
    lines = source.splitlines()
    done: set[str] = set()
    in_param = False
    for i, text in enumerate(lines):
        comment = text[:1] in ("c", "C", "*", "!")
        continuation = len(text) > 5 and text[5] not in (" ", "0") and not comment
        if comment:
            continue
        if not continuation:
            in_param = bool(re.match(r"^[ \t0-9]{6}\s*PARAMETER\s*\(", text, re.I))
        if not in_param:
            continue
        for name, value in values.items():
            pattern = re.compile(rf"(?<![A-Za-z0-9_$])({re.escape(name)}\s*=\s*)"
                                 r"([^,()]+(?:\([^()]*\)[^,()]*)*)", re.I)
            new, k = pattern.subn(lambda m, v=value: m.group(1) + v, text[6:])
            if k:
                text = text[:6] + new
                done.add(name.upper())
        lines[i] = text
    return "\n".join(lines) + "\n", done


def stdin_text(aag: AAG, values: Mapping[str, str]) -> tuple[str, set[str]]:
    """Standard input for the values the main unit READs: one line per READ statement, its
    items in order; the names it covers. A READ input not given is an error."""
    unit = main_unit(aag)
    lines = Path(unit.file).read_text(errors="replace").splitlines()
    reads: dict[int, list[str]] = {}
    for e in aag.external_inputs:
        if e.how != "read" or e.unit != unit.name:
            continue
        for loc in e.locations:
            if _STDIN_READ.match(lines[loc.line - 1]):  # (not a file's: MG's mg.input)
                reads.setdefault(loc.line, []).append(e.name)
    if not reads:
        return "", set()
    missing = sorted({n for names in reads.values() for n in names} - set(values))
    if missing:
        raise InterpError(f"{WHO}: the program READs {', '.join(missing)} from standard input",
                          hint="give " + " ".join(f"--set {n}=VALUE" for n in missing))
    out = []
    for line in sorted(reads):
        text = lines[line - 1].upper()
        items = text[text.find(")") + 1:] if ")" in text else text
        names = sorted(set(reads[line]), key=lambda n: _position(items, n))
        out.append(" ".join(values[n] for n in names))
    return "\n".join(out) + "\n", {n for names in reads.values() for n in names}


# READ (5,…), READ (*,…), READ (UNIT=5…), READ fmt, list: standard input
_STDIN_READ = re.compile(r"^[ \t0-9]{6}.*\bREAD\s*(\(\s*(UNIT\s*=\s*)?(5|\*)\s*[,)]|[*0-9'\"])",
                         re.I)


def _position(text: str, name: str) -> int:
    m = re.search(rf"(?<![A-Z0-9_$]){re.escape(name)}(?![A-Z0-9_$])", text)
    return m.start() if m else len(text)


_INCLUDE = re.compile(r"^[ \t0-9]{6}\s*INCLUDE\s*['\"]([^'\"]+)['\"]", re.I)


def included_files(files: Sequence[str | Path], dirs: Sequence[str | Path] = ()) -> list[Path]:
    """The files the sources INCLUDE (and those include), each found beside its includer or
    in ``dirs``, as the compiler searches; a name found nowhere (``mpif.h``: the compiler's
    own) is left out."""
    out: list[Path] = []
    todo = [Path(f) for f in files]
    seen: set[Path] = set()
    while todo:
        src = todo.pop(0)
        try:
            lines = src.read_text(errors="replace").splitlines()
        except OSError:
            continue
        for text in lines:
            m = _INCLUDE.match(text)
            if not m:
                continue
            for folder in (src.parent, *map(Path, dirs)):
                found = (folder / m.group(1)).resolve()
                if found.is_file():
                    if found not in seen:
                        seen.add(found)
                        out.append(found)
                        todo.append(found)
                    break
    return out


def set_in_includes(files: Sequence[str | Path], values: Mapping[str, str],
                    dirs: Sequence[str | Path] = ()) -> tuple[dict[Path, str], set[str]]:
    """Every included file (file → text), those that define a PARAMETER named in ``values``
    (NPB's ``npbparams.h``) with it set; the names it set. All of them, not only the rewritten
    ones: an include found beside its includer (``globals.h`` including ``npbparams.h``)
    must be a copy too, or it would find the original beside it."""
    out: dict[Path, str] = {}
    done: set[str] = set()
    for inc in included_files(files, dirs):
        text, names = set_parameters(inc.read_text(errors="replace"), values)
        out.setdefault(inc, text)
        done |= names
    return out, done


def inputs_of(aag: AAG, values: Mapping[str, str],
              dirs: Sequence[str | Path] = ()) -> tuple[dict[Path, str], dict[Path, str], str]:
    """The sources to compile (path → text; the main file with its PARAMETERs set), the
    included files with PARAMETERs set (the original's path → text), and the standard input,
    from ``values`` (NAME → the number's text as given). A name is set in the main file if
    it has that PARAMETER, else in every included file that has it."""
    values = {k.upper(): v for k, v in values.items()}
    unit = main_unit(aag)
    main = Path(unit.file)
    text, by_param = set_parameters(main.read_text(errors="replace"), values)
    rest = {k: v for k, v in values.items() if k not in by_param}
    includes, by_include = set_in_includes(aag.files, rest, dirs)
    if not by_include:
        includes = {}
    stdin, by_read = stdin_text(aag, {k: v for k, v in rest.items() if k not in by_include})
    unknown = sorted(set(values) - by_param - by_include - by_read)
    if unknown:
        raise InterpError(f"{WHO}: cannot set {', '.join(unknown)}: {main} and the files it "
                          "INCLUDEs have no PARAMETER of that name, and the program does not "
                          "READ it from standard input",
                          hint="set a PARAMETER constant of the main file or of a file it "
                               "includes (npbparams.h), or a value it READs from unit 5 "
                               "(`interp graph FILES` lists the program's inputs)")
    return {main: text}, includes, stdin


# --- build and run ----------------------------------------------------------------------------


def is_mpi(aag: AAG) -> bool:
    return any(getattr(a, "call", None) is not None and a.call.library == "mpi"
               for a in aag.all_aaus())


def build(aag: AAG, workdir: Path, values: Mapping[str, str], opt: str,
          include_dirs: Sequence[str] = ()) -> tuple[Path, Plan, str]:
    """Copy the sources into ``workdir`` with inputs set and timers inserted, and compile them
    with mpif77 at ``-O<opt>``: the executable, the timer plan and the standard input."""
    if not is_mpi(aag):
        raise InterpError(f"{WHO} runs MPI programs (mpirun), and these files call no MPI routine",
                          hint="give an MPI program, e.g. programs/mpi_trapezoid/trap_mpi.f")
    p = plan(aag)
    folders = [str(Path(f).resolve().parent) for f in aag.files]
    texts, includes, stdin = inputs_of(aag, values, [*folders, *include_dirs])
    # the rewritten included files go in a folder searched before the sources' own (the
    # copies' folders hold only the copies): the user's include files are never written
    inc = workdir / "include"
    inc.mkdir(exist_ok=True)
    for path, text in includes.items():
        if not (inc / path.name).exists():  # (two of one name: the first found, as searched)
            (inc / path.name).write_text(text)
    copies = []
    for k, f in enumerate(aag.files):
        src = Path(f)
        text = texts.get(src, None)
        if src.resolve() == p.main.resolve():
            text = instrument(texts[p.main], p.marks)
        dest = workdir / f"src{k}" / src.name
        dest.parent.mkdir(parents=True, exist_ok=True)
        if text is None:
            shutil.copyfile(src, dest)
        else:
            dest.write_text(text)
        copies.append(str(dest))
    timers = workdir / "interp_timers.f"
    timers.write_text(timer_source(len(p.segments)))
    flags = [f"-O{opt}", "-std=legacy", "-fallow-argument-mismatch", "-w"]
    exe = prof.build([*copies, str(timers)], workdir, True, flags, (f"-O{opt}",),
                     (str(inc), *folders, *include_dirs), who=WHO)
    return exe, p, stdin


def execute(exe: Path, workdir: Path, nprocs: int, stdin: str, timeout: float) -> float:
    """Run the program on ``nprocs`` ranks in ``workdir``: mpirun's wall seconds."""
    runner = shutil.which("mpirun")
    if runner is None:
        raise InterpError(f"{WHO} needs mpirun to run the program",
                          hint="install it: apt-get install -y openmpi-bin libopenmpi-dev")
    for old in workdir.glob(TIMES_FILE + "*"):
        old.unlink()
    command = [runner, "--oversubscribe", "-np", str(nprocs), str(exe)]
    start = time.perf_counter()
    prof._run(command, workdir, f"running the program on {nprocs} ranks", timeout,
              env={**os.environ, **prof.RUN_AS_ROOT}, who=WHO, stdin=stdin)
    return time.perf_counter() - start


def read_times(workdir: Path, nprocs: int, p: Plan) -> tuple[list[float], dict[str, list[float]]]:
    """Each rank's span and each segment's seconds per rank, from the timer files."""
    spans: list[float] = []
    per: dict[str, list[float]] = {s.column: [] for s in p.segments}
    for rank in range(nprocs):
        path = workdir / f"{TIMES_FILE}{rank:06d}"
        if not path.is_file():
            raise InterpError(f"{WHO}: rank {rank} did not reach MPI_FINALIZE in the main "
                              "program (no timer file)",
                              hint="every rank must end through the main program's "
                                   "CALL MPI_FINALIZE")
        rows = [ln.split() for ln in path.read_text().splitlines() if ln.strip()]
        for k, _count, seconds in rows:
            if int(k) == 0:
                spans.append(float(seconds))
            elif int(k) <= len(p.segments):
                per[p.segments[int(k) - 1].column].append(float(seconds))
    return spans, per


def run(aag: AAG, nprocs: int, values: Mapping[str, str], *, opt: str = "2", repeat: int = 1,
        timeout: float = 600.0, include_dirs: Sequence[str] = (),
        progress=None) -> tuple[Plan, list[Run]]:
    """Build once, run ``repeat`` times on ``nprocs`` ranks: the timer plan and one
    :class:`Run` per run."""
    main = Path(main_unit(aag).file)
    cores = os.cpu_count() or 1
    out = []
    with tempfile.TemporaryDirectory(prefix="interp-run-") as tmp:
        work = Path(tmp)
        exe, p, stdin = build(aag, work, values, opt, include_dirs)
        for k in range(repeat):
            started = datetime.now(timezone.utc).isoformat(timespec="seconds")
            load = os.getloadavg()[0]
            wall = execute(exe, work, nprocs, stdin, timeout)
            spans, per = read_times(work, nprocs, p)
            r = Run(main.stem, [str(f) for f in aag.files], nprocs,
                    {k.upper(): v for k, v in values.items()}, opt, cores, k, started, wall,
                    spans, per, load)
            out.append(r)
            if progress:
                progress(r)
    return p, out


# --- the runs file ----------------------------------------------------------------------------


def append_runs(path: str | Path, runs: Sequence[Run]) -> None:
    """Add ``runs`` to the CSV at ``path`` (created if absent); a new segment column rewrites
    the file with the union of the columns."""
    path = Path(path)
    old_rows = read_rows(path) if path.is_file() and path.stat().st_size else []
    new_rows = [r.row() for r in runs]
    extra = []
    for row in [*old_rows, *new_rows]:
        extra += [c for c in row if c not in COLUMNS and c not in extra]
    columns = COLUMNS + sorted(extra, key=_segment_order)
    with open(path, "w", newline="") as fh:
        w = csv.DictWriter(fh, columns, restval="")
        w.writeheader()
        for row in [*old_rows, *new_rows]:
            w.writerow(row)


def _segment_order(column: str) -> tuple[int, str]:
    m = re.match(rf"{SEGMENT_PREFIX}(\d+)(.*)", column)
    return (int(m.group(1)), m.group(2)) if m else (10**9, column)


def read_rows(path: str | Path) -> list[dict[str, str]]:
    """The rows of a runs file; a missing column is an error naming the file."""
    try:
        with open(path, newline="") as fh:
            reader = csv.DictReader(fh)
            rows = list(reader)
            header = reader.fieldnames or []
    except OSError as err:
        raise InterpError(f"{path}: cannot read the runs file ({err.strerror})",
                          hint="give the CSV `interp run --runs FILE` wrote") from None
    missing = [c for c in COLUMNS if c not in header]
    if missing:
        raise InterpError(f"{path}:1: not a runs file: no column {', '.join(missing)}",
                          hint="give the CSV `interp run --runs FILE` wrote")
    return rows


def read_runs(path: str | Path) -> list[Run]:
    """The runs of a runs file; a non-numeric value is an error with its line."""
    out = []
    for n, row in enumerate(read_rows(path), start=2):
        try:
            inputs = dict(item.split("=", 1) for item in row["inputs"].split(";") if item)
            for v in inputs.values():  # (semiemp predicts at them: numbers, as --set gave)
                float(v.replace("d", "e").replace("D", "e"))
            segs = {c: _numbers(v) for c, v in row.items()
                    if c and c.startswith(SEGMENT_PREFIX) and v}
            out.append(Run(row["program"], row["files"].split(";"), int(row["P"]), inputs,
                           row["opt"], int(row["cores"]), int(row["run"]), row["started"],
                           float(row["wall_seconds"]), _numbers(row["proc_seconds"]), segs,
                           float(row["load"] or 0)))
        except (ValueError, TypeError) as err:
            raise InterpError(f"{path}:{n}: a value is not a number ({err})",
                              hint="the runs file is written by `interp run`; fix or drop "
                                   "the line") from None
    return out


def _numbers(text: str) -> list[float]:
    return [float(x) for x in text.split(";") if x.strip()]
