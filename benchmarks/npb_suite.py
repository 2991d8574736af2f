"""The NAS Parallel Benchmarks 3.3-MPI through interp, unmodified.

    python benchmarks/npb_suite.py [--bench BT,CG] [--class S,W] [-P 4,16] [--commands graph,check]

For every benchmark, class and process count it makes ``npbparams.h`` with NPB's own
``sys/setparams`` in a temporary copy of the tree (``NPB_DIR`` or ``../shared/npb/NPB3.3-MPI``),
takes the benchmark's source files from its Makefile's ``OBJS`` (as ``make`` would, without the
``_vec`` and I/O variants), runs ``interp graph``, ``check``, ``predict`` and ``formula``, and prints
one row per case: each command's outcome and seconds, and the predicted time.

The tests import :func:`prepare` and :func:`sources` from here (tests/npb/);
``benchmarks/npb_validate.py`` uses them to compare the same cases with SimGrid's SMPI.
"""

from __future__ import annotations

import argparse
import os
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


def _interp() -> list[str]:
    return [sys.executable, "-m", "interp"]


def run_command(command: str, files: list[Path], procs: int, cwd: Path,
                machine: str | None, timeout: float) -> Outcome:
    args = [*_interp(), command, *map(str, files)]
    if command != "graph":
        args += ["-P", str(procs)]
    if command == "predict":
        args += ["--format", "json"]
    if machine and command in ("predict", "formula"):
        args += ["--machine", machine]
    start = time.perf_counter()
    try:
        done = subprocess.run(args, cwd=cwd, capture_output=True, text=True, timeout=timeout,
                              stdin=subprocess.DEVNULL)
    except subprocess.TimeoutExpired:
        return Outcome(command, False, timeout, f"timed out after {timeout:.0f} s")
    seconds = time.perf_counter() - start
    message = done.stdout if done.returncode == 0 else (done.stderr or done.stdout)
    return Outcome(command, done.returncode == 0, seconds, message.strip())


def _predicted(outcome: Outcome) -> str:
    if not outcome.ok:
        return "-"
    match = re.search(r'"total_seconds":\s*([0-9.eE+-]+)', outcome.message)
    return f"{float(match.group(1)):.4g} s" if match else "?"


def _first_line(message: str) -> str:
    """The line that says what went wrong (the diagnostic, not its hint)."""
    lines = [line.strip() for line in message.splitlines() if line.strip()]
    errors = [line for line in lines if "error" in line.lower() or "Error" in line]
    return (errors or lines or [""])[0][:200]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--bench", default=",".join(BENCHMARKS))
    parser.add_argument("--class", dest="klass", default="S")
    parser.add_argument("-P", dest="procs", default="4",
                        help="comma list, or 'all' for every count each benchmark accepts")
    parser.add_argument("--commands", default=",".join(COMMANDS))
    parser.add_argument("--machine", default=None)
    parser.add_argument("--max-procs", type=int, default=1024)
    parser.add_argument("--timeout", type=float, default=600.0)
    args = parser.parse_args(argv)
    failures = 0
    with tempfile.TemporaryDirectory(prefix="npb-") as tmp:
        tree = prepare(Path(tmp))
        print(f"NPB tree: {npb_dir()}")
        print(f"{'bench':5} {'class':5} {'P':>5}  " + "  ".join(f"{c:>9}" for c in
              args.commands.split(",")) + "  predicted")
        for bench in args.bench.split(","):
            for klass in args.klass.split(","):
                procs_list = (accepted_procs(bench, args.max_procs) if args.procs == "all"
                              else [int(p) for p in args.procs.split(",")])
                for procs in procs_list:
                    refused = make_params(tree, bench, klass, procs)
                    if refused:
                        print(f"{bench:5} {klass:5} {procs:>5}  setparams: {_first_line(refused)}")
                        continue
                    files = sources(tree, bench)
                    outcomes = [run_command(c, files, procs, tree / bench, args.machine,
                                            args.timeout) for c in args.commands.split(",")]
                    cells = [f"{'ok' if o.ok else 'FAIL'} {o.seconds:5.1f}" for o in outcomes]
                    predicted = next((_predicted(o) for o in outcomes if o.command == "predict"),
                                     "")
                    print(f"{bench:5} {klass:5} {procs:>5}  " + "  ".join(f"{c:>9}" for c in cells)
                          + f"  {predicted}", flush=True)
                    for o in outcomes:
                        if not o.ok:
                            failures += 1
                            print(f"      {o.command}: {_first_line(o.message)}", flush=True)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
