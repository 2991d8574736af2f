"""Scaling in P (issue 16, part 3): `interp scaling`, `sweep --symbolic P` and the
isoefficiency, held to the ring's hand formula and to direct interpretations."""

from __future__ import annotations

import json

import numpy as np
import pytest
from click.testing import CliRunner

from interp import api
from interp.analysis.sweep import parse_vary
from interp.cli import main
from interp.errors import InterpError

from analysis.test_formula_in_p import RING, TRAPEZOID, contention_free

TRAP_INPUTS = {"N": 10**6, "NITER": 10}


def ring_time(p: int, r: int = 10, b: int = 8) -> float:
    """T = R·(P·(startup + b·per_byte) + (2P − 2)·per_hop), static buffers (b <= 100):
    startup 70e-6 s, 0.42e-6 s/B, 11e-6 s/hop."""
    return r * (p * (70e-6 + b * 0.42e-6) + (2 * p - 2) * 11e-6)


def test_log2_range_is_the_powers_of_two():
    assert parse_vary("P=4..65536:log2").values == tuple(1 << k for k in range(2, 17))
    assert parse_vary("P=3..40:log2").values == (4, 8, 16, 32)
    with pytest.raises(InterpError, match="no power of two"):
        parse_vary("P=5..7:log2")


@pytest.fixture(scope="module")
def ring(tmp_path_factory):
    machine = contention_free(tmp_path_factory.mktemp("spec"))
    return api.scaling([RING], machine, "P=4..1024:log2", {"NR": 10, "NB": 8}, p_max=32,
                       verify_to=128, extrapolate=True)


def test_ring_scaling_is_the_hand_formula(ring):
    """Fitted at P = 1, 2, 4 (P = 1..32 derived; verified at 8, 16, 32), the domain grown by
    interpretations at 64 and 128; 256..1024 extrapolated, said so in the source column."""
    fp = ring.formula
    assert fp.verified == [8, 16, 32, 64, 128]
    assert "1 <= P <= 128" in fp.domain
    sources = {r.nprocs: r.source for r in ring.rows}
    assert sources == {4: "formula", 8: "formula", 16: "formula", 32: "formula", 64: "formula",
                       128: "formula", 256: "extrapolated", 512: "extrapolated",
                       1024: "extrapolated"}
    assert ring.interpretations == 6 + 2  # P = 1..32, then 64, 128
    for r in ring.rows:
        assert r.seconds == pytest.approx(ring_time(r.nprocs), rel=1e-9)
    # speedup against P = 4: T(4)/T(P); efficiency = speedup·4/P
    r16 = next(r for r in ring.rows if r.nprocs == 16)
    assert ring.speedup(r16) == pytest.approx(ring_time(4) / ring_time(16), rel=1e-9)
    assert ring.efficiency(r16) == pytest.approx(ring_time(4) / ring_time(16) * 4 / 16, rel=1e-9)
    # the ring's time grows with P: the best time is at the smallest P
    assert ring.best.nprocs == 4


def test_beyond_the_domain_the_hypercube_is_grown_and_interpreted(tmp_path):
    """The iPSC/860 holds 16 nodes; P = 128 and 256 lie beyond the verified domain (up to 64):
    without --extrapolate they are interpreted on the cube grown to hold them (e-cube routes
    do not depend on the cube's size), and hold the hand formula there too."""
    result = api.scaling([RING], contention_free(tmp_path), "P=4..256:log2",
                         {"NR": 10, "NB": 8}, verify_to=64)
    sources = {r.nprocs: r.source for r in result.rows}
    assert sources[64] == "formula" and sources[128] == sources[256] == "interpreted"
    for r in result.rows:
        assert r.seconds == pytest.approx(ring_time(r.nprocs), rel=1e-9)


def test_a_machine_whose_size_is_a_parameter_is_grown_to_the_largest_p():
    """The cluster holds procs = 1024 by default: a range to 2048 grows it (as --what-if
    'procs = 2048'), said in a note, and the times at P it held before are unchanged."""
    result = api.scaling([RING], "cluster", "P=512,2048", {"NR": 2, "NB": 8}, p_max=16)
    assert any("grown to procs = 2048" in n for n in result.notes)
    assert [r.nprocs for r in result.rows] == [512, 2048]
    before = api.predict([RING], "cluster", 512, {"NR": 2, "NB": 8}, symbolic=False)
    assert result.rows[0].seconds == pytest.approx(before.seconds, rel=1e-12)


def test_sweep_over_p_grows_the_machine_too():
    """sweep --vary P past the cluster's procs = 1024 grows it as scaling does (before: the
    error '2048 processes do not fit'); P = 512 is what it was on the default size."""
    result = api.sweep([RING], "cluster", ["P=512,2048"], inputs={"NR": 2, "NB": 8})
    assert any("grown to procs = 2048" in n for n in result.notes)
    before = api.predict([RING], "cluster", 512, {"NR": 2, "NB": 8}, symbolic=False)
    assert result.seconds[0][0] == pytest.approx(before.seconds, rel=1e-12)


def test_a_p_no_machine_can_hold_is_refused_before_any_interpretation(monkeypatch):
    """2^31 cores are beyond the cluster's procs range (at most 2^30): refused at once, with
    no interpretation run (formula_in_p would interpret P = 1, 2, 4, … first)."""
    import interp.analysis.scaling_in_p as study

    def never(*args, **kw):
        raise AssertionError("interpreted before the range was checked")

    monkeypatch.setattr(study, "formula_in_p", never)
    with pytest.raises(InterpError, match=r"--vary P: 2147483648 processes do not fit"):
        api.scaling([RING], "cluster", "P=4,2147483648", {"NR": 2, "NB": 8})


def test_verification_stops_where_the_formula_fails():
    """The trapezoid at N = 10⁶: at P = 128 messages share links on the grown cube, and the
    interpretation there differs from the formula fitted at P = 2, 4, 8: the domain stays
    2..64 and P = 128 is marked extrapolated, not formula."""
    result = api.scaling(TRAPEZOID, "ipsc860", "P=4..256:log2", TRAP_INPUTS,
                         extrapolate=True)
    assert max(result.formula.verified) == 64
    assert any("at P = 128 the formula differs" in n for n in result.formula.notes)
    assert {r.nprocs: r.source for r in result.rows}[128] == "extrapolated"


def test_isoefficiency_against_direct_predictions():
    """N(P = 16) at efficiency 0.7 against P = 4: E(N) = 4·T(4, N)/(16·T(16, N)). Found on the
    formula in P; here checked with direct (numeric) predictions at P = 4 and 16: E reaches
    0.7 at N and not at N − 1."""
    result = api.scaling(TRAPEZOID, "ipsc860", "P=4..16:log2", TRAP_INPUTS,
                         isoefficiency=0.7, work="N")
    n = result.iso.values[16]
    assert result.iso.sources[16] == "formula"
    s = api.setup(TRAPEZOID, "ipsc860", 4, {"NITER": 10})

    def eff(value: int) -> float:
        given = {**s.given, "N": api.input_value("N", value)}
        t4 = s.with_(given=given, nprocs=4).seconds()
        t16 = s.with_(given=given, nprocs=16).seconds()
        return 4 * t4 / (16 * t16)

    assert eff(n) >= 0.7 > eff(n - 1)
    # by hand, floor aside: T(P, N) ≈ NITER·(3.466e-6·N/P + a(P)) + c grows like N/P, so
    # E → 1 as N grows and W(P) grows with P
    assert result.iso.values[8] < n


def test_sweep_symbolic_p_equals_the_per_p_sweep():
    """sweep --symbolic P: the same numbers (1e-9 relative) as interpreting each P, with the
    P values in the formula's domain taken from it."""
    vary = ["P=1,2,4,8,16", "N=1e2..1e6:log:5"]
    plain = api.sweep(TRAPEZOID, "ipsc860", vary, inputs={"NITER": 10})
    formula = api.sweep(TRAPEZOID, "ipsc860", vary, inputs={"NITER": 10}, symbolic_p=True)
    assert formula.saved == 4  # P = 2, 4, 8, 16 (P = 1 has its own shape: interpreted)
    np.testing.assert_allclose(formula.seconds, plain.seconds, rtol=1e-9)
    assert any("used at 4 of 5 P values" in n for n in formula.notes)


def test_cli_scaling_json_and_plot(tmp_path):
    runner = CliRunner()
    plot = tmp_path / "s.png"
    out = runner.invoke(main, ["scaling", "programs/ring/ring.f", "--vary", "P=4..64:log2",
                               "--format", "json", "--plot", str(plot)])
    assert out.exit_code == 0, out.output
    data = json.loads(out.stdout)
    assert [r["source"] for r in data["rows"]] == ["formula"] * 5
    assert data["reference_P"] == 4 and data["best"]["P"] == 4
    assert plot.stat().st_size > 0
    out = runner.invoke(main, ["scaling", "programs/ring/ring.f", "--vary", "N=1..4:log2"])
    assert out.exit_code == 2 and "scaling varies P only" in out.output


def test_cli_scaling_text(tmp_path):
    out = CliRunner().invoke(main, ["scaling", "programs/ring/ring.f", "--vary", "P=4..256:log2",
                                    "--extrapolate", "--verify-to", "64"])
    assert out.exit_code == 0, out.output
    assert "│ 256 │" in out.output and "extrapolated" in out.output
    assert "best time: P = 4" in out.output

