"""Residual between SMPI and the spec's point-to-point formula (issue #8).

One blocking message of n bytes, n = 1 B ... 64 KiB (powers of two, and 100/101 across the
iPSC/860's static-buffer threshold), from rank 0 to rank P-1 on the platform exported from the
spec, receiver already waiting: SMPI's time from the send to the end of the receive against
``interp.system.message_seconds`` (startup + per_byte*n + per_hop*hops + receive). Columns,
each SMPI configuration adding one step to the one before:

  defaults   SimGrid's own SMPI model: its measured lat/bw factors, os = or = 0, TCP gamma
  cm02       network/model:CM02 (no factors), TCP-gamma 0, weight-S 0, no cross traffic
  +os        plus smpi/os = the spec's startup (static/dynamic piecewise)
  +classes   plus smpi/lat-factor and smpi/bw-factor for the static class (flat factors)
  export     `interp export simgrid` as it is (per-size bw-factor cancels SMPI's envelope)

The last rank reads MPI_Wtime once, right after MPI_Recv (SMPI injects its 10 ns after the read).

    .venv/bin/python validation/p2p_residual.py [--machine ipsc860] [-P 16] [--markdown]
"""

from __future__ import annotations

import argparse
import re
import subprocess
import tempfile
from pathlib import Path

from interp.analysis.validate import smpi_tools
from interp.system import hops, load_machine, message_seconds
from interp.system.simgrid import export_simgrid, smpirun_options

HERE = Path(__file__).resolve().parent
SIZES = [1, 2, 4, 8, 16, 32, 64, 100, 101, 128, 256, 512, 1024, 2048, 4096, 8192, 16384,
         32768, 65536]
WTIME = 0.0  # the value MPI_Wtime returns is read before SMPI injects its 10 ns


def configurations(sag) -> dict[str, list[str]]:
    full, _ = smpirun_options(sag)
    opt = {o.split(":", 1)[0]: o for o in full}
    base = ["network/TCP-gamma:0", "network/weight-S:0", "network/crosstraffic:0",
            opt["smpi/send-is-detached-thresh"], opt["smpi/async-small-thresh"]]
    os_ = [opt["smpi/os"], opt["smpi/or"]]
    lat = opt["smpi/lat-factor"]
    thr = _thr(sag)
    bw_flat = f"smpi/bw-factor:0:{_flat_bw(sag)};{thr + 16}:1" if thr is not None else \
        "smpi/bw-factor:0:1"
    return {
        "defaults": [],
        "cm02": ["network/model:CM02", *base],
        "+os": ["network/model:CM02", *base, *os_],
        "+classes": ["network/model:SMPI", *base, *os_, lat, bw_flat],
        "export": full,
    }


def _thr(sag):
    path = f"{sag.nodes}.cs.spec.static_buffer_size"
    return int(sag.value(path)) if sag.has(path) else None


def _flat_bw(sag):
    d = float(sag.seconds(f"{sag.nodes}.cs.dynamic.per_byte"))
    s = float(sag.seconds(f"{sag.nodes}.cs.static.per_byte"))
    return f"{d / s:.12g}"


def measure(exe: Path, sag, nprocs: int, n: int, cfg: list[str], workdir: Path) -> float:
    _, smpirun = smpi_tools()
    files = export_simgrid(sag, nprocs).write(workdir / "p2p.xml")
    cmd = [smpirun, "-np", str(nprocs), "-platform", str(files["platform"]), "-hostfile",
           str(files["hostfile"]), *(f"--cfg={c}" for c in cfg),
           "--cfg=smpi/simulate-computation:no", "--log=root.thres:critical", str(exe), str(n)]
    out = subprocess.run(cmd, cwd=workdir, capture_output=True, text=True, check=True).stdout
    return float(re.search(r"arrived ([0-9.eE+-]+)", out).group(1)) - WTIME


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--machine", default="ipsc860")
    ap.add_argument("-P", type=int, default=16, help="ranks; the message goes 0 -> P-1")
    args = ap.parse_args()
    sag = load_machine(args.machine)
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        exe = work / "p2p"
        subprocess.run(["smpicc", "-O1", "-o", str(exe), str(HERE / "p2p.c")], check=True,
                       capture_output=True)
        confs = configurations(sag)
        h = hops(sag, 0, args.P - 1, args.P)
        print(f"{sag.name}: rank 0 -> rank {args.P - 1}, {h} hops; SMPI - spec formula, in us\n")
        print("| bytes | spec formula [us] | " + " | ".join(confs) + " |")
        print("|---:|---:|" + "---:|" * len(confs))
        for n in SIZES:
            spec = float(message_seconds(sag, n, h).total)
            cells = []
            for cfg in confs.values():
                t = measure(exe, sag, args.P, n, cfg, work)
                cells.append(f"{(t - spec) * 1e6:+.2f}")
            print(f"| {n} | {spec * 1e6:.2f} | " + " | ".join(cells) + " |", flush=True)


if __name__ == "__main__":
    main()
