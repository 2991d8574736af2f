"""YAML specs are bounded (issue 15: a 10-line "billion laughs" grew to 6.7-9.8 GB)."""

from __future__ import annotations

import tracemalloc
from pathlib import Path

import pytest

from interp.errors import SpecError
from interp.system import yamldoc
from .test_bounded_loops import CORPUS, interp

LAUGHS = CORPUS / "laughs.yaml"  # 9 levels of 9 aliases: 9^9 = 387,420,489 strings expanded


def test_billion_laughs_is_refused_within_a_small_memory():
    tracemalloc.start()
    try:
        with pytest.raises(SpecError, match="more than 20,000 values"):
            yamldoc.load_doc(LAUGHS)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 100e6  # bytes; the expansion stops at 20 000 values (~2 MB)


@pytest.mark.parametrize("args", [["machine", "validate", str(LAUGHS)],
                                  ["predict", str(CORPUS / "goto_counted.f"), "--set", "N=3",
                                   "--machine", str(LAUGHS)]])
def test_billion_laughs_on_the_command_line(args):
    done = interp(*args)
    assert done.returncode == 2
    assert "laughs.yaml:1:" in done.stderr and "more than 20,000 values" in done.stderr


def test_a_spec_past_the_size_limit_is_refused_before_it_is_read(tmp_path: Path):
    big = tmp_path / "big.yaml"
    big.write_text("a: " + "x" * 1_000_000 + "\n")  # 3 + 1 000 000 + 1 bytes > 1 000 000
    with pytest.raises(SpecError, match="1,000,004 bytes"):
        yamldoc.load_doc(big)


def test_shipped_specs_are_far_below_the_limits():
    for spec in Path("machine_specs").glob("*.yaml"):
        doc = yamldoc.load_doc(spec)
        assert doc.built * 10 < yamldoc.MAX_VALUES and spec.stat().st_size * 10 < yamldoc.MAX_BYTES
