"""``interp profile``: measure the data-dependent symbols by running the program once.

The program is compiled with gfortran's ``--coverage`` (MPI programs with Open MPI's
``mpif77`` and run with ``mpirun --oversubscribe -np P``), run as it is in a scratch folder
(its input files absent there, so it takes its own defaults), and gcov's JSON line and branch
counts (``gcov --json-format``) give each branch probability of :mod:`interp.engine.datadep`:

    p_<file>_<line> = executions that take the arm / executions of the IF

Both come from the test's two edges on the IF's (or the DO's) line: gfortran -O0 tests an IF's
whole condition once, falling through to the THEN arm, and a DO loop's test once per
iteration and once to leave, falling through into the body (a trip count is the body's
edge over the leaving one). The counts of the lines around them are no measure: gcov counts a
loop's exits there too. Without branch records, the line counts are read instead. Counts are
summed over the processes. The user's files are never
written: objects, coverage data and the run's output stay in the scratch folder.
"""

from __future__ import annotations

import gzip
import json
import os
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path

from interp.engine.datadep import DataSymbol
from interp.errors import InterpError

FORTRAN_SUFFIXES = {".f", ".for", ".f77", ".ftn", ".F", ".FOR"}
FLAGS = ["--coverage", "-O0", "-std=legacy", "-fallow-argument-mismatch", "-w"]
RUN_AS_ROOT = {"OMPI_ALLOW_RUN_AS_ROOT": "1", "OMPI_ALLOW_RUN_AS_ROOT_CONFIRM": "1"}


@dataclass(frozen=True)
class Measured:
    """One data-dependent symbol's measured value and the counts it comes from."""

    name: str
    file: str
    line: int
    value: float | None  # None: the IF never ran in the profiled run
    executions: int  # of the IF
    taken: int  # of the arm

    def to_json(self) -> dict:
        return {"value": self.value, "file": self.file, "line": self.line,
                "executions": self.executions, "taken": self.taken}


def compiler(mpi: bool, who: str = "interp profile") -> str:
    """mpif77 (or mpifort) for an MPI program, gfortran otherwise; a clear error if absent."""
    names = ["mpif77", "mpifort"] if mpi else ["gfortran"]
    for name in names:
        path = shutil.which(name)
        if path:
            return path
    package = "openmpi-bin libopenmpi-dev" if mpi else "gfortran"
    raise InterpError(f"{who} needs {' or '.join(names)} to compile the program",
                      hint=f"install it: apt-get install -y {package}")


def build(files: list[str], workdir: Path, mpi: bool, flags: list[str] = FLAGS,
          link_flags: tuple[str, ...] = ("--coverage",), include_dirs: tuple[str, ...] = (),
          who: str = "interp profile") -> Path:
    """Compile FILES (with coverage, unless other ``flags`` are given) into ``workdir``; the
    executable's path. ``include_dirs``: folders searched after each source's own."""
    fc = compiler(mpi, who)
    sources = [Path(f).resolve() for f in files if Path(f).suffix in FORTRAN_SUFFIXES]
    includes = list(dict.fromkeys([*sorted({f"-I{s.parent}" for s in sources}),
                                   *(f"-I{Path(d).resolve()}" for d in include_dirs)]))
    objects = []
    for k, src in enumerate(sources):
        obj = workdir / f"{k}_{src.stem}.o"
        _run([fc, *flags, *includes, "-c", str(src), "-o", str(obj)], workdir,
             f"compiling {src.name}", who=who)
        objects.append(str(obj))
    exe = workdir / "program.exe"
    _run([fc, *link_flags, *objects, "-o", str(exe)], workdir, "linking", who=who)
    return exe


def execute(exe: Path, workdir: Path, nprocs: int, mpi: bool, timeout: float) -> None:
    """Run the program once, in ``workdir``."""
    if mpi:
        runner = shutil.which("mpirun")
        if runner is None:
            raise InterpError("interp profile needs mpirun to run an MPI program",
                              hint="install it: apt-get install -y openmpi-bin")
        command = [runner, "--oversubscribe", "-np", str(nprocs), str(exe)]
    else:
        command = [str(exe)]
    _run(command, workdir, "running the program", timeout, env={**os.environ, **RUN_AS_ROOT})


def line_counts(workdir: Path) -> dict[tuple[str, int], dict]:
    """gcov's JSON for every object in ``workdir``: (source file, line) → its line record
    (``count``, ``branches``), counts summed where a line appears in several objects."""
    for obj in sorted(workdir.glob("*.o")):
        _run(["gcov", "--json-format", "--branch-probabilities", obj.name], workdir,
             f"reading the coverage of {obj.name}")
    out: dict[tuple[str, int], dict] = {}
    for path in sorted(workdir.glob("*.gcov.json.gz")):
        with gzip.open(path, "rt") as fh:
            data = json.load(fh)
        cwd = Path(data.get("current_working_directory", workdir))
        for f in data["files"]:
            source = str((cwd / f["file"]).resolve())
            for line in f["lines"]:
                key = (source, line["line_number"])
                if key in out:
                    out[key] = {"count": out[key]["count"] + line["count"],
                                "branches": _add_branches(out[key]["branches"], line["branches"])}
                else:
                    out[key] = {"count": line["count"], "branches": line["branches"]}
    return out


def measure(symbols: dict[str, DataSymbol], counts: dict[tuple[str, int], dict]) -> dict[str, Measured]:
    """Each branch probability from the line counts (see the module's docstring)."""
    out = {}
    for name, s in symbols.items():
        source = str(Path(s.file).resolve())
        head = counts.get((source, s.head), {}).get("count", 0)
        if s.kind == "trip count":
            body, entries = _trips(counts.get((source, s.head), {}),
                                   counts.get((source, s.arm), {}).get("count", 0))
            out[name] = Measured(name, s.file, s.line, body / entries if entries > 0 else None,
                                 entries, body)
            continue
        test, opens = (_test(counts.get((source, n), {})) for n in (s.line, s.head))
        if opens is not None:  # an ELSE IF's fraction is of the IF's executions
            head = opens[1]
        if test is not None:
            taken = test[0]
        elif s.arm is not None and s.arm != s.line:
            taken = counts.get((source, s.arm), {}).get("count", 0)
        else:
            branches = counts.get((source, s.line), {}).get("branches", [])
            taken = sum(b["count"] for b in branches if b.get("fallthrough") and not b.get("throw"))
        out[name] = Measured(name, s.file, s.line, taken / head if head else None, head, taken)
    return out


def _test(record: dict) -> tuple[int, int] | None:
    """How often the condition on a line held, and how often it was tested: its test's
    fall-through edge (gfortran -O0 tests an IF's whole condition once, falling through to
    the THEN arm) and both edges, when the line has that one test. Line counts are no
    measure: a DO opening the arm counts its iterations too (``IF (…) THEN`` over ``DO K =
    1, 5`` read 1.8 for 0.3), a label there its GO TOs, and the IF line of a loop's last
    statement the loop's exits (NPB CG's ``IF (XI .NE. 0)``: 508,402 of 522,402 for all)."""
    edges = [b for b in record.get("branches", []) if not b.get("throw")]
    if len(edges) != 2 or sum(b["fallthrough"] for b in edges) != 1:
        return None
    return sum(b["count"] for b in edges if b["fallthrough"]), sum(b["count"] for b in edges)


def _trips(head: dict, body_line: int) -> tuple[int, int]:
    """A DO loop's iterations and entries from its DO line's gcov record.

    The loop's test is a conditional block of the DO line, run once per iteration and once
    to leave: its fall-through edge enters the body, its other edge leaves. Of the line's
    blocks with two edges it is the one run most (a bound's own test, MAX(…) at -O0, runs
    once per entry). The body's first line is no measure of the iterations: the loop's exit
    block is counted on the body's last line, so a one-statement body under an END DO
    counts the entries too (NPB CG's ``DO K = ROWSTR(J), …`` read 130,600 for 37).
    Without branch records (another compiler's), the older reading: the DO line's count
    less the body's first line's."""
    edges = [b for b in head.get("branches", []) if not b.get("throw")]
    pairs = [edges[i:i + 2] for i in range(0, len(edges) - 1, 2)]
    tests = [p for p in pairs if sum(b["fallthrough"] for b in p) == 1]
    if not tests:
        return body_line, head.get("count", 0) - body_line
    test = max(reversed(tests), key=lambda p: p[0]["count"] + p[1]["count"])
    into = sum(b["count"] for b in test if b["fallthrough"])
    out = sum(b["count"] for b in test if not b["fallthrough"])
    return into, out


def write_counts(path: str, files: list[str], nprocs: int, measured: dict[str, Measured]) -> None:
    data = {"interp_counts": 1, "files": [str(Path(f).resolve()) for f in files],
            "nprocs": nprocs, "symbols": {k: m.to_json() for k, m in measured.items()}}
    Path(path).write_text(json.dumps(data, indent=2) + "\n")


def read_counts(path: str) -> dict[str, float]:
    """A counts file's measured values by symbol name (``predict --counts FILE``)."""
    try:
        data = json.loads(Path(path).read_text())
        symbols = data["symbols"]
        return {name: float(row["value"]) for name, row in symbols.items()
                if row.get("value") is not None}
    except OSError as err:
        raise InterpError(f"--counts {path}: cannot read it ({err.strerror})",
                          hint="give the file `interp profile -o FILE` wrote") from None
    except (ValueError, KeyError, TypeError, AttributeError):
        raise InterpError(f"--counts {path}: not a counts file (JSON with a 'symbols' table "
                          "of name → {value, …})",
                          hint="give the file `interp profile -o FILE` wrote") from None


def _add_branches(a: list[dict], b: list[dict]) -> list[dict]:
    if len(a) != len(b):
        return a + b
    return [{**x, "count": x["count"] + y["count"]} for x, y in zip(a, b)]


def _run(command: list[str], cwd: Path, what: str, timeout: float | None = None,
         env: dict | None = None, who: str = "interp profile",
         stdin: str | None = None) -> subprocess.CompletedProcess:
    """Run ``command``; a failure is an InterpError with the tool's own message (its last
    lines) and exit code."""
    try:
        done = subprocess.run(command, cwd=cwd, capture_output=True, text=True,
                              timeout=timeout, env=env, input=stdin)
    except subprocess.TimeoutExpired:
        raise InterpError(f"{who}: {what} took longer than {timeout:g} s",
                          hint="run a smaller size (a smaller class), or give --timeout") from None
    if done.returncode != 0:
        tail = "\n".join((done.stderr or done.stdout).strip().splitlines()[-12:])
        raise InterpError(f"{who}: {what} failed (exit {done.returncode}):\n{tail}",
                          hint=" ".join(command))
    return done
