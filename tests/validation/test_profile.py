"""``interp profile`` measures branch probabilities with a real run: gfortran --coverage (Open
MPI's mpif77 and mpirun for MPI programs) and gcov's JSON counts. Skipped when the compilers
are absent (.ci/run installs them). The programs are our own; their counts are worked out by
hand from MOD arithmetic, so the measured probabilities are exact fractions.
"""

from __future__ import annotations

import json
import shutil

import pytest
import sympy as sp
from click.testing import CliRunner

from interp import api
from interp.errors import InterpError
from interp.cli import main

needs_gfortran = pytest.mark.skipif(shutil.which("gfortran") is None or shutil.which("gcov") is None,
                                    reason="gfortran and gcov are not installed")
needs_mpi = pytest.mark.skipif(shutil.which("mpif77") is None or shutil.which("mpirun") is None,
                               reason="Open MPI (mpif77, mpirun) is not installed")

# IFUN hides the test from interp (a FUNCTION's value is run-time data to it), so each IF
# becomes a branch probability. Over I = 1..10: MOD(I,3) = 0 for I = 3, 6, 9 (3 of 10);
# MOD(I,5) = 0 for I = 5, 10 (2 of 10); the ELSE IF is taken for the even I that are not
# multiples of 5: 2, 4, 6, 8 (4 of 10 executions of the IF).
SEQUENTIAL = """\
      PROGRAM COUNTS
      INTEGER I, J, K, IFUN
      EXTERNAL IFUN
      K = 0
      J = 0
      DO 10 I = 1, 10
         IF (IFUN(I, 3) .EQ. 0) K = K + 1
         IF (IFUN(I, 5) .EQ. 0) THEN
            J = J + 1
         ELSE IF (IFUN(I, 2) .EQ. 0) THEN
            J = J + 2
         END IF
   10 CONTINUE
      PRINT *, J, K
      END
      INTEGER FUNCTION IFUN(I, M)
      INTEGER I, M
      IFUN = MOD(I, M)
      END
"""

# Each of 2 ranks tests I + ME for I = 1..20: multiples of 4 are 5 on rank 0 (4, 8, …, 20) and
# 5 on rank 1 (I = 3, 7, …, 19): 10 of the 40 executions summed over the ranks, 0.25.
MPI = """\
      PROGRAM MCOUNT
      INCLUDE 'mpif.h'
      INTEGER I, K, ME, IERR, IFUN
      EXTERNAL IFUN
      CALL MPI_INIT(IERR)
      CALL MPI_COMM_RANK(MPI_COMM_WORLD, ME, IERR)
      K = 0
      DO 10 I = 1, 20
         IF (IFUN(I + ME, 4) .EQ. 0) THEN
            K = K + 1
         END IF
   10 CONTINUE
      CALL MPI_BARRIER(MPI_COMM_WORLD, IERR)
      CALL MPI_FINALIZE(IERR)
      END
      INTEGER FUNCTION IFUN(I, M)
      INTEGER I, M
      IFUN = MOD(I, M)
      END
"""


@needs_gfortran
def test_a_sequential_program_s_branch_probabilities(tmp_path):
    src = tmp_path / "counts.f"
    src.write_text(SEQUENTIAL)
    measured = api.profile([str(src)])
    assert {k: (m.value, m.taken, m.executions) for k, m in measured.items()} == {
        "p_counts_f_7": (0.3, 3, 10), "p_counts_f_8": (0.2, 2, 10), "p_counts_f_10": (0.4, 4, 10)}
    assert sorted(p.name for p in tmp_path.iterdir()) == ["counts.f"]  # nothing written beside it


@needs_gfortran
def test_predict_counts_sets_the_symbols(tmp_path):
    src = tmp_path / "counts.f"
    src.write_text(SEQUENTIAL)
    out = tmp_path / "c.json"
    done = CliRunner().invoke(main, ["profile", str(src), "-o", str(out)])
    assert done.exit_code == 0, done.output
    assert json.loads(out.read_text())["symbols"]["p_counts_f_7"]["value"] == 0.3
    with_counts = CliRunner().invoke(main, ["predict", str(src), "--counts", str(out),
                                            "--format", "json"])
    assert with_counts.exit_code == 0, with_counts.output
    rows = {r["name"]: r["value"] for r in json.loads(with_counts.output)["data_dependent"]}
    assert rows == {"p_counts_f_7": 0.3, "p_counts_f_8": 0.2, "p_counts_f_10": 0.4}
    # the same number as the formula at the measured values, and --set wins over --counts
    pred = api.predict([str(src)], "ipsc860", 1)
    at = pred.total.subs({s: {"p_counts_f_7": 0.3, "p_counts_f_8": 0.2, "p_counts_f_10": 0.4}[s.name]
                          for s in pred.total.free_symbols})
    assert json.loads(with_counts.output)["total_seconds"] == pytest.approx(float(at))
    override = CliRunner().invoke(main, ["predict", str(src), "--counts", str(out), "--set",
                                         "p_counts_f_7=1", "--format", "json"])
    rows = {r["name"]: r["value"] for r in json.loads(override.output)["data_dependent"]}
    assert rows["p_counts_f_7"] == 1.0


# The shapes NPB CG has: a one-statement DO body under END DO (CG's sparse products, where
# gcov counts the loop's exit on the body's line, here on the IF's), and an arm that opens
# with a DO loop (whose line gcov counts once per iteration and once to leave). IFUN hides
# the values from interp. Rows J = 1..4 run K from J*J to (J+1)*(J+1) - 1: 3 + 5 + 7 + 9 =
# 24 iterations over 4 entries, 6 a loop; K runs 1..24 once, even 12 times (the IF's line
# counts 24 + 4 exits). MOD(I, 3) = 0 for I = 3, 6, 9: the THEN arm 3 of 10 times, its DO
# line counting 3 * 5 iterations + 3 exits = 18 (the 1.8 it read).
SHAPES = """\
      PROGRAM SHAPES
      INTEGER I, J, K, S, IFUN
      EXTERNAL IFUN
      S = 0
      DO J = 1, 4
         DO K = IFUN(J, 0), IFUN(J+1, 0) - 1
            IF (IFUN(K, 2) .EQ. 0) THEN
               S = S + K
            END IF
         END DO
      END DO
      DO 20 I = 1, 10
         IF (IFUN(I, 3) .EQ. 0) THEN
            DO K = 1, 5
               S = S + K
            END DO
         END IF
   20 CONTINUE
      PRINT *, S
      END
      INTEGER FUNCTION IFUN(I, M)
      INTEGER I, M
      IF (M .EQ. 0) THEN
         IFUN = I*I
      ELSE
         IFUN = MOD(I, M)
      END IF
      END
"""


@needs_gfortran
def test_a_one_statement_loop_and_an_arm_opening_with_a_loop(tmp_path):
    src = tmp_path / "shapes.f"
    src.write_text(SHAPES)
    measured = api.profile([str(src)])
    assert {k: (m.value, m.taken, m.executions) for k, m in measured.items()} == {
        "n_shapes_f_6": (24 / 4, 24, 4), "p_shapes_f_7": (12 / 24, 12, 24),
        "p_shapes_f_13": (3 / 10, 3, 10)}


def test_a_bad_counts_file_is_a_clear_error(tmp_path):
    src = tmp_path / "counts.f"
    src.write_text(SEQUENTIAL)
    bad = tmp_path / "bad.json"
    bad.write_text("{\"nothing\": 1}")
    done = CliRunner().invoke(main, ["predict", str(src), "--counts", str(bad)])
    assert done.exit_code == 2 and "not a counts file" in done.output
    assert "Traceback" not in done.output


def test_nx2_programs_cannot_be_run(tmp_path):
    src = tmp_path / "nx.f"
    src.write_text("      PROGRAM NX\n      INTEGER ME, MYNODE\n      ME = MYNODE()\n"
                   "      CALL CSEND(1, ME, 4, 0, 0)\n      END\n")
    done = CliRunner().invoke(main, ["profile", str(src), "-o", str(tmp_path / "c.json")])
    assert done.exit_code == 2 and "cannot run NX/2 programs" in done.output


@needs_mpi
def test_an_mpi_program_runs_under_mpirun(tmp_path):
    src = tmp_path / "mcount.f"
    src.write_text(MPI)
    measured = api.profile([str(src)], 2)
    m = measured["p_mcount_f_9"]
    assert (m.value, m.taken, m.executions) == (0.25, 10, 40)


@needs_mpi
def test_ep_class_s_acceptance_is_measured(tmp_path):
    """NPB EP (class S, P = 4): the acceptance test's probability is near π/4 (points drawn
    uniformly in the square that land in the unit disc)."""
    from benchmarks import npb_suite

    if not npb_suite.npb_dir().exists():
        pytest.skip("NPB 3.3-MPI is not beside the project (set NPB_DIR)")
    tree = npb_suite.prepare(tmp_path)
    assert npb_suite.make_params(tree, "EP", "S", 4) == ""
    files = [str(f) for f in npb_suite.sources(tree, "EP")]
    measured = api.profile(files, 4)
    accept = [m for m in measured.values() if m.file.endswith("ep.f") and m.executions > 1000]
    assert len(accept) == 1 and accept[0].value == pytest.approx(float(sp.pi / 4), abs=0.01)


@needs_gfortran
def test_a_link_error_comes_before_the_prediction(tmp_path, monkeypatch):
    # CALL MISSING has no body among the files: gfortran's link fails. The prediction (minutes
    # on NPB CG at class W) must not run first.
    src = tmp_path / "missing.f"
    src.write_text("      PROGRAM LINK\n      CALL MISSING(1)\n      END\n")

    def no_prediction(*args, **kwargs):
        raise AssertionError("predicted before the program was built")

    monkeypatch.setattr(api, "predict", no_prediction)
    with pytest.raises(InterpError, match="linking failed"):
        api.profile([str(src)])
