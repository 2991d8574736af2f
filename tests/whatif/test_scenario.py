"""Applying scenarios: new SAG, P and inputs, checked by hand arithmetic (Table 3 values)."""

from __future__ import annotations

import sympy as sp
from pytest import approx

from interp import api
from interp.engine.whatif import Scenario
from interp.system.filter import fat_tree
from interp.system.mapping import check_nprocs

R = sp.Rational


def applied(texts, sag, nprocs=16, given=None, program=None):
    return Scenario.from_texts(texts).apply(sag, nprocs, given or {}, program)


def test_scale_one_parameter(ipsc):
    sag, _, _ = applied(["node.cs.dynamic.per_byte *= 0.5"], ipsc.sag)
    assert sag.seconds("node.cs.dynamic.per_byte") == R(18, 10**8)  # 0.36e-6 / 2
    assert ipsc.sag.seconds("node.cs.dynamic.per_byte") == R(36, 10**8)  # the SAG is immutable
    assert sag.seconds("node.cs.static.per_byte") == R(42, 10**8)


def test_divide_through_a_glob(ipsc):
    sag, _, _ = applied(["node.cs.*.per_hop /= 2"], ipsc.sag)
    assert sag.seconds("node.cs.dynamic.per_hop") == R(33, 2 * 10**6)
    assert sag.seconds("node.cs.static.per_hop") == R(11, 2 * 10**6)
    assert sag.seconds("srm_link.cs.dynamic.per_hop") == R(33, 10**6)


def test_clock_rescales_every_clock_count(ipsc):
    sag, _, _ = applied(["clock = 80MHz"], ipsc.sag)
    assert sag.value("node.p.general.clock") == 80 * 10**6
    assert sag.seconds("node.p.ops.mul") == R(5, 2) / (80 * 10**6)  # 2..3 clk: mid 2.5 clk
    # real_div is (2.241e-6 s / Clk) + 2 clk .. (2.391e-6 s / Clk) + 5 clk: the times stay
    assert sag.seconds("node.p.ops.real_div") == R(2316, 10**9) + R(7, 2) / (80 * 10**6)
    assert sag.seconds("host.p.ops.mul") == ipsc.sag.seconds("host.p.ops.mul")


def test_set_a_value_with_units(ipsc):
    sag, _, _ = applied(["node.p.ops.real_div = 20 clk"], ipsc.sag)
    assert sag.seconds("node.p.ops.real_div", "min") == sag.seconds("node.p.ops.real_div", "max") \
        == R(20, 40 * 10**6)
    assert "what-if" in sag.param("node.p.ops.real_div").note


def test_add_and_subtract_keep_the_range(ipsc):
    sag, _, _ = applied(["node.p.ops.real_div += 1 us"], ipsc.sag)
    for bound in ("min", "max"):
        assert sag.seconds("node.p.ops.real_div", bound) == \
            ipsc.sag.seconds("node.p.ops.real_div", bound) + R(1, 10**6)
    sag, _, _ = applied(["node.cs.static.startup -= 5e-6 s"], ipsc.sag)
    assert sag.seconds("node.cs.static.startup") == R(65, 10**6)


def test_set_a_named_choice(ipsc):
    sag, _, _ = applied(["node.cs.spec.topology = ring"], ipsc.sag)
    assert sag.param("node.cs.spec.topology").text == "ring"


def test_nprocs(ipsc):
    assert applied(["P = 8"], ipsc.sag)[1] == 8
    assert applied(["P *= 2"], ipsc.sag, nprocs=4)[1] == 8
    assert applied(["P /= 2", "P += 1", "P -= 2"], ipsc.sag, nprocs=16)[1] == 7


def test_program_inputs(ipsc, trapezoid):
    _, _, given = applied(["N = 1e6", "N *= 10", "NITER = 4", "NITER += 1"], ipsc.sag,
                          program=trapezoid.aag)
    assert given == {"N": 10**7, "NITER": 5}
    assert isinstance(given["N"], sp.Integer)
    _, _, given = applied(["N /= 4"], ipsc.sag, given={"TRAPH.N": sp.Integer(100)},
                          program=trapezoid.aag)
    assert given == {"TRAPH.N": 25}  # the name the value was given under is kept


def test_integer_input_must_stay_whole(ipsc, trapezoid):
    import pytest

    from interp.engine.whatif import WhatIfError

    with pytest.raises(WhatIfError, match="INTEGER input"):
        applied(["N /= 3"], ipsc.sag, given={"N": sp.Integer(100)}, program=trapezoid.aag)


def test_runtime_parameter_scales_per_byte(cluster):
    """per_byte = 0.08 ns / (1 - load): load 0.3 makes it 0.08 ns / 0.7."""
    sag, _, _ = applied(["load = 0.3"], cluster.sag, nprocs=2)
    assert sag.seconds("core.cs.dynamic.per_byte") == R(8, 10**11) / R(7, 10)
    assert sag.seconds("core.cs.static.per_byte") == R(8, 10**11) / R(7, 10)
    assert sag.seconds("core.cs.dynamic.startup") == cluster.sag.seconds("core.cs.dynamic.startup")
    sag, _, _ = applied(["load = 0.3", "load += 0.2"], cluster.sag, nprocs=2)
    assert sag.seconds("core.cs.dynamic.per_byte") == R(8, 10**11) / R(1, 2)


def transmission(pred, process=0) -> float:
    return float(pred.evaluate(pred.process_rows()[process]["transmission"]))


def test_halving_per_byte_halves_the_transmitted_bytes(twonode, ipsc):
    """1000 bytes, dynamic buffers, one hop: 1000·0.36e-6 + 33e-6 = 393 us; halved per_byte:
    1000·0.18e-6 + 33e-6 = 213 us (Table 3)."""
    base = api.predict(twonode, ipsc, 2)
    half = api.predict(twonode, ipsc, 2, what_if=["node.cs.dynamic.per_byte *= 0.5"])
    assert transmission(base) == approx(1000 * 0.36e-6 + 33e-6, rel=1e-12)
    assert transmission(half) == approx(1000 * 0.18e-6 + 33e-6, rel=1e-12)
    assert base.seconds - half.seconds == approx(1000 * 0.18e-6, rel=1e-9)


def test_load_grows_a_message_heavy_program(bigmsg, cluster):
    """Ten 10^6-byte messages: transmission 10·(10^6·0.08 ns + 0.1 us) = 801 us at load 0;
    at load 0.3, 10·(10^6·0.08 ns/0.7 + 0.1 us), and the total grows by the difference,
    10·10^6·0.08e-9·(1/0.7 - 1) = 342.857 us (the receiver waits for every byte)."""
    base = api.predict(bigmsg, cluster, 2)
    loaded = api.predict(bigmsg, cluster, 2, what_if=["load = 0.3"])
    assert transmission(base) == approx(10 * (1e6 * 0.08e-9 + 0.1e-6), rel=1e-12)
    assert transmission(loaded) == approx(10 * (1e6 * 0.08e-9 / 0.7 + 0.1e-6), rel=1e-12)
    assert loaded.seconds - base.seconds == approx(10 * 1e6 * 0.08e-9 * (1 / 0.7 - 1), rel=1e-9)


def test_whatif_p_and_inputs_reach_the_prediction(trapezoid, ipsc):
    pred = api.predict(trapezoid, ipsc, 16, {"N": 1000, "NITER": 10},
                       what_if=["P = 4", "N *= 10"], symbolic=False)
    assert pred.nprocs == 4 and pred.given["N"] == 10**4
    direct = api.predict(trapezoid, ipsc, 4, {"N": 10**4, "NITER": 10}, symbolic=False)
    assert pred.seconds == direct.seconds


def test_procs_regrows_the_fat_tree(cluster):
    """procs is the cluster's run-time size: 2^20 cores make its 64-port tree 4 levels deep
    (32^4 = 2^20), and P may then be 2^20."""
    sag, nprocs, _ = applied(["procs = 1048576", "P = 1048576"], cluster.sag, nprocs=2)
    assert fat_tree(sag).levels == 4 and check_nprocs(sag, nprocs) == 1 << 20
    assert fat_tree(cluster.sag).levels == 2  # 1024 cores by default
