"""Units are built callees first in networkx's topological order (AAU ids depend on it), now
worked out without importing networkx (docs/architecture.md, Speed)."""

from __future__ import annotations

import networkx as nx
from hypothesis import given, strategies as st

from interp.application.aag import _topological


@st.composite
def dags(draw):
    """Units 0..n-1 in a shuffled order, calls only from a lower to a higher number (no cycle),
    repeated calls allowed (a unit calls another at several lines)."""
    n = draw(st.integers(1, 9))
    names = draw(st.permutations([f"U{k}" for k in range(n)]))
    pairs = st.tuples(st.integers(0, n - 1), st.integers(0, n - 1)).filter(lambda p: p[0] < p[1])
    calls = draw(st.lists(pairs, max_size=20))
    edges: dict[str, list[str]] = {}
    for a, b in calls:
        edges.setdefault(f"U{a}", []).append(f"U{b}")
    return list(names), edges


@given(dags())
def test_order_is_networkx_order(dag):
    nodes, edges = dag
    graph = nx.DiGraph()
    graph.add_nodes_from(nodes)
    for a, targets in edges.items():
        for b in targets:
            graph.add_edge(a, b)
    assert _topological(nodes, edges) == list(nx.topological_sort(graph))


def test_a_cycle_has_no_order():
    # A calls B, B calls A; C is fine: no order
    assert _topological(["A", "B", "C"], {"A": ["B"], "B": ["A"]}) is None
    # a unit calling itself
    assert _topological(["A"], {"A": ["A"]}) is None
