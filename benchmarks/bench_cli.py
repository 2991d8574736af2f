"""Wall time of whole ``interp`` processes, as a user meets them. Figures are printed, never
asserted.

Run with ``python benchmarks/bench_cli.py [--repeat 5] [--cold]``. Each command runs as its own
process (``python -m interp``, the worktree's package first on the path), best of ``--repeat``
wall times, and the CPU time of the same run (the process and the children it waited for: on a
shared machine it moves less than the wall time); the first run of each fills the user cache
(parsed grammars, sources and machine specs), so the best is the warm-cache figure. ``--cold``
empties a private cache directory before every run instead, to measure a first run.

interp's modules are compiled to bytecode first, as an installed package's are: with
``PYTHONDONTWRITEBYTECODE`` set and no ``__pycache__`` every process would compile about 80
modules again (0.2-0.3 s, not interp's cost).
"""

from __future__ import annotations

import argparse
import compileall
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

COMMANDS: list[tuple[str, list[str]]] = [
    ("interp --help", ["--help"]),
    ("interp machine list", ["machine", "list"]),
    ("interp predict trapezoid P=16", [
        "predict", "programs/trapezoid/host.f", "programs/trapezoid/node.f", "-P", "16",
        "--set", "N=1000000", "--set", "NITER=10"]),
]


def wall(args: list[str], env: dict[str, str], cache: Path | None) -> tuple[float, float]:
    """Wall and CPU seconds of one ``interp`` process; ``cache``: emptied first (a cold run)."""
    if cache is not None:
        shutil.rmtree(cache, ignore_errors=True)
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run([sys.executable, "-m", "interp", *args], cwd=ROOT, env=env, check=True,
                   stdout=subprocess.DEVNULL, stdin=subprocess.DEVNULL)
    elapsed = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return elapsed, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--cold", action="store_true", help="empty the cache before every run")
    opts = parser.parse_args()
    compileall.compile_dir(ROOT / "interp", quiet=1)
    with tempfile.TemporaryDirectory() as tmp:
        cache = Path(tmp) / "cache"
        env = {**os.environ, "PYTHONPATH": str(ROOT), "INTERP_CACHE_DIR": str(cache)}
        print(f"{'command':32} {'best s':>8} {'median s':>9} {'CPU s':>7}   ({opts.repeat} runs, "
              f"{'cold' if opts.cold else 'warm'} cache, load {os.getloadavg()[0]:.1f})")
        for label, args in COMMANDS:
            runs = [wall(args, env, cache if opts.cold else None) for _ in range(opts.repeat)]
            times = sorted(w for w, _ in runs)
            cpu = min(c for _, c in runs)
            print(f"{label:32} {times[0]:8.3f} {times[len(times) // 2]:9.3f} {cpu:7.3f}")


if __name__ == "__main__":
    main()
