"""``interp calibrate``: a spec of this machine that validates, with each value's provenance
and its [min, max] from the rounds' spread."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from interp.analysis import calibrate as C
from interp.analysis import semiemp as S
from interp.cli import main
from interp.system.loader import load_machine

ROOT = Path(__file__).resolve().parents[2]
TRAP = str(ROOT / "programs" / "mpi_trapezoid" / "trap_mpi.f")
needs_mpi = pytest.mark.skipif(shutil.which("mpif77") is None or shutil.which("mpirun") is None,
                               reason="Open MPI (mpif77, mpirun) is not installed")


def _measured() -> C.Measured:
    # every kernel's rounds: 3, 2, 2.5 ns (median 2.5 ns, all within twice the fastest);
    # latency rounds 4 ns
    ops = {}
    for name in [k.name for k in C.KERNELS] + ["fetch", "stream", "store", "stream_store",
                                              "store_miss"]:
        ops[(name, "ind")] = [3e-9, 2e-9, 2.5e-9]
        ops[(name, "dep")] = [4e-9] * 3
    ops[("miss", "dep")] = [100e-9, 120e-9, 90e-9]
    spread = {"median": 1e-6, "min": 0.8e-6, "max": 1.5e-6, "rounds": 5}
    comm = S.CommTable({1: {"barrier": dict(spread)},
                        2: {"pingpong": dict(spread), "barrier": dict(spread),
                            "per_byte": {"median": 1e-10, "min": 5e-11, "max": 2e-10,
                                         "rounds": 5}}}, 1.0, "2026-11-24T00:00:00+00:00")
    return C.Measured(ops, comm, "2026-11-24T00:00:00+00:00", "2", "mpif77", 3.0, 1.75)


def test_parse_reads_each_kernels_rounds():
    out = C.parse("add_sub dep    1   1.25E-09\nadd_sub ind 1 2.5E-10\nadd_sub ind 2 3.0E-10\n"
                  " checksum 12.0\n")
    assert out == {("add_sub", "dep"): [1.25e-9], ("add_sub", "ind"): [2.5e-10, 3.0e-10]}


def test_the_written_spec_validates_and_its_ranges_are_the_rounds_spread(tmp_path):
    path = tmp_path / "local.yaml"
    path.write_text(C.to_yaml(C.spec(_measured())))
    sag = load_machine(str(path))  # schema and loader checks
    assert sag.name == "local"
    data = __import__("yaml").safe_load(path.read_text())
    core = data["sag"]["children"][0]
    add = core["p"]["ops"]["add_sub"]
    # rounds 3, 2, 2.5 ns: min 2 ns, max 3 ns, median 2.5 ns in the note
    assert (add["min"], add["max"]) == ("2e-09 s", "3e-09 s")
    assert "median 2.5e-09 s over 3 rounds" in add["note"]
    assert "latency" in add["note"] and "4e-09" in add["note"]
    # the ping-pong's one way at P = 2: min 0.8 us, max 1.5 us
    startup = core["cs"]["static"]["startup"]
    assert (startup["min"], startup["max"]) == ("8e-07 s", "1.5e-06 s")
    assert "commbench.f" in startup["note"] and "P=2" in startup["note"]
    # a streamed miss: (32 MB stream − 16 KB sum) per word × 8 words a 64-byte block; the
    # test rounds are equal (3, 2, 2.5 ns both): 0 s; the chase (90–120 ns) is the first access
    assert core["m"]["access"]["mm_fetch_first"]["min"] == "9e-08 s"
    assert core["m"]["access"]["fetch_miss"]["max"] == "0 s"
    assert "load average 1.75" in data["machine"]["source"]


def test_a_preempted_round_is_dropped_from_the_range_and_counted():
    # rounds 1.0, 1.1, 1.2, 5.0 ns: 5.0 > 2 × 1.0, dropped; [1.0, 1.2] ns, median of three 1.1
    m = _measured()
    m.ops[("mul", "ind")] = [1.0e-9, 1.1e-9, 5.0e-9, 1.2e-9]
    mul = C.spec(m)["sag"]["children"][0]["p"]["ops"]["mul"]
    assert (mul["min"], mul["max"]) == ("1e-09 s", "1.2e-09 s")
    assert "median 1.1e-09 s over 3 rounds" in mul["note"]
    assert "1 more, slower than 2x the fastest, dropped" in mul["note"]


def test_every_value_says_where_it_came_from(tmp_path):
    data = C.spec(_measured())

    def leaves(node):
        if isinstance(node, dict) and ("value" in node or "min" in node):
            yield node
        elif isinstance(node, dict):
            for v in node.values():
                yield from leaves(v)
        elif isinstance(node, list):
            for v in node:
                yield from leaves(v)

    entries = list(leaves(data["sag"]))
    assert entries
    for e in entries:
        # measured: a note naming the tool and the time; otherwise marked an assumption
        assert e.get("note"), e
        if "min" in e:
            assert "measured with" in e["note"] and "2026-11-24" in e["note"], e
        else:
            assert "assumption" in e, e


def test_communication_needs_two_ranks():
    m = _measured()
    m.comm.per_p.pop(2)
    with pytest.raises(Exception, match="2 ranks"):
        C.spec(m)


@needs_mpi
def test_calibrate_measures_this_machine_and_predict_uses_the_spec(tmp_path):
    out = tmp_path / "local.yaml"
    result = CliRunner().invoke(main, ["calibrate", "-o", str(out), "--procs", "2"])
    assert result.exit_code == 0, result.output
    load_machine(str(out))
    result = CliRunner().invoke(main, ["predict", TRAP, "-P", "1", "--machine", str(out),
                                       "--set", "N=1000", "--set", "NITER=2",
                                       "--format", "json"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.output)["machine"] == "local"
    assert json.loads(result.output)["total_seconds"] > 0
