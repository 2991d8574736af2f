"""Seed 002 on interp's predictions: the ideal machines, the size path, the search for χ(P),
and the tables interp prints (docs/scalability.md)."""

from __future__ import annotations

import math
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from pytest import approx

from interp import api
from interp.analysis.ideal import pram
from interp.analysis.scalability import product_rule, scale_table
from interp.analysis.sizepath import find_size, parse_path
from interp.errors import InterpError

CUBE = str(Path(__file__).parent / "programs" / "cube.f")


def test_pram_zeroes_every_communication_cost_and_keeps_the_processor():
    """ipsc860: node.cs.static.startup 70 us and srm_link.cs.dynamic.startup 350 us become 0;
    node.p.ops.mul (1 clk at 40 MHz = 25 ns) and the memory hierarchy stay."""
    real = api.Machine.load("ipsc860").sag
    ideal = pram(real)
    assert float(real.seconds("node.cs.static.startup")) == approx(70e-6)
    for path in ("node.cs.static.startup", "node.cs.dynamic.per_byte", "node.cs.sync.overhead",
                 "srm_link.cs.dynamic.startup", "node.cs.static.per_hop"):
        assert ideal.value(path) == 0
    for path in ("node.p.ops.mul", "node.m.access.fetch_miss"):
        assert ideal.value(path) == real.value(path) != 0


def test_pram_one_node_time_is_the_computation():
    """T_s^P = T_s (eq. 7): one rank of cube.f only computes (its collectives on one rank cost
    nothing), so real and PRAM agree; the trapezoid's host still sends its node messages over
    the SRM link on one node, which the PRAM does not price."""
    ideal = pram(api.Machine.load("cluster").sag)
    real = api.predict(CUBE, "cluster", 1, {"N": 40}, symbolic=False)
    comp = float(real.process_rows()[0]["computation"])
    assert float(api.predict(CUBE, ideal, 1, {"N": 40}, symbolic=False).seconds) == approx(
        comp, rel=1e-12) == approx(real.seconds, rel=1e-12)
    trap = ["programs/trapezoid/host.f", "programs/trapezoid/node.f"]
    inputs = {"N": 1000, "NITER": 10}
    ipsc = api.Machine.load("ipsc860").sag
    assert (api.predict(trap, ipsc, 1, inputs, symbolic=False).seconds
            > api.predict(trap, pram(ipsc), 1, inputs, symbolic=False).seconds)


def test_path_values_and_errors():
    path = parse_path("M=t, N=2*t+1, i=20")
    assert path.names == ["M", "N", "I"]
    assert path.show(5) == "M=5, N=11"  # I=20 does not move: it is in the path's text
    assert path.at(5) == {"M": 5, "N": 11, "I": 20}
    with pytest.raises(InterpError, match="column"):
        parse_path("N=t+*2")
    with pytest.raises(InterpError, match="no input grows"):
        parse_path("N=20")
    with pytest.raises(InterpError, match="unit"):
        parse_path("N=3 s*t")
    with pytest.raises(InterpError, match="given twice"):
        parse_path("N=t, N=2")
    with pytest.raises(InterpError, match="NAME=EXPR"):
        parse_path("t")


def test_path_may_depend_on_p_as_npb_mg_setparams_does():
    """setparams for MG with size 2^t on P processes (sys/setparams.c, C integer division):
    lm = t - log2(P)/3, ndim2 = t - (log2(P)+1)/3, ndim3 = t - (log2(P)+2)/3. At t = 5:
    P = 1: 5, 5, 5;  P = 2: 5, 5 - 2/3 = 5, 5 - 3/3 = 4;  P = 4: 5, 5 - 1 = 4, 5 - 4/3 = 4;
    P = 8: 5 - 1 = 4, 4, 5 - 5/3 = 4;  P = 16: 5 - 4/3 = 4, 5 - 5/3 = 4, 5 - 6/3 = 3."""
    path = parse_path("NX=2^t, LM=t-floor(log2(P)/3), NDIM2=t-floor((log2(P)+1)/3), "
                      "NDIM3=t-floor((log2(P)+2)/3), NPROCS=P")
    assert path.per_process and not parse_path("N=t, I=20").per_process
    got = {p: tuple(path.at(5, p)[k] for k in ("NX", "LM", "NDIM2", "NDIM3", "NPROCS"))
           for p in (1, 2, 4, 8, 16)}
    assert got == {1: (32, 5, 5, 5, 1), 2: (32, 5, 5, 4, 2), 4: (32, 5, 4, 4, 4),
                   8: (32, 4, 4, 4, 8), 16: (32, 4, 4, 3, 16)}
    assert path.show(5, 16) == "NX=32, LM=NDIM2=4, NDIM3=3"


def test_study_predicts_each_p_with_its_own_values_and_t_s_with_p_1():
    """blockp.f: each rank loops over NLOC, a PARAMETER. On the path NLOC=16*t/P the study's
    prediction at P = 4, t = 3 is the program with NLOC = 48/4 = 12 on 4 ranks, and T_s is
    NLOC = 48 on one rank of the PRAM."""
    from interp.analysis.scalability import PRAM, REAL, Runs

    blockp = str(Path(__file__).parent / "programs" / "blockp.f")
    runs = Runs(api.setup(blockp, "cluster", 1), parse_path("NLOC=16*t/P"))
    cluster = api.Machine.load("cluster").sag
    assert runs.seconds(REAL, 4, 3) == api.predict(
        blockp, cluster, 4, {"NLOC": 12}, symbolic=False).seconds
    assert runs.seconds(PRAM, 4, 3) == api.predict(
        blockp, pram(cluster), 4, {"NLOC": 12}, symbolic=False).seconds
    assert runs.ts(3) == api.predict(blockp, pram(cluster), 1, {"NLOC": 48},
                                     symbolic=False).seconds


def test_search_finds_the_smallest_size_and_says_when_none_reaches_the_target():
    """E(t) = t/(t+100): E >= 0.7 first at t = 234 (233/333 = 0.6997, 234/334 = 0.7006);
    E(t) = 0.6·t/(t+1) never reaches 0.7 (the search stops, it does not loop);
    E(1) = 0.9 is above 0.7 already: the smallest size on the path."""
    calls = []

    def e(t):
        calls.append(t)
        return t / (t + 100)

    root = find_size(e, 0.7)
    assert (root.t, root.status) == (234, "found")
    assert len(calls) < 30
    root = find_size(lambda t: 0.6 * t / (t + 1), 0.7, t_max=2**20)
    assert root.status == "unreachable" and root.efficiency < 0.6
    assert find_size(lambda t: 0.9, 0.7).status == "smallest"
    flat = find_size(lambda t: 0.5, 0.7)
    assert flat.status == "unreachable" and flat.t == 1


@given(st.dictionaries(st.integers(1, 512), st.floats(1e-9, 1e3), min_size=3, max_size=8))
def test_every_table_obeys_the_product_rule(lat):
    for p, q, r, a, bc in product_rule(scale_table(lat)):
        assert a == approx(bc, rel=1e-12)


@pytest.fixture(scope="module")
def cube_study():
    """cube.f on the cluster, E = 0.99 (combination): N from about 50 to 160, where one step
    of N moves T_s by 3/N (6% to 2%) and so 1/E - 1 by about as much."""
    return api.scalability(CUBE, "cluster", [2, 4, 8, 16], "N=t", 0.99, "combination")


def test_printed_table_obeys_the_product_rule_exactly(cube_study):
    triples = product_rule(cube_study.table)
    assert len([t for t in triples if t[0] < t[1] < t[2]]) == math.comb(4, 3)
    for p, q, r, a, bc in triples:
        assert a == approx(bc, rel=1e-12)


def test_equal_efficiency_scale_is_p_ratio_times_ts_ratio_on_an_n_cubed_program(cube_study):
    """At equal E, L = (T_s/P)(1/E - 1), so Scale(P,P') = (P'/P)·T_s(χ)/T_s(χ'). With whole N
    the efficiencies differ a little: E(N-1) < 0.99 <= E(N). The exact form carries the factor
    (1/E - 1)/(1/E' - 1): E within 0.0005 of 0.99 puts 1/E - 1 within 0.0005/0.0099 = 5% on
    either side, so the factor is within 1.05/0.95 - 1 = 10.5% of 1 (3.2% at worst here).
    T_s = c·N^3 + a constant (one loop set-up, the calls), within 0.1% of N^3 at N >= 50, so
    Scale is also (P'/P)(N/N')^3 to the same 10.5%."""
    pts = {p.nprocs: p for p in cube_study.points}
    for (a, b), scale in cube_study.table.items():
        if a == b:
            continue
        pa, pb = pts[a], pts[b]
        factor = (1 / pa.e - 1) / (1 / pb.e - 1)
        assert scale == approx((b / a) * pa.ts / pb.ts * factor, rel=1e-9)
        assert abs(pa.e - 0.99) < 5e-4 and abs(pb.e - 0.99) < 5e-4
        assert factor == approx(1, rel=0.105)
        n_a, n_b = pa.t, pb.t
        assert min(n_a, n_b) >= 50
        assert pa.ts / pb.ts == approx((n_a / n_b) ** 3, rel=1e-3)
        assert scale == approx((b / a) * (n_a / n_b) ** 3, rel=0.105)


def test_an_unreachable_target_is_an_answer():
    """cube.f on 16 ranks with sizes up to N = 8 (--max-size 8): T_s <= 8^3 x 6.6 ns = 3.4 us
    while the 16-rank allreduce alone costs more than 10 us, so E < 0.9 at every size: the
    answer is 'unreachable' with the best E seen, and no Scale entry for P = 16."""
    result = api.scalability(CUBE, "cluster", [2, 16], "N=t", 0.9, "combination", t_max=8)
    by_p = {p.nprocs: p for p in result.points}
    assert by_p[16].root.status == "unreachable"
    assert by_p[16].e == by_p[16].root.efficiency < 0.9
    assert result.table[(2, 16)] is None


def test_no_scale_from_a_latency_that_is_not_positive():
    """L <= 0 means E >= 1 (T_p <= T_s/P): no ratio is printed for it."""
    table = scale_table({2: 3.0, 4: -1.0, 8: 1.5})
    assert table[(2, 8)] == 2.0
    assert table[(2, 4)] is None and table[(4, 8)] is None
