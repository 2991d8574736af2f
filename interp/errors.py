"""User-facing errors: one clear message with file, line and column, never a traceback.

Every mistake a user can make (a bad program, spec, what-if or command line) is raised as an
:class:`InterpError`; the CLI prints :meth:`InterpError.render` and exits with ``exit_code``.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from dataclasses import dataclass
from typing import NoReturn


@dataclass(frozen=True)
class SourceLocation:
    """A place in a user file: 1-based line and column (pycparser's ``coord``)."""

    file: str
    line: int
    column: int = 1
    end_line: int | None = None

    def __str__(self) -> str:
        return f"{self.file}:{self.line}:{self.column}"

    def to_json(self) -> dict:
        return {"file": self.file, "line": self.line, "column": self.column}


class InterpError(Exception):
    """An error in what the user gave us. ``exit_code`` 2 = usage/input error."""

    exit_code = 2

    def __init__(
        self,
        message: str,
        location: SourceLocation | None = None,
        *,
        hint: str | None = None,
        source_line: str | None = None,
    ) -> None:
        super().__init__(message)
        self.message = message
        self.location = location
        self.hint = hint
        self.source_line = source_line

    def render(self) -> str:
        where = f"{self.location}: " if self.location else ""
        out = [f"{where}error: {self.message}"]
        if self.source_line is not None and self.location is not None:
            text, caret = excerpt(self.source_line.rstrip("\n"), self.location.column)
            out.append("    " + text)
            out.append("    " + " " * caret + "^")
        if self.hint:
            out.append(f"  hint: {self.hint}")
        return "\n".join(out)

    def __str__(self) -> str:
        return self.render()


EXCERPT_WIDTH = 100  # characters of a source line shown under an error


def excerpt(line: str, column: int, width: int = EXCERPT_WIDTH) -> tuple[str, int]:
    """At most ``width`` characters of ``line`` around 1-based ``column`` (``...`` where cut),
    and the caret's 0-based offset in them: a 50 MB one-line file is not echoed whole."""
    at = max(column - 1, 0)
    if len(line) <= width:
        return line, at
    start = min(max(at - width // 2, 0), max(len(line) - width, 0))
    head = "..." if start > 0 else ""
    tail = "..." if start + width < len(line) else ""
    return head + line[start:start + width] + tail, len(head) + at - start


class UnsupportedError(InterpError):
    """A valid Fortran construct that interp does not model (arithmetic IF, ENTRY, ...)."""


class SpecError(InterpError):
    """A machine spec that is malformed or inconsistent."""


def run_script(main: Callable[[], int]) -> NoReturn:
    """A script's entry point (benchmarks/, validation/): exit with ``main()``'s status, or
    with 2 after printing a user's mistake (:class:`InterpError`) as the CLI does, no
    traceback."""
    try:
        status = main()
    except InterpError as err:
        print(err.render(), file=sys.stderr)
        status = 2
    sys.exit(status)
