"""Properties of routes and message costs, checked on random inputs (hypothesis)."""

from __future__ import annotations

import itertools
import math

import sympy
from hypothesis import given, settings
from hypothesis import strategies as st

from interp.system import hops, load_machine, message_seconds, route

IPSC = load_machine("ipsc860")
CLUSTER = load_machine("cluster")
POWERS = st.sampled_from([1, 2, 4, 8, 16])


@st.composite
def pairs(draw):
    nprocs = draw(POWERS)
    node = st.integers(0, nprocs - 1)
    return nprocs, draw(node), draw(node)


@given(pairs())
def test_hops_symmetric_and_at_most_log2p(case):
    nprocs, a, b = case
    assert hops(IPSC, a, b, nprocs) == hops(IPSC, b, a, nprocs)
    assert hops(IPSC, a, b, nprocs) <= math.log2(nprocs)


@given(pairs())
def test_routes_walk_hypercube_links(case):
    nprocs, a, b = case
    path = route(IPSC, a, b, nprocs)
    assert path[0] == a and path[-1] == b
    assert all(bin(x ^ y).count("1") == 1 for x, y in itertools.pairwise(path))
    assert all(0 <= n < nprocs for n in path)  # a subcube route stays in the subcube


@settings(deadline=None)
@given(
    size=st.integers(0, 5000),
    n_hops=st.integers(0, 4),
    factor=st.fractions(min_value=0, max_value=1),
    which=st.sampled_from(
        ["node.cs.*.per_byte", "node.cs.*.per_hop", "node.cs.static.per_byte", "node.cs.dynamic.per_hop"]
    ),
)
def test_scaling_a_cost_down_never_slows_a_message(size, n_hops, factor, which):
    faster = IPSC.scaled({which: sympy.Rational(factor.numerator, factor.denominator)})
    for sync in (True, False):
        before = message_seconds(IPSC, size, n_hops, synchronous=sync).total
        after = message_seconds(faster, size, n_hops, synchronous=sync).total
        assert after <= before


N = sympy.Symbol("n", positive=True, integer=True)


@settings(deadline=None)
@given(n=st.integers(1, 400), n_hops=st.integers(0, 4), bound=st.sampled_from(["min", "mid", "max"]))
def test_symbolic_message_time_matches_numeric(n, n_hops, bound):
    for sag, width in ((IPSC, 4), (CLUSTER, 64)):  # 4-byte words on the iPSC, 64-byte rows on the cluster
        symbolic = message_seconds(sag, width * N, n_hops, bound)
        numeric = message_seconds(sag, width * n, n_hops, bound)
        for part in ("startup", "transmission", "receive", "total"):
            assert getattr(symbolic, part).subs(N, n) == getattr(numeric, part)
