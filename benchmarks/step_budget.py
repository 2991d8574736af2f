"""How many AAU executions NPB's programs interpret step by step: the --max-steps default must
stay well above them (interp/engine/stepbudget.py).

    python benchmarks/step_budget.py [--bench MG,FT] [--class S] [-P 4]

For each case it runs ``predict`` in process, with no step budget, and prints the most AAU
executions one process interpreted step by step, the seconds it took, and that figure's
share of the default budget.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from npb_suite import make_params, prepare, sources  # noqa: E402

from interp import api  # noqa: E402
from interp.engine import process  # noqa: E402
from interp.engine.stepbudget import DEFAULT_MAX_STEPS, MAX_STEPS  # noqa: E402


def most_steps(files: list[Path], procs: int) -> tuple[int, float]:
    """The most AAU executions one process stepped in a prediction, and its seconds."""
    made: list = []
    init = process.Process.__init__

    def recording(self, *args, **kwargs):
        init(self, *args, **kwargs)
        made.append(self)

    process.Process.__init__ = recording
    MAX_STEPS.set(10**12)
    start = time.perf_counter()
    try:
        api.predict([str(f) for f in files], "ipsc860", procs)
    finally:
        process.Process.__init__ = init
    return max(p.steps for p in made), time.perf_counter() - start


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--bench", default="MG,FT")
    ap.add_argument("--class", dest="klass", default="S")
    ap.add_argument("-P", type=int, default=4)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        tree = prepare(Path(tmp))
        for bench in args.bench.split(","):
            refused = make_params(tree, bench, args.klass, args.P)
            if refused:
                print(f"{bench} {args.klass} P={args.P}: {refused}")
                continue
            steps, seconds = most_steps(sources(tree, bench), args.P)
            print(f"{bench} {args.klass} P={args.P}: {steps:,} AAU executions stepped on one "
                  f"process in {seconds:.1f} s ({100 * steps / DEFAULT_MAX_STEPS:.2f}% of the "
                  f"default --max-steps {DEFAULT_MAX_STEPS:,})")


if __name__ == "__main__":
    main()
