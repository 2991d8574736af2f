"""Cost of a prediction in P (issue 16, docs/scale.md): CPU seconds and peak RSS of one
``api.predict`` (one interpretation, mid bound; parsing included) of the ring, the 1-D and 2-D
halo exchanges and master/worker on the cluster spec with 1000 iterations, on the fast path and,
where it is affordable, in the exact mode. Figures are printed, never asserted.

    PYTHONPATH=$PWD python benchmarks/bench_scale.py [--procs 16,256,1024,4096] [--limit 120]
        [--exact-max 1024]

Each measurement runs in a child process of its own (its peak RSS is its own), killed after
``--limit`` seconds (shown as "> limit"). ``--smpi``: also the wall and CPU time of smpirun running the
same source (its iteration PARAMETER set to 1000) on the cluster spec exported to SimGrid, in
the same run, at P up to the spec's size, and SMPI's CPU time over interp's fast CPU time.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
# (name, file, the PARAMETER that counts its iterations)
PROGRAMS = [("ring", "validation/ring.f", "NLAPS"), ("halo1d", "validation/halo1d.f", "NITER"),
            ("halo2d", "validation/halo2d.f", "NITER"), ("mworker", "validation/mworker.f", "NTASK"),
            # halo exchange + MPI_ALLREDUCE every step (issue 16's Jacobi row)
            ("jacobi", "programs/mpi_jacobi/jacobi_mpi.f", "NSTEP")]
ITERATIONS = 1000
# what a program READs on rank 0 (unit 5): its input for interp, its stdin for smpirun
READS = {"programs/mpi_jacobi/jacobi_mpi.f": {"N": 100_000}}


def one(file: str, param: str, nprocs: int, exact: bool) -> dict:
    """One prediction in this process: its CPU time, peak RSS and predicted seconds."""
    from interp import api

    t0 = time.process_time()
    pred = api.predict(str(ROOT / file), "cluster", nprocs,
                       inputs={param: ITERATIONS, **READS.get(file, {})},
                       what_if=[f"procs = {max(nprocs, 1024)}"], exact=exact)
    cpu = time.process_time() - t0
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # KB → MB
    return {"cpu": cpu, "rss": rss, "seconds": pred.seconds}


def measure(file: str, param: str, nprocs: int, exact: bool, limit: float) -> dict | None:
    cmd = [sys.executable, __file__, "--one", file, param, str(nprocs)] + (["--exact"] if exact else [])
    try:
        out = subprocess.run(cmd, capture_output=True, text=True, timeout=limit, cwd=ROOT)
    except subprocess.TimeoutExpired:
        return None
    if out.returncode != 0:
        return {"error": out.stderr.strip().splitlines()[-1]}
    return json.loads(out.stdout.strip().splitlines()[-1])


def smpi_time(file: str, param: str, nprocs: int, work: Path,
              limit: float) -> tuple[float, float] | None:
    """smpirun's wall and CPU seconds on the program with ``param`` = 1000 (the CPU time
    counts on a loaded machine, where the wall time also counts the waits for a core), None
    past ``limit``."""
    from interp.analysis import validate as V
    from interp.errors import InterpError
    from interp.system import load_machine

    src = ROOT / file
    copy = work / src.stem / src.name
    copy.parent.mkdir(exist_ok=True)
    copy.write_text(re.sub(rf"\b{param}\s*=\s*\d+", f"{param} = {ITERATIONS}", src.read_text(), count=1))
    try:
        exe = V.compile_program(copy, copy.parent)
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        stdin = "".join(f"{v}\n" for v in READS.get(file, {}).values()) or None
        wall = V.run_smpi(exe, load_machine("cluster"), nprocs, copy.parent, timeout=limit,
                          stdin=stdin).wall
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        return wall, after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
    except InterpError:
        return None


def cell(r: dict | None, limit: float) -> str:
    if r is None:
        return f"> {limit:g} s"
    if "error" in r:
        return "error"
    return f"{r['cpu']:.2f} s, {r['rss']:.0f} MB"


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--one", nargs=3, metavar=("FILE", "PARAM", "P"))
    ap.add_argument("--exact", action="store_true")
    ap.add_argument("--procs", default="16,256,1024,4096")
    ap.add_argument("--limit", type=float, default=120.0)
    ap.add_argument("--exact-max", type=int, default=1024)
    ap.add_argument("--only", default="", help="comma-separated program names")
    ap.add_argument("--smpi", action="store_true", help="also smpirun's time (P <= 1024)")
    ap.add_argument("--smpi-limit", type=float, default=600.0)
    args = ap.parse_args()
    if args.one:
        file, param, nprocs = args.one
        print(json.dumps(one(file, param, int(nprocs), args.exact)))
        return
    procs = [int(x) for x in args.procs.split(",")]
    only = set(filter(None, args.only.split(",")))
    print(f"load average at the start: {os.getloadavg()[0]:.2f} (1 min), {os.cpu_count()} CPUs")
    smpi = "| SMPI: wall, CPU | SMPI CPU / fast CPU " if args.smpi else ""
    print(f"| program | P | fast: CPU, peak RSS | exact: CPU, peak RSS | predicted [s] | equal {smpi}|")
    print("|---|---|---|---|---|---|" + "---|---|" * args.smpi)
    work = Path(tempfile.mkdtemp(prefix="bench_scale_"))
    for name, file, param in PROGRAMS:
        if only and name not in only:
            continue
        for n in procs:
            fast = measure(file, param, n, False, args.limit)
            exact = measure(file, param, n, True, args.limit) if n <= args.exact_max else None
            seconds = next((r["seconds"] for r in (fast, exact) if r and "seconds" in r), None)
            same = "" if not (fast and exact and "seconds" in fast and "seconds" in exact) else (
                "yes" if abs(fast["seconds"] - exact["seconds"])
                <= 1e-9 * abs(exact["seconds"]) else "NO")
            ex = cell(exact, args.limit) if n <= args.exact_max else "not run"
            row = (f"| {name} | {n} | {cell(fast, args.limit)} | {ex} | "
                   f"{'' if seconds is None else f'{seconds:.6g}'} | {same} |")
            if args.smpi:
                run = smpi_time(file, param, n, work, args.smpi_limit) if n <= 1024 else None
                ratio = f"{run[1] / fast['cpu']:.1f}×" if run and fast and "cpu" in fast else ""
                text = ("not run" if n > 1024 else f"> {args.smpi_limit:g} s or failed") \
                    if run is None else f"{run[0]:.2f} s, {run[1]:.2f} s"
                row += f" {text} | {ratio} |"
            print(row, flush=True)
    print(f"load average at the end: {os.getloadavg()[0]:.2f} (1 min)")


if __name__ == "__main__":
    main()
