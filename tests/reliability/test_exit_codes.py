"""The exit-code contract: 0 done, 1 problems found, 2 usage or input error, 3 a bug in interp
(one line pointing at --debug; the traceback only with --debug or INTERP_DEBUG=1)."""

from __future__ import annotations

import pytest

from interp import cli

from .helpers import SAMPLES, invoke

RING = SAMPLES / "ring" / "node.f"


@pytest.fixture
def broken_machine_list(monkeypatch):
    def boom(*args, **kwargs):
        raise RuntimeError("a bug\nsecond line")

    monkeypatch.setattr(cli.machine_list, "callback", boom)


def test_an_internal_error_is_one_line_and_exit_3(broken_machine_list):
    result = invoke("machine", "list")
    assert result.exit_code == 3
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert "RuntimeError: a bug" in lines[0] and "--debug" in lines[0]
    assert "Traceback" not in result.output


@pytest.mark.parametrize("how", [("--debug",), ()])
def test_debug_shows_the_traceback(broken_machine_list, how):
    result = invoke(*how, "machine", "list", env=None if how else {"INTERP_DEBUG": "1"})
    assert result.exit_code != 3
    assert isinstance(result.exception, RuntimeError)


def test_click_usage_errors_stay_2():
    assert invoke("predict", "--no-such-option", RING).exit_code == 2
    assert invoke("no-such-command").exit_code == 2


def test_an_input_error_is_2(tmp_path):
    result = invoke("predict", tmp_path / "missing.f")
    assert result.exit_code == 2
    assert "Traceback" not in result.output
