"""How much a validation case moves when one spec value moves a little, on both sides.

    python validation/sensitivity.py validation/probes/a2a_reduce_loop.f -P 16 \
        --param node.cs.dynamic.startup --values 175e-6,175.0001e-6,175.1e-6 [--machine ipsc860]

For each value the program is validated as ``interp validate`` does it (SMPI on the platform
exported from the changed spec, interp's communication-only prediction on the same spec) and
one row is printed: the value, SMPI's time, interp's and the error. A case whose SMPI time
itself moves by percents when a startup moves by 0.1 ns cannot be matched by a second
simulator to better than that (docs/validation.md, "a2a_reduce_loop at P = 16").
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
if str(HERE.parent) not in sys.path:
    sys.path.insert(0, str(HERE.parent))

from interp.analysis import validate as V  # noqa: E402
from interp.errors import InterpError, run_script  # noqa: E402
from interp.system import load_machine  # noqa: E402


def rows(program: Path, nprocs: int, machine: str, param: str, values: list[str]):
    """(value, SMPI seconds, interp seconds, error) for each value of ``param`` (seconds)."""
    base = load_machine(machine)
    with tempfile.TemporaryDirectory(prefix="interp-sensitivity-") as tmp:
        for k, value in enumerate(values):
            sag = base.with_values({param: f"{value} s"})
            row = V.validate([str(program)], [nprocs], sag, workdir=Path(tmp) / str(k))[0]
            if row.skipped:
                raise InterpError(f"{program} at P = {nprocs}, {param} = {value}: {row.skipped}")
            yield value, row.smpi, row.interp, row.error


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("program", type=Path)
    parser.add_argument("-P", dest="nprocs", type=int, required=True)
    parser.add_argument("--machine", default="ipsc860")
    parser.add_argument("--param", default="node.cs.dynamic.startup")
    parser.add_argument("--values", required=True, help="comma list of seconds, e.g. 175e-6,175.1e-6")
    args = parser.parse_args(argv)
    print(f"| {args.param} [s] | SMPI [us] | interp [us] | error |\n|---:|---:|---:|---:|")
    for value, smpi, interp, error in rows(args.program, args.nprocs, args.machine, args.param,
                                           args.values.split(",")):
        print(f"| {value} | {smpi * 1e6:,.1f} | {interp * 1e6:,.1f} | {error * 100:+.2f}% |",
              flush=True)
    return 0


if __name__ == "__main__":
    run_script(main)
