"""docs/scalability.md's table of the JSON keys of ``interp scalability`` and ``interp
latency-metric`` names exactly the keys they print (a key renamed on one side fails here)."""

from __future__ import annotations

import json
import re
from pathlib import Path

from click.testing import CliRunner

from interp.cli import main

DOC = Path(__file__).resolve().parents[2] / "docs" / "scalability.md"
CUBE = str(Path(__file__).parent / "programs" / "cube.f")
KEY = re.compile(r"`([A-Za-z_0-9]+)`")


def documented() -> dict[str, dict[str, set[str]]]:
    """command -> {"": top-level keys, key: the keys of its entries}."""
    text = DOC.read_text().split("### JSON (`--format json`) of both commands", 1)[1]
    out: dict[str, dict[str, set[str]]] = {}
    command = ""
    for line in text.splitlines()[1:]:
        if line.startswith("#"):
            break
        if not line.startswith("| ") or line.startswith(("| command", "|---")):
            continue
        cells = [c.strip() for c in line.strip("|").split("|")]
        if cells[0]:
            command = cells[0].strip("`")
        keys = KEY.findall(cells[1])
        # the keys of an entry, not the words in parentheses or after " = " that explain them
        said = re.sub(r"\([^)]*\)", "", cells[2].split(" = ")[0])
        entry = {k for k in KEY.findall(said) if k != "null"}
        top = out.setdefault(command, {"": set()})
        top[""].update(keys)
        for k in keys:
            if entry:
                top[k] = entry
    return out


def printed(command: str, *args: str) -> dict[str, set[str]]:
    r = CliRunner().invoke(main, [command, CUBE, "--machine", "cluster", "-P", "2,4",
                                  "--efficiency", "0.5", "--format", "json", *args])
    assert r.exit_code == 0, r.output
    data = json.loads(r.stdout)
    out = {"": set(data)}
    for k, v in data.items():
        if isinstance(v, list) and v:
            out[k] = set(v[0])
        elif isinstance(v, dict):
            out[k] = set(v)
    return out


def test_scalability_keys_are_documented():
    doc = documented()["scalability"]
    got = printed("scalability", "--path", "N=t", "--kind", "combination")
    assert got[""] == doc[""]
    assert got["points"] == doc["points"]
    assert got["scale"] == doc["scale"]


def test_latency_metric_keys_are_documented():
    doc = documented()["latency-metric"]
    got = printed("latency-metric", "--scale", "N", "--integral", "2")
    assert got[""] == doc[""]
    for key in ("points", "scale", "theorem2", "isospeed", "integral"):
        assert got[key] == doc[key], key
