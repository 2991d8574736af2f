"""A collective's parts (call, waiting, transmission) when its times are formulas.

``collectives.price`` splits each member's time in a collective into call overhead, waiting
and transmission, taking the smaller of two times three times (e.g. a member waits for the
last to enter, but no longer than it stayed). In the formula's run those times hold N, and
when which is smaller could not be decided the second was taken: a reduce's leaf, which
leaves once its eager send is out, was charged the wait for the last member to enter, so its
transmission went negative by as much (reduceleaf.f, cluster spec, P = 8, N = 1,000,003,
NITER = 10: rank 5 −2.3 us of transmission and 12.6 us of waiting for the 9.6 us and 0.6 us
of the run that interprets every iteration on numbers). The smaller is now a Min of both when
it is undecided (``timeval.earlier``), never refused as too large: a part is no clock that
later times are built on (programs/mpi_trapezoid/trap_mpi.f keeps its formula in N and NITER,
and six of its eight ranks' parts were wrong the same way).

By hand: the binomial reduce to rank 0 at P = 8 sends 1 → 0, 3 → 2, 5 → 4, 7 → 6 in its first
round; an odd rank is a leaf, and an 8-byte MPI send is eager, so a leaf's reduce costs it the
send's startup as call overhead and nothing else (cluster spec: 1.5 us, its eager startup).
"""

from __future__ import annotations

import pytest

from interp.engine.process import CATEGORIES

from .helpers import SAMPLES, load, program, run

REDUCELEAF = program("reduceleaf.f")
TRAP_MPI = str(SAMPLES / "mpi_trapezoid" / "trap_mpi.f")
N = 1_000_003  # not a multiple of 8: the ranks' point counts differ by one


def _predict(machine: str, niter: int, files=REDUCELEAF, n=N, **kw):
    return run(files, 8, {"N": n, "NITER": niter}, machine=load(machine), **kw)


def _parts(pred) -> dict[int, dict[str, float]]:
    return {r["pid"]: {c: float(pred.evaluate(r[c])) for c in CATEGORIES}
            for r in pred.process_rows()}


# (on the iPSC/860 no steady state is reached in 12 iterations: NITER takes its value)
@pytest.mark.parametrize("machine, files, n, symbols", [
    ("cluster", REDUCELEAF, N, {"N", "NITER"}),
    ("ipsc860", REDUCELEAF, N, {"N"}),
    ("cluster", TRAP_MPI, 100_000, {"N", "NITER"}),
])
def test_parts_of_the_formula_run_are_the_stepped_runs(machine, files, n, symbols):
    """The formula's run, folded, gives every rank the parts of the run that interprets all
    ten iterations on numbers; none is negative."""
    pred = _predict(machine, 10, files, n)
    assert {s.name for s in pred.total.free_symbols} == symbols
    folded = _parts(pred)
    stepped = _parts(_predict(machine, 10, files, n, symbolic=False, extend=False))
    for pid, parts in folded.items():
        for c in CATEGORIES:
            assert parts[c] >= -1e-12, (pid, c, parts[c])  # (float noise of a Min)
            assert parts[c] == pytest.approx(stepped[pid][c], rel=1e-9, abs=1e-12), (pid, c)


def test_a_leaf_pays_its_send_startup_and_nothing_else():
    """Cluster spec: nine more reduces add 9 × 1.5 us of call overhead to each leaf, and no
    transmission and no waiting."""
    one, ten = _parts(_predict("cluster", 1)), _parts(_predict("cluster", 10))
    for leaf in (1, 3, 5, 7):
        assert ten[leaf]["call"] - one[leaf]["call"] == pytest.approx(9 * 1.5e-6, rel=1e-9)
        assert ten[leaf]["transmission"] == pytest.approx(one[leaf]["transmission"], abs=1e-15)
        assert ten[leaf]["waiting"] == pytest.approx(one[leaf]["waiting"], abs=1e-15)


def test_a_part_bounded_by_a_formula_does_not_cost_the_formula():
    """trap_mpi.f at P = 16 on the iPSC/860 (N = 1000, NITER = 3): a member's wait is bounded
    by the last entry (a Max); with a Min inside it, that Max once passed the formula's size
    limit and the prediction fell back to N's value. Parts are never clocks: they are not
    held to that limit, and the formula in N stays."""
    pred = run(TRAP_MPI, 16, {"N": 1000, "NITER": 3}, machine=load("ipsc860"))
    assert {s.name for s in pred.total.free_symbols} == {"N"}
    stepped = run(TRAP_MPI, 16, {"N": 1000, "NITER": 3}, machine=load("ipsc860"),
                  symbolic=False, extend=False)
    want = _parts(stepped)
    for pid, parts in _parts(pred).items():
        for c in CATEGORIES:
            assert parts[c] >= -1e-12, (pid, c)
            assert parts[c] == pytest.approx(want[pid][c], rel=1e-9, abs=1e-12)
