"""A loop whose exit test reads a value that code interp cannot see may change: an error that
says so and how to go on (no traceback: this used to escape as NotStatic)."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from interp.cli import main
from interp.errors import InterpError

from .helpers import program, run


def test_unknown_exit_condition_is_a_clear_error():
    with pytest.raises(InterpError) as info:
        run(program("opaqueexit.f"), 1)
    assert "IF at line 6" in info.value.message
    assert "--iterations" in info.value.hint


def test_the_cli_exits_2_and_iterations_resolve_it():
    path = program("opaqueexit.f")
    bad = CliRunner().invoke(main, ["predict", path, "-P", "1"])
    assert bad.exit_code == 2 and "Traceback" not in bad.output
    good = CliRunner().invoke(main, ["predict", path, "-P", "1", "--iterations", f"{path}:6=3"])
    assert good.exit_code == 0, good.output
    assert "Predicted time" in good.output
