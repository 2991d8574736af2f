"""A steady-state cut held as columns (docs/scale.md, branch p1m): what it keeps compares as
the per-rank records did.

* ``steady._varying``: the members of a class read their shadow's decision log; it is
  compared once per shadow *and* the same three log lengths, never for a rank of another
  shadow or at other lengths;
* ``timeval.Comparisons``: a window of recorded comparisons in columns gives back the
  ``(margin, nonnegative)`` pairs (and the spoilt mark) a list of them held.
"""

from __future__ import annotations

from types import SimpleNamespace

import sympy as sp
from hypothesis import given, settings
from hypothesis import strategies as st

from interp.engine.classes import DecisionView
from interp.engine.steady import _varying
from interp.engine.timeval import Comparisons, record_comparisons, later


def _member(shadow, n: int) -> SimpleNamespace:
    view = DecisionView(shadow)
    view.n = n
    return SimpleNamespace(decisions=view)


def _shadow(log: list) -> SimpleNamespace:
    return SimpleNamespace(proc=SimpleNamespace(decisions=log))


def test_a_class_that_varies_is_found_behind_one_that_repeats():
    """Shadow A decides ("IF 7", 1) twice: between cuts at log lengths 0, 1, 2 it repeats
    ([("IF 7", 1)] and [("IF 7", 1)]). Shadow B decides 1 then 2 at the same lengths:
    [("IF 7", 1)] against [("IF 7", 2)] differs. B's member comes after two of A's: a
    comparison kept by lengths alone would take A's answer for it and miss it."""
    a = _shadow([("IF 7", 1), ("IF 7", 1)])
    b = _shadow([("IF 7", 1), ("IF 7", 2)])
    live = [_member(a, 2), _member(a, 2), _member(b, 2)]
    found = _varying(live, [0, 0, 0], [1, 1, 1], [2, 2, 2])
    assert found == (live[2], [("IF 7", 1)], [("IF 7", 2)])


def test_one_shadow_at_other_lengths_is_compared_again():
    """One shadow's log x, x, x, y: at lengths 0, 1, 2 a member compares log[0:1] = [x]
    with log[1:2] = [x] (repeats); a member two decisions later, at 2, 3, 4, compares
    log[2:3] = [x] with log[3:4] = [y]. A comparison kept by the shadow alone would pass the
    second member."""
    x, y = ("DO 10", 4), ("DO 10", 5)
    s = _shadow([x, x, x, y])
    live = [_member(s, 4), _member(s, 4)]
    assert _varying(live, [0, 2], [1, 3], [2, 4]) == (live[1], [x], [y])


def test_every_rank_of_its_own_is_compared():
    """Ranks interpreted one by one (a list each): both compared; the second varies."""
    live = [SimpleNamespace(decisions=[("IF 3", 0), ("IF 3", 0)]),
            SimpleNamespace(decisions=[("IF 3", 0), ("IF 3", 1)])]
    assert _varying(live, [0, 0], [1, 1], [2, 2]) == (live[1], [("IF 3", 0)], [("IF 3", 1)])
    assert _varying(live[:1], [0], [1], [2]) is None


_MARGIN = st.one_of(st.floats(allow_nan=False, allow_infinity=False),
                    st.sampled_from([sp.Symbol("N") - 3, sp.Integer(2) * sp.Symbol("M")]))
_ITEM = st.one_of(st.none(), st.tuples(_MARGIN, st.sampled_from([True, False, None])))


@settings(max_examples=200, deadline=None)
@given(st.lists(_ITEM, max_size=30))
def test_comparisons_give_back_what_was_appended(items):
    window = Comparisons()
    for item in items:
        window.append(item)
    assert len(window) == len(items)
    assert list(window) == items
    assert window.spoilt == (None in items)
    if items:
        assert window[-1] == items[-1]


def test_comparisons_record_what_later_decides():
    """later(3.0, 1.0) decides 3.0 − 1.0 = 2.0 ≥ 0 (True); later(1.0, 2.5): −1.5, False."""
    window = Comparisons()
    record_comparisons(window)
    try:
        assert later(3.0, 1.0) == 3.0
        assert later(1.0, 2.5) == 2.5
    finally:
        record_comparisons(None)
    assert list(window) == [(2.0, True), (-1.5, False)]
    assert not window.spoilt
