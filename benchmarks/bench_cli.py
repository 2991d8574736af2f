"""Wall time of whole ``interp`` processes, as a user meets them. Figures are printed, never
asserted.

Run with ``python benchmarks/bench_cli.py [--repeat 5] [--cold]``. Each command runs as its own
process (``python -m interp``, the worktree's package first on the path), best of ``--repeat``
wall times; the first run of each fills the user cache (parsed grammars and machine specs), so
the best is the warm-cache figure. ``--cold`` empties a private cache directory before every run
instead, to measure a first run.
"""

from __future__ import annotations

import argparse
import os
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


def wall(args: list[str], env: dict[str, str], cache: Path | None) -> float:
    """Seconds of one ``interp`` process; ``cache``: emptied first (a cold run)."""
    if cache is not None:
        shutil.rmtree(cache, ignore_errors=True)
    start = time.perf_counter()
    subprocess.run([sys.executable, "-m", "interp", *args], cwd=ROOT, env=env, check=True,
                   stdout=subprocess.DEVNULL, stdin=subprocess.DEVNULL)
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--cold", action="store_true", help="empty the cache before every run")
    opts = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        cache = Path(tmp) / "cache"
        env = {**os.environ, "PYTHONPATH": str(ROOT), "INTERP_CACHE_DIR": str(cache)}
        print(f"{'command':32} {'best s':>8} {'median s':>9}   ({opts.repeat} runs, "
              f"{'cold' if opts.cold else 'warm'} cache)")
        for label, args in COMMANDS:
            times = sorted(wall(args, env, cache if opts.cold else None)
                           for _ in range(opts.repeat))
            print(f"{label:32} {times[0]:8.3f} {times[len(times) // 2]:9.3f}")


if __name__ == "__main__":
    main()
