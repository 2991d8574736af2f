"""Helpers for the Level-1 front-end tests.

``fixed_form(text)`` takes a dedented snippet and lays it out in fixed form, so tests read naturally:

* ``10 CONTINUE``      → label 10 in columns 1–5, statement from column 7;
* ``& more text``      → a continuation line (``&`` in column 6);
* ``C ...`` / ``* ...`` / ``! ...`` (marker then a blank) → comment lines, kept as written
  (so a statement must not begin ``C `` — write ``CC = 1``, not ``C = 1``);
* any other line       → the statement starts in column 7 (its own indentation is kept).
"""

from __future__ import annotations

import re
import textwrap

from interp.application.aag import AAG

_LABELLED = re.compile(r"^(\d{1,5})\s+(.*)$")


def fixed_form(text: str) -> str:
    out = []
    for line in textwrap.dedent(text).strip("\n").splitlines():
        if not line.strip():
            out.append("")
        elif line[0] in "Cc*!" and (len(line) == 1 or line[1] == " "):
            out.append(line)
        elif line.startswith("&"):
            out.append("     &" + line[1:])
        elif m := _LABELLED.match(line):
            out.append(f"{m.group(1):>5} {m.group(2)}")
        else:
            out.append("      " + line)
    return "\n".join(out) + "\n"


def body(aag: AAG, unit: str | None = None) -> list:
    """The AAUs of a unit between Start and End."""
    u = aag.units[unit] if unit else next(iter(aag.units.values()))
    assert u.aaus[0].type == "Start" and u.aaus[-1].type == "End"
    return u.aaus[1:-1]


def shape(aaus) -> list:
    """AAU types with nesting: ``["Seq", ("IterD", ["Seq"]), ...]``; Condt arms as lists."""
    out = []
    for a in aaus:
        if a.type.startswith("Condt"):
            out.append((a.type, [shape(b.body) for b in a.branches]))
        elif a.type.startswith("Iter"):
            out.append((a.type, shape(a.children)))
        else:
            out.append(a.type)
    return out
