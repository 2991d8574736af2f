"""The NAS Parallel Benchmarks 3.3-MPI against SimGrid's SMPI, communication only.

    python benchmarks/npb_validate.py [--bench EP,CG] [--class S,W] [-P 4,8,16,32,64]
                                      [--machine auto] [--markdown] [--timeout 900]
                                      [--max-steps 6000000]

For every benchmark, class and P it accepts (``-P`` defaults to every count from 4 to 64 the
benchmark accepts), it makes ``npbparams.h`` with NPB's own setparams in a temporary copy of the
tree (as ``benchmarks/npb_suite.py`` does), builds the benchmark's Makefile files with
``smpiff`` and runs ``interp validate`` on them as one program (:mod:`interp.analysis.validate`):
SMPI with ``smpi/simulate-computation:no`` on the platform exported from the spec, beside interp's
prediction with every processing and memory cost at 0; both are the time when the last rank
finishes, so the benchmark's own timers play no part. One row per case: interp's and SMPI's
communication time, the relative error, and the wall time of each side.

``--machine auto`` takes the iPSC/860 up to its 16 nodes and the cluster spec above, as
docs/validation.md does. ``--max-steps`` is interp's step budget, as ``interp predict
--max-steps`` (CG's matrix generation at class W needs 6000000). The exit status is 1 when a case fails or misses the ``--limit``.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
if str(HERE.parent) not in sys.path:
    sys.path.insert(0, str(HERE.parent))

from benchmarks.npb_suite import (BENCHMARKS, accepted_procs, make_params, npb_dir,  # noqa: E402
                                  prepare, sources)
from interp.analysis import validate as V  # noqa: E402
from interp.engine.stepbudget import DEFAULT_MAX_STEPS, MAX_STEPS  # noqa: E402
from interp.errors import InterpError, run_script  # noqa: E402
from interp.system import load_machine  # noqa: E402
from interp.system.mapping import max_procs  # noqa: E402

SMALL, LARGE = "ipsc860", "cluster"  # --machine auto: the iPSC/860 while it holds P
FLAGS = ["-O2", "-fallow-argument-mismatch"]  # SMPI still runs the computation, uncounted


def machine_for(p: int, choice: str, cache: dict):
    name = choice
    if choice == "auto":
        small = cache.setdefault(SMALL, load_machine(SMALL))
        name = SMALL if p <= max_procs(small) else LARGE
    return cache.setdefault(name, load_machine(name))


def procs_for(bench: str, given: str) -> list[int]:
    if given == "accepted":
        return [p for p in accepted_procs(bench, 64) if p >= 4]
    return [int(p) for p in given.split(",")]


def one_case(tree: Path, bench: str, klass: str, p: int, machine, work: Path,
             timeout: float) -> tuple[V.Row | None, str]:
    """One row, or None and why there is none."""
    refused = make_params(tree, bench, klass, p)
    if refused:
        return None, "setparams: " + refused.splitlines()[-1]
    program = V.Program.of(sources(tree, bench), name=bench)
    case_dir = work / f"{bench}.{klass}.{p}"
    case_dir.mkdir(parents=True, exist_ok=True)
    try:
        rows = V.validate([program], [p], machine, workdir=case_dir, timeout=timeout,
                          flags=FLAGS)
    except InterpError as err:
        return None, _summary(err)
    row = rows[0]
    return (None, row.skipped) if row.skipped else (row, "")


def _summary(err: InterpError) -> str:
    """A table cell: the error's first line and, for a compiler's output, its last."""
    lines = [" ".join(line.split()) for line in err.render().splitlines() if line.strip()]
    text = lines[0] if len(lines) < 3 else f"{lines[0]} ... {lines[-1]}"
    return text[:240]


HEADER = ["bench", "class", "P", "machine", "interp comm [s]", "SMPI [s]", "error",
          "SMPI wall [s]", "interp wall [s]"]


def cells(bench: str, klass: str, p: int, row: V.Row | None, why: str) -> list[str]:
    if row is None:
        return [bench, klass, str(p), "", "-", "-", why, "", ""]
    return [bench, klass, str(p), row.machine, f"{row.interp:.6g}", f"{row.smpi:.6g}",
            f"{row.error * 100:+.3f}%", f"{row.smpi_wall:.1f}", f"{row.interp_wall:.1f}"]


def render(values: list[str], markdown: bool) -> str:
    if markdown:
        return "| " + " | ".join(values) + " |"
    widths = [5, 5, 3, 8, 15, 12, 8, 13, 15]
    return "  ".join(v.rjust(w) if k in (2, 4, 5, 6, 7, 8) else v.ljust(w)
                     for k, (v, w) in enumerate(zip(values, widths)))


def _positive(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        value = 0
    if value < 1:
        raise argparse.ArgumentTypeError(f"{text!r}: expected a positive whole number, e.g. 6000000")
    return value


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--bench", default=",".join(BENCHMARKS))
    parser.add_argument("--class", dest="klass", default="S,W")
    parser.add_argument("-P", dest="procs", default="accepted",
                        help="comma list, or 'accepted' (every count from 4 to 64 a benchmark "
                             "accepts)")
    parser.add_argument("--machine", default="auto",
                        help=f"a spec name or file, or 'auto' ({SMALL} up to its node count, "
                             f"{LARGE} above)")
    parser.add_argument("--limit", type=float, default=0.05, help="largest |error| accepted")
    parser.add_argument("--timeout", type=float, default=900.0, help="seconds per smpirun")
    parser.add_argument("--markdown", action="store_true", help="a Markdown table")
    parser.add_argument("--max-steps", type=_positive, default=DEFAULT_MAX_STEPS,
                        help="interp's step budget: AAU executions one process may interpret "
                             f"step by step (default {DEFAULT_MAX_STEPS}; CG class W: 6000000)")
    args = parser.parse_args(argv)
    V.smpi_tools()
    budget = MAX_STEPS.set(args.max_steps)  # (for this run only: main is called by tests)
    try:
        return _run(args)
    finally:
        MAX_STEPS.reset(budget)


def _run(args: argparse.Namespace) -> int:
    bad = 0
    machines: dict = {}
    with tempfile.TemporaryDirectory(prefix="npb-validate-") as tmp:
        tree = prepare(Path(tmp))
        print(f"NPB tree: {npb_dir()}")
        print(render(HEADER, args.markdown))
        if args.markdown:
            print("|" + "|".join("---" if k in (0, 1, 3) else "---:" for k in
                                 range(len(HEADER))) + "|")
        for bench in args.bench.split(","):
            for klass in args.klass.split(","):
                for p in procs_for(bench, args.procs):
                    machine = machine_for(p, args.machine, machines)
                    row, why = one_case(tree, bench, klass, p, machine, Path(tmp), args.timeout)
                    bad += row is None or abs(row.error) > args.limit
                    print(render(cells(bench, klass, p, row, why), args.markdown), flush=True)
    return 1 if bad else 0


if __name__ == "__main__":
    run_script(main)
