"""Algorithm G played on the thread graphs of the MPI programs of programs/ (what
``interp semiemp predict`` and ``predict --calibration`` do), against Σ_s max_r tt(s, r):
equal where every segment ends in a synchronization, and where they differ, G's value is the
one worked by hand from the programs' messages."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from interp import api
from interp.analysis import realrun as R
from interp.analysis import semiemp as S

ROOT = Path(__file__).resolve().parents[2] / "programs"
TRAP = str(ROOT / "mpi_trapezoid" / "trap_mpi.f")
JACOBI = str(ROOT / "mpi_jacobi" / "jacobi_mpi.f")
FFT_DP = str(ROOT / "fft2d_dp" / "fft2d_dp.f")
FFT_TP = str(ROOT / "fft2d_tp" / "fft2d_tp.f")
RING = str(ROOT / "mpi_ring" / "ring_mpi.f")
US = 1e-6
# per call: a ping-pong 1 us one way + 1 ns a byte, barrier 2, allreduce 3, reduce 4, bcast 5 us
PP, PER_BYTE, BARRIER, ALLREDUCE, REDUCE, BCAST = 1 * US, 1e-9, 2 * US, 3 * US, 4 * US, 5 * US


def _table() -> S.CommTable:
    def one(x):
        return {"median": x, "min": x, "max": x, "rounds": 1}

    return S.CommTable({p: {"pingpong": one(PP), "per_byte": one(PER_BYTE),
                            "barrier": one(BARRIER), "allreduce": one(ALLREDUCE),
                            "reduce": one(REDUCE), "bcast": one(BCAST)} for p in (1, 2, 3, 4)},
                       0.0, "")


def _model(path: str, a: float, b: float | None = None) -> tuple:
    """Every segment tt = a·F + b_k, b_k = k·0.1 ms for the k-th segment (or ``b``)."""
    aag = api.Program.load([path]).aag
    plan = R.plan(aag)
    segs = [S.SegmentFit(s.column, s.type, f"{s.line}-{s.end_line}", a,
                         (k + 1) * 1e-4 if b is None else b, 2)
            for k, s in enumerate(plan.segments)]
    return aag, plan, S.Model(Path(path).stem, [path], "cluster", segs, _table(), 1.0, [])


SYNCED = [(TRAP, {"N": "1001", "NITER": "3"}), (JACOBI, {"N": "120", "NSTEP": "3"}),
          (FFT_DP, {"N": "16", "NITER": "2"})]


@pytest.mark.parametrize("path,inputs", SYNCED, ids=["trapezoid", "jacobi", "fft2d_dp"])
@pytest.mark.parametrize("nprocs", [1, 2, 4])
def test_g_is_the_sum_of_the_largest_ranks_when_the_loads_are_equal(path, inputs, nprocs):
    # constant segment times (a = 0): every rank has the same tt(s); the programs' segments
    # end at collectives or paired exchanges, so G's play is Σ_s max_r, whatever the seed
    aag, _, model = _model(path, 0.0)
    values = [S.predict(aag, model, nprocs, inputs, seed=seed) for seed in (0, 1, 2)]
    for p in values:
        assert p.method == "G" and p.events > 0
        assert p.predicted == pytest.approx(p.sum_of_max, rel=1e-9)


@pytest.mark.parametrize("path,inputs", [SYNCED[0], SYNCED[2]], ids=["trapezoid", "fft2d_dp"])
@pytest.mark.parametrize("nprocs", [2, 4])
def test_g_is_the_sum_of_the_largest_ranks_when_one_rank_is_slowest_everywhere(path, inputs,
                                                                             nprocs):
    # tt = F + b (F the op-count seconds): rank 0 has the end points (trapezoid) or ties
    # (fft2d_dp) in every segment: Σ_s max_r = max_r Σ_s between synchronizations
    aag, _, model = _model(path, 1.0)
    for seed in (0, 3):
        p = S.predict(aag, model, nprocs, inputs, seed=seed)
        assert p.predicted == pytest.approx(p.sum_of_max, rel=1e-9)


def test_g_takes_the_slowest_rank_of_a_phase_where_the_sum_counts_each_segments():
    # jacobi, tt = F + b: between the broadcast (line 30) and the first exchange, rank 0 runs
    # LEFT = MPI_PROC_NULL (line 34) and U(0) = 1 (line 40), rank 1 RIGHT = MPI_PROC_NULL
    # (line 35). Σ_s max_r adds each IF's slower rank; G waits once, at the first exchange,
    # for the slower rank's whole phase: G = Σ_s max_r − (Σ_phase max_r − max_r Σ_phase).
    # The exchanges, sweeps and allreduces after it are the same on both ranks
    aag, plan, model = _model(JACOBI, 1.0)
    inputs = {"N": "120", "NSTEP": "3"}
    p = S.predict(aag, model, 2, inputs, seed=1)
    F, _, _ = S.counts(aag, plan, 2, {"N": 120, "NSTEP": 3})
    fits = {s.column: s for s in model.segments}
    phase = ["seg_L31", "seg_L34", "seg_L35", "seg_L37", "seg_L40", "seg_L42"]
    tt = [{c: fits[c].a * F[r][c] + fits[c].b for c in phase} for r in (0, 1)]
    gap = sum(max(tt[0][c], tt[1][c]) for c in phase) - max(sum(t.values()) for t in tt)
    assert gap > 0
    assert p.predicted == pytest.approx(p.sum_of_max - gap, rel=1e-9)


@pytest.mark.parametrize("nprocs", [2, 3])
def test_the_ring_is_one_hop_after_another_in_g(nprocs):
    # ring_mpi.f, every segment 0 s: only the calls cost. A receive is 1 us + 8 B · 1 ns =
    # 1.008 us. The token goes round P ranks 50 times, each hop a receive after its send:
    # G = 50·P·1.008 us, then the barrier (2) and the allreduce (3): P = 2: 105.8 us,
    # P = 3: 156.2 us. Σ_s max_r counts each rank's own 50 receives, as if the ranks
    # received at once: 50·1.008 + 2 + 3 = 55.4 us, at any P
    aag, _, model = _model(RING, 0.0, b=0.0)
    recv = PP + 8 * PER_BYTE
    for seed in (0, 7):
        p = S.predict(aag, model, nprocs, {}, seed=seed)
        assert p.predicted == pytest.approx(50 * nprocs * recv + BARRIER + ALLREDUCE,
                                            rel=1e-9)
        assert p.sum_of_max == pytest.approx(50 * recv + BARRIER + ALLREDUCE, rel=1e-9)


def test_the_fft_pipeline_waits_one_hop_more_in_g():
    # fft2d_tp.f at P = 2, NITER = 2, every segment 0 s. Two broadcasts: 10 us. Rank 0 sends
    # block 1 at 10; rank 1 receives it at 10 + 1.008 (8 B: NB·NB is not a constant) and
    # sends the credit; rank 0 receives it at 12.016 and sends block 2; rank 1 receives it
    # at 13.024. The reduce: 13.024 + 4 = 17.024 us. Σ_s max_r: the IF block's larger rank
    # (rank 1, two receives, 2.016) + 10 + 4 = 16.016 us: it misses rank 1's wait for rank 0
    aag, _, model = _model(FFT_TP, 0.0, b=0.0)
    p = S.predict(aag, model, 2, {"N": "16", "NITER": "2"})
    recv = PP + 8 * PER_BYTE
    assert p.predicted == pytest.approx(2 * BCAST + 3 * recv + REDUCE, rel=1e-9)
    assert p.sum_of_max == pytest.approx(2 * BCAST + 2 * recv + REDUCE, rel=1e-9)


def test_the_communicating_loop_is_a_loop_of_the_graph():
    # trapezoid's DO ITER loop (NITER = 3) is one loop entry and exit with est = 3: G
    # processes its body's events three times, Θ (2.2); P = 1: start, two bcasts, loop entry
    # 3, reduce 3, loop exit 3, end = 13 events
    from interp.analysis import algorithm_g as G
    from interp.analysis import thread_graph as TG

    aag, plan, model = _model(TRAP, 0.0)
    cfg, pred = S.engine_run(aag, 1, {"N": 1001, "NITER": 3}, "cluster", trace=True)
    built = TG.build(cfg, plan, pred, [{s.column: 0.0 for s in plan.segments}], lambda a: 0.0)
    kinds = [e.kind for e in built.graph.threads[0]]
    assert kinds == ["start", "collective", "collective", "loop_entry", "collective",
                     "loop_exit", "end"]
    assert built.graph.threads[0][5].est == 3 and built.loops == 1
    assert G.play(built.graph).processed == G.theta(built.graph) == 13
    assert S.predict(aag, model, 1, {"N": "1001", "NITER": "3"}).events == 13


def test_predict_calibration_reports_g_and_the_sum_of_max(tmp_path):
    from click.testing import CliRunner

    from interp.cli import main

    _, _, model = _model(RING, 0.0, b=0.0)
    path = tmp_path / "model.json"
    path.write_text(json.dumps(model.to_json()))
    got = CliRunner().invoke(main, ["predict", RING, "-P", "2", "--calibration", str(path),
                                    "--format", "json"])
    assert got.exit_code == 0, got.output
    row = json.loads(got.output)["points"][0]
    assert row["method"] == "G" and row["predicted"] == pytest.approx(105.8 * US)
    assert row["predicted_sum_of_max"] == pytest.approx(55.4 * US)
    only = CliRunner().invoke(main, ["semiemp", "predict", RING, "-P", "2", "--model",
                                     str(path), "--method", "sum-of-max", "--format", "json"])
    assert only.exit_code == 0, only.output
    row = json.loads(only.output)["points"][0]
    assert row["method"] == "sum-of-max" and row["predicted"] == pytest.approx(55.4 * US)


GATHER = """      PROGRAM GATHR
      INCLUDE 'mpif.h'
      INTEGER STATUS(MPI_STATUS_SIZE)
      DOUBLE PRECISION X
      CALL MPI_INIT(IERR)
      CALL MPI_COMM_RANK(MPI_COMM_WORLD, ME, IERR)
      CALL MPI_COMM_SIZE(MPI_COMM_WORLD, NP, IERR)
      X = DBLE(ME)
      IF (ME .EQ. 0) THEN
         DO I = 1, NP-1
            CALL MPI_RECV(X, 1, MPI_DOUBLE_PRECISION, MPI_ANY_SOURCE,
     &                    7, MPI_COMM_WORLD, STATUS, IERR)
         ENDDO
      ELSE
         CALL MPI_SEND(X, 1, MPI_DOUBLE_PRECISION, 0, 7,
     &                 MPI_COMM_WORLD, IERR)
      END IF
      CALL MPI_FINALIZE(IERR)
      END
"""


def test_a_wildcard_receive_stays_any_in_the_graph(tmp_path):
    # rank 0 receives from MPI_ANY_SOURCE P - 1 = 3 times; the engine matched each to one
    # sender, the graph leaves the sender open (G's policy picks) and keeps the tag. Every
    # segment 0 s: the three sends leave at 0 and the receives follow one another:
    # 3 · 1.008 us, for every seed
    from interp.analysis import thread_graph as TG

    path = tmp_path / "gather.f"
    path.write_text(GATHER)
    aag, plan, model = _model(str(path), 0.0, b=0.0)
    cfg, pred = S.engine_run(aag, 4, {}, "cluster", trace=True)
    built = TG.build(cfg, plan, pred, [{s.column: 0.0 for s in plan.segments}] * 4,
                     lambda a: 0.0)
    recvs = [e for e in built.graph.threads[0] if e.kind == "recv"]
    assert [(e.frm, e.rtag) for e in recvs] == [(None, 7)] * 3
    sends = [e for t in built.graph.threads[1:] for e in t if e.kind == "send"]
    assert [(e.to, e.tag) for e in sends] == [(0, 7)] * 3
    for seed in range(4):
        p = S.predict(aag, model, 4, {}, seed=seed)
        assert p.predicted == pytest.approx(3 * (PP + 8 * PER_BYTE), rel=1e-9)


def test_scored_points_give_e_for_g_and_for_the_sum_of_max():
    # actual 2.0 s, G 1.8 s, Σ_s max_r 1.5 s, op-count 4.0 s: E = 0.2/2 = 0.1,
    # E Σ max = 0.5/2 = 0.25, E op-count = 2/2 = 1; a second size, actual 4.0 s, G 4.0 s,
    # Σ max 3.0 s: E 0 and 0.25. Ē: G 0.05, Σ max 0.25
    from interp.output import semiemp_view

    _, _, model = _model(RING, 0.0)
    points = [S.Point(2, {"N": "1"}, 1.8, 4.0, 0.1, actual=2.0, runs=2, sum_of_max=1.5,
                      events=10),
              S.Point(2, {"N": "2"}, 4.0, 8.0, 0.1, actual=4.0, runs=2, sum_of_max=3.0,
                      events=10)]
    out = json.loads(semiemp_view.points_json(points, model))
    assert out["points"][0]["E"] == pytest.approx(0.1)
    assert out["points"][0]["E_sum_of_max"] == pytest.approx(0.25)
    assert out["points"][0]["E_opcount"] == pytest.approx(1.0)
    assert out["E_bar"] == pytest.approx(0.05)
    assert out["E_bar_sum_of_max"] == pytest.approx(0.25)
    assert out["points"][1]["predicted_sum_of_max"] == 3.0 and out["points"][1]["method"] == "G"
