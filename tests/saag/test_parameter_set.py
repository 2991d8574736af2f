"""``--set N=V`` and ``--what-if 'N *= 10'`` of a PARAMETER constant rebuild the program with
that value for ``check`` and ``graph --saag`` as they do for ``predict`` (README, "A PARAMETER
constant is an input too"); ``check`` said "--set N: the program has no variable N". The
message is N INTEGERs: 4·N bytes, 32 as written, 400 with N = 100, 80 with N *= 10."""

from __future__ import annotations

import json

from .helpers import cli, prog


def _edges(*options: str) -> list[int]:
    result = cli("check", prog("param_msg.f"), "-P", "2", "--format", "json", *options)
    assert result.exit_code == 0, result.output
    return [int(e["size"]) for e in json.loads(result.output)["edges"]]


def test_as_written():
    assert _edges() == [4 * 8]


def test_set_a_parameter():
    assert _edges("--set", "N=100") == [4 * 100]


def test_what_if_on_a_parameter():
    assert _edges("--what-if", "N *= 10") == [4 * 8 * 10]
