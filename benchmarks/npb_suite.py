"""The NAS Parallel Benchmarks 3.3-MPI through interp, unmodified.

    python benchmarks/npb_suite.py [--bench BT,CG] [--class S,W] [-P 4,16] [--commands graph,check]
        [--machine ipsc860,cluster] [--timeout 120] [--out matrix.jsonl]

For every benchmark, class and process count it makes ``npbparams.h`` with NPB's own
``sys/setparams`` in a temporary copy of the tree (``NPB_DIR`` or ``../shared/npb/NPB3.3-MPI``),
takes the benchmark's source files from its Makefile's ``OBJS`` (as ``make`` would, without the
``_vec`` and I/O variants), runs ``interp graph``, ``check``, ``predict`` and ``formula``, and prints
one row per case: each command's outcome and seconds, and the predicted time. ``--machine`` takes
a comma list (``default`` is the built-in iPSC/860 spec): predict runs once per machine, check
and formula on the first.
``--out`` appends one JSON record per command (status, wall and CPU seconds, predicted seconds,
first error line) and skips the commands it already holds, so a long matrix can be resumed.

The tests import :func:`prepare` and :func:`sources` from here (tests/npb/);
``benchmarks/npb_validate.py`` uses them to compare the same cases with SimGrid's SMPI.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import resource
import signal
import re
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

HERE = Path(__file__).resolve().parent
DEFAULT_NPB = HERE.parent.parent / "shared" / "npb" / "NPB3.3-MPI"
BENCHMARKS = ("BT", "CG", "EP", "FT", "LU", "MG", "SP")
CLASSES = ("S", "W", "A", "B")
COMMANDS = ("graph", "check", "predict", "formula")


def npb_dir() -> Path:
    """The NPB 3.3-MPI tree: ``NPB_DIR`` when set, else the copy beside the project."""
    return Path(os.environ.get("NPB_DIR", DEFAULT_NPB)).resolve()


def accepted_procs(bench: str, limit: int = 1024) -> list[int]:
    """The process counts a benchmark accepts (setparams' own rules): squares for BT and SP,
    powers of two for the others."""
    if bench in ("BT", "SP"):
        return [k * k for k in range(1, 33) if k * k <= limit]
    return [1 << k for k in range(0, 11) if 1 << k <= limit]


def _copy_tree(src: Path, dest: Path) -> None:
    shutil.copytree(src, dest, ignore=shutil.ignore_patterns("*.o", "bin"))
    make_def = dest / "config" / "make.def"
    text = (dest / "config" / "make.def.template").read_text()
    # randdp: the portable generator (randi8 needs 64-bit integer tricks interp has no need of).
    text = re.sub(r"^RAND\s*=.*$", "RAND   = randdp", text, flags=re.M)
    make_def.write_text(text)


def setparams_binary(tree: Path) -> Path:
    """Compile NPB's sys/setparams in the copy (once)."""
    binary = tree / "sys" / "setparams"
    if not binary.exists():
        subprocess.run(["cc", "-o", "setparams", "setparams.c"], cwd=tree / "sys", check=True,
                       capture_output=True)
    return binary


def prepare(workdir: Path) -> Path:
    """A writable copy of the NPB tree under ``workdir``, with setparams compiled."""
    tree = workdir / "NPB3.3-MPI"
    if not tree.exists():
        _copy_tree(npb_dir(), tree)
    setparams_binary(tree)
    return tree


def make_params(tree: Path, bench: str, klass: str, procs: int) -> str:
    """Run setparams for one case; '' on success, else its message (a P it refuses)."""
    folder = tree / bench
    params = folder / "npbparams.h"
    if params.exists():
        params.unlink()
    done = subprocess.run([str(tree / "sys" / "setparams"), bench.lower(), str(procs), klass],
                          cwd=folder, capture_output=True, text=True)
    if done.returncode != 0 or not params.exists():
        return (done.stdout + done.stderr).strip() or "setparams failed"
    return ""


def _objs(makefile: str) -> list[str]:
    joined = makefile.replace("\\\n", " ")
    match = re.search(r"^OBJS\s*=(.*)$", joined, flags=re.M)
    if not match:
        raise ValueError("no OBJS in Makefile")
    return match.group(1).split()


def _linked_extra(makefile: str) -> list[str]:
    """Objects the default link line (``-o ${PROGRAM}``) adds to OBJS: BT's ``btio.o``, the
    no-I/O version of its I/O routines."""
    match = re.search(r"-o \$\{PROGRAM\}\s+\$\{OBJS\}(.*)$", makefile, flags=re.M)
    return [w for w in match.group(1).split() if w.endswith(".o")] if match else []


def sources(tree: Path, bench: str) -> list[Path]:
    """The Fortran files ``make`` compiles and links for one benchmark (VEC empty,
    RAND=randdp, SUBTYPE empty)."""
    files = []
    makefile = (tree / bench / "Makefile").read_text()
    for obj in _objs(makefile) + _linked_extra(makefile):
        name = (obj.replace("$(VEC)", "").replace("${COMMON}", "../common")
                .replace("${RAND}", "randdp"))
        files.append((tree / bench / name).with_suffix(".f").resolve())
    return files


@dataclass
class Outcome:
    command: str
    ok: bool
    seconds: float
    message: str
    cpu: float = 0.0
    machine: str = ""


def _interp() -> list[str]:
    return [sys.executable, "-m", "interp"]


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def _limit_cpu(seconds: float):
    """The child's CPU limit (SIGXCPU past it): on a shared machine a wall-clock limit measures
    the other jobs as much as interp."""
    def apply() -> None:
        limit = max(1, int(seconds))
        resource.setrlimit(resource.RLIMIT_CPU, (limit, limit + 5))
    return apply


def run_command(command: str, files: list[Path], procs: int, cwd: Path,
                machine: str | None, timeout: float) -> Outcome:
    """One interp command; ``timeout`` is a limit on its CPU seconds (and four times that on
    its wall time)."""
    args = [*_interp(), command, *map(str, files)]
    if command != "graph":
        args += ["-P", str(procs)]
    if command == "predict":
        args += ["--format", "json"]
    if machine and machine != "default" and command != "graph":
        args += ["--machine", machine]
    start, cpu0 = time.perf_counter(), _children_cpu()
    # Files, not pipes (a forked child still holding a pipe would keep us waiting), and a
    # session of its own: when interp ends, what is left of its group goes (predict forks for
    # the range's max end).
    with tempfile.TemporaryFile("w+") as out, tempfile.TemporaryFile("w+") as err:
        proc = subprocess.Popen(args, cwd=cwd, stdout=out, stderr=err, stdin=subprocess.DEVNULL,
                                text=True, start_new_session=True,
                                preexec_fn=_limit_cpu(timeout))
        try:
            proc.wait(timeout=4 * timeout)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGKILL)
        out.seek(0)
        err.seek(0)
        stdout, stderr = out.read(), err.read()
    seconds, cpu = time.perf_counter() - start, _children_cpu() - cpu0
    if proc.returncode in (-signal.SIGXCPU, -signal.SIGKILL):
        limit = (f"{timeout:.0f} s of CPU" if proc.returncode == -signal.SIGXCPU
                 else f"{4 * timeout:.0f} s (wall)")
        return Outcome(command, False, seconds, f"timed out after {limit}", cpu, machine or "")
    message = stdout if proc.returncode == 0 else (stderr or stdout)
    return Outcome(command, proc.returncode == 0, seconds, message.strip(), cpu, machine or "")


def _predicted_seconds(outcome: Outcome) -> float | None:
    match = re.search(r'"total_seconds":\s*([0-9.eE+-]+)', outcome.message) if outcome.ok else None
    return float(match.group(1)) if match else None


def _predicted(outcome: Outcome) -> str:
    if not outcome.ok:
        return "-"
    seconds = _predicted_seconds(outcome)
    return f"{seconds:.4g} s" if seconds is not None else "?"


def _first_line(message: str) -> str:
    """The line that says what went wrong (the diagnostic, not its hint)."""
    lines = [line.strip() for line in message.splitlines() if line.strip()]
    errors = [line for line in lines if "error" in line.lower() or "Error" in line]
    return (errors or lines or [""])[0][:200]


def _runs(commands: list[str], machines: list[str | None]) -> list[tuple[str, str | None]]:
    """graph once; check and formula on the first machine; predict on every machine."""
    on = {"graph": [None], "check": machines[:1], "formula": machines[:1], "predict": machines}
    return [(c, m) for c in commands for m in on[c]]


def _done(out: Path | None) -> set[tuple]:
    if out is None or not out.exists():
        return set()
    records = [json.loads(line) for line in out.read_text().splitlines() if line.strip()]
    return {(r["bench"], r["class"], r["procs"], r["command"], r["machine"]) for r in records}


def _record(out: Path, bench: str, klass: str, procs: int, o: Outcome) -> None:
    record = {"bench": bench, "class": klass, "procs": procs, "command": o.command,
              "machine": o.machine, "ok": o.ok, "wall": round(o.seconds, 2),
              "cpu": round(o.cpu, 2), "predicted": _predicted_seconds(o),
              "error": "" if o.ok else _first_line(o.message),
              "load": round(os.getloadavg()[0], 2)}
    with out.open("a") as handle:
        handle.write(json.dumps(record) + "\n")


def _cell(record: dict | None) -> str:
    if record is None:
        return ""
    if record["ok"]:
        return f"ok {record['cpu']:.0f}"
    if record["error"].startswith("timed out"):
        return f">{re.search(r'after ([0-9]+)', record['error']).group(1)} s"
    if record["error"].startswith("not run"):
        return "(skipped)"
    if "do not fit" in record["error"]:
        return "n/a"
    return "FAIL"


def markdown(out: Path) -> str:
    """The records of ``--out`` as a markdown table: each command's outcome with its CPU
    seconds (or the time limit it passed), and the predicted seconds on each machine."""
    records = [json.loads(line) for line in out.read_text().splitlines() if line.strip()]
    latest = {(r["bench"], r["class"], r["procs"], r["command"], r["machine"]): r
              for r in records}
    machines = list(dict.fromkeys(r["machine"] for r in records if r["command"] == "predict"))
    cases = sorted({k[:3] for k in latest}, key=lambda c: (BENCHMARKS.index(c[0]),
                                                           CLASSES.index(c[1]), c[2]))
    head = (["bench", "class", "P", "graph", "check"] + [f"predict {m}" for m in machines]
            + ["formula"] + [f"predicted {m} [s]" for m in machines])
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for case in cases:
        def get(command: str, machine: str | None = None) -> dict | None:
            found = [r for k, r in latest.items() if k[:4] == (*case, command)
                     and (machine is None or k[4] == machine)]
            return found[0] if found else None
        predicted = [get("predict", m) for m in machines]
        row = ([case[0], case[1], str(case[2]), _cell(get("graph")), _cell(get("check"))]
               + [_cell(r) for r in predicted] + [_cell(get("formula"))]
               + [f"{r['predicted']:.4g}" if r and r["predicted"] is not None else ""
                  for r in predicted])
        lines.append("| " + " | ".join(row) + " |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--bench", default=",".join(BENCHMARKS))
    parser.add_argument("--class", dest="klass", default="S")
    parser.add_argument("-P", dest="procs", default="4",
                        help="comma list, or 'all' for every count each benchmark accepts")
    parser.add_argument("--commands", default=",".join(COMMANDS))
    parser.add_argument("--machine", default=None,
                        help="comma list of specs for predict and formula ('default': iPSC/860)")
    parser.add_argument("--max-procs", type=int, default=1024)
    parser.add_argument("--timeout", type=float, default=600.0,
                        help="CPU seconds a command may take (its wall time: four times that)")
    parser.add_argument("--out", type=Path, default=None,
                        help="append JSON records here; commands already recorded are skipped")
    parser.add_argument("--markdown", type=Path, default=None,
                        help="print the records of this --out file as a markdown table and stop")
    args = parser.parse_args(argv)
    if args.markdown:
        print(markdown(args.markdown))
        return 0
    machines = args.machine.split(",") if args.machine else [None]
    runs = _runs(args.commands.split(","), machines)
    done = _done(args.out)
    failures = 0
    with tempfile.TemporaryDirectory(prefix="npb-") as tmp:
        tree = prepare(Path(tmp))
        print(f"NPB tree: {npb_dir()}")
        print(f"{'bench':5} {'class':5} {'P':>5}  " + "  ".join(
            f"{c + ('@' + m if m else ''):>9}" for c, m in runs) + "  predicted")
        for bench in args.bench.split(","):
            for klass in args.klass.split(","):
                procs_list = (accepted_procs(bench, args.max_procs) if args.procs == "all"
                              else [int(p) for p in args.procs.split(",")])
                for procs in procs_list:
                    todo = [(c, m) for c, m in runs
                            if (bench, klass, procs, c, m or "") not in done]
                    if not todo:
                        continue
                    refused = make_params(tree, bench, klass, procs)
                    if refused:
                        print(f"{bench:5} {klass:5} {procs:>5}  setparams: {_first_line(refused)}")
                        continue
                    files = sources(tree, bench)
                    outcomes: list[Outcome] = []
                    for command, machine in todo:
                        # check, predict and formula each interpret the program: once one
                        # timed out, the others would too.
                        slow = next((o for o in outcomes if o.command != "graph"
                                     and o.message.startswith("timed out")), None)
                        o = (Outcome(command, False, 0.0, f"not run: {slow.command} {slow.message}",
                                     0.0, machine or "") if slow and command != "graph" else
                             run_command(command, files, procs, tree / bench, machine,
                                         args.timeout))
                        outcomes.append(o)
                        if args.out:
                            _record(args.out, bench, klass, procs, o)
                    cells = [f"{'ok' if o.ok else 'FAIL'} {o.seconds:5.1f}" for o in outcomes]
                    predicted = " ".join(_predicted(o) for o in outcomes
                                         if o.command == "predict")
                    print(f"{bench:5} {klass:5} {procs:>5}  " + "  ".join(f"{c:>9}" for c in cells)
                          + f"  {predicted}", flush=True)
                    for o in outcomes:
                        if not o.ok:
                            failures += 1
                            print(f"      {o.command}: {_first_line(o.message)}", flush=True)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
