"""Sensitivities: signs, ranking, and the exact elasticities of a linear program."""

from __future__ import annotations

import re

import pytest
from click.testing import CliRunner
from pytest import approx

from interp import api
from interp.analysis.sensitivity import used_parameters
from interp.cli import main

from .conftest import PROGRAMS


@pytest.fixture(scope="module")
def trapezoid_large_n(trapezoid, ipsc):
    return api.sensitivity(trapezoid, ipsc, 4, {"N": 10**6, "NITER": 10})


def test_trapezoid_at_large_n_is_most_sensitive_to_real_div(trapezoid_large_n):
    s = trapezoid_large_n
    machine = [e for e in s.entries if e.kind == "machine"]
    assert machine[0].name == "node.p.ops.real_div"
    assert 0.5 < machine[0].elasticity < 1
    mags = [abs(e.elasticity) for e in s.entries]
    assert mags == sorted(mags, reverse=True)


def test_signs(trapezoid_large_n):
    by = {e.name: e for e in trapezoid_large_n.entries}
    assert by["node.p.general.clock"].elasticity < 0  # a faster clock: less time
    assert all(e.elasticity > 0 for e in trapezoid_large_n.entries
               if e.kind == "machine" and e.what == "time")
    # T is close to proportional to N and to NITER
    assert by["N"].elasticity == approx(1, abs=0.02)
    assert by["NITER"].elasticity == approx(1, abs=0.02)


def test_sentence(trapezoid_large_n):
    by = {e.name: e for e in trapezoid_large_n.entries}
    assert re.fullmatch(r"a 1% faster node\.p\.ops\.real_div saves 0\.\d+% \([\d.]+ (ms|s)\)",
                        by["node.p.ops.real_div"].sentence())
    assert by["node.p.general.clock"].sentence().startswith("a 1% faster node.p.general.clock saves")
    assert by["N"].sentence().startswith("a 1% larger N costs")


def test_linear_program_exact_elasticities(twonode, ipsc):
    """T = computation + 175 us + 1000·0.36 us + 33 us: each term's share is its elasticity."""
    s = api.sensitivity(twonode, ipsc, 2)
    by = {e.name: e.elasticity for e in s.entries}
    t = s.seconds
    assert by["node.cs.dynamic.per_byte"] == approx(1000 * 0.36e-6 / t, rel=1e-6)
    assert by["node.cs.dynamic.startup"] == approx(175e-6 / t, rel=1e-6)
    assert by["node.cs.dynamic.per_hop"] == approx(33e-6 / t, rel=1e-6)
    assert "node.cs.static.per_byte" not in by  # 1000 bytes: the dynamic class only
    assert s.entries[0].name == "node.cs.dynamic.per_byte"


def test_only_parameters_the_prediction_reads(twonode, ipsc):
    from interp.analysis.setup import Setup

    _, used = used_parameters(Setup(twonode.aag, ipsc.sag, 2))
    assert "node.cs.dynamic.per_byte" in used and "node.p.general.clock" in used
    assert not any(p.startswith("host.") or p.startswith("srm_link.") for p in used)


def test_command_json():
    res = CliRunner().invoke(main, ["sensitivity", str(PROGRAMS / "twonode.f"), "-P", "2",
                                    "--format", "json"])
    assert res.exit_code == 0, res.output
    import json

    data = json.loads(res.output)
    assert data["entries"][0]["name"] == "node.cs.dynamic.per_byte"
    assert data["entries"][0]["sentence"].startswith("a 1% faster node.cs.dynamic.per_byte saves")
