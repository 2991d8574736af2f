"""The collector of an ``interp`` process (interp/collector.py): paused until the first
interpretation, which freezes what exists and resumes it for good; and a command's output is
the same whether it runs in its own process (the collector set up so) or in this one."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from click.testing import CliRunner

from interp.cli import main

ROOT = Path(__file__).resolve().parents[2]

CONTRACT = """
import gc
from interp import collector
collector.for_process()
assert not gc.isenabled() and gc.get_freeze_count() == 0
made_before = [object() for _ in range(10)]
with collector.off():
    assert not gc.isenabled() and gc.get_freeze_count() > 0
assert gc.isenabled() and gc.get_threshold()[0] == collector.THRESHOLDS[0]
frozen = gc.get_freeze_count()
with collector.off():  # the second interpretation freezes nothing more
    assert not gc.isenabled() and gc.get_freeze_count() == frozen
assert gc.isenabled()
print("ok")
"""


def _env() -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": str(ROOT)}


def test_paused_until_the_first_interpretation_then_resumed_for_good():
    out = subprocess.run([sys.executable, "-c", CONTRACT], env=_env(), capture_output=True,
                         text=True, check=True)
    assert out.stdout.strip() == "ok"


def test_a_library_process_keeps_its_collector():
    """Without ``for_process`` an interpretation only pauses the collector: nothing frozen
    after it, and what it made (5,000 lists) left to the oldest generation instead of a young
    pass over it all at the next allocations (which would leave them in the middle one)."""
    code = ("import gc\nfrom interp import collector\nwith collector.off():\n"
            "    assert not gc.isenabled() and gc.get_freeze_count() == 0\n"
            "    made = [[] for _ in range(5000)]\n"
            "assert gc.isenabled() and gc.get_freeze_count() == 0\n"
            "x = [[] for _ in range(2000)]\n"  # (past the young threshold: a pass if any)
            "oldest = {id(o) for o in gc.get_objects(generation=2)}\n"
            "assert all(id(m) in oldest for m in made)\nprint('ok')")
    out = subprocess.run([sys.executable, "-c", code], env=_env(), capture_output=True,
                         text=True, check=True)
    assert out.stdout.strip() == "ok"


def test_predict_in_its_own_process_prints_what_it_prints_here():
    trapezoid = ROOT / "programs" / "trapezoid"
    args = ["predict", str(trapezoid / "host.f"), str(trapezoid / "node.f"), "-P", "4",
            "--set", "N=100000", "--set", "NITER=10", "--format", "json"]
    own = subprocess.run([sys.executable, "-m", "interp", *args], cwd=ROOT, env=_env(),
                         capture_output=True, text=True, check=True)
    here = CliRunner().invoke(main, args, catch_exceptions=False)
    assert here.exit_code == 0
    assert own.stdout == here.output
