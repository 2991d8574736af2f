"""Complete and orthogonal: on every program of programs/ and validation/, the five categories
and the remaining pure computation add up to p·T_p, and they agree with the engine's own
per-process categories of the same run (interpreted with its steady state, as `predict` does).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pytest import approx

from interp import api
from interp.analysis.lostcycles import CATEGORIES, PARTS
from interp.engine.process import HOST_ID

ROOT = Path(__file__).resolve().parents[2]
VALIDATION = ROOT / "validation"
TRAPEZOID = {"N": 1000000, "NITER": 10}  # the README's values (programs/README.md)
FFT = {"N": 32, "NITER": 2}  # the smallest side of the case study (docs/lost-cycles.md)

PROGRAMS = {
    "programs/halo": (["programs/halo/halo.f"], {}),
    "programs/mpi_ring": (["programs/mpi_ring/ring_mpi.f"], {}),
    "programs/pingpong": (["programs/pingpong/pingpong.f"], {}),
    "programs/pipeline": (["programs/pipeline/pipeline.f"], {}),
    "programs/reduction": (["programs/reduction/reduction.f"], {}),
    "programs/ring": (["programs/ring/ring.f"], {}),
    "programs/trapezoid": (["programs/trapezoid/host.f", "programs/trapezoid/node.f"], TRAPEZOID),
    "programs/mpi_trapezoid": (["programs/mpi_trapezoid/trap_mpi.f"], TRAPEZOID),
    "programs/fft2d_dp": (["programs/fft2d_dp/fft2d_dp.f"], FFT),
    "programs/fft2d_tp": (["programs/fft2d_tp/fft2d_tp.f"], FFT),
    "programs/mpi_jacobi": (["programs/mpi_jacobi/jacobi_mpi.f"], {"N": 100000}),
    "validation/multifile": (["validation/multifile/main.f", "validation/multifile/exch.f",
                              "validation/multifile/clock.f"], {}),
}
PROGRAMS.update({f"validation/{f.stem}": ([f"validation/{f.name}"], {})
                 for f in sorted(VALIDATION.glob("*.f"))
                 if f.name != "mworker_dyn.f"})  # STATUS(MPI_TAG) steers it: interp refuses


RUNS = [(name, machine) for name in sorted(PROGRAMS) for machine in ("ipsc860", "cluster")
        if not (name == "programs/trapezoid" and machine == "cluster")]  # a host program needs a host


def test_every_program_of_programs_is_here():
    assert {f"programs/{d.name}" for d in (ROOT / "programs").iterdir() if d.is_dir()} == \
        {name for name in PROGRAMS if name.startswith("programs/")}


@pytest.mark.parametrize("name, machine", RUNS)
def test_categories_add_up_to_p_times_tp(name, machine):
    files, inputs = PROGRAMS[name]
    files = [str(ROOT / f) for f in files]
    lc = api.lost_cycles(files, machine, 4, inputs)
    whole = lc.breakdown("program")[""]
    assert lc.p == 4
    assert min(whole.values()) >= -1e-12 * lc.total
    assert sum(whole.values()) == approx(lc.total, rel=1e-9)
    for row in lc.breakdown("proc").values():
        assert sum(row.values()) == approx(lc.tp, rel=1e-9)
    for by in ("procedure", "aau"):
        rows = lc.breakdown(by).values()
        for c in PARTS:
            assert sum(r[c] for r in rows) == approx(whole[c], rel=1e-9, abs=1e-15)

    # the same run as `predict` interprets it (steady states extended in closed form)
    pred = api.predict(files, machine, 4, inputs, symbolic=False)
    nodes = [r for r in pred.process_rows() if r["pid"] != HOST_ID]
    start = min(float(r["start"]) for r in nodes)
    end = max(float(r["finish"]) for r in nodes)
    assert lc.tp == approx(end - start, rel=1e-9)
    if len(nodes) == len(pred.processes):  # no host: T_p is predict's headline time
        assert lc.tp == approx(pred.seconds, rel=1e-9)
    computation = sum(float(r["computation"]) for r in nodes)
    assert whole["remaining"] == approx(computation, rel=1e-9, abs=1e-15)
    communication = sum(float(r[c]) for r in nodes for c in ("call", "transmission", "waiting"))
    idle = sum(float(r["start"]) - start + end - float(r["finish"]) for r in nodes)
    assert sum(whole[c] for c in CATEGORIES) == approx(communication + idle, rel=1e-9, abs=1e-15)


@settings(max_examples=12, deadline=None)
@given(st.sampled_from(["programs/halo", "programs/pipeline", "validation/collect",
                        "validation/overlap", "validation/mworker", "programs/reduction"]),
       st.sampled_from(["ipsc860", "cluster"]), st.integers(2, 16))
def test_complete_at_any_p(name, machine, p):
    files, inputs = PROGRAMS[name]
    lc = api.lost_cycles([str(ROOT / f) for f in files], machine, p, inputs)
    whole = lc.breakdown("program")[""]
    assert lc.p == p
    assert min(whole.values()) >= -1e-12 * lc.total
    assert sum(whole.values()) == approx(p * lc.tp, rel=1e-9)
