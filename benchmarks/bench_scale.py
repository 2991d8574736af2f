"""Cost of a prediction in P (issue 16, docs/scale.md): CPU seconds and peak RSS of one
``api.predict`` (one interpretation, mid bound; parsing included) of the ring, the 1-D and 2-D
halo exchanges and master/worker on the cluster spec with 1000 iterations, on the fast path and,
where it is affordable, in the exact mode. Figures are printed, never asserted.

    PYTHONPATH=$PWD python benchmarks/bench_scale.py [--procs 16,256,1024,4096] [--limit 120]
        [--exact-max 1024]

Each measurement runs in a child process of its own (its peak RSS is its own), killed after
``--limit`` seconds (shown as "> limit").
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
# (name, file, the PARAMETER that counts its iterations)
PROGRAMS = [("ring", "validation/ring.f", "NLAPS"), ("halo1d", "validation/halo1d.f", "NITER"),
            ("halo2d", "validation/halo2d.f", "NITER"), ("mworker", "validation/mworker.f", "NTASK")]
ITERATIONS = 1000


def one(file: str, param: str, nprocs: int, exact: bool) -> dict:
    """One prediction in this process: its CPU time, peak RSS and predicted seconds."""
    from interp import api

    t0 = time.process_time()
    pred = api.predict(str(ROOT / file), "cluster", nprocs, inputs={param: ITERATIONS},
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
    args = ap.parse_args()
    if args.one:
        file, param, nprocs = args.one
        print(json.dumps(one(file, param, int(nprocs), args.exact)))
        return
    procs = [int(x) for x in args.procs.split(",")]
    only = set(filter(None, args.only.split(",")))
    print(f"load average at the start: {os.getloadavg()[0]:.2f} (1 min), {os.cpu_count()} CPUs")
    print("| program | P | fast: CPU, peak RSS | exact: CPU, peak RSS | predicted [s] | equal |")
    print("|---|---|---|---|---|---|")
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
            print(f"| {name} | {n} | {cell(fast, args.limit)} | {ex} | "
                  f"{'' if seconds is None else f'{seconds:.6g}'} | {same} |", flush=True)
    print(f"load average at the end: {os.getloadavg()[0]:.2f} (1 min)")


if __name__ == "__main__":
    main()
