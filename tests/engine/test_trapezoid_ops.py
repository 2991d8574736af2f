"""The trapezoid node program on P = 1: its computation from op counts × Table 1 costs.

The counts are taken from the AAG JSON (``interp graph node.f --format json``) and checked
against a reading of the source (programs/trapezoid/node.f) by the rules of
interp/application/opcount.py; the node's predicted computation time is then rebuilt by hand:
Σ count × op cost, plus memory accesses fetch·(fetch + (1−h)·fetch_miss) + store·(store +
(1−h)·store_miss), plus loop and condition overheads.
"""

from __future__ import annotations

import json

import pytest
import sympy as sp
from click.testing import CliRunner

from interp.cli import main

from .helpers import (
    ADD, CACHE_BLOCK, COND, FETCH, FETCH_MISS, FLOAT, MUL, MYHOST, MYNODE, NINT, NOSTEP_FIXED,
    NOSTEP_ITER, NUMNODES, REAL_DIV, REL, STEP_FIXED, STEP_ITER, STORE, STORE_MISS, TAKEN,
    TRAPEZOID, at, rows_by_pid, run,
)

NODE = TRAPEZOID[1]

# What the source says, statement by statement (node.f line numbers).
EXPECTED_OPS = {
    # 25-26  ME = MYNODE(); NP = NUMNODES(): two machine-specific calls, two stores
    25: {"store": 2, "nx": {"mynode": 1, "numnodes": 1}},
    # 32 A = PARAMS(1)            fetch 1, store 1
    # 33 B = PARAMS(2)            fetch 1, store 1
    # 34 N = NINT(PARAMS(3))      fetch 1, store 1, nint (INTEGER result into INTEGER N)
    # 35 H = (B - A) / DBLE(N)    fetch 3 (B, A, N), real_add 1, real_div 1, float 1 (DBLE)
    # 38 SUM = 0.0D0              store 1 (a literal: nothing else)
    32: {"real_add": 1, "real_div": 1, "fetch": 6, "store": 5,
         "library": {"float": 1, "nint": 1}},
    # 40 X = A + DBLE(I)*H                  fetch 3, float 1, real_mul 1, real_add 1, store 1
    # 41 SUM = SUM + 4.0D0/(1.0D0 + X*X)    fetch 3 (SUM, X, X), real_mul 1, real_add 2,
    #                                        real_div 1, store 1
    40: {"real_add": 3, "real_mul": 2, "real_div": 1, "fetch": 6, "store": 2,
         "library": {"float": 1}},
    # 46 FA = 4.0D0/(1.0D0 + A*A)     fetch 2, real_mul 1, real_add 1, real_div 1, store 1
    # 47 FB = 4.0D0/(1.0D0 + B*B)     the same
    # 48 SUM = SUM + 0.5D0*(FA + FB)  fetch 3, real_add 2, real_mul 1, store 1
    46: {"real_add": 4, "real_mul": 3, "real_div": 2, "fetch": 7, "store": 3},
    # 50 SUM = SUM*H                  fetch 2, real_mul 1, store 1
    50: {"real_mul": 1, "fetch": 2, "store": 1},
}


@pytest.fixture(scope="module")
def graph():
    result = CliRunner().invoke(main, ["graph", NODE, "--format", "json"])
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def test_seq_op_counts_match_the_source(graph):
    seqs = {a["line"]: a["params"]["ops"] for a in graph["aaus"] if a["type"] == "Seq"}
    assert seqs == EXPECTED_OPS


def test_loop_and_condition_structure(graph):
    by_line = {a["line"]: a for a in graph["aaus"]}
    outer, inner = by_line[30], by_line[39]
    assert outer["type"] == "IterSync" and outer["params"]["limit_type"] == "nostep"
    assert outer["params"]["bound_ops"] == {"fetch": 1}  # NITER
    assert inner["type"] == "IterD" and inner["params"]["limit_type"] == "step"  # step NP
    assert inner["params"]["bound_ops"] == {"int_add": 2, "fetch": 3}  # ME+1, N-1; ME, N, NP
    assert by_line[45]["type"] == "CondtD"
    if55 = next(a for a in graph["aaus"] if a["line"] == 55 and a["type"] == "CondtSync")
    csend = next(a for a in graph["aaus"] if a["id"] == if55["children"][0])
    assert csend["params"]["routine"] == "CSEND" and csend["params"]["args"]["dest"] == "MYHOST()"


def _node_computation(n: int, niter: int) -> float:
    """Node 0's computation on P = 1 (ME = 0, NP = 1), N intervals, NITER iterations."""
    # Cache: every scalar's reuse distance fits in the 256-block window, so it hits. A DOUBLE
    # array element misses once per 32-byte block: h = 1 - 8/32. The Seq at line 32 makes 11
    # accesses (PARAMS,A  PARAMS,B  PARAMS,N  B,A,N,H  SUM): 3 PARAMS elements, 8 scalars.
    h32 = (8 * 1.0 + 3 * (1 - 8 / CACHE_BLOCK)) / 11
    prelude = MYNODE + NUMNODES + 2 * STORE  # line 25-26
    seq32 = (ADD + REAL_DIV + FLOAT + NINT
             + 6 * (FETCH + (1 - h32) * FETCH_MISS) + 5 * (STORE + (1 - h32) * STORE_MISS))
    body40 = 3 * ADD + 2 * MUL + REAL_DIV + FLOAT + 6 * FETCH + 2 * STORE
    trips = (n - 1 - (0 + 1) + 1) // 1  # DO 10 I = ME+1, N-1, NP with ME = 0, NP = 1
    loop39 = STEP_FIXED + (2 * ADD + 3 * FETCH) + trips * (STEP_ITER + body40)
    if45 = (COND + TAKEN + FETCH) + (4 * ADD + 3 * MUL + 2 * REAL_DIV + 7 * FETCH + 3 * STORE)
    seq50 = MUL + 2 * FETCH + STORE
    gdsum = 0.0  # P = 1: no rounds, nothing to combine
    if55 = (COND + TAKEN + FETCH) + MYHOST  # the CSEND's argument MYHOST() is evaluated
    outer_fixed = NOSTEP_FIXED + FETCH  # DO 100 ITER = 1, NITER
    per_iteration = NOSTEP_ITER + seq32 + loop39 + if45 + seq50 + gdsum + if55
    return prelude + outer_fixed + niter * per_iteration


@pytest.mark.parametrize("n, niter", [(1000, 10), (10**6, 10), (7, 1), (100, 3)])
def test_node_computation_on_one_node(n, niter):
    pred = run(TRAPEZOID, 1, {"N": n, "NITER": niter})
    node = rows_by_pid(pred)[0]
    assert at(pred, node["computation"]) == pytest.approx(_node_computation(n, niter), rel=REL)


def test_inner_loop_cost_per_point():
    """The headline's coefficient of N·NITER is one inner iteration: step per-iteration
    overhead + the body (3 adds, 2 muls, a real divide, a DBLE, 6 fetches, 2 stores)."""
    pred = run(TRAPEZOID, 1, {"N": 1000, "NITER": 10})
    node = rows_by_pid(pred)[0]
    per_point = STEP_ITER + 3 * ADD + 2 * MUL + REAL_DIV + FLOAT + 6 * FETCH + 2 * STORE
    assert per_point == pytest.approx(3.466e-6, rel=REL)
    for expr in (pred.total, node["computation"]):
        syms = {s.name: s for s in sp.sympify(expr).free_symbols}
        poly = sp.expand(expr)
        assert float(poly.coeff(syms["N"]).coeff(syms["NITER"])) == pytest.approx(per_point, rel=REL)
