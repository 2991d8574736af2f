"""Seed 004's latency metric on interp's per-process rows (docs/scalability.md)."""

from __future__ import annotations

from pathlib import Path

import pytest
from pytest import approx

from interp import api
from interp.analysis.latency_metric import (RunLatency, average_latency, method1_latency,
                                            midpoints, scale_integral)
from interp.errors import InterpError

CUBE = str(Path(__file__).parent / "programs" / "cube.f")
TRAPEZOID = ["programs/trapezoid/host.f", "programs/trapezoid/node.f"]


def test_average_latency_by_hand():
    """Eq. 3.5, N = 2, T_para = 10: process 1 active 10 with 2 of latency, process 2 active 6
    with 1: L = ((10 - 10 + 2) + (10 - 6 + 1))/2 = 3.5. Method 1 with T_seq = 13 (the two
    computations, 8 + 5): 10 - 13/2 = 3.5 as well."""
    assert average_latency(10.0, [(10.0, 2.0), (6.0, 1.0)]) == 3.5
    assert method1_latency(10.0, 13.0, 2) == 3.5


@pytest.mark.parametrize("files,machine,inputs,n", [
    ([CUBE], "cluster", {"N": 60}, 4),
    (TRAPEZOID, "ipsc860", {"N": 5000, "NITER": 10}, 8),
])
def test_methods_agree_when_the_computation_adds_up_to_t_seq(files, machine, inputs, n):
    """Method 2 (3.5 on the rows) is T_para - Σ computation / N, so Method 1 with T_seq = Σ
    computation gives the same L: this holds only if every process's span is its computation
    plus its call, transmission and waiting, which the rows must satisfy."""
    run = RunLatency.of(api.predict(files, machine, n, inputs, symbolic=False))
    assert run.n == n
    assert run.method1(run.computation) == approx(run.method2, rel=1e-12)


def test_methods_differ_by_the_redundant_computation():
    """T_seq from one rank of cube.f: the 4 ranks each set up their loop and compute NW once,
    work the one rank does once, so Σ computation > T_seq and L1 - L2 = (Σ comp - T_seq)/N."""
    t_seq = float(api.predict(CUBE, "cluster", 1, {"N": 60}, symbolic=False).seconds)
    run = RunLatency.of(api.predict(CUBE, "cluster", 4, {"N": 60}, symbolic=False))
    assert run.computation > t_seq
    assert run.method1(t_seq) - run.method2 == approx((run.computation - t_seq) / 4, rel=1e-9)


def test_midpoint_rule_of_3_8():
    """K = 4: E = 0.125, 0.375, 0.625, 0.875; scale(E) = E gives the exact integral 1/2; an
    unreached E leaves the integral unknown (Definition 5)."""
    es = midpoints(4)
    assert es == [0.125, 0.375, 0.625, 0.875]
    assert scale_integral(es) == approx(0.5)
    assert scale_integral([0.2, None]) is None


@pytest.fixture(scope="module")
def trap_study():
    return api.latency_metric(TRAPEZOID, "ipsc860", [2, 4, 8], "N", 0.25, {"NITER": 10},
                              integral=2)


def test_study_keeps_efficiency_and_obeys_the_product_rule(trap_study):
    from interp.analysis.scalability import product_rule

    for p in trap_study.points:
        assert p.root.status == "found" and 0.25 <= p.e1 < 0.26
    for _, _, _, a, bc in product_rule(trap_study.table):
        assert a == approx(bc, rel=1e-12)


def test_theorem_2_on_the_trapezoid(trap_study):
    """The trapezoid's sequential work is proportional to N (T_seq = c·N + small constant),
    so with W = N, (W/N)/(W'/N') is the E-conserved scale (3.13) to within the whole-N steps
    and the constant: 2%."""
    t2 = trap_study.theorem2()
    for key, value in trap_study.table.items():
        assert value == approx(t2[key], rel=0.02)


def test_isospeed_keeps_the_speed(trap_study):
    """S = W/(N·T_para) at N = 2 is kept at N = 4, 8 by the smallest W reaching it."""
    s0 = trap_study.isospeed[0].speed
    for p in trap_study.isospeed[1:]:
        assert p.root.status == "found" and p.speed >= s0
        assert p.speed == approx(s0, rel=0.01)


def test_bad_work_expression():
    with pytest.raises(InterpError, match="--work"):
        api.latency_metric(CUBE, "cluster", [2, 4], "N", 0.25, work="N**")
