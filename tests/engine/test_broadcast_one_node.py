"""An NX/2 broadcast (CSEND to −1) on one node reaches no one and returns at once. It was an
internal error (IndexError: the send had no destination to price), which also broke
`interp formula --symbolic P`: its fit interprets the program at P = 1 first.

bcastone.f: node 0 broadcasts 4 bytes. At P = 2 the broadcast is one static message to the
neighbour, 70 + 4 · 0.42 + 11 us = 82.68 us (Table 3); at P = 1 it costs nothing.
"""

from __future__ import annotations

import pytest

from .helpers import REL, program, run, static_msg

BCASTONE = program("bcastone.f")


def _send_row(pred) -> dict:
    return next(r for r in pred.aau_rows() if r["type"] == "Comm" and r["line"] == 6)


def test_on_one_node_the_broadcast_returns_at_once():
    pred = run(BCASTONE, 1)
    row = _send_row(pred)
    assert row["count"] == 1
    assert float(row["total"]) == 0
    assert not pred.scheduler.problems


def test_on_two_nodes_it_is_one_message():
    pred = run(BCASTONE, 2)
    assert static_msg(4, 1) == pytest.approx(70e-6 + 4 * 0.42e-6 + 11e-6, rel=REL)
    assert float(_send_row(pred)["total"]) == pytest.approx(static_msg(4, 1), rel=REL)
