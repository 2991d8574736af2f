"""The console every text view prints through (rich).

A reader that leaves before the output ends (``interp … | head``, ``| true``) closes the pipe:
rich's own answer is ``SystemExit(1)``, which would read as "problems found" to a script. The
write's BrokenPipeError is raised instead, and the CLI ends quietly with exit 0 (cli.py).
"""

from __future__ import annotations

from rich.console import Console


class _PipeConsole(Console):
    def on_broken_pipe(self) -> None:
        raise BrokenPipeError(32, "Broken pipe")


def make_console(width: int = 120) -> Console:
    """A console for a view; files and pipes get ``width`` columns (the full table), not 80."""
    console = _PipeConsole(highlight=False)
    if not console.is_terminal:
        console = _PipeConsole(highlight=False, width=width)
    return console
