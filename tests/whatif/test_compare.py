"""``interp compare``: baseline vs scenario per component, by hand arithmetic on Table 3."""

from __future__ import annotations

import json

from click.testing import CliRunner
from pytest import approx

from interp import api
from interp.cli import main

from .conftest import PROGRAMS

TWONODE = str(PROGRAMS / "twonode.f")


def test_compare_json_by_hand():
    """Halving node.cs.dynamic.per_byte saves 1000·0.18e-6 s of node 0's transmission, and node
    1 waits that much less for the message."""
    res = CliRunner().invoke(main, ["compare", TWONODE, "-P", "2", "--what-if",
                                    "node.cs.dynamic.per_byte *= 0.5", "--format", "json"])
    assert res.exit_code == 0, res.output
    data = json.loads(res.output)
    assert data["what_if"] == ["node.cs.dynamic.per_byte *= 0.5"]
    assert data["baseline"]["nprocs"] == data["scenario"]["nprocs"] == 2
    rows = {r["component"]: r for r in data["components"]}
    assert list(rows) == ["total", "computation", "call", "transmission", "waiting", "idle"]
    saved = 1000 * 0.18e-6
    assert rows["transmission"]["baseline_seconds"] == approx(1000 * 0.36e-6 + 33e-6)
    assert rows["transmission"]["difference_seconds"] == approx(-saved)
    assert rows["waiting"]["difference_seconds"] == approx(-saved)
    assert rows["total"]["difference_seconds"] == approx(-saved)
    assert rows["total"]["difference_percent"] == approx(-100 * saved / rows["total"]["baseline_seconds"])
    assert rows["computation"]["difference_seconds"] == 0
    assert rows["call"]["difference_seconds"] == 0
    assert data["scenario"]["total_seconds"] == approx(data["baseline"]["total_seconds"] - saved)


def test_compare_text_and_changed_p():
    res = CliRunner().invoke(main, ["compare", TWONODE, "-P", "2", "--what-if", "P = 4"])
    assert res.exit_code == 0, res.output
    assert "Baseline vs scenario" in res.output and "Scenario: P = 4" in res.output


def test_compare_needs_a_whatif():
    res = CliRunner().invoke(main, ["compare", TWONODE, "-P", "2"])
    assert res.exit_code == 2 and "--what-if" in res.output


def test_compare_api(twonode, ipsc):
    c = api.compare(twonode, ipsc, 2, what_if=["node.cs.*.startup /= 2"])
    rows = {r["component"]: r for r in c.rows}
    assert rows["call"]["difference_seconds"] == approx(-175e-6 / 2)  # dynamic startup, Table 3
