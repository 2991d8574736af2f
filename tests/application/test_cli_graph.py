"""``interp graph``: the JSON contract, the tree and dot views, and clean errors."""

from __future__ import annotations

import json

from click.testing import CliRunner

from interp.application.aau import AAU_TYPES
from interp.cli import main
from interp.resources import PROGRAMS

NODE = str(PROGRAMS / "trapezoid" / "node.f")
HOST = str(PROGRAMS / "trapezoid" / "host.f")


def invoke(*args):
    return CliRunner().invoke(main, ["graph", *args])


def graph_json(*args) -> dict:
    result = invoke(*args, "--format", "json")
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def test_json_contract():
    doc = graph_json(HOST, NODE)
    assert {"aaus", "critical_variables", "external_inputs"} <= set(doc)
    ids = {a["id"] for a in doc["aaus"]}
    for a in doc["aaus"]:
        assert {"id", "type", "file", "line", "end_line", "params", "children"} <= set(a)
        assert a["type"] in AAU_TYPES
        assert a["file"] in (HOST, NODE)
        assert isinstance(a["line"], int) and a["end_line"] >= a["line"]
        assert isinstance(a["params"], dict)
        assert set(a["children"]) <= ids  # children refer to AAUs in the document
    json.dumps(doc)  # round-trips


def test_json_content_of_the_node_program():
    doc = graph_json(NODE)
    by_id = {a["id"]: a for a in doc["aaus"]}
    loops = [a for a in doc["aaus"] if a["type"] == "IterSync"]
    (outer,) = loops
    assert (outer["line"], outer["end_line"]) == (30, 56)
    assert [by_id[c]["type"] for c in outer["children"]] == [
        "Comm", "Seq", "IterD", "CondtD", "Seq", "SyncSeq", "CondtSync"]
    assert outer["params"]["num_iters"] == "Max(0, NITER)"
    inner = by_id[outer["children"][2]]
    assert inner["params"]["var"] == "I" and inner["params"]["step"] == "NP"
    seq = by_id[inner["children"][0]]
    assert seq["params"]["ops"] == {"real_add": 3, "real_mul": 2, "real_div": 1, "fetch": 6,
                                    "store": 2, "library": {"float": 1}}
    crit = {c["name"]: c for c in doc["critical_variables"]}
    assert crit["ME"]["node_dependent"] and crit["N"]["definition_path"] == ["PARAMS"]
    assert doc["external_inputs"] == []


def test_json_external_inputs_of_the_host():
    doc = graph_json(HOST)
    assert [(e["name"], e["how"], e["critical"]) for e in doc["external_inputs"]] == [
        ("N", "read", False), ("NITER", "read", True)]
    assert doc["external_inputs"][0]["locations"] == [{"file": HOST, "line": 23, "column": 7}]


def test_statement_granularity_option(fixed):
    path = str(fixed("""
        PROGRAM P
        X = 1
        Y = 2
        END
    """))
    coarse = graph_json(path)
    fine = graph_json(path, "--granularity", "statement")
    assert [a["type"] for a in coarse["aaus"]] == ["Start", "Seq", "End"]
    assert [a["type"] for a in fine["aaus"]] == ["Start", "Seq", "Seq", "End"]
    assert fine["granularity"] == "statement"


def test_tree_format():
    result = invoke(NODE)
    assert result.exit_code == 0
    out = result.stdout
    for needle in ("PROGRAM TRAPN", "IterSync", "DO ITER = 1, NITER", "SyncSeq", "CondtSync",
                   "critical variables", "node-dependent"):
        assert needle in out


def test_dot_format():
    result = invoke(NODE, "--format", "dot")
    assert result.exit_code == 0
    out = result.stdout
    assert out.startswith("digraph AAG {") and out.rstrip().endswith("}")
    assert 'label="PROGRAM TRAPN"' in out and "IterSync #" in out
    assert "style=dashed" in out  # loop-body edges


def test_syntax_error_exits_2_without_traceback(fixed):
    path = fixed("""
        PROGRAM P
        X = 1 + * 2
        END
    """)
    result = invoke(str(path))
    assert result.exit_code == 2
    assert "Traceback" not in result.output
    assert result.stderr.startswith(f"{path}:2:15: error: syntax error: unexpected '*'")
    assert "hint: expected one of:" in result.stderr
    assert result.stdout == ""


def test_missing_file_exits_2():
    result = invoke("missing.f")
    assert result.exit_code == 2
    assert "error: no such file: missing.f" in result.stderr and "Traceback" not in result.output


def test_wrong_extension_exits_2(tmp_path):
    path = tmp_path / "prog.c"
    path.write_text("int main() {}\n")
    result = invoke(str(path))
    assert result.exit_code == 2
    assert "unrecognised file extension '.c'" in result.stderr
