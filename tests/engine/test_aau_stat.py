"""AAUStat gathers a closed form's symbolic (count, δ) by value and sums them when read (EP
adds the same sum with a branch probability in it once per batch). Whatever the order of
adds, reads and sets, what it gives back equals the plain running sum."""

from __future__ import annotations

import sympy as sp
from hypothesis import given, settings
from hypothesis import strategies as st

from interp.engine.process import AAUStat

P = sp.Symbol("p")
# a term: (count, δ) as a closed form gives it, numeric or with the branch probability p
terms = st.tuples(st.integers(0, 5), st.sampled_from([0.25, 1.5, 3.0]),
                  st.booleans()).map(
    lambda t: (t[0], t[1] * P + 0.5) if t[2] else (t[0], t[1]))
ops = st.lists(st.one_of(terms.map(lambda t: ("add", t)), st.just(("read", None)),
                         st.just(("set", None))), max_size=200)


@settings(max_examples=60, deadline=None)
@given(ops)
def test_reads_give_the_running_sum(sequence):
    stat, count, total = AAUStat(), 0, 0.0
    for op, term in sequence:
        if op == "add":
            stat.add(*term)
            count, total = count + term[0], total + term[1]
        elif op == "read":
            assert sp.expand(stat.count - count) == 0
            assert abs(float(sp.expand(stat.total - total).subs(P, 0.37))) < 1e-9
        else:  # the steady-state fold sets them: pending terms must come first
            stat.count = stat.count + 1
            stat.total = stat.total + 2.0
            count, total = count + 1, total + 2.0
    assert sp.expand(stat.count - count) == 0
    assert abs(float(sp.expand(stat.total - total).subs(P, 0.37))) < 1e-9


def test_many_distinct_terms_are_summed_as_they_come():
    stat = AAUStat()
    for k in range(3 * AAUStat.TERMS):  # each δ distinct: held at most TERMS at a time
        stat.add(1, k * P)
        assert stat._terms is None or len(stat._terms) <= AAUStat.TERMS
    assert stat.count == 3 * AAUStat.TERMS
    assert sp.expand(stat.total - sum(range(3 * AAUStat.TERMS)) * P) == 0


def test_equal_terms_are_one_product():
    stat = AAUStat()
    for _ in range(1000):
        stat.add(2, 3.0 * P + 1.0)
    assert stat.count == 2000
    assert sp.expand(stat.total - (3000.0 * P + 1000.0)) == 0
