"""Link contention when a message's times are symbols: the formula evaluated at a point is
the numeric prediction there. Which messages share a link is decided with numbers only; it
used to be skipped for messages whose times were symbolic, so the formula had no contention
while the numeric run (``symbolic=False``, what lost-cycles uses) had it (NPB MG class S,
P = 4: 2.109 s against 2.157 s, ZRAN3's data-dependent IFs before COMM3's messages). Now,
when link sharing delays messages at the inputs given, the inputs those times depend on are
used with their values.

twoindata.f is twoin.f (test_contention.py) with a data-dependent IF on node 0 before its
send (branch probability p = p_twoindata_f_14). Nodes 0 → 2 (route 0-2, weight 1) and
1 → 2 (route 1-0-2, weight 2) share link 0 → 2, 1000 bytes each (dynamic buffers,
wire = 360 us). Worked in test_contention.py: the later flow (1 → 2, on the wire
a_start − b_start after the other) arrives wire − (a_start − b_start) later than alone, and
node 2 finishes then. A CSEND returns once its message is out (start + wire), so
a_start − b_start is node 1's finish minus node 0's in the contention-free run."""

from __future__ import annotations

import pytest
import sympy as sp
from hypothesis import given, settings
from hypothesis import strategies as st

from .helpers import COND, DYNAMIC_PER_BYTE, STORE, TAKEN, program, run
from .test_contention import _without_contention

P = "p_twoindata_f_14"
THEN = 3 * STORE + COND + TAKEN  # the probe IF's arms (test_data_branches.py): 200 ns
ELSE = STORE + 2 * COND + TAKEN  # 125 ns
WIRE = 1000 * DYNAMIC_PER_BYTE  # 360 us


def _at(p: float, **kw):
    return run(program("twoindata.f"), 4, {P: sp.Float(p)}, **kw)


@pytest.mark.parametrize("p", [0.0, 0.5, 1.0])
def test_the_formula_at_the_point_has_the_contention_of_the_numeric_run(p, tmp_path):
    free = _at(p, machine=_without_contention(tmp_path), symbolic=False)
    lead = free.processes[1].finish - free.processes[0].finish  # a_start − b_start
    # the extra hop (33 us) less node 0's extra work (IFUN, the IFs: under a microsecond)
    assert 32e-6 < lead < 33e-6
    delay = WIRE - lead  # 327 us + node 0's IF
    numeric = _at(p, symbolic=False)
    symbolic = _at(p)
    assert numeric.seconds - free.seconds == pytest.approx(delay, rel=1e-9)
    assert float(symbolic.evaluate(symbolic.total)) == pytest.approx(numeric.seconds, rel=1e-12)
    assert any(f"which messages share links depends on {P}" in n for n in symbolic.notes)


def test_node_0s_branch_reaches_node_2_through_the_shared_link():
    # contention-free, node 2's finish is node 1's message: p does not move it; sharing the
    # link, node 0's later start leaves node 1's flow less of the link to itself
    assert _at(1.0, symbolic=False).seconds - _at(0.0, symbolic=False).seconds == \
        pytest.approx(THEN - ELSE, rel=1e-6)


def test_without_contention_the_probability_stays_a_symbol(tmp_path):
    pred = _at(0.5, machine=_without_contention(tmp_path))
    assert P in {s.name for s in pred.total.free_symbols}
    assert not any("link contention" in n for n in pred.notes)


@settings(max_examples=15, deadline=None)
@given(st.floats(0.0, 1.0))
def test_symbolic_at_a_point_equals_numeric(p):
    symbolic, numeric = _at(p), _at(p, symbolic=False)
    assert float(symbolic.evaluate(symbolic.total)) == pytest.approx(numeric.seconds, rel=1e-12)
