"""Every value of Tables 1-3 of the paper, as read from machine_specs/ipsc860.yaml.

The paper's numbers are written out here; exact rationals make the arithmetic exact.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from sympy import Rational as R

CLK = R("2.5e-8")  # Table 1: Unit Clk Freq 40 Mz. (2.5e-8 sec)


def clocks(ipsc, path):
    p = ipsc.param(path)
    return p.max_clocks, p.min_clocks


# --- Table 1: processing component ---------------------------------------------------------


def test_table1_general(ipsc):
    assert ipsc.param("node.p.general.unit_name").text == "iPSC/860"  # Table 1 Unit Name
    assert ipsc.value("node.p.general.clock") == 40 * 10**6  # Table 1 Unit Clk Freq: 40 MHz
    assert 1 / ipsc.value("node.p.general.clock") == CLK  # ... (2.5e-8 sec)
    assert ipsc.value("node.p.general.max_procs") == 16  # Table 1 Unit Max Procs


@pytest.mark.parametrize(
    "path, table_max, table_min",
    [
        ("node.p.ops.add_sub", 1, 1),  # Int/Real Add/Sub
        ("node.p.ops.mul", 3, 2),  # Int/Real Mul
        ("node.p.ops.int_to_real", 14, 8),  # Mix Oper: Int -> Real
        ("node.p.ops.real_to_int", 2, 1),  # Mix Oper: Real -> Int
        ("node.p.loop.nostep_fixed", 10, 5),  # No Step Limit Ovhd
        ("node.p.loop.nostep_per_iter", 14, 8),  # Per-Iter Ovhd (No Step)
        ("node.p.loop.step_per_iter", 17, 10),  # Per-Iter Ovhd (Step)
        ("node.p.cond.condition", 1, 1),  # Condt Ovhd
        ("node.p.cond.branch_taken", 1, 1),  # Branch Taken Ovhd
        ("node.p.call.overhead", 2, 1),  # Call Ovhd
        ("node.p.library.float", 15, 7),  # float()
        ("node.p.library.abs", 7, 4),  # abs()
    ],
)
def test_table1_clock_counts(ipsc, path, table_max, table_min):
    assert clocks(ipsc, path) == (table_max, table_min)
    p = ipsc.param(path)
    assert p.max_seconds == table_max * CLK
    assert p.min_seconds == table_min * CLK


def test_table1_mul_example(ipsc):
    assert ipsc.param("node.p.ops.mul").max_clocks == 3  # Table 1 Int/Real Mul max
    assert ipsc.param("node.p.ops.mul").min_clocks == 2  # Table 1 Int/Real Mul min


def test_table1_int_div(ipsc):
    p = ipsc.param("node.p.ops.int_div")
    # Table 1 Int Div max: (1.256e-6/Clk)+2 clocks = 1.256e-6 s + 2 * 2.5e-8 s = 1.306e-6 s
    assert p.max_seconds == R("1.256e-6") + 2 * R("2.5e-8") == R("1.306e-6")
    assert p.max_clocks == R("1.256e-6") / CLK + 2 == R("52.24")
    # Table 1 Int Div min: (1.106e-6/Clk)+1 = 1.106e-6 + 2.5e-8 s = 1.131e-6 s
    assert p.min_seconds == R("1.106e-6") + CLK == R("1.131e-6")
    assert p.min_clocks == R("1.106e-6") / CLK + 1


def test_table1_real_div(ipsc):
    p = ipsc.param("node.p.ops.real_div")
    assert p.max_seconds == R("2.391e-6") + 5 * CLK  # Table 1 Real Div max: (2.391e-6/Clk)+5
    assert p.min_seconds == R("2.241e-6") + 2 * CLK  # Table 1 Real Div min: (2.241e-6/Clk)+2


def test_table1_step_limit(ipsc):
    p = ipsc.param("node.p.loop.step_fixed")
    assert p.max_seconds == R("1.256e-6") + 17 * CLK  # Table 1 Step Lim Ovhd max: (1.256e-6/Clk)+17
    assert p.min_seconds == R("1.106e-6") + 10 * CLK  # Table 1 Step Lim Ovhd min: (1.106e-6/Clk)+10


def test_table1_nx(ipsc):
    numnodes, mynode = ipsc.param("node.p.nx.numnodes"), ipsc.param("node.p.nx.mynode")
    assert numnodes.max_seconds == R("5.683e-7")  # Table 1 numnodes() max: (5.683e-7/Clk)
    assert numnodes.min_seconds == R("5.552e-7")  # Table 1 numnodes() min: (5.552e-7/Clk)
    assert mynode.max_seconds == R("5.421e-7")  # Table 1 mynode() max: (5.421e-7/Clk)
    assert mynode.min_seconds == R("5.302e-7")  # Table 1 mynode() min: 5.302e-7/Clk
    assert numnodes.max_clocks == R("5.683e-7") / CLK  # 22.732 clocks


def test_table1_values_are_not_assumptions(ipsc):
    for path in ("node.p.ops.int_div", "node.p.library.abs", "node.p.nx.mynode", "node.p.general.clock"):
        assert not ipsc.param(path).assumption


def test_mid_is_the_papers_example(ipsc):
    p = ipsc.param("node.p.ops.mul")  # (max - min)/2 + min = (3 - 2)/2 + 2 = 2.5 clocks
    assert p.seconds("mid") == R(5, 2) * CLK
    assert ipsc.op_seconds("mul") == R(5, 2) * CLK
    assert ipsc.op_seconds("mul", "max") == 3 * CLK


# --- Table 2: memory component -------------------------------------------------------------


@pytest.mark.parametrize(
    "path, value",
    [
        ("node.m.cache.size", 8 * 1024),  # Cache Size 8 KBytes
        ("node.m.cache.block", 32),  # Cache Blk Size 32 Bytes
        ("node.m.cache.assoc", 2),  # Cache Assoc 2
        ("node.m.main.size", 8 * 1024 * 1024),  # MM Size 8 MBytes
        ("node.m.main.page", 4 * 1024),  # MM Page Size 4 KBytes
        ("node.m.icache.size", 4 * 1024),  # Inst Cache Size 4 KBytes
        ("node.m.icache.block", 32),  # Inst Cache Blk Size 32 Bytes
        ("node.m.icache.assoc", 2),  # Inst Cache Assoc 2
    ],
)
def test_table2_sizes(ipsc, path, value):
    assert ipsc.value(path) == value


def test_table2_policies(ipsc):
    assert ipsc.param("node.m.cache.replacement").text == "random"  # Cache Repl Policy Random
    assert ipsc.param("node.m.cache.write_policy").text == "write-back"  # Cache Write Policy Write-Back


@pytest.mark.parametrize(
    "path, clk",
    [
        ("node.m.access.fetch", 1),  # Fetch 1
        ("node.m.access.fetch_miss", 6),  # Fetch Miss 6
        ("node.m.access.store", 2),  # Store 2
        ("node.m.access.store_miss", 4),  # Store Miss 4
        ("node.m.access.mm_fetch_first", 3),  # Main Memory Fetch 3-1 (pipelined): 3
        ("node.m.access.mm_fetch_pipelined", 1),  # ... then 1
        ("node.m.access.mm_store_first", 3),  # Main Memory Store 3-1 (pipelined): 3
        ("node.m.access.mm_store_pipelined", 1),  # ... then 1
    ],
)
def test_table2_access_clocks(ipsc, path, clk):
    p = ipsc.param(path)
    assert p.max_clocks == p.min_clocks == clk
    assert p.seconds() == clk * CLK


# --- Table 3: communication/synchronization component --------------------------------------


def test_table3_specifications(ipsc):
    assert ipsc.param("node.cs.spec.topology").text == "hypercube"  # Topology
    assert ipsc.param("node.cs.spec.routing").text == "e-cube"  # Routing: e-cube, ...
    assert ipsc.param("node.cs.spec.switching").text == "circuit"  # ... circuit switched
    assert ipsc.value("node.cs.spec.static_buffer_size") == 100  # Static Buffer Size 100 Bytes
    assert ipsc.value("node.cs.spec.static_buffers") == 1000  # Sec. 3.4.2: about 1000 buffers


@pytest.mark.parametrize(
    "path, seconds",
    [
        ("node.cs.static.startup", "70e-6"),  # Static Buffers, Startup Ovhd
        ("node.cs.static.per_byte", "0.42e-6"),  # Static Buffers, XMission/Byte
        ("node.cs.static.per_hop", "11e-6"),  # Static Buffers, Link Ovhd/Hop
        ("node.cs.dynamic.startup", "175e-6"),  # Dynamic Buffers, Startup Ovhd
        ("node.cs.dynamic.per_byte", "0.36e-6"),  # Dynamic Buffers, XMission/Byte
        ("node.cs.dynamic.per_hop", "33e-6"),  # Dynamic Buffers, Link Ovhd/Hop
        ("node.cs.sync.overhead", "67e-6"),  # Synchronization Structure, Sync Ovhd
    ],
)
def test_table3_times(ipsc, path, seconds):
    p = ipsc.param(path)
    assert p.min_seconds == p.max_seconds == R(seconds)
    assert not p.assumption


def test_table3_receive_is_an_assumption(ipsc):
    for cls in ("static", "dynamic"):  # Receive Ovhd: "-" in Table 3
        p = ipsc.param(f"node.cs.{cls}.receive")
        assert p.seconds() == 0 and p.assumption and "Table 3" in p.note


def test_overlap_and_unstated_values_are_assumptions(ipsc):
    assert ipsc.param("node.p.call.per_arg").assumption
    assert ipsc.param("node.p.call.per_arg").seconds() == 0
    for kind in ("sync_send", "async_send", "recv", "collective"):
        assert ipsc.param(f"node.cs.overlap.{kind}").assumption
    assert all(p.assumption for p in ipsc.parameters() if p.sau in ("host", "srm_link"))


def test_every_table_value_has_a_comment_in_the_spec(ipsc):
    lines = Path(ipsc.file).read_text(encoding="utf-8").splitlines()
    tagged = {t: [ln for ln in lines if f"# Table {t}," in ln] for t in (1, 2, 3)}
    # Table 1: 3 general rows + 17 operator rows with a max and a min column = 37 values.
    assert len(tagged[1]) == 3 + 2 * 17
    # Table 2: 10 general rows + 4 hierarchy rows + 2 main-memory rows of "3-1" (2 values each).
    assert len(tagged[2]) == 10 + 4 + 2 * 2
    # Table 3: 3 specification rows (routing gives two values) + 2 x 3 timed rows + Sync Ovhd.
    assert len(tagged[3]) == 4 + 2 * 3 + 1
    assert all(":" in ln.split("#")[0] for t in tagged.values() for ln in t)
