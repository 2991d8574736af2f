"""The fat-tree topology (interp/system/fattree.py): a k-ary n-tree grown to the machine's
run-time size ``procs``, destination-mod-k routes up to the nearest common ancestor and down.
Hop counts, routes and message times are worked by hand."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import MINIMAL
from hypothesis import given, settings
from hypothesis import strategies as st

from interp import api
from interp.errors import InterpError, SpecError
from interp.system import hops, load_machine, message_cost, route
from interp.system.fattree import FatTree
from interp.system.filter import fat_tree
from interp.system.mapping import check_nprocs

MILLION = 1 << 20  # 1,048,576 = 32^4


def small(cluster, radix=8, procs=64):
    """The cluster with ``radix``-port switches and ``procs`` cores."""
    return cluster.with_values({"core.cs.spec.switch_radix": radix}).with_runtime({"procs": procs})


# --- the tree ---------------------------------------------------------------------------------


def test_levels_grow_with_procs():
    # radix 8: k = 4 down-ports per switch; 4^3 = 64 leaves take 3 levels, 65 take 4
    assert (FatTree(8, 64).k, FatTree(8, 64).levels, FatTree(8, 64).leaves) == (4, 3, 64)
    assert FatTree(8, 65).levels == 4 and FatTree(8, 65).leaves == 4**4
    assert FatTree(8, 4).levels == 1  # one switch: a crossbar
    assert FatTree(8, 64).switches == 3 * 4**2  # n levels of k^(n-1) switches


def test_cluster_is_a_two_level_tree_grown_by_procs(cluster):
    # 64-port switches: 32 cores per leaf switch; 32^2 = 1024 cores (the default) in 2 levels
    assert fat_tree(cluster) == FatTree(64, 1024) and fat_tree(cluster).levels == 2
    grown = cluster.with_runtime({"procs": MILLION})
    assert fat_tree(grown).levels == 4 and fat_tree(grown).leaves == 32**4 == MILLION
    assert fat_tree(cluster.with_runtime({"procs": MILLION + 1})).levels == 5


# --- hop counts: up to the nearest common ancestor and down -----------------------------------


@pytest.mark.parametrize("src, dst, level", [
    (0, 3, 1),  # leaves 0..3 hang on one switch (k = 4): up 1, down 1
    (0, 5, 2),  # 0 and 5 share the level-2 subtree 0..15 (a pod): up 2, down 2
    (3, 12, 2),
    (0, 63, 3),  # across the core: 0 in pod 0..15, 63 in pod 48..63
    (17, 40, 3),
    (9, 9, 0),
])
def test_hops_between_leaves(cluster, src, dst, level):
    sag = small(cluster)
    assert fat_tree(sag).nca_level(src, dst) == level
    assert hops(sag, src, dst, 64) == hops(sag, dst, src, 64) == 2 * level


def test_route_switch_by_switch(cluster):
    sag = small(cluster)
    # 0 -> 5, k = 4: up to 0's leaf switch (1, 0 div 4, 0), then the level-2 switch that
    # destination digit 0 (5 mod 4 = 1) picks: (2, 0 div 16, 1); down to 5's leaf switch
    # (1, 5 div 4, 0) and to 5
    assert route(sag, 0, 5, 64) == [0, ("sw", 1, 0, 0), ("sw", 2, 0, 1), ("sw", 1, 1, 0), 5]
    # 0 -> 63 over the core: up (1,0,0), (2, 0, 63 mod 4 = 3), (3, 0, 63 mod 16 = 15);
    # down (2, 63 div 16 = 3, 3), (1, 63 div 4 = 15, 0)
    assert route(sag, 0, 63, 64) == [0, ("sw", 1, 0, 0), ("sw", 2, 0, 3), ("sw", 3, 0, 15),
                                     ("sw", 2, 3, 3), ("sw", 1, 15, 0), 63]
    assert route(sag, 9, 9, 64) == [9]


def _adjacent(k: int, u, v) -> bool:
    """The k-ary n-tree's wiring: leaf p on switch (1, p div k, 0); switch (l, a, b) under the
    k switches (l+1, a div k, b + j k^(l-1))."""
    if not isinstance(u, tuple) or not isinstance(v, tuple):
        leaf, sw = (u, v) if isinstance(v, tuple) else (v, u)
        return sw == ("sw", 1, leaf // k, 0)
    lo, hi = sorted((u, v), key=lambda s: s[1])
    return hi[1] == lo[1] + 1 and hi[2] == lo[2] // k and hi[3] % k ** (lo[1] - 1) == lo[3]


@settings(max_examples=200, deadline=None)
@given(st.sampled_from([4, 6, 8, 16]), st.integers(1, 5000), st.data())
def test_routes_follow_the_wires(radix, procs, data):
    tree = FatTree(radix, procs)
    src = data.draw(st.integers(0, procs - 1))
    dst = data.draw(st.integers(0, procs - 1))
    path = tree.route(src, dst)
    assert path[0] == src and path[-1] == dst
    assert len(path) - 1 == tree.hops(src, dst) <= 2 * tree.levels
    assert all(_adjacent(tree.k, u, v) for u, v in zip(path, path[1:]))
    levels = [v[1] for v in path[1:-1]]
    top = max(levels, default=0)
    assert levels == list(range(1, top + 1)) + list(range(top - 1, 0, -1))  # up, then down


# --- a million cores: routes on demand --------------------------------------------------------


def test_a_million_cores_route_on_demand(cluster):
    sag = cluster.with_runtime({"procs": MILLION})
    assert check_nprocs(sag, MILLION) == MILLION
    # 32 per leaf switch, 1024 per level-2 subtree, 32768 per level 3
    assert hops(sag, 0, 31, MILLION) == 2
    assert hops(sag, 0, 32, MILLION) == 4
    assert hops(sag, 0, 1024, MILLION) == 6
    assert hops(sag, 0, MILLION - 1, MILLION) == 8
    assert route(sag, 1, MILLION - 1, MILLION)[4] == ("sw", 4, 0, (MILLION - 1) % 32**3)


def test_more_processes_than_procs_names_procs(cluster):
    with pytest.raises(InterpError) as err:
        check_nprocs(cluster, 2048)
    assert "it has procs = 1024 (core.p.general.max_procs)" in err.value.message
    assert "--what-if 'procs = 2048'" in err.value.hint
    assert check_nprocs(cluster.with_runtime({"procs": 2048}), 2048) == 2048


def test_procs_must_be_whole(cluster):
    with pytest.raises(InterpError, match="a count must be a whole number"):
        cluster.with_runtime({"procs": 1.5})


# --- message times over h hops ----------------------------------------------------------------


@pytest.mark.parametrize("src, dst, h", [(0, 3, 2), (0, 5, 4), (0, 63, 6)])
def test_message_time_over_the_tree(cluster, src, dst, h):
    """cluster.yaml, 1000 B (eager, static class): startup 1.5 us + 1000 · 0.08 ns
    + h · 0.05 us per link + receive 0.5 us."""
    cost = message_cost(small(cluster), src, dst, 64, 1000)
    assert float(cost.total) == pytest.approx(1.5e-6 + 1000 * 0.08e-9 + h * 0.05e-6 + 0.5e-6, rel=1e-12)


# --- bad parameters ---------------------------------------------------------------------------

FAT = MINIMAL.replace("topology: hypercube", "topology: fat_tree").replace(
    "routing: e-cube", "routing: d-mod-k\n      switch_radix: 8")


def test_a_fat_tree_spec_loads(write_spec):
    sag = load_machine(write_spec(FAT))
    assert route(sag, 0, 3, 4) == [0, ("sw", 1, 0, 0), 3]  # max_procs 4: one 8-port switch


@pytest.mark.parametrize("radix", [5, 2])
def test_radix_must_be_even_and_at_least_4(write_spec, radix):
    with pytest.raises(SpecError) as err:
        load_machine(write_spec(FAT.replace("switch_radix: 8", f"switch_radix: {radix}")))
    assert f"even whole number of at least 4 (half the ports down, half up), not {radix}" in err.value.message
    assert (err.value.location.line, err.value.location.column) == (20, 21)  # the value


def test_a_fat_tree_needs_its_radix(write_spec):
    with pytest.raises(SpecError) as err:
        load_machine(write_spec(FAT.replace("\n      switch_radix: 8", "")))
    assert err.value.message == "SAU 'node' is a fat tree, so it needs cs.spec.switch_radix"


def test_a_fat_tree_routes_d_mod_k(write_spec):
    with pytest.raises(SpecError) as err:
        load_machine(write_spec(FAT.replace("routing: d-mod-k", "routing: e-cube")))
    assert err.value.message == "routing 'e-cube' does not fit topology 'fat_tree'"
    assert err.value.hint == "a fat_tree routes with 'd-mod-k'"


def test_a_what_if_radix_is_checked(cluster):
    with pytest.raises(InterpError, match="switch_radix must be an even whole number"):
        route(cluster.with_values({"core.cs.spec.switch_radix": 7}), 0, 1, 2)


# --- a machine of today -----------------------------------------------------------------------


def test_marenostrum5_validates_and_grows(cluster):
    mn5 = load_machine("marenostrum5")
    tree = fat_tree(mn5)
    # 725,760 cores [TOP500]; 128-port switches, k = 64: 64^3 = 262,144 < 725,760 <= 64^4
    assert (tree.procs, tree.k, tree.levels) == (725760, 64, 4)
    assert float(mn5.value("core.p.general.clock")) == 2.0e9
    assert hops(mn5, 0, 64, 725760) == 4  # the second leaf switch: up 2, down 2


@pytest.mark.parametrize("program", ["programs/ring/ring.f", "programs/mpi_ring/ring_mpi.f"])
def test_marenostrum5_predicts_the_rings(program):
    root = Path(__file__).resolve().parents[2]
    pred = api.predict([str(root / program)], "marenostrum5", 16, symbolic=False)
    assert pred.seconds > 0


def test_the_host_id_is_above_every_node_a_spec_can_grow_to():
    # MYHOST() and the host's process id were 32768, so on a cluster grown past 32 768 cores
    # rank 32768 was taken for the host ("this machine has no host SAU"); every shipped spec's
    # `procs` range now stays below it
    from interp.engine.process import HOST_ID
    from interp.system.loader import list_machines, load_machine

    for name in list_machines():
        sag = load_machine(name)
        for r in sag.runtime:
            if r.name == "procs":
                assert r.max < HOST_ID, (name, r.max)
