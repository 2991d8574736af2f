"""The paper's benchmark (Section 4): trapezoid host + node, NITER = 10, N = 10², 10⁴, 10⁶ on
P = 1, 2, 4, 8, 16 nodes.

The headline is the paper's measurement: host time from the load of the node program until
the last result is received. One symbolic prediction per P gives the formula T(N, NITER); every
cell of the table is checked against an interpretation that uses the values from the start and
interprets every iteration (extend=False, symbolic=False): the closed form must equal full
unrolling.
"""

from __future__ import annotations

import pytest

from .helpers import REL, TRAPEZOID, formula_at, run

PS = (1, 2, 4, 8, 16)
NS = (10**2, 10**4, 10**6)
NITER = 10


@pytest.fixture(scope="module")
def formulas():
    """P -> the headline formula (N, NITER symbolic; a prediction given N = 10⁶)."""
    return {p: run(TRAPEZOID, p, {"N": 10**6, "NITER": NITER}) for p in PS}


@pytest.fixture(scope="module")
def table(formulas):
    """(N, P) -> (closed form at the point, full unrolling with the values)."""
    out = {}
    for p in PS:
        for n in NS:
            closed = formula_at(formulas[p].total, N=n, NITER=NITER)
            unrolled = run(TRAPEZOID, p, {"N": n, "NITER": NITER}, extend=False,
                           symbolic=False).seconds
            out[n, p] = (closed, unrolled)
    lines = ["   N \\ P " + "".join(f"{p:>12}" for p in PS)]
    for n in NS:
        lines.append(f"{n:>9}" + "".join(f"{out[n, p][0]:>12.6f}" for p in PS))
    print("\ntrapezoid host+node, NITER = 10, predicted seconds (ipsc860, mid):\n"
          + "\n".join(lines))
    return out


def test_formula_is_in_n_and_niter(formulas):
    for p, pred in formulas.items():
        assert {s.name for s in pred.total.free_symbols} == {"N", "NITER"}, p
        assert pred.seconds == pytest.approx(formula_at(pred.total, N=10**6, NITER=NITER),
                                             rel=REL)


@pytest.mark.parametrize("n", NS)
@pytest.mark.parametrize("p", PS)
def test_closed_form_equals_full_unrolling(table, n, p):
    closed, unrolled = table[n, p]
    assert closed == pytest.approx(unrolled, rel=REL)


def test_time_decreases_with_p_for_a_million_intervals(table):
    times = [table[10**6, p][0] for p in PS]
    assert all(a > b for a, b in zip(times, times[1:])), times
    # and the work dominates: 16 nodes are more than 8 times faster than 1
    assert times[0] / times[-1] > 8


def test_time_grows_with_n(table):
    for p in PS:
        assert table[10**2, p][0] < table[10**4, p][0] < table[10**6, p][0]


@pytest.mark.parametrize("p, n, niter", [
    (1, 5, 1), (2, 10, 5), (4, 7, 3), (8, 5, 4), (8, 40, 7), (16, 50, 5),
])
def test_closed_form_equals_unrolling_small_points(p, n, niter):
    """Small N and NITER, fewer iterations than the steady-state detection needs, fewer
    points than nodes: given values are still exact."""
    closed = run(TRAPEZOID, p, {"N": n, "NITER": niter})
    unrolled = run(TRAPEZOID, p, {"N": n, "NITER": niter}, extend=False, symbolic=False)
    assert closed.seconds == pytest.approx(unrolled.seconds, rel=REL)
    by_pid = {r["pid"]: r for r in unrolled.process_rows()}
    for row in closed.process_rows():
        ref = by_pid[row["pid"]]
        for key in ("finish", "computation", "waiting"):
            assert float(closed.evaluate(row[key])) == pytest.approx(
                float(ref[key]), rel=1e-9, abs=1e-15), (row["process"], key)
