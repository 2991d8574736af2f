"""Helpers for the Level-2 (SAAG) tests: build SAAGs, find AAU ids by line, run the CLI.

Programs live in ``tests/saag/programs`` and ``programs/``; every path is given relative to the
repository root (the tests run from there, see ``conftest.py``), so locations read
``tests/saag/programs/x.f:6:10``.

AAU ids come from ``interp graph FILES --format json`` (the AAG), never from the engine's
internals, so the tests pin the SAAG's edges to the AAUs the user sees.
"""

from __future__ import annotations

import json
import re
from functools import lru_cache
from pathlib import Path

import sympy as sp
from click.testing import CliRunner

REPO = Path(__file__).resolve().parents[2]
PROGS = "tests/saag/programs"

COMM_TYPES = {"Comm", "Sync", "SyncSeq"}


def prog(name: str) -> str:
    """Path (relative to the repository root) of a test program."""
    return f"{PROGS}/{name}"


# ---- the CLI -----------------------------------------------------------------------------------


def cli(*args: str):
    """Run ``interp ARGS`` in-process; returns click's Result (exit_code, stdout, stderr, output)."""
    from interp.cli import main

    return CliRunner().invoke(main, [str(a) for a in args])


def cli_json(*args):
    args = tuple(str(a) for a in args)
    result = cli(*args)
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise AssertionError(f"interp {' '.join(args)} raised {result.exception!r}") \
            from result.exception
    return result, json.loads(result.stdout)


@lru_cache(maxsize=None)
def aag_json(files: tuple[str, ...]) -> dict:
    result = cli("graph", *files, "--format", "json")
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def aau_at(files: tuple[str, ...] | str, file: str, line: int) -> int:
    """The id of the communication/synchronization AAU that starts at ``file:line``."""
    if isinstance(files, str):
        files = (files,)
    found = [a["id"] for a in aag_json(tuple(files))["aaus"]
             if a["file"] == file and a["line"] == line and a["type"] in COMM_TYPES]
    assert len(found) == 1, f"expected one Comm/Sync/SyncSeq AAU at {file}:{line}, found {found}"
    return found[0]


# ---- the SAAG through the Python API -----------------------------------------------------------


def _given(sets: tuple[tuple[str, int], ...]) -> dict:
    return {k: sp.Integer(v) for k, v in sets}


@lru_cache(maxsize=None)
def _saag(files: tuple[str, ...], nprocs: int, machine: str, sets: tuple):
    from interp.application.aag import build_aag
    from interp.engine.saag import build_saag
    from interp.system import load_machine

    return build_saag(build_aag(list(files)), load_machine(machine), nprocs, _given(sets))


def saag(files, nprocs: int, machine: str = "ipsc860", **sets):
    files = (files,) if isinstance(files, str) else tuple(files)
    return _saag(files, nprocs, machine, tuple(sorted(sets.items())))


def edges(s) -> list[dict]:
    """The SAAG's edges as plain dicts (the fields of the JSON edge, without the renderer)."""
    return [{"kind": e.kind, "pattern": e.pattern, "src": e.src, "src_aau": e.src_aau,
             "dst": e.dst, "dst_aau": e.dst_aau, "size": str(e.size), "tag": e.tag,
             "count": _num(e.count)} for e in s.edges]


def _num(v):
    try:
        f = float(v)
    except TypeError:
        return str(v)
    return int(f) if f.is_integer() else f


def pairs(s, kind: str | None = None) -> set[tuple]:
    """{(src, src_aau, dst, dst_aau, size, tag)} of the SAAG's edges (of one kind)."""
    return {(e["src"], e["src_aau"], e["dst"], e["dst_aau"], e["size"], e["tag"])
            for e in edges(s) if kind is None or e["kind"] == kind}


def loc(file: str, line: int, column: int) -> dict:
    return {"file": file, "line": line, "column": column}


def problems(s) -> list[dict]:
    """The problems as JSON-shaped dicts (kind, message, locations)."""
    return [{"kind": p.kind, "message": p.message,
             "locations": [{"file": l.file, "line": l.line, "column": l.column}
                           for l in p.locations]} for p in s.problems]


def summary(s) -> list[tuple]:
    """(kind, [(file, line, column), ...]) per problem: what a failing assertion should show."""
    return [(p["kind"], [(l["file"], l["line"], l["column"]) for l in p["locations"]])
            for p in problems(s)]


PROC = r"(?:node|rank) \d+|host"
WAIT = re.compile(rf"((?:{PROC})(?: -> (?:{PROC}))*|(?:node|rank) (\d+) \.\. (?:node|rank) (\d+) "
                  r"\(\d+ processes\)) (?:each )?waits? in (\w+) .*? at (\S+):(\d+):(\d+)")


def cycle_of(message: str) -> list[tuple[str, str, str, int, int]]:
    """The (process, call, file, line, column) steps of a deadlock message's cycle; a run of
    processes waiting at one place (``node 0 .. node 3 (4 processes) each wait in``, or
    ``node 0 -> node 2 each wait in``) is one step per process."""
    steps = []
    for m in WAIT.finditer(message):
        where = (m.group(4), m.group(5), int(m.group(6)), int(m.group(7)))
        if m.group(2) is not None:
            kind = m.group(1).split()[0]
            first, last = int(m.group(2)), int(m.group(3))
            step = 1 if last >= first else -1
            procs = [f"{kind} {k}" for k in range(first, last + step, step)]
        else:
            procs = m.group(1).split(" -> ")
        steps += [(proc, *where) for proc in procs]
    return steps
