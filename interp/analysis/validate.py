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

**Relative error** = (interp − SMPI) / SMPI.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

from interp.errors import InterpError
from interp.system import SAG
from interp.system.mapping import max_procs
from interp.system.simgrid import export_simgrid, simgrid_semantics, zero_computation

INSTALL_HINT = ("install SimGrid's SMPI (it provides smpiff and smpirun) and the Fortran "
                "compiler smpiff calls: apt-get install -y libsimgrid-dev gfortran")
SMPI_OPTIONS = ["smpi/simulate-computation:no", "smpi/display-timing:yes"]
_SIMULATED = re.compile(r"Simulated time: ([0-9.eE+-]+) seconds")
_ACTOR_END = re.compile(r"\[node(\d+):\d+:\(\d+\) ([0-9.]+)\].*should not run anymore")


class SmpiMissing(InterpError):
    """smpiff/smpirun are not installed."""


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


def compile_program(source: Path, workdir: Path) -> Path:
    smpiff, _ = smpi_tools()
    exe = workdir / source.stem
    proc = subprocess.run([smpiff, "-O0", "-fallow-argument-mismatch", "-o", str(exe), str(source.resolve())], cwd=workdir,
                          capture_output=True, text=True)
    if proc.returncode != 0 or not exe.exists():
        raise InterpError(f"smpiff could not compile {source}:\n{proc.stdout}{proc.stderr}".rstrip())
    return exe


def run_smpi(exe: Path, sag: SAG, nprocs: int, workdir: Path, *, rank_ends: bool = False,
             timeout: float = 600.0, model: str = "mpi") -> SmpiRun:
    """Run ``exe`` on ``nprocs`` ranks of the platform exported from ``sag``."""
    _, smpirun = smpi_tools()
    export = export_simgrid(sag, nprocs, model=model)
    files = export.write(workdir / f"{sag.name}{nprocs}.xml")
    cmd = [smpirun, "-np", str(nprocs), "-platform", str(files["platform"]), "-hostfile",
           str(files["hostfile"]), *export.cfg_args(), *(f"--cfg={o}" for o in SMPI_OPTIONS),
           "--log=root.thres:warning", "--log=smpi_utils.thres:info"]
    if rank_ends:
        cmd.append("--log=ker_actor.thres:debug")
    cmd.append(str(exe))
    start = time.perf_counter()
    try:
        proc = subprocess.run(cmd, cwd=workdir, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        raise InterpError(f"smpirun ran {exe.name} on {nprocs} ranks for more than {timeout:.0f} s") from None
    wall = time.perf_counter() - start
    out = proc.stdout + proc.stderr
    m = _SIMULATED.search(out)
    if proc.returncode != 0 or m is None:
        tail = "\n".join(out.strip().splitlines()[-15:])
        raise InterpError(f"smpirun failed on {exe.name} with {nprocs} ranks (exit "
                          f"{proc.returncode}):\n{tail}")
    ends = {int(r): float(t) for r, t in _ACTOR_END.findall(out)} if rank_ends else {}
    return SmpiRun(float(m.group(1)), wall, ends)


def predict_communication(aag, sag: SAG, nprocs: int):
    """interp's prediction with computation switched off and SMPI's semantics where the spec
    chooses otherwise (:func:`interp.system.simgrid.simgrid_semantics`)."""
    from interp.engine.predict import predict

    return predict(aag, zero_computation(simgrid_semantics(sag)[0]), nprocs, {})


def _first_line(err: InterpError) -> str:
    """One line for a table cell: a hang names its first blocked call."""
    lines = [ln.strip() for ln in err.message.splitlines() if ln.strip()]
    if len(lines) > 1 and lines[0].endswith(":"):
        return f"{lines[0]} {lines[1]}"
    return lines[0] if lines else err.message


def validate(files: list[str], nprocs_list: list[int], machine: SAG, *, progress=None,
             workdir: Path | None = None, model: str = "mpi") -> list[Row]:
    """Every program at every P; a P the machine cannot hold becomes a skipped row."""
    from interp.application.aag import build_aag

    smpi_tools()
    rows: list[Row] = []
    limit = max_procs(machine)
    with tempfile.TemporaryDirectory(prefix="interp-validate-") as tmp:
        base = Path(workdir or tmp)
        for file in files:
            source = Path(file)
            exe = compile_program(source, base)
            aag = build_aag([str(source)])
            for p in nprocs_list:
                name = source.stem
                if p > limit:
                    rows.append(Row(name, machine.name, p, None, None,
                                    skipped=f"{machine.name} has {limit} nodes"))
                    continue
                t0 = time.perf_counter()
                try:
                    pred = predict_communication(aag, machine, p)
                except InterpError as err:  # e.g. a hang: say so in the table, go on
                    rows.append(Row(name, machine.name, p, None, None,
                                    skipped="interp: " + _first_line(err)))
                    continue
                t_interp = time.perf_counter() - t0
                run = run_smpi(exe, machine, p, base, model=model)
                row = Row(name, machine.name, p, run.seconds, pred.seconds, run.wall, t_interp)
                rows.append(row)
                if progress:
                    progress(row)
    return rows


def worst(rows: list[Row]) -> Row | None:
    done = [r for r in rows if r.error is not None]
    return max(done, key=lambda r: abs(r.error)) if done else None


def breakdown(file: str, row: Row, machine: SAG, workdir: Path | None = None,
              model: str = "mpi") -> list[dict]:
    """Per rank: interp's finish and categories beside the time SMPI's rank ended."""
    from interp.application.aag import build_aag

    with tempfile.TemporaryDirectory(prefix="interp-validate-") as tmp:
        base = Path(workdir or tmp)
        exe = compile_program(Path(file), base)
        run = run_smpi(exe, machine, row.nprocs, base, rank_ends=True, model=model)
    pred = predict_communication(build_aag([file]), machine, row.nprocs)
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
