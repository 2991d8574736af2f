"""Where the project's data lives: the Lark grammars and the machine specs.

Both are top-level folders of the repository (``grammars/``, ``machine_specs/``), read in place
by an editable install; nothing is copied into the package.
"""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
GRAMMARS = ROOT / "grammars"
MACHINE_SPECS = ROOT / "machine_specs"
PROGRAMS = ROOT / "programs"
DEFAULT_MACHINE = "ipsc860"  # the machine of the core paper, when none is named


def grammar_path(name: str) -> Path:
    """The path of grammar ``name`` (e.g. ``"fortran77.lark"``)."""
    return GRAMMARS / name
