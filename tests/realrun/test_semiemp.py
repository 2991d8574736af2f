"""Seed 000 (Xu, Zhang, Sun): the fit of (2.3)/(2.7) and the paper's measures E (4.9), Ē (4.10)
and the conservative ratio (4.8), worked by hand from the formulas."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from interp import api
from interp.analysis import realrun as R
from interp.analysis import semiemp as S
from interp.errors import InterpError

ROOT = Path(__file__).resolve().parents[2]
TRAP = str(ROOT / "programs" / "mpi_trapezoid" / "trap_mpi.f")
needs_mpi = pytest.mark.skipif(shutil.which("mpif77") is None or shutil.which("mpirun") is None,
                               reason="Open MPI (mpif77, mpirun) is not installed")


def test_error_is_the_distance_over_the_actual_time():
    # (4.9): T_actual = 2.0 s, T_p = 1.8 s: |2.0 - 1.8| / 2.0 = 0.1; over-predicting by as
    # much, T_p = 2.2 s, is the same 0.1
    assert S.error(2.0, 1.8) == pytest.approx(0.1)
    assert S.error(2.0, 2.2) == pytest.approx(0.1)


def test_mean_error_is_the_average_over_the_sizes():
    # (4.10): E = 0.1, 0.05, 0 over |X| = 3 sizes: (0.1 + 0.05 + 0) / 3 = 0.05
    errors = [S.error(2.0, 1.8), S.error(4.0, 4.2), S.error(8.0, 8.0)]
    assert S.mean_error(errors) == pytest.approx(0.05)


def test_conservative_ratio_divides_the_run_by_sampling_plus_estimating():
    # (4.8): T_actual = 120 s, T_sample = 10 s, T_estimate = 2 s: 120 / (10 + 2) = 10
    assert S.conservative_ratio(120.0, 10.0, 2.0) == pytest.approx(10.0)


def test_mean_error_of_no_sizes_is_an_error():
    with pytest.raises(InterpError):
        S.mean_error([])


@given(st.floats(1e-6, 1e6), st.floats(0, 1e6))
def test_error_is_zero_only_for_an_exact_prediction(actual, predicted):
    e = S.error(actual, predicted)
    assert e >= 0
    assert (e == 0) == (actual == predicted)


def test_one_sample_size_scales_by_the_count_ratio_of_2_3():
    # (2.3): tt(χ) = F(χ)/F(χ0) · tt(χ0). F(χ0) = 100, tt(χ0) = 2 s: a = 2/100 = 0.02, and at
    # F(χ) = 300, tt = 300/100 · 2 = 6 s
    a, b = S.fit_line([(100.0, 2.0), (100.0, 2.0)])
    assert (a, b) == (pytest.approx(0.02), 0.0)
    assert a * 300 + b == pytest.approx(6.0)


def test_two_sizes_give_the_slope_and_the_constant_of_2_7():
    # (2.7): tt = a·F + O_syn through (100, 2.5) and (300, 6.5): a = (6.5 - 2.5) / 200 = 0.02,
    # O_syn = 2.5 - 0.02·100 = 0.5
    a, b = S.fit_line([(100.0, 2.5), (300.0, 6.5)])
    assert a == pytest.approx(0.02) and b == pytest.approx(0.5)


def test_a_falling_time_is_noise_and_becomes_a_constant():
    # (100, 3) and (300, 1): the slope -0.01 is dropped; the constant is the mean, 2
    assert S.fit_line([(100.0, 3.0), (300.0, 1.0)]) == (0.0, pytest.approx(2.0))


def test_a_negative_constant_is_dropped_and_the_slope_refitted_through_zero():
    # (100, 1) and (300, 5): a = 0.02, b = -1 < 0; through zero a = Σ F·t / Σ F² =
    # (100 + 1500) / (10000 + 90000) = 0.016
    assert S.fit_line([(100.0, 1.0), (300.0, 5.0)]) == (pytest.approx(0.016), 0.0)


def _table() -> S.CommTable:
    one = {"median": 0.0, "min": 0.0, "max": 0.0, "rounds": 1}
    two = {"median": 1e-6, "min": 1e-6, "max": 1e-6, "rounds": 1}
    return S.CommTable({1: {op: one for op in ("barrier", "allreduce", "reduce", "bcast")},
                        2: {op: two for op in ("barrier", "allreduce", "reduce", "bcast",
                                               "pingpong")}
                        | {"per_byte": {**two, "median": 1e-9}}})


def _synthetic_runs(aag, a: float, b: float) -> list[R.Run]:
    """Runs of trapezoid whose every segment took a·F + b seconds on each rank (F from the
    engine on cluster), plus its communication calls' microbenchmarked cost."""
    plan = R.plan(aag)
    table = _table()
    runs = []
    for p in (1, 2):
        for n in (1000, 3000):
            F, calls, _ = S.counts(aag, plan, p, {"N": n, "NITER": 2})
            segs = {s.column: [a * F[r][s.column] + b + sum(table.cost(op, p, nb) * k for op, k, nb
                                                             in calls[r][s.column])
                               for r in range(p)] for s in plan.segments}
            runs.append(R.Run("trap_mpi", [TRAP], p, {"N": str(n), "NITER": "2"}, "2", 2, 0,
                              "t", 1.0, [1.0] * p, segs))
    return runs


def test_the_fit_recovers_the_coefficients_the_runs_were_made_with():
    aag = api.Program.load([TRAP]).aag
    model = S.fit(aag, _synthetic_runs(aag, 0.05, 1e-6), _table())
    loop = next(s for s in model.segments if s.column == "seg_L42")  # the DO I loop
    assert loop.a == pytest.approx(0.05, rel=1e-6) and loop.b == pytest.approx(1e-6, rel=1e-4)
    # T_sample: the four runs' wall seconds (1 s each) and no microbenchmark time
    assert model.sample_seconds == pytest.approx(4.0)


def test_the_prediction_adds_each_segments_largest_rank():
    aag = api.Program.load([TRAP]).aag
    model = S.fit(aag, _synthetic_runs(aag, 0.05, 0.0), _table())
    point = S.predict(aag, model, 2, {"N": "100000", "NITER": "2"})
    plan = R.plan(aag)
    F, calls, opcount = S.counts(aag, plan, 2, {"N": 100000, "NITER": 2})
    table = _table()
    expected = sum(max(0.05 * F[r][s.column] + sum(table.cost(op, 2, nb) * k
                                                    for op, k, nb in calls[r][s.column])
                       for r in range(2)) for s in plan.segments
                   if next(f for f in model.segments if f.column == s.column).a > 0
                   or calls[0][s.column])
    assert point.predicted == pytest.approx(expected, rel=1e-6)
    assert point.opcount == pytest.approx(opcount)


def test_one_sample_size_where_two_are_needed_is_an_error():
    aag = api.Program.load([TRAP]).aag
    runs = [r for r in _synthetic_runs(aag, 0.05, 0.0) if r.inputs["N"] == "1000"]
    with pytest.raises(InterpError) as err:
        S.fit(aag, runs, _table(), where="runs.csv")
    assert "two sizes" in str(err.value) and "runs.csv" in str(err.value)


def test_microbenchmark_lines_give_median_spread_and_per_byte():
    out = ("pingpong 8 1 1.0E-06\npingpong 80000 1 9.0E-06\npingpong 8 2 3.0E-06\n"
           "pingpong 80000 2 1.1E-05\nbarrier 0 1 2.0E-06\nbarrier 0 2 4.0E-06\n")
    t = S.summarize(out)
    # median of 1 and 3 us is 2 us; the spread is [1, 3] us
    assert t["pingpong"] == {"median": pytest.approx(2e-6), "min": 1e-6, "max": 3e-6,
                             "rounds": 2}
    # per byte: (9 - 1) us / 79992 B and (11 - 3) us / 79992 B, both 8e-6/79992
    assert t["per_byte"]["median"] == pytest.approx(8e-6 / 79992)
    assert t["barrier"]["median"] == pytest.approx(3e-6)


@needs_mpi
def test_microbenchmarks_run_on_two_ranks():
    table = S.microbenchmark([2])
    assert set(table.per_p[2]) >= {"pingpong", "barrier", "allreduce", "reduce", "bcast"}
    for v in table.per_p[2].values():
        assert v["min"] <= v["median"] <= v["max"]


def test_a_parameter_input_sets_the_counts_as_the_run_sets_the_copy():
    # jacobi_mpi.f: the sweep DO I = 1, NLOC (line 53) runs NLOC = N/NP times a step. N is
    # READ and NSTEP a PARAMETER; each, doubled, doubles the sweep's count F (same P)
    jac = str(ROOT / "programs" / "mpi_jacobi" / "jacobi_mpi.f")
    aag = api.Program.load([jac]).aag
    plan = R.plan(aag)
    small, _, _ = S.counts(aag, plan, 2, {"N": 1000, "NSTEP": 5})
    large, _, _ = S.counts(aag, plan, 2, {"N": 2000, "NSTEP": 5})
    longer, _, _ = S.counts(aag, plan, 2, {"N": 1000, "NSTEP": 10})
    assert large[0]["seg_L53"] == pytest.approx(2 * small[0]["seg_L53"], rel=1e-3)
    assert longer[0]["seg_L53"] == pytest.approx(2 * small[0]["seg_L53"], rel=1e-3)


def _hand_model(tmp_path, bs):
    # every segment a = 0 s per unit of F and its own b: T_p = the sum of the b's
    aag = api.Program.load([TRAP]).aag
    plan = R.plan(aag)
    segs = [S.SegmentFit(s.column, s.type, f"{s.line}-{s.end_line}", 0.0, b, 2)
            for s, b in zip(plan.segments, bs)]
    model = S.Model("trap_mpi", [TRAP], "cluster", segs, S.CommTable({1: {}}, 0.5, ""), 1.0, [])
    path = tmp_path / "model.json"
    path.write_text(json.dumps(model.to_json()))
    return path, plan


def test_predict_with_calibration_is_the_fitted_segments_sum(tmp_path):
    from click.testing import CliRunner

    from interp.cli import main

    bs = [0.001 * k for k in range(1, 31)]  # segment k: b = k ms
    path, plan = _hand_model(tmp_path, bs)
    n = len(plan.segments)
    assert 1 < n <= len(bs)
    # P = 1: one rank, no communication priced; T_p = Σ_s b_s = 1 + 2 + … + n ms = n(n+1)/2 ms
    expected = n * (n + 1) / 2 * 0.001
    args = [TRAP, "-P", "1", "--set", "N=1000", "--set", "NITER=3", "--format", "json"]
    got = CliRunner().invoke(main, ["predict", *args, "--calibration", str(path)])
    assert got.exit_code == 0, got.output
    same = CliRunner().invoke(main, ["semiemp", "predict", *args, "--model", str(path)])
    assert same.exit_code == 0, same.output
    a, b = json.loads(got.output)["points"][0], json.loads(same.output)["points"][0]
    assert a["predicted"] == pytest.approx(expected)
    assert a["predicted"] == b["predicted"] and a["opcount"] == b["opcount"]


def test_predict_with_a_calibration_that_is_not_a_model_is_a_usage_error(tmp_path):
    from click.testing import CliRunner

    from interp.cli import main

    bad = tmp_path / "bad.json"
    bad.write_text('{"x": 1}')
    got = CliRunner().invoke(main, ["predict", TRAP, "--set", "N=10", "--set", "NITER=1",
                                    "--calibration", str(bad)])
    assert got.exit_code == 2 and "not a semi-empirical model" in got.output
