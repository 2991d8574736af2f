"""benchmarks/npb_suite.py's matrix machinery: which command runs on which machine, the CPU
limit, the resumable records and their table (no NPB tree needed)."""

from __future__ import annotations

import json
import sys

from benchmarks import npb_suite  # the project root: tests/validation/conftest.py

def test_graph_once_check_and_formula_on_the_first_machine_predict_on_each():
    runs = npb_suite._runs(["graph", "check", "predict", "formula"], ["cluster", "default"])
    assert runs == [("graph", None), ("check", "cluster"), ("predict", "cluster"),
                    ("predict", "default"), ("formula", "cluster")]


def test_a_command_past_its_cpu_limit_is_stopped_and_said_so(tmp_path, monkeypatch):
    # The limit is the suite's, not interp's: a command that spins for ever stands in for a
    # slow interpretation (interp folds or budgets any loop a test could write, and how fast
    # it steps one changes from release to release).
    spin = [sys.executable, "-c", "while True: pass"]
    monkeypatch.setattr(npb_suite, "_interp", lambda: spin)
    out = npb_suite.run_command("check", [tmp_path / "any.f"], 1, tmp_path, None, timeout=1)
    assert not out.ok
    # on a loaded machine the wall limit (four times the CPU one) may come first
    assert out.message in ("timed out after 1 s of CPU", "timed out after 4 s (wall)")


def _record(bench, klass, procs, command, machine, ok, cpu, predicted=None, error=""):
    return {"bench": bench, "class": klass, "procs": procs, "command": command,
            "machine": machine, "ok": ok, "wall": cpu, "cpu": cpu, "predicted": predicted,
            "error": error, "load": 1.0}


def test_records_are_skipped_when_done_and_tabled(tmp_path):
    out = tmp_path / "m.jsonl"
    records = [
        _record("EP", "S", 4, "graph", "", True, 1.2),
        _record("EP", "S", 4, "predict", "cluster", True, 3.4, 1.639),
        _record("EP", "S", 64, "predict", "default", False, 1.0,
                error="error: 64 processes do not fit Intel iPSC/860 (16 nodes)"),
        _record("MG", "A", 64, "check", "cluster", False, 60.0,
                error="timed out after 60 s of CPU"),
    ]
    out.write_text("".join(json.dumps(r) + "\n" for r in records))
    assert ("EP", "S", 4, "predict", "cluster") in npb_suite._done(out)
    assert ("EP", "S", 4, "predict", "default") not in npb_suite._done(out)
    lines = npb_suite.markdown(out).splitlines()
    assert lines[0] == ("| bench | class | P | graph | check | predict cluster | "
                        "predict default | formula | predicted cluster [s] | "
                        "predicted default [s] |")
    # BENCHMARKS order (BT CG EP FT LU MG SP), then class, then P
    assert lines[2] == "| EP | S | 4 | ok 1 |  | ok 3 |  |  | 1.639 |  |"
    assert lines[3] == "| EP | S | 64 |  |  |  | n/a |  |  |  |"
    assert lines[4] == "| MG | A | 64 |  | >60 s |  |  |  |  |  |"
