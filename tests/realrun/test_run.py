"""``interp run``: a real MPI run with segment timers (issue #14, "CI runs a small real MPI run
(P = 2) end to end"). The end-to-end tests are skipped when Open MPI is absent (.ci/run
installs openmpi-bin and libopenmpi-dev)."""

from __future__ import annotations

import csv
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from interp import api
from interp.analysis import realrun as R
from interp.cli import main

ROOT = Path(__file__).resolve().parents[2]
TRAP = str(ROOT / "programs" / "mpi_trapezoid" / "trap_mpi.f")
needs_mpi = pytest.mark.skipif(shutil.which("mpif77") is None or shutil.which("mpirun") is None,
                               reason="Open MPI (mpif77, mpirun) is not installed")

# NLOC is a PARAMETER (set in the copy); NSTEP is READ from standard input; the
# MPI_BARRIER loop is cut into its body's AAUs.
PARAM = """\
      PROGRAM PARAMS
      INCLUDE 'mpif.h'
      INTEGER NLOC, NSTEP, I, K, ME, IERR
      PARAMETER (NLOC = 10,
     &           NOTHER = 3)
      DOUBLE PRECISION S
      CALL MPI_INIT(IERR)
      CALL MPI_COMM_RANK(MPI_COMM_WORLD, ME, IERR)
      IF (ME .EQ. 0) READ (5,*) NSTEP
      CALL MPI_BCAST(NSTEP, 1, MPI_INTEGER, 0, MPI_COMM_WORLD, IERR)
      S = 0.0D0
      DO 20 K = 1, NSTEP
         DO 10 I = 1, NLOC
            S = S + DBLE(I)
   10    CONTINUE
         CALL MPI_BARRIER(MPI_COMM_WORLD, IERR)
   20 CONTINUE
      IF (ME .EQ. 0) PRINT *, 'S =', S, NLOC, NOTHER
      CALL MPI_FINALIZE(IERR)
      END
"""


def _write(tmp_path: Path, text: str, name: str = "prog.f") -> str:
    path = tmp_path / name
    path.write_text(text)
    return str(path)


def test_segments_of_trapezoid_are_its_top_level_aaus_and_the_communicating_loop_body():
    p = R.plan(api.Program.load([TRAP]).aag)
    # MPI_INIT is on line 25: the first segment, the Seq of lines 25-27, is timed from line 26.
    assert p.marks[0].line == 26
    # the DO ITER loop (lines 39-54) holds MPI_REDUCE: its body's AAUs are segments of their own
    keys = [s.key for s in p.segments]
    assert keys == ["L25", "L29", "L33", "L34", "L36", "L39", "L40", "L42", "L46", "L51", "L52",
                    "L39c", "L56"]
    assert [s.within for s in p.segments if s.within] == ["L39"] * 6
    # the last timer goes before CALL MPI_FINALIZE (line 62) and ends the timing
    assert p.marks[-1].line == 62 and p.marks[-1].segment == -1


def test_instrument_inserts_one_call_before_each_marked_line_and_keeps_the_rest():
    text = "      A = 1\n      B = 2\n      C = 3\n"
    out = R.instrument(text, [R.Mark(2, 1), R.Mark(3, -1)])
    assert out.splitlines() == ["      A = 1", "      CALL INTPTM(1)", "      B = 2",
                                "      CALL INTPTM(-1)", "      C = 3"]


def test_parameters_are_set_in_the_copy_across_continuation_lines(tmp_path):
    text, done = R.set_parameters(PARAM, {"NLOC": "500", "NOTHER": "7"})
    assert done == {"NLOC", "NOTHER"}
    assert "      PARAMETER (NLOC = 500," in text
    assert "     &           NOTHER = 7)" in text
    # only the PARAMETER statement changes: "DO 10 I = 1, NLOC" keeps its name
    assert "DO 10 I = 1, NLOC" in text


def test_read_inputs_go_to_standard_input_in_the_read_order():
    aag = api.Program.load([TRAP]).aag
    stdin, names = R.stdin_text(aag, {"NITER": "10", "N": "1000"})
    assert stdin == "1000\n10\n" and names == {"N", "NITER"}


def test_an_input_the_program_neither_reads_nor_declares_is_an_error(tmp_path):
    result = CliRunner().invoke(main, ["run", TRAP, "-P", "1", "--set", "N=10", "--set",
                                       "NITER=1", "--set", "M=3"])
    assert result.exit_code == 2
    assert "cannot set M" in result.output


def test_a_read_input_not_given_is_named():
    result = CliRunner().invoke(main, ["run", TRAP, "-P", "1", "--set", "N=10"])
    assert result.exit_code == 2
    assert "READs NITER" in result.output and "--set NITER=VALUE" in result.output


def test_a_runs_file_without_the_columns_is_refused_with_its_name(tmp_path):
    bad = tmp_path / "bad.csv"
    bad.write_text("program,P\nx,2\n")
    with pytest.raises(Exception) as err:
        R.read_runs(bad)
    assert "bad.csv:1" in str(err.value) and "wall_seconds" in str(err.value)


def test_a_non_numeric_value_is_an_error_with_its_line(tmp_path):
    path = tmp_path / "runs.csv"
    run = R.Run("p", ["p.f"], 2, {"N": "10"}, "2", 2, 0, "t", 1.0, [0.5, 0.4], {"seg_L3": [0.1, 0.2]})
    R.append_runs(path, [run, run])
    rows = path.read_text().splitlines()
    rows[2] = rows[2].replace("0.500000000", "fast")
    path.write_text("\n".join(rows) + "\n")
    with pytest.raises(Exception) as err:
        R.read_runs(path)
    assert "runs.csv:3" in str(err.value)


@needs_mpi
def test_trapezoid_runs_for_real_on_two_ranks_and_its_segments_partition_each_rank(tmp_path):
    runs = tmp_path / "runs.csv"
    result = CliRunner().invoke(main, ["run", TRAP, "-P", "2", "--set", "N=100000", "--set",
                                       "NITER=3", "-O", "2", "--runs", str(runs)])
    assert result.exit_code == 0, result.output
    (row,) = list(csv.DictReader(runs.open()))
    assert (row["P"], row["opt"], row["inputs"]) == ("2", "2", "N=100000;NITER=3")
    assert row["oversubscribed"] == ("1" if int(row["cores"]) < 2 else "0")
    spans = [float(x) for x in row["proc_seconds"].split(";")]
    assert len(spans) == 2 and float(row["timed_seconds"]) == max(spans)
    assert float(row["wall_seconds"]) > max(spans)  # mpirun's start-up is outside the timers
    # every timer call ends one segment and starts the next: per rank they add up to the span
    segs = [[float(x) for x in v.split(";")] for k, v in row.items() if k.startswith("seg_L")]
    for rank in range(2):
        assert sum(s[rank] for s in segs) == pytest.approx(spans[rank], rel=1e-6)
    # the user's file is not changed
    assert "INTPTM" not in Path(TRAP).read_text()


@needs_mpi
def test_parameter_and_stdin_inputs_reach_the_run(tmp_path):
    src = _write(tmp_path, PARAM)
    plan, (run,) = R.run(api.Program.load([src]).aag, 2, {"NLOC": "4", "NSTEP": "3"})
    # the barrier loop runs NSTEP = 3 times: its body's segments were visited, and the
    # per-rank timers exist for both ranks
    assert len(run.procs) == 2
    assert {s.key for s in plan.segments} >= {"L13", "L16"}  # the inner DO and the barrier
    assert run.inputs == {"NLOC": "4", "NSTEP": "3"}


@needs_mpi
def test_a_failed_compile_shows_gfortrans_message_and_exit_code(tmp_path):
    src = _write(tmp_path, PARAM.replace("S = S + DBLE(I)", "S = S + NOSUCH(I)"))
    result = CliRunner().invoke(main, ["run", src, "-P", "1", "--set", "NSTEP=1"])
    assert result.exit_code == 2
    assert "linking failed (exit 1)" in result.output and "nosuch" in result.output


@needs_mpi
def test_a_failed_mpi_run_shows_mpiruns_message_and_exit_code(tmp_path):
    src = _write(tmp_path, PARAM.replace("      S = 0.0D0\n",
                                         "      CALL MPI_ABORT(MPI_COMM_WORLD, 7, IERR)\n"))
    result = CliRunner().invoke(main, ["run", src, "-P", "1", "--set", "NSTEP=1"])
    assert result.exit_code == 2
    assert "running the program on 1 ranks failed (exit 7)" in result.output
    # mpirun's own lines follow the headline (their wording varies with Open MPI's state)
    lines = result.output.splitlines()
    assert len(lines) >= 3 and lines[-1].startswith("  hint:") and "mpirun" in lines[-1]
