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
