"""Reading some elements of an array without building the dictionary of all of them
(``Frame.elements_at``, ``Frame.known_elements``) and the suffixes of a message's stretch of
storage made once (``requests._suffixes``): each gives what the code it replaced gave, the
dictionary of every element (``Frame.elements``) and the loop over storage positions."""

from __future__ import annotations

import itertools

from hypothesis import given
from hypothesis import strategies as st

from interp.application.symbols import SymbolTable
from interp.engine.requests import _suffixes
from interp.engine.values import UNKNOWN, Frame, Lazy, Layout, Store, Unknown, View

SUFFIXES = [f"({i})" for i in range(1, 9)]
# what an element holds: nothing, a number, a float, not followed (two ways), a FUNCTION's
# value not yet worked out (Lazy: forced when read), one that works out as not followed
KINDS = st.sampled_from(["absent", "int", "float", "unknown", "why", "lazy", "lazy-unknown"])


def _value(kind: str, i: int):
    return {"int": i, "float": i / 4, "unknown": UNKNOWN, "why": Unknown("sent"),
            "lazy": Lazy(lambda: 10 * i), "lazy-unknown": Lazy(lambda: UNKNOWN)}.get(kind)


def _frame(kinds: list[str], marker: bool, view: bool) -> tuple[Frame, list[Lazy]]:
    """A frame whose array W(8) holds ``kinds``, W(*) the not-followed marker if ``marker``;
    ``view``: W is a dummy whose elements are the caller's A(8)."""
    table = SymbolTable("U")
    table.declare("W", dims=[(None, None)])
    frame = Frame(table, "U")
    store = Store()
    name = "A" if view else "W"
    if marker:
        store[f"{name}(*)"] = UNKNOWN
    lazies = []
    for i, (suffix, kind) in enumerate(zip(SUFFIXES, kinds), 1):
        value = _value(kind, i)
        if value is not None:
            store[name + suffix] = value
            if type(value) is Lazy:
                lazies.append(value)
    if view:
        frame.share(View(store, "A", "W"))
    else:
        frame.local = store
    return frame, lazies


def _forced(lazies: list[Lazy]) -> list[bool]:
    return [lazy.work is None for lazy in lazies]


@given(st.lists(KINDS, min_size=8, max_size=8), st.booleans(), st.booleans(),
       st.lists(st.sampled_from(SUFFIXES + ["(9)", "(*)"]), max_size=10))
def test_elements_at_reads_what_the_dictionary_of_every_element_held(kinds, marker, view,
                                                                      wanted):
    old, old_lazies = _frame(kinds, marker, view)
    new, new_lazies = _frame(kinds, marker, view)
    held = old.elements("W")
    expected = [held.get(suffix) for suffix in wanted]
    got = new.elements_at("W", wanted)
    assert [type(v) for v in got] == [type(v) for v in expected]
    assert [v for v in got if not isinstance(v, Unknown)] == \
        [v for v in expected if not isinstance(v, Unknown)]
    assert [getattr(v, "why", None) for v in got] == [getattr(v, "why", None) for v in expected]
    # every Lazy element is worked out, as elements() does (the step budget counts the work)
    assert _forced(new_lazies) == _forced(old_lazies)


@given(st.lists(KINDS, min_size=8, max_size=8), st.booleans(), st.booleans())
def test_known_elements_is_the_test_of_every_elements_value(kinds, marker, view):
    old, old_lazies = _frame(kinds, marker, view)
    new, new_lazies = _frame(kinds, marker, view)
    values = old.elements("W")
    expected = bool(values) and not any(isinstance(v, Unknown) for v in values.values())
    assert new.known_elements("W") == expected
    assert _forced(new_lazies) == _forced(old_lazies)  # Lazy ones forced as elements() does


def test_known_elements_of_an_array_with_no_element_tracked():
    table = SymbolTable("U")
    table.declare("W", dims=[(None, None)])
    assert Frame(table, "U").known_elements("W") is False


def _column_major(offset: int, n: int, extents: tuple[int, ...], lows: tuple[int, ...],
                  last: int) -> tuple[str, ...]:
    """The suffixes of positions offset .. offset+n-1, by listing every element of the array
    in column-major order (the first subscript fastest: F77 5.4.3)."""
    ranges = [range(lo, lo + e) for lo, e in zip(lows, extents)] + [range(lows[-1], last + 1)]
    order = [tuple(reversed(t)) for t in itertools.product(*reversed(ranges))]
    return tuple("(" + ",".join(map(str, idx)) + ")" for idx in order[offset:offset + n])


def test_suffixes_of_a_stretch_of_storage():
    """X(0:2, 3:4, 1:5): extents 3 and 2; position 4 is X(1,4,1) (4 = 1·1 + 1·3 + 0·6),
    position 6 is X(0,3,2)."""
    got = _suffixes(4, 4, (3, 2), (0, 3, 1))
    assert got == ("(1,4,1)", "(2,4,1)", "(0,3,2)", "(1,3,2)")
    assert got == _column_major(4, 4, (3, 2), (0, 3, 1), 5)
    assert _suffixes(2, 3, (), (1,)) == ("(3)", "(4)", "(5)")  # one dimension: X(3)..X(5)


@given(st.integers(0, 20), st.integers(1, 10), st.integers(1, 4), st.integers(1, 3),
       st.integers(-2, 2), st.integers(-2, 2), st.integers(-2, 2))
def test_suffixes_are_the_column_major_order(offset, n, e1, e2, l1, l2, l3):
    assert _suffixes(offset, n, (e1, e2), (l1, l2, l3)) == \
        _column_major(offset, n, (e1, e2), (l1, l2, l3), l3 + 40)


def test_a_layout_places_the_suffixes_where_the_view_reads_them():
    """The same positions by Layout.subscripts (the views' own placement)."""
    layout = Layout((0, 3, 1), (3, 2), None)
    assert _suffixes(4, 4, (3, 2), (0, 3, 1)) == tuple(
        "(" + ",".join(map(str, layout.subscripts(k))) + ")" for k in range(4, 8))
