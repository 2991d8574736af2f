"""`interp validate ... | head -4`: when the reader of the output leaves while interp still
writes, interp stops quietly with exit 0; it reported an internal error (BrokenPipeError,
exit 3), depending on when `head` left."""

from __future__ import annotations

from click.testing import CliRunner

from interp.cli import main


def test_a_closed_output_is_not_an_internal_error():
    @main.command("pipe-closed", hidden=True)
    def pipe_closed() -> None:
        print("| program | machine |")
        raise BrokenPipeError(32, "Broken pipe")  # the next write, after the reader left

    try:
        result = CliRunner().invoke(main, ["pipe-closed"])
    finally:
        main.commands.pop("pipe-closed")
    assert result.exit_code == 0, result.output
    assert "internal error" not in result.output


def test_a_reader_that_leaves_before_rich_writes_is_exit_0():
    """`interp machine show ipsc860 | true`: the reader is gone before interp prints its
    tree; rich answers a closed pipe with SystemExit(1), which read as "problems found" (the
    exit code of `interp check`). The console raises the BrokenPipeError instead: exit 0."""
    import subprocess
    import sys

    proc = subprocess.Popen([sys.executable, "-m", "interp", "machine", "show", "ipsc860"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    proc.stdout.close()  # (interp spends its first ~0.5 s importing: nothing is written yet)
    err = proc.stderr.read().decode()
    assert proc.wait(timeout=120) == 0, err
    assert "internal error" not in err


def test_the_views_console_raises_the_broken_pipe():
    import pytest

    from interp.output.console import make_console

    with pytest.raises(BrokenPipeError):
        make_console().on_broken_pipe()
