"""``interp validate`` on the shipped MPI samples. ring_mpi.f ends in STOP after MPI_FINALIZE:
SimGrid then prints no "Simulated time", only each exiting rank's time ("smpirun failed ...
(exit 0)" before); the latest exit is the run's end."""

from __future__ import annotations

import shutil

import pytest

from .helpers import SAMPLES, invoke

pytestmark = pytest.mark.skipif(shutil.which("smpirun") is None, reason="SimGrid absent")


def test_a_program_ending_in_stop(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    result = invoke("validate", SAMPLES / "mpi_ring" / "ring_mpi.f", "-P", "2")
    assert result.exit_code == 0, result.output
    row = next(line for line in result.stdout.splitlines() if line.startswith("| ring_mpi"))
    smpi = float(row.split("|")[4].replace(",", ""))
    assert smpi > 0  # a time was read, not an error


def test_a_program_reading_stdin(tmp_path, monkeypatch):
    """trap_mpi.f READs N and NITER from unit 5: a clear error naming the line, not
    "smpirun failed" with gfortran's end-of-file message."""
    monkeypatch.chdir(tmp_path)
    result = invoke("validate", SAMPLES / "mpi_trapezoid" / "trap_mpi.f", "-P", "2")
    assert result.exit_code == 2, result.output
    assert "error: trap_mpi READs standard input at line 30" in result.stderr
    assert "smpirun failed" not in result.stderr
