"""Every headline prediction with its interval over the spec's [min, max] values."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from interp import api
from interp.cli import main

from .conftest import PROGRAMS, ROOT


def test_min_mid_max_trapezoid(trapezoid, ipsc):
    pred = api.predict(trapezoid, ipsc, 4, {"N": 10**5, "NITER": 10}, symbolic=False)
    lo, hi = api.prediction_interval(pred)
    assert lo < pred.seconds < hi
    assert lo == api.predict(trapezoid, ipsc, 4, {"N": 10**5, "NITER": 10}, bound="min",
                             symbolic=False).seconds


def test_min_mid_max_twonode(twonode, ipsc):
    pred = api.predict(twonode, ipsc, 2)
    lo, hi = api.prediction_interval(pred)
    assert lo <= pred.seconds * (1 + 1e-12) and pred.seconds <= hi * (1 + 1e-12)


def test_no_number_no_interval(trapezoid, ipsc):
    pred = api.predict(trapezoid, ipsc, 4)
    assert pred.seconds is None and api.prediction_interval(pred) == (None, None)


def test_predict_text_and_json():
    f = str(PROGRAMS / "twonode.f")
    res = CliRunner().invoke(main, ["predict", f, "-P", "2", "--top", "0"])
    assert res.exit_code == 0, res.output
    assert "range over the spec's [min, max] values: " in res.output
    res = CliRunner().invoke(main, ["predict", f, "-P", "2", "--format", "json"])
    data = json.loads(res.output)
    assert data["total_seconds_min"] <= data["total_seconds"] <= data["total_seconds_max"]


def test_max_end_from_the_child_equals_the_sequential_prediction(trapezoid, ipsc):
    """The max end is worked out in a forked child (interval._fork): the same number as the
    prediction at bound=max made here, and computed once per prediction."""
    from interp.analysis import interval as iv

    given = {"N": 10**5, "NITER": 10}
    pred = api.predict(trapezoid, ipsc, 4, given, symbolic=False)
    lo, hi = api.prediction_interval(pred)
    assert hi == api.predict(trapezoid, ipsc, 4, given, bound="max", symbolic=False).seconds
    assert lo < hi
    assert api.prediction_interval(pred) is pred.__dict__["_interval"]  # not predicted again
    assert iv._join(None) is None  # no fork on this platform: predicted here instead


def test_formula_text_rounds_numbers_and_keeps_the_structure():
    """sp.N would rebuild (and simplify) every Max; the printer only rounds the numbers:
    1.23456789e-6 to 6 figures, 1/3 as a decimal, floor(N/16) left as it is."""
    import sympy as sp

    from interp.output.prediction_view import formula_text

    n, x = sp.Symbol("N"), sp.Symbol("X")
    e = sp.Max(1.23456789e-6 * n + sp.Rational(1, 3), x, evaluate=False) + 2 * sp.floor(n / 16)
    assert formula_text(e) == "2*floor(N/16) + Max(X, 1.23457e-06*N + 0.333333)"


def _sequential(program, machine, nprocs, given, bound):
    return api.predict(program, machine, nprocs, given, bound=bound, symbolic=False).seconds


def test_ends_worked_out_during_the_prediction_equal_the_sequential_ones(trapezoid, ipsc):
    """``predict(interval=True)`` forks the child before the (symbolic) mid run: its two ends
    are the predictions at bound=min and bound=max made here, number for number."""
    given = {"N": 10**5, "NITER": 10}
    pred = api.predict(trapezoid, ipsc, 4, given, interval=True)
    assert "_early" in pred.__dict__  # the child was started (fork is available here)
    assert api.prediction_interval(pred) == (_sequential(trapezoid, ipsc, 4, given, "min"),
                                             _sequential(trapezoid, ipsc, 4, given, "max"))


@pytest.mark.parametrize("files, machine, nprocs, given", [
    (["ring/ring.f"], "ipsc860", 4, {}),
    (["halo/halo.f"], "ipsc860", 4, {}),
    (["pipeline/pipeline.f"], "ipsc860", 4, {}),
    (["mpi_ring/ring_mpi.f"], "cluster", 4, {}),
    (["mpi_trapezoid/trap_mpi.f"], "cluster", 8, {"N": 10**5, "NITER": 5}),
])
def test_early_ends_on_the_shipped_programs(files, machine, nprocs, given):
    """The ends from the child forked before the mid run are the two sequential numeric
    predictions, number for number, NX/2 and MPI alike."""
    program = api.Program.load([str(ROOT / "programs" / f) for f in files])
    pred = api.predict(program, machine, nprocs, given, interval=True)
    assert api.prediction_interval(pred) == (
        _sequential(program, machine, nprocs, given, "min"),
        _sequential(program, machine, nprocs, given, "max"))


def test_early_child_at_one_end_predicts_the_other(trapezoid, ipsc):
    given = {"N": 10**5, "NITER": 10}
    pred = api.predict(trapezoid, ipsc, 4, given, bound="min", interval=True)
    assert api.prediction_interval(pred) == (pred.seconds,
                                             _sequential(trapezoid, ipsc, 4, given, "max"))


def test_early_ends_of_another_setup_are_not_used(trapezoid, ipsc):
    """An input asked for on the way changes the setup: the child's ends are for the one it
    was given, so they are dropped (the child stopped) and the ends are predicted again."""
    from interp.analysis import interval as iv
    from interp.analysis.setup import Setup

    first = api.setup(trapezoid, ipsc, 4, {"N": 10**5, "NITER": 10})
    early = iv.start(first)
    proc = early.child[0]
    assert early.result(Setup.of(api.predict(trapezoid, ipsc, 4, {"N": 10**5, "NITER": 20}))
                        ) == (None, None)
    assert not proc.is_alive() and early.child is None


def test_a_dropped_prediction_stops_its_child(trapezoid, ipsc):
    import gc

    pred = api.predict(trapezoid, ipsc, 4, {"N": 10**5, "NITER": 10}, interval=True)
    proc = pred.__dict__["_early"].child[0]
    del pred
    gc.collect()
    assert proc.exitcode is not None  # ended (stopped or finished) and joined
