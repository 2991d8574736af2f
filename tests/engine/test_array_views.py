"""Array dummies share their actual argument's storage (F77 15.9.3.1, sequence association):
the callee reads and writes the caller's array, from the element passed on and laid out as
the dummy declares it, instead of a copy of its elements made in and back at every call."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from interp.engine.values import Layout, Store, View
from interp.system.simgrid import zero_computation

from .helpers import (
    STATIC_PER_BYTE, STATIC_PER_HOP, STATIC_STARTUP, load, program, run, static_msg,
)


def _both(name: str) -> tuple[float, float]:
    """The prediction on 2 processes with computation off, and the exact mode's."""
    machine = zero_computation(load())
    fast = run(program(name), 2, machine=machine)
    exact = run(program(name), 2, machine=machine, exact=True)
    return float(fast.seconds), float(exact.seconds)


def test_an_element_passed_at_an_offset_is_written_in_place():
    """FILL(CNT(1,2), 4) writes CNT(1..4,2) = 1..4 through V(1..4); CNT(3,3) = 2 is left as
    it was. N = CNT(3,2) + CNT(3,3) = 3 + 2 = 5 doubles = 40 bytes <= 100 B: static buffers,
    one hop, Receive Ovhd 0 (Table 3). A copy of the element's value (the dummy not the
    caller's column) leaves CNT(3,2) = 7 and 9 doubles."""
    nbytes = (3 + 2) * 8
    expected = static_msg(nbytes, 1)  # 70 us + 40 * 0.42 us + 11 us
    assert expected == pytest.approx(97.8e-6)
    fast, exact = _both("view_offset.f")
    assert fast == pytest.approx(expected, rel=1e-9)
    assert fast == exact


def test_a_two_dimensional_array_passed_to_a_one_dimensional_dummy():
    """SETV(T, 6) writes V(K) = K; T(3,2) is stored column by column, so T(2,2) is V(2 +
    3·(2 − 1)) = V(5) = 5: 5 doubles = 40 bytes, one static message of one hop."""
    position = 2 + 3 * (2 - 1)
    expected = static_msg(position * 8, 1)
    assert expected == pytest.approx(97.8e-6)
    fast, exact = _both("view_reshape.f")
    assert fast == pytest.approx(expected, rel=1e-9)
    assert fast == exact


def test_a_dummy_passed_on_at_an_offset_bounds_a_loop():
    """OUTER(W) hands Z(1,3) (W's third column: W(1..2,3)) to INNER, which writes V(1..2) =
    1, 2: NSTEP = W(2,3) = 2 synchronous 8-byte messages in static buffers, one hop each.
    Rank 0 spends two startups; rank 1's last receive ends when the second one arrives."""
    last = 2 * STATIC_STARTUP + 8 * STATIC_PER_BYTE + 1 * STATIC_PER_HOP  # 140 + 3.36 + 11 us
    assert last == pytest.approx(154.36e-6)
    fast, exact = _both("view_chain.f")
    assert fast == pytest.approx(last, rel=1e-9)
    assert fast == exact


def test_an_array_holding_the_rank_steers_the_callee():
    """IDS = (ME, 1 − ME) passed to XCHG, whose IFs read V(1) and whose partner is V(2):
    rank 0 sends one double (8 bytes, static buffers, one hop) to rank 1."""
    expected = static_msg(8, 1)  # 70 us + 8 * 0.42 us + 11 us
    assert expected == pytest.approx(84.36e-6)
    fast, exact = _both("view_rank.f")
    assert fast == pytest.approx(expected, rel=1e-9)
    assert fast == exact


def test_a_view_reads_and_writes_the_callers_keys():
    """A(4,3) passed as A(1,2) to V(4): V(k) is A(k,2); V's keys are the column's alone."""
    store = Store()
    for j in (1, 2, 3):
        store[f"A(1,{j})"] = 10 * j
    view = View(store, "A", "V", 4, (Layout((1, 1), (4,), 12), Layout((1,), (), 4)))
    assert view.get("V(1)") == 20
    view["V(3)"] = 7
    assert store["A(3,2)"] == 7
    assert sorted(view.keys_of("V")) == ["V(1)", "V(3)"]
    del view["V(1)"]
    assert "A(1,2)" not in store and store["A(1,1)"] == 10 and store["A(1,3)"] == 30


bounds = st.tuples(st.integers(-3, 3), st.integers(1, 5))  # (lower bound, extent)


@given(st.lists(bounds, min_size=1, max_size=3), st.lists(bounds, min_size=1, max_size=3),
       st.integers(0, 40), st.data())
def test_a_dummy_element_and_its_callers_element_are_the_same_place(caller_dims, dummy_dims,
                                                                    offset, data):
    """Every element of the dummy maps to the caller's element ``offset`` places further in
    storage order, and back: ``keys_of`` finds each written element under its dummy key."""
    def layout(dims, size):
        lows = tuple(lo for lo, _ in dims)
        return Layout(lows, tuple(n for _, n in dims[:-1]), size)

    size = 1
    for _, n in dummy_dims:
        size *= n
    caller, dummy = layout(caller_dims, None), layout(dummy_dims, size)
    store = Store()
    view = View(store, "A", "V", offset, (caller, dummy))
    pos = data.draw(st.integers(0, size - 1))
    subs = dummy.subscripts(pos)
    assert dummy.position(subs) == pos
    key = "V(" + ",".join(map(str, subs)) + ")"
    view[key] = pos
    (written,) = store.keys_of("A")
    assert caller.position(tuple(int(s) for s in written[2:-1].split(","))) == offset + pos
    assert view.keys_of("V") == [key]
