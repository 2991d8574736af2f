"""The SAG as an object: paths, op lookup, symbols, what-if, run-time parameters, mapping."""

from __future__ import annotations

from pathlib import Path

import pytest
import sympy
from sympy import Rational as R

from interp.errors import InterpError, SpecError
from interp.system import HOST, Placement, UnknownName, default_mapping, load_machine, load_mapping, route

CLK = R("2.5e-8")


def test_tree_shape(ipsc):
    assert [s.name for s in ipsc.saus()] == ["ipsc860", "host", "srm_link", "cube", "node"]
    node = ipsc.sau("node")
    assert (node.p.type, node.m.type, node.cs.type, node.io.type) == ("simple", "compound", "simple", "compound")
    link = ipsc.sau("srm_link")
    assert (link.p.type, link.m.type, link.cs.type, link.io.type) == ("void", "void", "simple", "void")
    assert ipsc.root.kind == "compound"


def test_locations_point_into_the_yaml(ipsc):
    p = ipsc.param("node.cs.dynamic.per_byte")
    line = Path(ipsc.file).read_text(encoding="utf-8").splitlines()[p.location.line - 1]
    assert line.strip().startswith("per_byte: 0.36e-6 s")
    assert ipsc.sau("node").location.file == ipsc.file


def test_unknown_path_suggests(ipsc):
    with pytest.raises(UnknownName) as err:
        ipsc.param("node.cs.dynamic.per_bytes")
    assert "did you mean 'node.cs.dynamic.per_byte'" in err.value.render()


def test_op_lookup(ipsc):
    assert ipsc.op_path("int_div") == "node.p.ops.int_div"
    assert ipsc.op_path("nostep_per_iter") == "node.p.loop.nostep_per_iter"
    assert ipsc.op_path("library.sqrt") == "node.p.library.sqrt"
    assert ipsc.op_path("library.erf") == "node.p.library.default"  # unlisted library function
    assert ipsc.op_seconds("branch_taken") == CLK
    assert ipsc.op_seconds("overhead", "max", sau="host") == 30 / R(33 * 10**6)
    with pytest.raises(UnknownName, match="did you mean"):
        ipsc.op_seconds("mull")


def test_symbols_and_substitutions(ipsc):
    per_byte = ipsc.symbol("node.cs.dynamic.per_byte")
    formula = 175 * sympy.Integer(10) ** -6 + 1000 * per_byte
    assert formula.subs(ipsc.substitutions("mid")) == R("175e-6") + 1000 * R("0.36e-6")
    subs = ipsc.substitutions("max")
    assert subs[ipsc.symbol("node.p.ops.mul")] == 3 * CLK
    assert sympy.diff(formula, per_byte) == 1000  # sensitivity to the per-byte cost


def test_scaled_is_a_new_sag(ipsc):
    faster = ipsc.scaled({"node.cs.*.per_byte": R(1, 2)})
    assert faster.seconds("node.cs.dynamic.per_byte") == R("0.18e-6")
    assert faster.seconds("node.cs.static.per_byte") == R("0.21e-6")
    assert ipsc.seconds("node.cs.dynamic.per_byte") == R("0.36e-6")  # unchanged
    assert "what-if" in faster.param("node.cs.dynamic.per_byte").note
    with pytest.raises(UnknownName):
        ipsc.scaled({"node.cs.*.per_bite": 2})


def test_a_faster_clock_rescales_clock_counts_only(ipsc):
    fast = ipsc.with_values({"node.p.general.clock": "80 MHz"})
    assert fast.op_seconds("mul", "max") == 3 / R(80 * 10**6)
    # (1.256e-6 s / Clk) + 2 clk: the time part stays, the clocks get shorter
    assert fast.param("node.p.ops.int_div").max_seconds == R("1.256e-6") + 2 / R(80 * 10**6)
    assert fast.seconds("node.cs.dynamic.startup") == R("175e-6")


def test_with_values_checks_like_the_loader(ipsc):
    changed = ipsc.with_values({"node.cs.static.startup": "35e-6 s", "node.p.ops.mul": ("1 clk", "2 clk")})
    assert changed.seconds("node.cs.static.startup") == R("35e-6")
    assert changed.param("node.p.ops.mul").max_clocks == 2
    with pytest.raises(InterpError, match="expected a time"):
        ipsc.with_values({"node.cs.static.startup": "35 MHz"})
    with pytest.raises(InterpError, match="cannot be negative"):
        ipsc.with_values({"node.cs.static.startup": "-1 s"})


def test_runtime_parameter_scaling(cluster):
    p = cluster.param("core.cs.dynamic.per_byte")
    load = sympy.Symbol("load", real=True)
    assert p.seconds() == R("0.08e-9") / (1 - load)  # a function of the run-time parameter
    assert cluster.seconds("core.cs.dynamic.per_byte") == R("0.08e-9")  # at the default load 0
    assert cluster.seconds("core.cs.dynamic.per_byte", runtime={"load": 0.5}) == R("0.16e-9")
    busy = cluster.with_runtime({"load": 0.75})
    assert busy.seconds("core.cs.dynamic.per_byte") == R("0.32e-9")
    assert cluster.substitutions()[load] == 0
    with pytest.raises(InterpError, match="outside"):
        cluster.with_runtime({"load": 1})


def test_mapping(ipsc, tmp_path):
    mu = default_mapping(ipsc, 4)
    assert mu(2) == Placement("node", 2)
    assert mu(HOST) == Placement("host", 0)
    path = tmp_path / "map.yaml"
    path.write_text("0: 3\n3: 0\n", encoding="utf-8")
    mu = load_mapping(path, ipsc, 4)
    assert mu.nodes == (3, 1, 2, 0)
    assert route(ipsc, 0, 1, 4, mu) == [3, 1]


def test_mapping_errors(ipsc, tmp_path):
    path = tmp_path / "map.yaml"
    path.write_text("0: 1\n", encoding="utf-8")
    with pytest.raises(SpecError) as err:
        load_mapping(path, ipsc, 4)
    assert (err.value.location.line, err.value.location.column) == (1, 4)
    assert "both rank 0 and rank 1" in err.value.message
    path.write_text("0: 2\n2: 16\n", encoding="utf-8")
    with pytest.raises(SpecError, match=r"0\.\.15") as err:
        load_mapping(path, ipsc, 4)
    assert (err.value.location.line, err.value.location.column) == (2, 4)
    with pytest.raises(InterpError, match="at most 16"):
        default_mapping(ipsc, 17)


def test_unknown_machine_name():
    with pytest.raises(InterpError) as err:
        load_machine("ipsc")
    assert "did you mean 'ipsc860'" in err.value.render()


def test_what_if_rejects_bad_choices_and_negative_factors(ipsc):
    assert ipsc.with_values({"node.cs.spec.routing": "e-cube"}).param("node.cs.spec.routing").text == "e-cube"
    with pytest.raises(InterpError, match="not one of"):
        ipsc.with_values({"node.cs.spec.topology": "torus"})
    with pytest.raises(InterpError, match="cannot be negative"):
        ipsc.scaled({"node.cs.dynamic.startup": -1})
    with pytest.raises(InterpError, match="cannot scale"):
        ipsc.scaled({"node.cs.spec.topology": 2})
