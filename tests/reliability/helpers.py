"""Running ``interp`` as a user would (click's CliRunner) on small programs written to tmp_path."""

from __future__ import annotations

import re
from pathlib import Path

from click.testing import CliRunner

from interp.cli import main

REPO = Path(__file__).resolve().parents[2]
SAMPLES = REPO / "programs"


def invoke(*args: str, env: dict | None = None):
    return CliRunner().invoke(main, [str(a) for a in args], env=env)


def _fixed_form(line: str) -> str:
    label, rest = re.fullmatch(r"(\d*)\s*(.*)", line.strip()).groups()
    return f"{label:<5} {rest}\n"


def fortran(tmp_path: Path, text: str, name: str = "node.f") -> str:
    """A fixed-form source file from ``text``: a statement label goes in columns 1-5, the
    statement from column 7."""
    path = tmp_path / name
    path.write_text("".join(_fixed_form(line) for line in text.strip().splitlines()))
    return str(path)
