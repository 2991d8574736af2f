"""The machine filter on the iPSC/860: routes, buffer classes and message costs by hand."""

from __future__ import annotations

import pytest
import sympy
from sympy import Rational as R

from interp.errors import InterpError
from interp.system import (
    HOST,
    hops,
    message_class,
    message_cost,
    message_seconds,
    overlap_fraction,
    route,
    static_condition,
)
from interp.system.filter import ecube_route, ring_route, xy_route

# --- routes ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "src, dst, path",
    [
        (0, 7, [0, 1, 3, 7]),  # bits 0, 1, 2 corrected in that order
        (5, 2, [5, 4, 6, 2]),  # 101 -> 100 -> 110 -> 010
        (0, 3, [0, 1, 3]),
        (12, 3, [12, 13, 15, 11, 3]),  # 1100 -> 1101 -> 1111 -> 1011 -> 0011
        (9, 9, [9]),
        (15, 0, [15, 14, 12, 8, 0]),
    ],
)
def test_ecube_routes_hop_by_hop(ipsc, src, dst, path):
    assert route(ipsc, src, dst, 16) == path
    assert hops(ipsc, src, dst, 16) == len(path) - 1 == bin(src ^ dst).count("1")


def test_host_routes_enter_through_the_link(ipsc):
    # host -> srm_link -> entry node 0 -> e-cube route to the destination
    assert route(ipsc, HOST, 5, 16) == [HOST, 0, 1, 5]
    assert route(ipsc, 6, HOST, 16) == [6, 4, 0, HOST]
    assert hops(ipsc, HOST, 0, 16) == 1
    assert hops(ipsc, HOST, 7, 16) == 1 + 3


def test_route_checks_process_ids_and_machine_size(ipsc):
    with pytest.raises(InterpError, match="at most 16"):
        route(ipsc, 0, 1, 32)
    with pytest.raises(InterpError, match=r"ranks are 0\.\.3"):
        route(ipsc, 0, 4, 4)


def test_other_topologies():
    assert ring_route(1, 6, 8) == [1, 0, 7, 6]  # the shorter way, downwards
    assert ring_route(0, 4, 8) == [0, 1, 2, 3, 4]  # a tie goes upwards
    assert xy_route(0, 10, 4) == [0, 1, 2, 6, 10]  # (0,0) -> (0,2) along the row, then down
    assert xy_route(15, 0, 4) == [15, 14, 13, 12, 8, 4, 0]
    assert ecube_route(3, 3) == [3]


def test_full_topology(cluster):
    full = cluster.with_values({"core.cs.spec.topology": "full", "core.cs.spec.routing": "direct"})
    assert route(full, 3, 400, 512) == [3, 400]
    assert hops(full, 7, 7, 512) == 0


# --- buffer classes ----------------------------------------------------------------------------


def test_buffer_class_threshold(ipsc):
    assert message_class(ipsc, 100) == "static"  # at most static_buffer_size (100 B): static
    assert message_class(ipsc, 101) == "dynamic"
    assert message_class(ipsc, 0) == "static"
    assert message_class(ipsc, 8, synchronous=False) == "dynamic"  # only synchronous ones are auto-buffered


def test_buffer_class_symbolic(ipsc):
    n = sympy.Symbol("n", positive=True, integer=True)
    assert static_condition(ipsc, 8 * n) == (8 * n <= 100)
    with pytest.raises(ValueError, match="depends on the size"):
        message_class(ipsc, 8 * n)


def test_cluster_eager_threshold_applies_to_all_sends(cluster):
    assert message_class(cluster, 8 * 1024, synchronous=False) == "static"
    assert message_class(cluster, 8 * 1024 + 1) == "dynamic"


# --- message costs by hand ---------------------------------------------------------------------


def test_1000_byte_message_node0_to_node3(ipsc):
    n_hops = hops(ipsc, 0, 3, 16)
    assert n_hops == 2
    cost = message_seconds(ipsc, 1000, n_hops)
    # Table 3, dynamic buffers: 175e-6 + 1000 * 0.36e-6 + 2 * 33e-6 s = 601e-6 s
    assert cost.total == R("175e-6") + 1000 * R("0.36e-6") + 2 * R("33e-6") == R("601e-6")
    assert cost.startup == R("175e-6")
    assert cost.transmission == 1000 * R("0.36e-6") + 2 * R("33e-6")
    assert cost.receive == 0
    assert message_cost(ipsc, 0, 3, 16, 1000) == cost


def test_100_byte_message_uses_static_buffers(ipsc):
    n_hops = hops(ipsc, 0, 3, 16)
    cost = message_seconds(ipsc, 100, n_hops)
    # Table 3, static buffers: 70e-6 + 100 * 0.42e-6 + 2 * 11e-6 s = 134e-6 s
    assert cost.total == R("70e-6") + 100 * R("0.42e-6") + n_hops * R("11e-6") == R("134e-6")


def test_101_byte_message_is_dynamic(ipsc):
    cost = message_seconds(ipsc, 101, 1)
    assert cost.total == R("175e-6") + 101 * R("0.36e-6") + 1 * R("33e-6")


def test_symbolic_size_is_piecewise(ipsc):
    n = sympy.Symbol("n", positive=True, integer=True)
    cost = message_seconds(ipsc, 8 * n, 2)
    assert isinstance(cost.total, sympy.Piecewise)
    assert cost.total.subs(n, 12) == message_seconds(ipsc, 96, 2).total  # static
    assert cost.total.subs(n, 13) == message_seconds(ipsc, 104, 2).total  # dynamic
    assert isinstance(cost.startup, sympy.Piecewise) and isinstance(cost.transmission, sympy.Piecewise)
    assert cost.receive == 0  # both classes receive in 0 s, so SymPy folds the Piecewise


def test_host_message_uses_the_link_and_cube_hops(ipsc):
    cost = message_cost(ipsc, HOST, 3, 16, 1000)
    link = {k: ipsc.seconds(f"srm_link.cs.dynamic.{k}") for k in ("startup", "per_byte", "per_hop", "receive")}
    # one link hop, then node 0 -> 1 -> 3 inside the cube at the dynamic per-hop cost
    expected_tx = 1000 * link["per_byte"] + 1 * link["per_hop"] + 2 * R("33e-6")
    assert cost.startup == link["startup"]
    assert cost.transmission == expected_tx
    assert cost.total == link["startup"] + expected_tx + link["receive"]


def test_overlap_fraction(ipsc, cluster):
    assert overlap_fraction(ipsc, "async_send") == 0
    assert overlap_fraction(cluster, "async_send") == R(1, 2)
    with pytest.raises(InterpError, match=r"did you mean 'node\.cs\.overlap\.recv'"):
        overlap_fraction(ipsc, "recieve")


def test_bounds(ipsc):
    lo, hi = (message_seconds(ipsc, 50, 1, b).total for b in ("min", "max"))
    assert lo == hi == message_seconds(ipsc, 50, 1).total  # Table 3 gives single values
