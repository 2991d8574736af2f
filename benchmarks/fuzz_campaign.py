"""The long fuzz campaign: generated programs, machine specs and what-if statements through
``interp`` for a while, each case in a forked child killed past a time limit.

    python benchmarks/fuzz_campaign.py [--seconds 300] [--timeout 10]

Prints the inputs tried (by kind), the crashes (the invariant broken: an exit code outside
0/1/2, an exception, a traceback; or a case past the time limit, a hang), each distinct crash
once with its input, the slowest input and the largest memory a case used. The strategies and
the invariant are tests/reliability/fuzz_inputs.py's; CI runs a few of them
(tests/reliability/test_fuzz_campaign.py).
"""

from __future__ import annotations

import argparse
import multiprocessing as mp
import resource
import sys
import tempfile
import time
import warnings
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from hypothesis.errors import NonInteractiveExampleWarning  # noqa: E402

from tests.reliability import fuzz_inputs as F  # noqa: E402

KINDS = ["predict", "check", "graph", "formula", "spec", "what-if"]


def draw(kind: str):
    """One generated input for a kind of case."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", NonInteractiveExampleWarning)
        if kind == "spec":
            return F.specs().example()
        if kind == "what-if":
            return F.what_ifs().example()
        return F.programs().example()


def _child(kind: str, case, nprocs: int, send) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        if kind == "spec":
            out = F.spec_case(Path(tmp), case)
        elif kind == "what-if":
            out = F.what_if_case(case)
        else:
            out = F.program_case(Path(tmp), case, kind, nprocs)
    send.send((out.crash, out.exit_code, out.seconds,
               resource.getrusage(resource.RUSAGE_SELF).ru_maxrss))


def run_case(kind: str, case, nprocs: int, timeout: float) -> tuple[str | None, int, float, int]:
    """(crash, exit code, seconds, max RSS in KB) of one case in a forked child."""
    recv, send = mp.Pipe(duplex=False)
    child = mp.get_context("fork").Process(target=_child, args=(kind, case, nprocs, send))
    start = time.perf_counter()
    child.start()
    if recv.poll(timeout):
        result = recv.recv()
        child.join()
        return result
    child.kill()
    child.join()
    return f"still running after {timeout:.0f} s (a hang)", -1, time.perf_counter() - start, 0


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--seconds", type=float, default=300)
    ap.add_argument("--timeout", type=float, default=10)
    args = ap.parse_args()
    tried: Counter = Counter()
    codes: Counter = Counter()
    crashes: dict[str, tuple[str, object]] = {}
    crash_count = 0
    slowest = (0.0, "", None)
    peak = 0
    end = time.monotonic() + args.seconds
    k = 0
    while time.monotonic() < end:
        kind = KINDS[k % len(KINDS)]
        k += 1
        case = draw(kind)
        nprocs = 1 + k % 3
        crash, code, seconds, rss = run_case(kind, case, nprocs, args.timeout)
        tried[kind] += 1
        codes[code] += 1
        peak = max(peak, rss)
        if seconds > slowest[0]:
            slowest = (seconds, kind, case)
        if crash:
            crash_count += 1
            crashes.setdefault(crash.splitlines()[0][:160], (kind, case))
    print(f"inputs tried: {sum(tried.values())} ({', '.join(f'{k} {n}' for k, n in tried.items())})")
    print(f"exit codes: {dict(sorted(codes.items()))}")
    print(f"crashes: {crash_count} ({len(crashes)} distinct)")
    for why, (kind, case) in crashes.items():
        print(f"  [{kind}] {why}\n    input: {case!r}"[:2000])
    print(f"slowest input: {slowest[0]:.2f} s [{slowest[1]}] {slowest[2]!r}"[:2000])
    print(f"largest memory of a case: {peak / 1024:.0f} MB")


if __name__ == "__main__":
    main()
