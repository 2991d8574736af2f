"""A program SMPI cannot run (a rank aborts) gets a row that says so, and the other programs
of the same `interp validate` still run; the message leaves out the command line smpirun
echoes when a rank dies (thousands of characters of --cfg options)."""

from __future__ import annotations

from interp.analysis.validate import validate
from interp.system import load_machine

from .conftest import VALIDATION


def test_a_crash_is_a_row_and_validate_goes_on(smpi, workdir):
    crash, ring = VALIDATION / "probes" / "crash_abort.f", VALIDATION / "ring.f"
    rows = validate([str(crash), str(ring)], [2], load_machine("cluster"), workdir=workdir)
    first, second = rows
    assert first.program == "crash_abort" and first.smpi is None
    assert first.skipped.startswith("SMPI: smpirun failed on crash_abort with 2 ranks")
    assert "--cfg=" not in first.skipped and len(first.skipped) < 300
    assert second.program == "ring" and second.error is not None
    assert abs(second.error) < 0.01
