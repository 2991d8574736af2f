"""The analysis commands' usage errors and labels, as a user meets them on an ordinary program:
each names the option the user gave (not the one interp turned it into), says what to do, and
exits 2; the sweep says which P its speedup and efficiency are against."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner
from pytest import approx

from interp.cli import main

ROOT = Path(__file__).parents[2]
CUBE = str(Path(__file__).parent / "programs" / "cube.f")
JACOBI = str(ROOT / "programs" / "mpi_jacobi" / "jacobi_mpi.f")
TRAPEZOID = [str(ROOT / "programs" / "trapezoid" / f) for f in ("host.f", "node.f")]


def run(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


def test_a_path_that_does_not_parse_gets_a_size_hint_not_a_unit_hint():
    r = run("scalability", CUBE, "--machine", "cluster", "-P", "2,4", "--path", "N=t+",
            "--efficiency", "0.7")
    assert r.exit_code == 2
    assert "--path 'N=t+', column 5" in r.output
    assert "MHz" not in r.output and "expression in t" in r.output


def test_latency_metric_names_its_own_option_scale():
    r = run("latency-metric", CUBE, "--machine", "cluster", "-P", "2,4", "--scale", "N=t+",
            "--efficiency", "0.7")
    assert r.exit_code == 2
    assert "--scale 'N=t+', column 5" in r.output and "--path" not in r.output


def test_a_path_naming_no_input_says_so_for_the_path():
    r = run("scalability", CUBE, "--machine", "cluster", "-P", "2,4", "--path", "Q=t",
            "--efficiency", "0.7")
    assert r.exit_code == 2
    assert "--path 'Q=t': the program has no input Q" in r.output and "--set" not in r.output
    r = run("latency-metric", CUBE, "--machine", "cluster", "-P", "2,4", "--scale", "NN",
            "--efficiency", "0.7")
    assert r.exit_code == 2
    assert "--scale 'NN=t': the program has no input NN" in r.output
    assert "did you mean N?" in r.output


def test_semiemp_predict_without_an_input_does_not_speak_of_lost_cycles(tmp_path):
    """G follows the processes' timelines, which need numbers: the message says what is
    missing without naming another command."""
    model = {"program": "jacobi_mpi", "files": [JACOBI], "spec": "cluster", "segments": [],
             "comm": {"per_p": {}, "wall_seconds": 0.0}, "sample_seconds": 0.0}
    path = tmp_path / "model.json"
    path.write_text(json.dumps(model))
    r = run("semiemp", "predict", JACOBI, "--model", path, "-P", "2")
    assert r.exit_code == 2, r.output
    assert "not given: N" in r.output and "--set N=" in r.output
    assert "lost-cycles" not in r.output


def test_sweep_says_which_p_its_speedup_is_against():
    """P = 2 and 4 only: the speedup is T(2)/T(4) and the efficiency that times 2/4 (not
    T(1)/(4·T(4)), which the sweep has no T(1) for); the text and the JSON say P = 2."""
    args = ["sweep", CUBE, "--machine", "cluster", "--vary", "P=2,4", "--set", "N=16"]
    r = run(*args, "--format", "json")
    assert r.exit_code == 0, r.output
    data = json.loads(r.stdout)
    assert data["reference_P"] == 2
    t2, t4 = (row["seconds"] for row in data["rows"])
    four = data["rows"][1]
    assert four["speedup"] == approx(t2 / t4)
    assert four["efficiency"] == approx(t2 / t4 * 2 / 4)
    r = run(*args)
    assert "against P = 2" in r.stdout


def test_scaling_refuses_p_it_would_ignore():
    r = run("scaling", CUBE, "--machine", "cluster", "--vary", "P=1,2", "--set", "N=16",
            "-P", "4")
    assert r.exit_code == 2
    assert "--vary" in r.output
    assert "--nprocs" not in run("scaling", "--help").output  # nor offers it


def test_annotate_offers_host_only_where_there_is_one():
    r = run("annotate", JACOBI, "--machine", "cluster", "-P", "2", "--set", "N=64",
            "--process", "host")
    assert r.exit_code == 2
    assert "give a process number from 0 to 1" in r.output and "host, or" not in r.output
    r = run("annotate", *TRAPEZOID, "-P", "2", "--set", "N=40", "--set", "NITER=1",
            "--process", "7")
    assert r.exit_code == 2
    assert "give host, or a process number from 0 to 1" in r.output


def test_a_what_if_of_what_the_command_sets_is_refused_not_ignored():
    """scalability and latency-metric set P from -P and the path's inputs; sweep and scaling
    set what --vary names. A what-if of those was dropped without a word; it is an error."""
    cube = [CUBE, "--machine", "cluster"]
    study = ["-P", "2,4", "--efficiency", "0.5"]
    for args, said in (
            (["scalability", *cube, *study, "--path", "N=t", "--what-if", "P = 8"], "-P"),
            (["latency-metric", *cube, *study, "--scale", "N", "--what-if", "n *= 2"],
             "--scale"),
            (["sweep", *cube, "--vary", "P=2,4", "--set", "N=16", "--what-if", "P = 8"],
             "--vary"),
            (["sweep", *cube, "--vary", "N=8,16", "--what-if", "N = 4"], "--vary"),
            (["scaling", *cube, "--vary", "P=2,4", "--set", "N=16", "--what-if", "P = 8"],
             "--vary")):
        r = run(*args)
        assert r.exit_code == 2, (args, r.output)
        assert f"is set by {said}" in r.output, r.output


def test_a_what_if_of_anything_else_still_applies():
    """P = 4 beside --vary N, and a machine parameter beside --vary P: applied (the time at
    P = 4 with half the startup is below the plain one)."""
    cube = [CUBE, "--machine", "cluster"]
    r = run("sweep", *cube, "--vary", "N=16", "--what-if", "P = 4", "--format", "json")
    assert r.exit_code == 0, r.output
    assert json.loads(r.stdout)["rows"][0]["P"] == 4
    plain = run("sweep", *cube, "--vary", "P=4", "--set", "N=16", "--format", "json")
    half = run("sweep", *cube, "--vary", "P=4", "--set", "N=16", "--format", "json",
               "--what-if", "core.cs.*.startup /= 2")
    assert half.exit_code == 0, half.output
    assert (json.loads(half.stdout)["rows"][0]["seconds"]
            < json.loads(plain.stdout)["rows"][0]["seconds"])


def test_sweep_refuses_set_of_a_varied_input():
    r = run("sweep", CUBE, "--machine", "cluster", "--vary", "N=8,16", "--set", "N=4")
    assert r.exit_code == 2
    assert "N is given twice: by --set and by --vary" in r.output


def test_a_path_giving_an_integer_input_a_fraction_says_so_for_the_path():
    """N = t/2 is 0.5 at t = 1; N is INTEGER (implicitly, in cube.f)."""
    r = run("scalability", CUBE, "--machine", "cluster", "-P", "2,4", "--path", "N=t/2",
            "--efficiency", "0.5")
    assert r.exit_code == 2
    assert "--path 'N=t/2': at t = 1 it gives N = 0.5, and N is an INTEGER" in r.output
    assert "--set" not in r.output


def test_work_with_a_unit_is_refused():
    """--work '1 s' was read as W = 1 (the grammar takes units, the seconds were dropped)."""
    r = run("latency-metric", CUBE, "--machine", "cluster", "-P", "2,4", "--scale", "N",
            "--efficiency", "0.5", "--work", "1 s")
    assert r.exit_code == 2
    assert "--work '1 s': W has a unit" in r.output and "--scale" in r.output


def test_the_integral_says_where_a_size_is_not_at_its_efficiency():
    """jacobi_mpi on the cluster, path N = 32·t: at P = 2 the smallest size (N = 32) is already
    above E = 0.125, the first of K = 4 midpoints; the average (3.8) then uses a scale that is
    not E-conserved, and says so."""
    r = run("latency-metric", JACOBI, "--machine", "cluster", "-P", "2,4", "--scale",
            "N=32*t", "--efficiency", "0.5", "--integral", "4", "--format", "json")
    assert r.exit_code == 0, r.output
    off = json.loads(r.stdout)["integral"]["off_target"]
    assert {"E": 0.125, "N": 2, "status": "smallest"} in off
    text = run("latency-metric", JACOBI, "--machine", "cluster", "-P", "2,4", "--scale",
               "N=32*t", "--efficiency", "0.5", "--integral", "4")
    assert "E = 0.125, N = 2: above the target at the smallest size" in text.stdout


def test_a_program_that_cannot_run_on_one_process_says_t_s_is_the_run_that_hangs(tmp_path):
    """A master-worker whose master only receives has no T_s (one process: nobody sends); the
    study asked for P = 2, 4, so 'the program hangs' alone did not say which run."""
    mw = tmp_path / "mw.f"
    mw.write_text("""\
      PROGRAM MW
      INCLUDE 'mpif.h'
      INTEGER STATUS(MPI_STATUS_SIZE)
      DOUBLE PRECISION S
      CALL MPI_INIT(IERR)
      CALL MPI_COMM_RANK(MPI_COMM_WORLD, ME, IERR)
      CALL MPI_COMM_SIZE(MPI_COMM_WORLD, NP, IERR)
      IF (ME .EQ. 0) READ (5,*) N
      CALL MPI_BCAST(N, 1, MPI_INTEGER, 0, MPI_COMM_WORLD, IERR)
      IF (ME .EQ. 0) THEN
         DO K = 1, MAX(NP - 1, 1)
            CALL MPI_RECV(S, 1, MPI_DOUBLE_PRECISION, MPI_ANY_SOURCE, 1,
     &                    MPI_COMM_WORLD, STATUS, IERR)
         ENDDO
      ELSE
         S = 0.0D0
         DO I = 1, N
            S = S + 1.5D0
         ENDDO
         CALL MPI_SEND(S, 1, MPI_DOUBLE_PRECISION, 0, 1,
     &                 MPI_COMM_WORLD, IERR)
      ENDIF
      CALL MPI_FINALIZE(IERR)
      END
""")
    r = run("scalability", mw, "--machine", "cluster", "-P", "2,4", "--path", "N=t",
            "--efficiency", "0.4", "--kind", "combination")
    assert r.exit_code == 2, r.output
    assert "T_s, the program on one process" in r.output and "N=1 on the PRAM" in r.output
    assert "the program hangs" in r.output
