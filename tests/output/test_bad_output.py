"""Outputs that cannot be written: one clear error (exit 2), no traceback, nothing half-written."""

from __future__ import annotations


import os
import pytest

from interp.errors import InterpError
from interp.output.files import write_files

from .conftest import TINY, TRAP_ARGS, run


def assert_clean_error(result, *words):
    assert result.exit_code == 2, result.output
    assert "Traceback" not in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)
    assert "error:" in result.stderr
    for w in words:
        assert w in result.stderr


@pytest.mark.parametrize("command", [
    ["predict", TINY, "-P", "2", "--trace"],
    ["report", TINY, "-P", "2", "--budget", "0", "-o"],
])
def test_missing_directory(tmp_path, command):
    target = tmp_path / "no" / "such" / "out.html"
    if command[0] == "predict":
        target = target.with_suffix(".json")
    assert_clean_error(run(*command, target), "does not exist")
    assert list(tmp_path.iterdir()) == []


def test_output_is_a_directory(tmp_path):
    assert_clean_error(run("predict", TINY, "-P", "2", "--trace", tmp_path), "is a directory")
    assert_clean_error(run("report", TINY, "-P", "2", "-o", tmp_path), "report")


def test_parent_is_a_file(tmp_path):
    f = tmp_path / "plain.txt"
    f.write_text("x")
    assert_clean_error(run("report", TINY, "-P", "2", "-o", f / "r.html"), "not a directory")
    assert_clean_error(run("predict", TINY, "-P", "2", "--trace", f / "t.json"), "not a directory")
    assert f.read_text() == "x"


def test_report_needs_a_known_extension(tmp_path):
    assert_clean_error(run("report", TINY, "-P", "2", "-o", tmp_path / "r.pdf"), ".html or .md")


def test_unwritable_place_even_for_root():
    """/proc takes no new files, whoever runs the tests (CI runs as root)."""
    assert_clean_error(run("report", TINY, "-P", "2", "-o", "/proc/r.html"), "cannot write")


def test_failed_report_leaves_the_old_file(tmp_path):
    """N is not given: no numbers, so no report — and the previous report stays as it was."""
    out = tmp_path / "r.html"
    out.write_text("old report")
    result = run("report", TRAP_ARGS[0], TRAP_ARGS[1], "-P", "2", "--set", "NITER=5",
                 "-o", out, "--budget", "0")
    assert_clean_error(result, "--set N=")
    assert out.read_text() == "old report"
    assert [p.name for p in tmp_path.iterdir()] == ["r.html"]


def test_write_files_is_all_or_nothing(tmp_path):
    good = tmp_path / "a.png"
    with pytest.raises(InterpError) as err:
        write_files({good: b"data", tmp_path / "missing" / "b.md": "text"}, "report")
    assert "does not exist" in err.value.message
    assert list(tmp_path.iterdir()) == []  # neither the first file nor a temp file


def test_write_error_midway_cleans_up(tmp_path, monkeypatch):
    calls = []

    def failing_replace(src, dst):
        calls.append(dst)
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", failing_replace)
    with pytest.raises(InterpError) as err:
        write_files({tmp_path / "r.html": "x" * 1000}, "report")
    assert "No space left on device" in err.value.message and calls
    assert list(tmp_path.iterdir()) == []
