"""Deep nesting (issue 15: 400 nested IF blocks ended in a RecursionError; 200 were fine)."""

from __future__ import annotations

import json

from .test_bounded_loops import interp


def nested_ifs(depth: int) -> str:
    """I = 1, then ``depth`` IF blocks, the k-th (from 0) testing I .GT. -k, around I = I + 1."""
    lines = ["      PROGRAM DEEP", "      INTEGER I", "      I = 1"]
    lines += [f"      IF (I .GT. {-k}) THEN" for k in range(depth)]
    lines += ["      I = I + 1"] + ["      END IF"] * depth + ["      END"]
    return "\n".join(lines) + "\n"


def test_four_hundred_nested_ifs_are_predicted(tmp_path):
    # every test holds (I = 1 > -k for k >= 0): the innermost statement (line 3 + 400 + 1)
    # runs once
    src = tmp_path / "deep.f"
    src.write_text(nested_ifs(400))
    done = interp("predict", str(src), "--format", "json")
    assert done.returncode == 0, done.stderr[-2000:]
    pred = json.loads(done.stdout)
    inner = [a for a in pred["aaus"] if a["type"] == "Seq" and a["line"] == 404]
    assert [a["count"] for a in inner] == [1.0]


def test_nesting_past_the_limit_is_an_error_naming_the_depth(tmp_path):
    # 600 blocks: the 513th open one (line 3 + 513 = 516) is one past MAX_NESTING = 512
    src = tmp_path / "deeper.f"
    src.write_text(nested_ifs(600))
    done = interp("predict", str(src))
    assert done.returncode == 2
    assert "deeper.f:516:7" in done.stderr and "nested 513 deep" in done.stderr
    assert "Traceback" not in done.stderr
