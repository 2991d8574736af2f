"""-P 3 on the iPSC/860 hypercube is explained: a real machine allocates a subcube of 2^d nodes
(here 2^2 = 4), 3 of which run the program. A power of two needs no note."""

from __future__ import annotations

import json

from .helpers import SAMPLES, invoke

RING = SAMPLES / "ring" / "ring.f"


def notes(nprocs: int) -> list[str]:
    result = invoke("predict", RING, "-P", nprocs, "--format", "json")
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)["notes"]


def test_three_nodes_are_three_of_a_four_node_subcube():
    assert ("P = 3 is not a power of two: the hypercube allocates a 4-node subcube; nodes 0..2 "
            "of it run the program (e-cube routes), 1 of it idle") in notes(3)


def test_four_nodes_need_no_note():
    assert not any("power of two" in n for n in notes(4))
