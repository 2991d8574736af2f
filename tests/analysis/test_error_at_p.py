"""An error the program makes at one P of a sweep, a scaling or a formula in P says at which
P (``rowsplit.f`` takes Q = nint(sqrt(P)) rows: at P = 8 a row of 2 ranks is asked for its
rank 2). It said only what was wrong, so the user of ``--vary P=2,4,8`` could not tell which
P to look at (sweep 4). At the P the user gave with -P it reads as before."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from interp.cli import main

PROGRAM = str(Path(__file__).parent / "programs" / "rowsplit.f")
ROOT = "the root of MPI_BCAST at line 31 is rank 2, which does not exist"


@pytest.mark.parametrize("args", [
    ["sweep", PROGRAM, "--vary", "P=2,4,8"],
    ["scaling", PROGRAM, "--vary", "P=2..8:log2"],
    ["formula", PROGRAM, "--symbolic", "P", "--p-max", "16"],
])
def test_the_error_names_its_p(args):
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 2
    assert f"rowsplit.f:31:57: error: at P = 8: {ROOT}" in result.output


def test_at_the_p_given_it_is_as_before():
    result = CliRunner().invoke(main, ["predict", PROGRAM, "-P", "8"])
    assert result.exit_code == 2
    assert f"rowsplit.f:31:57: error: {ROOT}" in result.output


def test_scaling_is_not_stopped_by_a_p_it_was_not_asked_for():
    """``halo2d.f`` takes PX = 2 columns of ranks: at P = 1 it names rank 1. The formula in P
    is derived from P = 1 up, so ``scaling --vary P=2..8`` stopped at P = 1, which the user
    had not asked for; now there is no formula in P (said so, with the error) and the P values
    asked for are interpreted."""
    program = str(Path(__file__).parent / "programs" / "halo2d.f")
    result = CliRunner().invoke(main, ["scaling", program, "--vary", "P=2..8:log2"])
    assert result.exit_code == 0, result.output
    assert "no formula in P: at P = 1: the source of MPI_IRECV at line 41 is rank 1" in \
        " ".join(result.output.split())
    assert all(f"│ {p} │" in result.output for p in (2, 4, 8))


def test_a_host_program_on_a_machine_without_host():
    """The cluster spec has no host: a host program is refused at its LOAD, saying what to do
    (it was "this machine has no host SAU (machine.host), so there is no host process", with
    no place and no way out)."""
    here = Path(__file__).parent / "programs" / "gather_any"
    result = CliRunner().invoke(main, ["predict", str(here / "host.f"), str(here / "worker.f"),
                                       "-P", "4", "--machine", "cluster", "--set", "NB=10"])
    assert result.exit_code == 2
    assert "host.f:8:7: error: HOST is a host program (it loads the node program), but the " \
        "machine cluster has no host processor" in " ".join(result.output.split())
    assert "--machine ipsc860" in result.output
