"""Lost cycles of an SMPI run from SimGrid's Paje trace (docs/lost-cycles.md, "From an SMPI
run"): a trace written by hand, then real runs beside interp's communication-only prediction.
"""

from __future__ import annotations

import csv
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner
from pytest import approx

from interp import api
from interp.analysis.smpi_lost import classify, parse_paje, standard_input
from interp.application.aag import build_aag
from interp.cli import main
from interp.errors import InterpError

ROOT = Path(__file__).resolve().parents[2]

HEADER = """\
%EventDef PajeDefineEntityValue 5
%       Alias string
%       Type string
%       Name string
%       Color color
%EndEventDef
%EventDef PajeCreateContainer 6
%       Time date
%       Alias string
%       Type string
%       Container string
%       Name string
%EndEventDef
%EventDef PajeDestroyContainer 7
%       Time date
%       Type string
%       Name string
%EndEventDef
%EventDef PajePushState 12
%       Time date
%       Type string
%       Container string
%       Value string
%EndEventDef
%EventDef PajePopState 13
%       Time date
%       Type string
%       Container string
%EndEventDef
%EventDef PajeStartLink 15
%       Time date
%       Type string
%       Container string
%       Value string
%       StartContainer string
%       Key string
%EndEventDef
%EventDef PajeEndLink 16
%       Time date
%       Type string
%       Container string
%       Value string
%       EndContainer string
%       Key string
%EndEventDef
6 0 1 1 0 "rank-0"
6 0 2 1 0 "rank-1"
5 7 2 PMPI_Send "0 0 1"
5 8 2 PMPI_Recv "1 0 0"
5 9 2 PMPI_Barrier "0 0.39 0.78"
"""

# Rank 0 computes 0..10 s, sends rank 1 a message (its MPI_SEND 10..11) and enters the barrier
# at 11; rank 1 has waited in MPI_RECV since 0 and gets the message at 12, then enters the
# barrier. Each sends the other one barrier message: both leave at 14 and end there. The
# events are in time order, as SimGrid writes them.
EVENTS = """\
12 0 2 2 8
12 10 2 1 7
15 10 3 0 PTP 1 1_2_1_1
13 11 2 1
12 11 2 1 9
15 11 3 0 PTP 1 1_2_-1_2
16 12 3 0 PTP 2 1_2_1_1
13 12 2 2
12 12 2 2 9
15 12 3 0 PTP 2 2_1_-1_3
16 13.9 3 0 PTP 1 2_1_-1_3
16 13.9 3 0 PTP 2 1_2_-1_2
13 14 2 1
13 14 2 2
7 14 1 1
7 14 1 2
"""


def test_a_trace_written_by_hand():
    ranks = parse_paje(HEADER + EVENTS)
    assert [c.name for c in ranks[0].calls] == ["MPI_SEND", "MPI_BARRIER"]
    lc = classify(ranks, 2, "two", "cluster")
    cats = lc.breakdown("program")[""]
    assert lc.tp == 14
    assert cats["remaining"] == 10  # rank 0 outside MPI calls
    assert cats["ip"] == 10  # rank 1 idles until rank 0 starts its message: serial work
    assert cats["li"] == 0
    assert cats["sl"] == 1  # rank 0 waits in the barrier from 11 until rank 1 enters at 12
    # rank 0's send (1 s) and barrier after rank 1 came (2 s); rank 1's receive of the data
    # in flight (10..12) and its barrier (2 s)
    assert cats["cl"] == 1 + 2 + 2 + 2
    assert cats["rc"] == 0
    assert sum(cats.values()) == 2 * 14
    assert lc.breakdown("proc") == {
        "0": {"li": 0, "ip": 0, "sl": 1, "cl": 3, "rc": 0, "remaining": 10},
        "1": {"li": 0, "ip": 10, "sl": 0, "cl": 4, "rc": 0, "remaining": 0}}
    with pytest.raises(InterpError, match="known by process only"):
        lc.breakdown("aau")  # a trace names no source line


def test_a_bad_trace_names_its_line():
    with pytest.raises(InterpError, match="trace:3: event 99 has no %EventDef"):
        parse_paje("%EventDef PajePopState 13\n%       Time date\n99 1 2\n%EndEventDef\n")


def test_collectives_that_differ_between_ranks_are_refused():
    two_barriers = EVENTS.replace("7 14 1 1\n", "12 14 2 1 9\n13 15 2 1\n7 15 1 1\n")
    with pytest.raises(InterpError, match="ranks make 1 or 2 collective calls"):
        classify(parse_paje(HEADER + two_barriers), 2, "two", "cluster")


@pytest.fixture(scope="module")
def smpi():
    missing = [t for t in ("smpiff", "smpirun", "gfortran") if shutil.which(t) is None]
    if missing:
        pytest.fail(f"{' and '.join(missing)} not found: install SimGrid's SMPI with `apt-get "
                    "install -y libsimgrid-dev gfortran`", pytrace=False)


@pytest.mark.parametrize("name, machine", [("ring", "cluster"), ("collect", "ipsc860"),
                                           ("bcast", "cluster"), ("pipeline", "ipsc860")])
def test_smpi_beside_the_communication_only_prediction(smpi, name, machine):
    """interp validate's setting on both sides: computation off, SMPI's semantics. Link
    sharing is RC in the prediction and part of CL in the trace."""
    files = [str(ROOT / "validation" / f"{name}.f")]
    measured = api.lost_cycles_smpi(files, machine, 4)
    predicted = api.lost_cycles(files, machine, 4, communication_only=True)
    m, p = measured.breakdown("program")[""], predicted.breakdown("program")[""]
    assert sum(m.values()) == approx(measured.total, rel=1e-12)
    assert measured.tp == approx(predicted.tp, rel=1e-3)
    assert m["rc"] == 0 and m["remaining"] == approx(0, abs=1e-12)
    for c in ("li", "ip", "sl"):
        assert m[c] == approx(p[c], abs=0.02 * measured.total)
    assert m["cl"] == approx(p["cl"] + p["rc"], abs=0.02 * measured.total)


def test_cli_appends_smpi_rows(smpi, tmp_path):
    data = tmp_path / "ring.csv"
    ring = str(ROOT / "validation/ring.f")
    for source in (["--from", "smpi"], ["--communication-only"]):
        res = CliRunner().invoke(main, ["lost-cycles", ring, "-P", "4", "--machine", "cluster",
                                        "--format", "csv", "-o", str(data), *source])
        assert res.exit_code == 0, res.output
    rows = list(csv.DictReader(data.read_text().splitlines()))
    assert [r["source"] for r in rows] == ["smpi", "predicted"]
    assert all(r["program"] == "ring" and r["p"] == "4" for r in rows)


def test_cli_refuses_what_a_trace_cannot_say():
    ring = str(ROOT / "validation/ring.f")
    res = CliRunner().invoke(main, ["lost-cycles", ring, "-P", "2", "--from", "smpi",
                                    "--routine", "WORK=1"])
    assert res.exit_code == 2 and "takes no --routine" in res.output


def test_set_values_go_to_standard_input_in_read_order(tmp_path):
    """The run's only way to get a value is its standard input: one value per line, in the
    order of the variables' first READ (NITER is read first here, though N sorts first)."""
    src = tmp_path / "reads.f"
    src.write_text("      PROGRAM READS\n"
                   "      READ (5,*) NITER\n"
                   "      READ (5,*) N, X\n"
                   "      END\n")
    aag = build_aag([str(src)])
    assert standard_input(aag, {"N": 32.0, "NITER": 2.0, "X": 0.5}) == "2\n32\n0.5\n"
    with pytest.raises(InterpError, match="READs X: the SMPI run needs its value"):
        standard_input(aag, {"N": 32.0, "NITER": 2.0})
    with pytest.raises(InterpError, match="M is not read"):
        standard_input(aag, {"N": 32.0, "NITER": 2.0, "X": 0.5, "M": 1.0})


def test_cli_refuses_a_value_the_program_does_not_read():
    ring = str(ROOT / "validation/ring.f")
    res = CliRunner().invoke(main, ["lost-cycles", ring, "-P", "2", "--from", "smpi",
                                    "--set", "N=1"])
    assert res.exit_code == 2 and "N is not read" in res.output


def test_an_nx2_program_cannot_run_under_smpi():
    ring = str(ROOT / "programs/ring/ring.f")
    res = CliRunner().invoke(main, ["lost-cycles", ring, "-P", "2", "--from", "smpi"])
    assert res.exit_code == 2 and "calls NX/2" in res.output


@pytest.mark.parametrize("program", ["fft2d_dp", "fft2d_tp"])
def test_a_program_that_reads_its_inputs_runs_under_smpi(smpi, program):
    """N and NITER reach rank 0's READs on the run's standard input (32, then 2); the rows carry
    them as `vars`. On the cluster's crossbar no two messages of these programs share a port:
    the trace and the communication-only prediction agree."""
    files = [str(ROOT / "programs" / program / f"{program}.f")]
    inputs = {"N": 32, "NITER": 2}
    measured = api.lost_cycles_smpi(files, "cluster", 4, inputs=inputs)
    predicted = api.lost_cycles(files, "cluster", 4, inputs, communication_only=True)
    assert measured.vars == {"N": 32.0, "NITER": 2.0} == predicted.vars
    assert measured.tp == approx(predicted.tp, rel=1e-3)
    m, p = measured.breakdown("program")[""], predicted.breakdown("program")[""]
    for c in ("li", "ip", "sl", "cl", "rc"):
        assert m[c] == approx(p[c], abs=0.01 * measured.total)
