"""``predict`` without the inputs its time depends on exits 2 naming every one and how to pass
it (it printed "needs input values" and exited 0); trap_mpi.f's "too many ways" case names
NITER too; an MPI collective on one rank has no messages to price (was a ValueError)."""

from __future__ import annotations

from .helpers import SAMPLES, invoke

TRAPEZOID = [SAMPLES / "trapezoid" / "host.f", SAMPLES / "trapezoid" / "node.f"]
TRAP_MPI = SAMPLES / "mpi_trapezoid" / "trap_mpi.f"


def test_predict_names_every_missing_input():
    result = invoke("predict", *TRAPEZOID, "-P", "4")
    assert result.exit_code == 2, result.output
    assert "error: the predicted time depends on inputs that were not given: N, NITER" \
        in result.stderr
    assert "--set N=VALUE --set NITER=VALUE" in result.stderr


def test_too_many_ways_names_niter_too():
    # with N and NITER both symbols the loop reaches no steady state in its first iterations
    # (the clocks' order depends on N), so its count must be known: both are named
    result = invoke("predict", TRAP_MPI, "-P", "16")
    assert result.exit_code == 2, result.output
    assert "trap_mpi.f:39:7: error:" in result.stderr
    assert "depends on input values that were not given: N, NITER" in result.stderr
    assert "--set N=VALUE --set NITER=VALUE" in result.stderr


def test_one_rank_collective():
    result = invoke("predict", TRAP_MPI, "-P", "1", "--set", "N=100", "--set", "NITER=3")
    assert result.exit_code == 0, result.output
