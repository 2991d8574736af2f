"""Bad specs: each kind of mistake is one SpecError at the exact line and column."""

from __future__ import annotations

import pytest
from conftest import MINIMAL

from interp.errors import SpecError
from interp.system import load_machine


def error_for(write_spec, text: str) -> SpecError:
    with pytest.raises(SpecError) as err:
        load_machine(write_spec(text))
    return err.value


def where(err: SpecError) -> tuple[int, int]:
    return err.location.line, err.location.column


def test_minimal_spec_is_valid(write_spec):
    sag = load_machine(write_spec(MINIMAL))
    assert sag.nodes == "node" and sag.param("node.cs.dynamic.per_hop").seconds() > 0


def test_missing_field(write_spec):
    err = error_for(write_spec, MINIMAL.replace("      per_hop: 33e-6 s\n", ""))
    assert where(err) == (21, 5)  # the `dynamic:` key that lacks it
    assert err.message == "missing field 'per_hop' in node.cs.dynamic"
    assert "a time" in err.hint


def test_wrong_unit(write_spec):
    err = error_for(write_spec, MINIMAL.replace("startup: 175e-6 s", "startup: 175 MHz"))
    assert where(err) == (22, 16)
    assert "expected a time" in err.message and "got a frequency" in err.message


def test_clock_in_seconds(write_spec):
    err = error_for(write_spec, MINIMAL.replace("clock: 40 MHz", "clock: 25 ns"))
    assert where(err) == (9, 14)
    assert "expected a frequency" in err.message


def test_unknown_key_with_suggestion(write_spec):
    err = error_for(write_spec, MINIMAL.replace("      per_byte: 0.36e-6 s", "      per_bite: 0.36e-6 s"))
    assert where(err) == (23, 7)
    assert err.message == "unknown key 'per_bite' in node.cs.dynamic"
    assert err.hint == "did you mean 'per_byte'?"


def test_unknown_top_level_key(write_spec):
    err = error_for(write_spec, MINIMAL.replace("sag:\n", "sagg:\n"))
    assert where(err) == (5, 1)
    assert "unknown key 'sagg'" in err.message


def test_negative_time(write_spec):
    err = error_for(write_spec, MINIMAL.replace("startup: 175e-6 s", "startup: -175e-6 s"))
    assert where(err) == (22, 16)
    assert "cannot be negative" in err.message


def test_malformed_expression_points_inside_it(write_spec):
    err = error_for(write_spec, MINIMAL.replace("startup: 175e-6 s", "startup: 175e-6 s + * 2"))
    assert where(err) == (22, 27)  # at the '*'
    assert "unexpected '*'" in err.message
    err = error_for(write_spec, MINIMAL.replace("startup: 175e-6 s", "startup: 175e-6 sec"))
    assert where(err) == (22, 23)  # at the unit
    assert err.hint == "did you mean 's'?"


def test_adding_seconds_and_clocks_needs_clk(write_spec):
    err = error_for(write_spec, MINIMAL.replace("int_div: 40 clk", "int_div: 1.256e-6 s + 2 clk"))
    assert where(err) == (11, 61)  # at `2 clk`
    assert "/ Clk" in err.hint


def test_min_greater_than_max(write_spec):
    err = error_for(write_spec, MINIMAL.replace("mul: 2 clk", "mul: {max: 2 clk, min: 3 clk}"))
    assert where(err) == (11, 50)  # the min value
    assert "min (3 clk) is greater than max (2 clk)" in err.message


def test_value_and_range_together(write_spec):
    err = error_for(write_spec, MINIMAL.replace("mul: 2 clk", "mul: {value: 2 clk, min: 3 clk}"))
    assert where(err) == (11, 27)
    assert "either 'value' or both 'min' and 'max'" in err.message


def test_bad_choice(write_spec):
    err = error_for(write_spec, MINIMAL.replace("topology: hypercube", "topology: hypercub"))
    assert where(err) == (18, 17)
    assert err.hint.startswith("did you mean 'hypercube'?")


def test_bad_channel(write_spec):
    err = error_for(write_spec, MINIMAL.replace("switching: circuit", "switching: circuit\n      channel: lifo"))
    assert where(err) == (21, 16)
    assert "fifo" in err.hint and "fair" in err.hint


def test_routing_must_fit_topology(write_spec):
    err = error_for(write_spec, MINIMAL.replace("routing: e-cube", "routing: xy"))
    assert where(err) == (19, 16)
    assert "does not fit topology 'hypercube'" in err.message


def test_nodes_must_name_an_sau(write_spec):
    err = error_for(write_spec, MINIMAL.replace("nodes: node", "nodes: nod"))
    assert where(err) == (4, 10)
    assert err.hint == "did you mean 'node'?"


def test_node_sau_needs_sync(write_spec):
    err = error_for(write_spec, MINIMAL.replace("    sync: {overhead: 67e-6 s}\n", ""))
    assert where(err) == (16, 3)
    assert "needs cs.sync.overhead" in err.message


def test_duplicate_key(write_spec):
    err = error_for(write_spec, MINIMAL.replace("      receive: 0 s\n", "      receive: 0 s\n      receive: 1 s\n"))
    assert where(err) == (26, 7)


def test_yaml_syntax_error(write_spec):
    err = error_for(
        write_spec, MINIMAL.replace("    cond: {condition: 1 clk, branch_taken: 1 clk}", "    cond: [condition: 1 clk")
    )
    assert err.location.line == 14
    assert err.message.startswith("not valid YAML")


def test_wrong_type(write_spec):
    err = error_for(write_spec, MINIMAL.replace("      per_hop: 33e-6 s", "      per_hop: [1, 2]"))
    assert where(err) == (24, 16)
    assert "must be a time" in err.message and "not a list" in err.message


def test_clock_counts_need_a_clock(write_spec):
    text = MINIMAL.replace(
        "sag:\n  name: node\n",
        "sag:\n  name: node\n  children:\n    - name: link\n      cs: {sync: {overhead: 3 clk}}\n",
    )
    err = error_for(write_spec, text)
    assert where(err) == (9, 29)
    assert err.message == "'3 clk' is counted in clocks, but SAU 'link' has no clock"


def test_duplicate_sau_names(write_spec):
    text = MINIMAL.replace(
        "sag:\n  name: node\n", "sag:\n  name: node\n  children:\n    - name: node\n      io: compound\n"
    )
    err = error_for(write_spec, text)
    assert where(err) == (8, 13)
    assert "already used at line 6" in err.message


def test_runtime_default_outside_range(write_spec):
    text = MINIMAL.replace("sag:\n", "runtime:\n  load: {default: 2, min: 0, max: 0.9}\nsag:\n")
    err = error_for(write_spec, text)
    assert where(err) == (6, 19)


def test_runtime_function_checked_over_its_range(write_spec):
    text = MINIMAL.replace("sag:\n", "runtime:\n  load: {default: 0, min: 0, max: 1}\nsag:\n").replace(
        "per_byte: 0.36e-6 s", "per_byte: 0.36e-6 s / (1 - load)"
    )
    err = error_for(write_spec, text)
    assert where(err) == (25, 17)
    assert "not a finite number" in err.message and "load = 1" in err.message


def test_error_renders_without_traceback(write_spec):
    err = error_for(write_spec, MINIMAL.replace("startup: 175e-6 s", "startup: 175 MHz"))
    text = err.render()
    assert text.startswith(f"{err.location.file}:22:16: error:")
    assert "startup: 175 MHz" in text and "^" in text
    assert err.exit_code == 2


def test_all_void_sau(write_spec):
    text = MINIMAL.replace(
        "sag:\n  name: node\n", "sag:\n  name: node\n  io: compound\n  children:\n    - name: empty\n"
    )
    err = error_for(write_spec, text)
    assert where(err) == (9, 13)
    assert "only void components" in err.message


def test_children_need_a_compound_component(write_spec):
    text = MINIMAL.replace(
        "sag:\n  name: node\n", "sag:\n  name: node\n  children:\n    - name: disk\n      io: compound\n"
    )
    err = error_for(write_spec, text)
    assert where(err) == (6, 9)
    assert "no compound component" in err.message


def test_simple_component_without_parameters(write_spec):
    err = error_for(write_spec, MINIMAL.replace("  cs:\n", "  io: {}\n  cs:\n"))
    assert where(err) == (16, 3)
    assert "exports no parameters" in err.message


def test_count_must_be_whole(write_spec):
    err = error_for(write_spec, MINIMAL.replace("max_procs: 4", "max_procs: 4.5"))
    assert where(err) == (10, 18)
    assert "whole number" in err.message


def test_choice_is_not_a_range(write_spec):
    err = error_for(write_spec, MINIMAL.replace("topology: hypercube", "topology: {min: ring, max: full}"))
    assert where(err) == (18, 7)
    assert "a choice, not a range" in err.message
