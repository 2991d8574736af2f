"""The output contract of ``interp check`` and ``interp graph --saag``: JSON keys, text and dot
renderings, exit codes, and usage errors that exit 2 with one message and no traceback."""

from __future__ import annotations

import re
import subprocess
import sys

import pytest

from .helpers import REPO, aau_at, cli, cli_json, loc, prog

EDGE_KEYS = {"id", "kind", "relation", "pattern", "src", "src_aau", "dst", "dst_aau", "size",
             "tag", "count"}
RELATION = {"sync": "⇔", "async": "⇒", "collective": "⇐"}


def _no_traceback(result):
    assert result.exception is None or isinstance(result.exception, SystemExit), \
        repr(result.exception)
    assert "Traceback" not in result.output


# ---- check --format json --------------------------------------------------------------------------


def test_check_json_of_a_clean_program():
    result, doc = cli_json("check", prog("nx_sync.f"), "-P", "2", "--format", "json")
    assert result.exit_code == 0
    assert doc["problems"] == []


def test_check_json_problem_has_kind_message_and_exact_locations():
    f = prog("type_mismatch.f")
    result, doc = cli_json("check", f, "-P", "2", "--format", "json")
    assert result.exit_code == 1
    assert len(doc["problems"]) == 1
    p = doc["problems"][0]
    assert set(p) >= {"kind", "message", "locations"}
    assert p["kind"] == "mismatch"
    assert isinstance(p["message"], str) and p["message"]
    assert p["locations"] == [loc(f, 6, 10), loc(f, 8, 10)]


def test_check_json_deadlock_locations():
    f = prog("recv_first.f")
    result, doc = cli_json("check", f, "-P", "4", "--format", "json")
    assert result.exit_code == 1
    assert [p["kind"] for p in doc["problems"]] == ["deadlock"]
    assert all(x == loc(f, 8, 7) for x in doc["problems"][0]["locations"])


def test_check_json_of_a_program_with_edges_and_a_problem():
    """A mismatch found after some messages did match: the JSON holds both."""
    f = prog("ring_laps_badtype.f")
    result, doc = cli_json("check", f, "-P", "4", "--format", "json")
    assert result.exit_code == 1
    assert doc["problems"][0]["kind"] == "mismatch"
    assert doc["problems"][0]["locations"] == [loc(f, 20, 13), loc(f, 16, 13)]


# ---- graph --saag --format json ----------------------------------------------------------------


def test_graph_saag_json_keys_edges_and_sync_ids():
    f = prog("nx_sync.f")
    result, doc = cli_json("graph", f, "--saag", "-P", "2", "--format", "json")
    assert result.exit_code == 0
    assert {"processes", "edges", "aau_sync_ids"} <= set(doc)
    assert [p["process"] for p in doc["processes"]] == ["node 0", "node 1"]
    assert len(doc["edges"]) == 2
    for e in doc["edges"]:
        assert set(e) == EDGE_KEYS, set(e) ^ EDGE_KEYS
        assert e["relation"] == RELATION[e["kind"]]
    got = sorted((e["src"], e["src_aau"], e["dst"], e["dst_aau"], e["size"], e["tag"],
                  e["count"], e["kind"], e["relation"], e["pattern"]) for e in doc["edges"])
    assert got == sorted([
        ("node 0", aau_at(f, f, 6), "node 1", aau_at(f, f, 9), "80", 10, 1, "sync", "⇔",
         "point-to-point"),
        ("node 0", aau_at(f, f, 7), "node 1", aau_at(f, f, 10), "32", 20, 1, "sync", "⇔",
         "point-to-point"),
    ])
    ids = [e["id"] for e in doc["edges"]]
    assert len(set(ids)) == len(ids)
    # the global synchronization structure: every AAU of an edge is tagged with the edge's id
    tagged = {int(k): sorted(v) for k, v in doc["aau_sync_ids"].items()}
    expected: dict[int, list[int]] = {}
    for e in doc["edges"]:
        expected.setdefault(e["src_aau"], []).append(e["id"])
        if e["dst_aau"] != e["src_aau"]:
            expected.setdefault(e["dst_aau"], []).append(e["id"])
    assert tagged == {k: sorted(v) for k, v in expected.items()}


@pytest.mark.parametrize("name, nprocs, kinds", [
    ("nx_async.f", 2, {"async"}),
    ("nx_coll.f", 2, {"collective"}),
    ("mpi_p2p.f", 2, {"sync", "async"}),
])
def test_graph_saag_json_relation_symbols(name, nprocs, kinds):
    result, doc = cli_json("graph", prog(name), "--saag", "-P", nprocs, "--format", "json")
    assert result.exit_code == 0
    assert {e["kind"] for e in doc["edges"]} == kinds
    assert all(e["relation"] == RELATION[e["kind"]] for e in doc["edges"])
    assert all(isinstance(e["count"], int) for e in doc["edges"])


def test_graph_saag_json_count_is_the_number_of_iterations():
    result, doc = cli_json("graph", prog("ring_laps.f"), "--saag", "-P", "4", "--format", "json")
    assert result.exit_code == 0
    assert [e["count"] for e in doc["edges"]] == [6] * 4


def test_graph_saag_on_the_cluster_machine():
    result, doc = cli_json("graph", "programs/ring/ring.f", "--saag", "-P", "32",
                           "--machine", "cluster", "--format", "json")
    assert result.exit_code == 0
    assert len(doc["processes"]) == 32 and len(doc["edges"]) == 32


# ---- text and dot ----------------------------------------------------------------------------


def test_graph_saag_text():
    f = prog("nx_sync.f")
    result = cli("graph", f, "--saag", "-P", "2")
    _no_traceback(result)
    assert result.exit_code == 0
    out = result.stdout
    assert out.startswith(f"SAAG of {f} on P = 2")
    a6, a9 = aau_at(f, f, 6), aau_at(f, f, 9)
    assert re.search(rf"node 0 \w+#{a6} \(line 6\) ⇔ node 1 \w+#{a9} \(line 9\).*80 B.*10", out), out


def test_graph_saag_dot():
    result = cli("graph", prog("nx_coll.f"), "--saag", "-P", "2", "--format", "dot")
    _no_traceback(result)
    assert result.exit_code == 0
    out = result.stdout.strip()
    assert out.startswith("digraph SAAG {") and out.endswith("}")
    assert out.count("{") == out.count("}")
    declared = set(re.findall(r"^\s*(p\d+_a\d+) \[", out, re.M))
    arcs = re.findall(r"^\s*(p\d+_a\d+) -> (p\d+_a\d+)", out, re.M)
    assert arcs and all(a in declared and b in declared for a, b in arcs)
    assert "⇐" in out and "style=dotted" in out


def test_check_text_clean_and_with_problems():
    ok = cli("check", prog("nx_sync.f"), "-P", "2")
    _no_traceback(ok)
    assert ok.exit_code == 0 and ok.stdout.startswith(f"ok: {prog('nx_sync.f')} on P = 2")
    f = prog("too_long.f")
    bad = cli("check", f, "-P", "2")
    _no_traceback(bad)
    assert bad.exit_code == 1
    lines = bad.stdout.strip().splitlines()
    assert lines[0].startswith(f"{f}:6:10: mismatch: ")
    assert any(line.strip() == f"see {f}:8:10" for line in lines[1:])
    assert lines[-1] == "1 problem(s) found on P = 2"


# ---- usage errors: exit 2, one message, no traceback --------------------------------------------


@pytest.mark.parametrize("command", [("check",), ("graph", "--saag")])
def test_nonexistent_file(command):
    result = cli(*command, "no/such/file.f", "-P", "2")
    _no_traceback(result)
    assert result.exit_code == 2
    assert "no/such/file.f" in result.output


@pytest.mark.parametrize("command", [("check",), ("graph", "--saag")])
def test_zero_processes(command):
    result = cli(*command, "programs/ring/ring.f", "-P", "0")
    _no_traceback(result)
    assert result.exit_code == 2
    assert "-P" in result.output


@pytest.mark.parametrize("command", [("check",), ("graph", "--saag")])
def test_seventeen_nodes_do_not_fit_the_ipsc860(command):
    result = cli(*command, "programs/ring/ring.f", "-P", "17")
    _no_traceback(result)
    assert result.exit_code == 2
    assert "17" in result.output and "at most 16" in result.output


def test_seventeen_nodes_fit_the_cluster():
    result = cli("check", "programs/ring/ring.f", "-P", "17", "--machine", "cluster")
    _no_traceback(result)
    assert result.exit_code == 0, result.output


def test_unknown_set_name():
    result = cli("check", "programs/ring/ring.f", "-P", "2", "--set", "NOPE=3")
    _no_traceback(result)
    assert result.exit_code == 2
    assert "NOPE" in result.output


def test_the_real_command_prints_no_traceback():
    """One end-to-end run of the installed package (the others run in-process)."""
    proc = subprocess.run([sys.executable, "-m", "interp", "check", "no/such/file.f", "-P", "17"], cwd=REPO,
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 2
    assert "Traceback" not in proc.stderr and proc.stderr.strip()


def test_python_m_interp_prints_the_usage():
    proc = subprocess.run([sys.executable, "-m", "interp", "--help"], cwd=REPO,
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0
    assert proc.stdout.startswith("Usage: interp [OPTIONS] COMMAND [ARGS]...")
