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
