"""--what-if on the shared prediction options of the commands."""

from __future__ import annotations

import json

from click.testing import CliRunner
from pytest import approx

from interp.cli import main

from .conftest import PROGRAMS

TWONODE = str(PROGRAMS / "twonode.f")


def run(*args):
    return CliRunner().invoke(main, list(args))


def test_predict_with_whatif():
    base = json.loads(run("predict", TWONODE, "-P", "2", "--format", "json").output)
    res = run("predict", TWONODE, "-P", "2", "--format", "json",
              "--what-if", "node.cs.dynamic.per_byte *= 0.5", "--what-if", "P = 4")
    assert res.exit_code == 0, res.output
    data = json.loads(res.output)
    assert data["nprocs"] == 4
    assert data["total_seconds"] == approx(base["total_seconds"] - 1000 * 0.18e-6)


def test_formula_with_whatif_on_an_input():
    f = str(PROGRAMS / "unrolled.f")
    res = run("formula", f, "--set", "K=1", "--what-if", "K += 1", "--what-if", "M = 10")
    assert res.exit_code == 0, res.output
    assert "M" in res.output  # M keeps its symbol; K was needed (2 trips of the GO TO loop)


def test_check_with_whatif():
    res = run("check", TWONODE, "--what-if", "P = 2")
    assert res.exit_code == 0, res.output


def test_malformed_whatif_exit_2_with_column():
    res = run("predict", TWONODE, "-P", "2", "--what-if", "node.cs.dynamic.per_byte ** 2")
    assert res.exit_code == 2
    assert "what-if:1:26: error: unexpected '**': expected an operator" in res.output


def test_unknown_name_exit_2_did_you_mean():
    res = run("predict", TWONODE, "-P", "2", "--what-if", "node.cs.dynamic.perbyte *= 2")
    assert res.exit_code == 2 and "did you mean 'node.cs.dynamic.per_byte'" in res.output


def test_commands_with_their_own_whatif_keep_it():
    for command in main.commands.values():
        flags = [p for p in command.params if "--what-if" in getattr(p, "opts", ())]
        assert len(flags) <= 1, command.name
