"""`interp machine list | show | validate` through click's test runner."""

from __future__ import annotations

import json

import click
from click.testing import CliRunner
from conftest import MINIMAL

from interp.cli import machine_option, main
from interp.resources import MACHINE_SPECS


def run(*args: str):
    return CliRunner().invoke(main, list(args))


def test_list():
    result = run("machine", "list")
    assert result.exit_code == 0
    assert "ipsc860" in result.output and "cluster" in result.output


def test_show_tree_marks_assumptions():
    result = run("machine", "show", "ipsc860")
    assert result.exit_code == 0, result.output
    out = result.output
    assert "int_div max (1.256e-6 s / Clk) + 2 clk = 1.306 µs · min (1.106e-6 s / Clk) + 1 clk = 1.131 µs" in out
    assert "startup 175e-6 s" in out
    assert "[assumption]" in out and "Receive Ovhd is '-'" in out
    assert "78 of 129 values are assumptions" in out  # (cs.spec.any_source, self_sendrecv)


def test_show_json():
    result = run("machine", "show", "ipsc860", "--format", "json")
    assert result.exit_code == 0
    data = json.loads(result.output)
    node = data["sag"]["children"][2]["children"][0]
    mul = node["components"]["p"]["parameters"]["ops"]["mul"]
    assert (mul["max"], mul["min"], mul["assumption"]) == ("3 clk", "2 clk", False)
    assert mul["max_value"] == 3 * 2.5e-8
    assert "node.cs.static.receive" in data["assumptions"]


def test_show_file_with_runtime_parameter():
    result = run("machine", "show", str(MACHINE_SPECS / "cluster.yaml"))
    assert result.exit_code == 0
    assert "(at load = 0)" in result.output


def test_validate_ok(write_spec):
    result = run("machine", "validate", write_spec(MINIMAL))
    assert result.exit_code == 0
    assert result.output.startswith("ok")


def test_validate_bad_spec_exit_2_without_traceback(write_spec):
    path = write_spec(MINIMAL.replace("startup: 175e-6 s", "startup: 175 MHz"))
    result = run("machine", "validate", path)
    assert result.exit_code == 2
    assert f"{path}:22:16: error:" in result.output
    assert "Traceback" not in result.output
    assert isinstance(result.exception, SystemExit)  # a clean exit, not a crash


def test_unknown_machine_exit_2():
    result = run("machine", "show", "ipsc861")
    assert result.exit_code == 2
    assert "did you mean 'ipsc860'" in result.output


def test_machine_option_loads_the_sag():
    @click.command()
    @machine_option
    def probe(machine):
        click.echo(machine.title)

    assert CliRunner().invoke(probe, []).output.startswith("Intel iPSC/860")
    assert CliRunner().invoke(probe, ["--machine", "cluster"]).output.startswith("x86-64 cluster")
