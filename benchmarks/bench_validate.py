"""interp predict against an SMPI run, wall-clock time, on the ring and the 1-D halo exchange.

    .venv/bin/python benchmarks/bench_validate.py [-P 16,64,256,1024] [--machine cluster]

For each P: the seconds interp takes to predict (build the AAG, interpret on the spec with
computation off) and the seconds smpirun takes to run the compiled program on the exported
platform (start-up of the simulator included), and their ratio. The figures are reported, not
asserted. P above the spec's max_procs is skipped (ipsc860: 16; cluster: 1024).
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

from interp.analysis import validate as V
from interp.application.aag import build_aag
from interp.system import load_machine
from interp.system.mapping import max_procs

ROOT = Path(__file__).resolve().parents[1]
PROGRAMS = ["ring", "halo1d"]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("-P", default="16,64,256,1024")
    ap.add_argument("--machine", default="cluster")
    args = ap.parse_args()
    sag = load_machine(args.machine)
    print("| program | P | interp [s] | SMPI [s] | SMPI / interp | interp time | SMPI time |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        for name in PROGRAMS:
            source = ROOT / "validation" / f"{name}.f"
            exe = V.compile_program(source, work)
            for p in (int(x) for x in args.P.split(",")):
                if p > max_procs(sag):
                    print(f"| {name} | {p} | - | - | - | ({sag.name} has {max_procs(sag)} nodes) | |")
                    continue
                t0 = time.perf_counter()
                pred = V.predict_communication(build_aag([str(source)]), sag, p)
                t_interp = time.perf_counter() - t0
                run = V.run_smpi(exe, sag, p, work, timeout=3600)
                print(f"| {name} | {p} | {t_interp:.2f} | {run.wall:.2f} | "
                      f"{run.wall / t_interp:.2f} | {pred.seconds * 1e6:,.1f} us | "
                      f"{run.seconds * 1e6:,.1f} us |", flush=True)


if __name__ == "__main__":
    main()
