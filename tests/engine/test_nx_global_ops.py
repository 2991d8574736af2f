"""The NX/2 global operations on REAL, INTEGER and LOGICAL values: GSSUM, GSHIGH, GSLOW,
GSPROD, GIPROD, GIAND, GIOR, GIXOR, GLAND and GLOR (they were refused as routines interp does
not model; an ordinary NX/2 program sums its REALs with GSSUM). Each is GDSUM's exchange on
4-byte elements, and its result is followed.

gops.f on 8 nodes (node k holds the values below), then node 0 sends NB bytes to node 1:

* GSSUM of k + 1: 36; GSHIGH of k: 7; GSLOW of k + 3: 3; GSPROD of 2.0: 2^8 = 256;
* GIPROD of 2: 256; GIAND of k + 8 (1000b .. 1111b): 8; GIOR of k: 7;
  GIXOR of k + 1: 1^2^3^4^5^6^7^8 = 8;
* GLAND of k ≥ 0: true; GLOR of k = 3: true, so NB gains 1000.

NB = 36 + 7 + 3 + 256 + 256 + 8 + 7 + 8 + 1000 = 1581 bytes: above the 100-byte static
buffers, one hop (node 0 to 1), so the CSEND's δ is Table 3's dynamic message,
175 us + 1581 · 0.36 us + 33 us = 777.16 us.
"""

from __future__ import annotations

import pytest

from .helpers import ADD, REL, dynamic_msg, program, run, static_msg

NB = 36 + 7 + 3 + 256 + 256 + 8 + 7 + 8 + 1000


def test_the_results_size_the_message_by_hand():
    pred = run(program("gops.f"), 8)
    send = next(r for r in pred.aau_rows() if r["type"] == "Comm" and r["line"] == 33)
    assert NB == 1581
    assert dynamic_msg(NB, 1) == pytest.approx(175e-6 + 1581 * 0.36e-6 + 33e-6, rel=REL)
    assert float(send["total"]) == pytest.approx(dynamic_msg(NB, 1), rel=REL)
    assert not pred.scheduler.problems


def test_each_is_priced_as_a_4_byte_exchange():
    """Ten global operations of one 4-byte element, the 8 nodes entering together: each
    log2(8) = 3 exchange rounds of a static 4-byte message to a neighbour and one combine,
    3 · (70 + 4 · 0.42 + 11 us + 25 ns) = 248.115 us a node."""
    pred = run(program("gops.f"), 8)
    ops = [r for r in pred.aau_rows() if r["type"] == "SyncSeq"]
    assert {r["line"] for r in ops} == {11, 13, 15, 17, 19, 21, 23, 25, 27, 29}
    per_node = 3 * (static_msg(4, 1) + ADD)
    assert per_node == pytest.approx(3 * (70e-6 + 4 * 0.42e-6 + 11e-6 + 25e-9), rel=REL)
    for r in ops:
        assert r["count"] == 8
        assert float(r["total"]) == pytest.approx(8 * per_node, rel=REL), r["line"]
