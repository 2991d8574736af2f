"""Running ``interp`` as a user would (click's CliRunner) on small programs written to tmp_path."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner

from interp.cli import main

REPO = Path(__file__).resolve().parents[2]
SAMPLES = REPO / "programs"


def invoke(*args: str, env: dict | None = None):
    return CliRunner().invoke(main, [str(a) for a in args], env=env)


def fortran(tmp_path: Path, text: str, name: str = "node.f") -> str:
    """A fixed-form source file from ``text`` (lines given without the 6-column indent)."""
    path = tmp_path / name
    path.write_text("".join(line if line[:1] in "0123456789C" else "      " + line
                            for line in (l.strip() + "\n" for l in text.strip().splitlines())))
    return str(path)
