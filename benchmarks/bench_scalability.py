"""How many predictions a scalability study makes, and how long it takes (seed 002,
docs/scalability.md): ``interp scalability`` of the trapezoid (iPSC/860, P = 2..16) and of
tests/analysis/programs/cube.f (cluster, P = 2..32).

Run with ``python benchmarks/bench_scalability.py``. The figures are printed, not asserted.
"""

from __future__ import annotations

import time
from pathlib import Path

from interp import api
from interp.analysis.scalability import Runs, scalability
from interp.analysis.sizepath import parse_path

ROOT = Path(__file__).resolve().parents[1]
CASES = [
    ("trapezoid", [str(ROOT / "programs/trapezoid/host.f"), str(ROOT / "programs/trapezoid/node.f")],
     "ipsc860", {"NITER": 10}, [2, 4, 8, 16]),
    ("cube", [str(ROOT / "tests/analysis/programs/cube.f")], "cluster", {}, [2, 4, 8, 16, 32]),
]


def main() -> None:
    print("case       kind          predictions  wall [s]  per prediction [ms]")
    for name, files, machine, inputs, ps in CASES:
        setup = api.setup(files, machine, 1, inputs)
        for kind in ("algorithmic", "combination"):
            runs = Runs(setup, parse_path("N=t"))
            start = time.monotonic()
            scalability(setup, runs.path, ps, 0.7, kind, runs=runs)
            wall = time.monotonic() - start
            n = len(runs.cache)
            print(f"{name:10s} {kind:13s} {n:11d} {wall:9.2f} {1e3 * wall / n:20.1f}")


if __name__ == "__main__":
    main()
