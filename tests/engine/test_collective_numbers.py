"""A collective priced on numbers: ``collectives._rounds_numeric``.

An MPI collective's rounds are summed in floats when every time is a number, and, in a
symbolic run, when every member enters with the same symbolic part (``c_x + T(N)``: the same
work in N before it on every rank), on the numbers ``c_x`` with ``T(N)`` added back. Both must
give what the general path (``later`` on every time) gives.

symred.f at P = 4 on the iPSC/860: N additions, then MPI_ALLREDUCE of one double, three
times. Recursive doubling, two rounds; the partners (rank XOR 1, XOR 2) are one hop apart, so
in each round both send at once (MPI sends are eager: free after the startup) and each takes
the other's 8 bytes at t + 70 + 8 × 0.42 + 11 us (Table 3, static buffers), then adds it
(one Add, 1 clock = 25 ns): 84.385 us a round, 168.77 us the operation.
"""

from __future__ import annotations

import pytest
import sympy as sp

from interp import api
from interp.engine import collectives

from .helpers import ADD, PROGRAMS, REL, STATIC_PER_BYTE, STATIC_PER_HOP, STATIC_STARTUP

SYMRED = str(PROGRAMS / "symred.f")
ROUND = STATIC_STARTUP + 8 * STATIC_PER_BYTE + 1 * STATIC_PER_HOP + ADD  # 84.385 us


def _allreduce_row(pred) -> dict:
    return next(r for r in pred.aau_rows() if r["type"] == "SyncSeq")


def test_a_round_by_hand():
    assert ROUND == pytest.approx(84.385e-6, rel=REL)


def test_entries_equal_in_n_are_priced_on_their_numbers(monkeypatch):
    """The formula run's ALLREDUCE takes the numeric rounds (its members' entries differ by
    numbers only) and costs 2 rounds each of the 3 times on each of the 4 ranks."""
    seen = []
    common = collectives._common_terms

    def spy(t):
        seen.append(common(t))
        return seen[-1]

    monkeypatch.setattr(collectives, "_common_terms", spy)
    pred = api.predict(SYMRED, "ipsc860", 4, inputs={"N": 1000})
    assert pred.total.free_symbols == {sp.Symbol("N", integer=True, positive=True)}
    assert any(terms for terms in seen)  # (the entries held N: the numbers were used)
    row = _allreduce_row(pred)
    assert row["count"] == 12
    assert row["total"] == pytest.approx(12 * 2 * ROUND, rel=REL)


@pytest.mark.parametrize("files, machine, nprocs, inputs", [
    ([SYMRED], "ipsc860", 4, {"N": 1000}),
    ([SYMRED], "cluster", 8, {"N": 12345}),
    ([str(PROGRAMS.parents[2] / "programs" / "mpi_jacobi" / "jacobi_mpi.f")], "cluster", 16,
     {"N": 100000}),
    ([str(PROGRAMS.parents[2] / "validation" / "allreduce.f")], "cluster", 8, {}),
])
def test_the_numbers_give_what_the_general_path_gives(files, machine, nprocs, inputs,
                                                      monkeypatch):
    """The same formula, number and per-AAU times as with every time compared by
    ``timeval.later`` (no plan: the general path), at the inputs and away from them."""
    fast = api.predict(files, machine, nprocs, inputs=inputs)
    monkeypatch.setattr(collectives, "_plan", lambda *args: None)
    slow = api.predict(files, machine, nprocs, inputs=inputs)
    assert fast.seconds == pytest.approx(slow.seconds, rel=1e-12)
    for n in (1, 777, 10**6):
        point = {s: n for s in slow.total.free_symbols}

        def at(x):
            return float(sp.sympify(x).subs(point))

        assert at(fast.total) == pytest.approx(at(slow.total), rel=1e-12)
        for a, b in zip(fast.aau_rows(), slow.aau_rows()):
            assert at(a["total"]) == pytest.approx(at(b["total"]), rel=1e-12, abs=1e-18)


def test_a_comm_split_whose_colors_change_is_planned_each_time(monkeypatch):
    """SMPI's MPI_COMM_SPLIT (``cs.spec.comm_split: gather_send``): rank 0 sends each other
    member its group, group by group, then each group broadcasts its id: the messages depend
    on the colors, which change every iteration of split_loop.f. Its plan is not kept for the
    next call (the first one's messages were), so the numbers give what the general path
    gives."""
    from interp.engine.predict import predict
    from interp.system.filter import comm_split
    from interp.system.simgrid import simgrid_semantics

    s = api.setup([str(PROGRAMS / "split_loop.f")], "cluster", 6)
    sag = simgrid_semantics(s.sag)[0]
    assert comm_split(sag) == "gather_send"
    fast = predict(s.aag, sag, 6, dict(s.given))
    monkeypatch.setattr(collectives, "_plan", lambda *args: None)
    slow = predict(s.aag, sag, 6, dict(s.given))
    assert fast.seconds == pytest.approx(slow.seconds, rel=1e-12)
