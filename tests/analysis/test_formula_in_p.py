"""The formula in P (issue 16, part 2): recovered from interpretations at P = 1, 2, 4, …,
verified at P values the fit did not use, with hand-worked formulas to hold it to."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest
import sympy as sp
from click.testing import CliRunner
from hypothesis import given, settings, strategies as st

from interp import api
from interp.analysis.formula_in_p import P, Mismatch, at_p, fit_numbers
from interp.cli import main
from interp.system import load_machine
from interp.system.simgrid import zero_computation

HERE = Path(__file__).parent
REPO = HERE.parents[1]
RING = str(HERE / "programs" / "ringrb.f")
TRAPEZOID = [str(REPO / "programs" / "trapezoid" / f) for f in ("host.f", "node.f")]

# machine_specs/ipsc860.yaml, Table 3 of the paper, as exact fractions
STATIC = dict(startup=sp.Rational(70, 10**6), per_byte=sp.Rational(42, 10**8),
              per_hop=sp.Rational(11, 10**6))      # static buffers: startup 70e-6 s, 0.42e-6 s/B, 11e-6 s/hop
DYNAMIC = dict(startup=sp.Rational(175, 10**6), per_byte=sp.Rational(36, 10**8),
               per_hop=sp.Rational(33, 10**6))     # dynamic buffers: 175e-6 s, 0.36e-6 s/B, 33e-6 s/hop


def contention_free(tmp_path: Path):
    """The iPSC/860 spec with contention: none (the paper's Ω) and computation at 0, so that
    only the messages are left."""
    text = (REPO / "machine_specs" / "ipsc860.yaml").read_text()
    anchor = "              static_buffer_use: synchronous"
    assert anchor in text
    path = tmp_path / "ipsc860_free.yaml"
    path.write_text(text.replace(anchor, "              contention: none\n" + anchor, 1))
    return zero_computation(load_machine(str(path)))


def symbols(expr, *names):
    """The formula's own symbols (the engine's carry assumptions: positive integers)."""
    by_name = {s.name: s for s in expr.free_symbols}
    return [by_name[n] for n in names]


def ecube_hops(p: int) -> int:
    """Hops of one round of the ring on the hypercube: k → k+1 differ in popcount(k ^ (k+1))
    bits, P−1 → 0 in log2 P."""
    return sum(bin(k ^ ((k + 1) % p)).count("1") for k in range(p))


def test_ring_hops_sum_to_2p_minus_2():
    assert ecube_hops(16) == 30  # 1+2+1+3+1+2+1+4+1+2+1+3+1+2+1 + 4 (15 → 0)
    assert all(ecube_hops(p) == 2 * p - 2 for p in (2, 4, 8, 32, 64))


@pytest.fixture(scope="module")
def ring(tmp_path_factory):
    machine = contention_free(tmp_path_factory.mktemp("spec"))
    return api.formula_in_p([RING], machine, {"NR": 10, "NB": 8})


def test_ring_formula_is_the_hand_formula(ring):
    """T = R·(P·(startup + b·per_byte) + (2P − 2)·per_hop): P messages a round, one after the
    other, each paying startup + b·per_byte on its sender, and 2P − 2 hops in all. Messages of
    at most 100 bytes use the static buffers, larger ones the dynamic ones (Table 3)."""
    R, B = symbols(ring.formula, "NR", "NB")

    def hand(c):
        return R * (P * (c["startup"] + B * c["per_byte"]) + (2 * P - 2) * c["per_hop"])

    expected = sp.Piecewise((hand(STATIC), B <= 100), (hand(DYNAMIC), True))
    assert ring.formula is not None, ring.reason
    for branch, (value, _) in zip(ring.formula.args, expected.args):
        assert sp.expand(branch.expr - value) == 0
    assert [c.cond for c in ring.formula.args] == [c for _, c in expected.args]
    # domain and verification: three P values the fit did not use
    assert ring.verified == [16, 32, 64] and not set(ring.fit) & set(ring.verified)
    assert ring.max_error <= 1e-9
    assert "power of two" in ring.domain and "1 <= P <= 64" in ring.domain


def test_ring_at_16_is_30_hops(ring):
    """P = 16, R = 10, b = 8: 10·(16·(70e-6 + 8·0.42e-6) + 30·11e-6) = 0.015 0176 s."""
    expected = 10 * (16 * (70e-6 + 8 * 0.42e-6) + 30 * 11e-6)
    assert ring.at(16, {"NR": sp.Integer(10), "NB": sp.Integer(8)}) == pytest.approx(expected, rel=1e-12)
    assert ring.seconds[16] == pytest.approx(expected, rel=1e-12)


@settings(max_examples=20, deadline=None)
@given(k=st.integers(0, 6), nr=st.integers(3, 10**6), nb=st.integers(1, 10**5))
def test_formula_at_a_verified_p_is_the_interpretation(ring, k, nr, nb):
    """At every P it was derived from, the formula in P is the direct interpretation's formula."""
    p = 1 << k
    R, B = symbols(ring.formula, "NR", "NB")
    direct = ring.per_p[p].xreplace({R: nr, B: nb})
    mine = at_p(ring.formula, p).xreplace({R: nr, B: nb})
    assert float(mine) == pytest.approx(float(direct), rel=1e-9)


def test_fit_finds_the_basis_combination():
    """floor((N + P/2 − 2)/P)'s constant, 1/2 − 2/P, from P = 2, 4, 8: −1/2, 0, 1/4."""
    ps = [2, 4, 8, 16]
    values = [sp.Rational(1, 2) - sp.Rational(2, p) for p in ps]
    assert sp.simplify(fit_numbers(ps, values) - (sp.Rational(1, 2) - 2 / P)) == 0
    # 3 + 5·log2 P: 3, 8, 13, 18 at P = 1, 2, 4, 8
    assert sp.simplify(fit_numbers([1, 2, 4, 8], [3, 8, 13, 18]) - (3 + 5 * sp.log(P, 2))) == 0


def test_fit_refuses_what_no_combination_gives():
    """Primes at P = 1..32 follow no combination of four basis functions."""
    with pytest.raises(Mismatch, match="no combination"):
        fit_numbers([1, 2, 4, 8, 16, 32], [2, 3, 5, 7, 11, 13])


def test_data_dependent_partner_has_no_formula(tmp_path):
    """A partner read from input at every P: the interpretation needs its value."""
    src = tmp_path / "dd.f"
    src.write_text("      PROGRAM DD\n      INTEGER K, ME, MYNODE\n      READ (5,*) K\n"
                   "      ME = MYNODE()\n      IF (ME .EQ. 0) CALL CSEND(1, ME, 4, MOD(K, NUMNODES()), 0)\n"
                   "      IF (ME .EQ. MOD(K, NUMNODES())) CALL CRECV(1, ME, 4)\n      STOP\n"
                   "      END\n")
    fp = api.formula_in_p([str(src)], "ipsc860", {}, p_max=16)
    assert fp.formula is None and "needs the value of K" in fp.reason


def test_trapezoid_formula_in_p():
    """The node that sets the pace integrates floor((N + P/2 − 2)/P) intervals at 3.466 µs
    each (README: one real divide and the loop's costs), the gdsum costs one more step per
    doubling of P (a log2 P term), the rest of the host's time is fixed."""
    fp = api.formula_in_p(TRAPEZOID, "ipsc860", {"N": 10**6, "NITER": 10})
    assert fp.formula is not None, fp.reason
    n, niter = symbols(fp.formula, "N", "NITER")
    work = fp.formula.coeff(niter).coeff(sp.floor(n / P + sp.Rational(1, 2) - 2 / P))
    assert float(work) == pytest.approx(3.466e-6, rel=1e-12)
    assert fp.formula.coeff(niter).has(sp.log(P))
    # Each doubling of P adds, per iteration, one level to the cube's broadcast of the 24-byte
    # PARAMS (static buffers: 70e-6 + 24·0.42e-6 + 1 hop·11e-6 = 91.08 µs) and one round to
    # GDSUM's 8-byte exchange (70e-6 + 8·0.42e-6 + 11e-6 = 84.36 µs, plus the i860's 1-clock
    # add at 40 MHz: 0.025 µs): 175.465 µs per log2 P.
    level = STATIC["startup"] + 24 * STATIC["per_byte"] + STATIC["per_hop"]
    rnd = STATIC["startup"] + 8 * STATIC["per_byte"] + STATIC["per_hop"] + sp.Rational(1, 40 * 10**6)
    assert level + rnd == sp.Rational(175465, 10**9)
    rest = fp.formula.coeff(niter) - work * sp.floor(n / P + sp.Rational(1, 2) - 2 / P)
    per_doubling = rest.subs(P, 32) - rest.subs(P, 16)
    assert float(per_doubling) == pytest.approx(float(level + rnd), rel=1e-9)
    assert fp.verified == [16, 32, 64]
    for p in (16, 32, 64):
        assert fp.at(p, {"N": sp.Integer(10**6), "NITER": sp.Integer(10)}) == \
            pytest.approx(fp.seconds[p], rel=1e-9)


def test_cli_formula_symbolic_p_and_predict_json(tmp_path):
    runner = CliRunner()
    out = runner.invoke(main, ["formula", "programs/ring/ring.f", "--symbolic", "P", "--p-max", "32"])
    assert out.exit_code == 0, out.output
    assert "domain: P a power of two" in out.output and "verified" not in out.output.split("\n")[0]
    out = runner.invoke(main, ["predict", "programs/ring/ring.f", "-P", "4", "--format", "json",
                               "--symbolic", "P", "--p-max", "32"])
    assert out.exit_code == 0, out.output
    data = json.loads(out.output)["formula_in_P"]
    assert data["verified_at"] == [8, 16, 32] and data["max_relative_error"] <= 1e-9
    assert data["formula"] and data["domain"].startswith("P a power of two")


def test_sensitivity_elasticity_in_p(tmp_path):
    """Ring, R = 10, b = 8, P = 8: T(P) = 10·(P·(70e-6 + 8·0.42e-6) + (2P − 2)·11e-6), so the
    elasticity over P = 4..16 is ln(T(16)/T(4))/ln 4."""
    def t(p):
        return 10 * (p * (70e-6 + 8 * 0.42e-6) + (2 * p - 2) * 11e-6)

    sens = api.sensitivity([RING], contention_free(tmp_path), 8, {"NR": 10, "NB": 8})
    entry = next(e for e in sens.entries if e.name == "P")
    assert entry.elasticity == pytest.approx(math.log(t(16) / t(4)) / math.log(4), rel=1e-9)
