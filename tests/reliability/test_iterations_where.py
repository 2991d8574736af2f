"""``--iterations FILE:LINE=N`` naming a line where no loop starts is a usage error listing the
loops of that file, nearest first (it was silently ignored)."""

from __future__ import annotations

import json

import pytest

from .helpers import SAMPLES, invoke

HOST = SAMPLES / "trapezoid" / "host.f"
NODE = SAMPLES / "trapezoid" / "node.f"  # DO 100 at line 30, DO 10 at line 39


def test_a_line_with_no_loop():
    result = invoke("predict", HOST, NODE, "-P", "4", "--set", "N=100", "--set", "NITER=3",
                    "--iterations", "node.f:999=5")
    assert result.exit_code == 2, result.output
    assert "--iterations node.f:999: no loop starts at node.f:999" in result.stderr
    assert "loops in node.f: node.f:39, node.f:30" in result.stderr  # 960 lines away, then 969


def test_a_file_the_program_does_not_have():
    result = invoke("predict", HOST, NODE, "-P", "4", "--set", "N=100", "--set", "NITER=3",
                    "--iterations", "zz.f:9=5")
    assert result.exit_code == 2, result.output
    assert "the program's loops: host.f:37, node.f:30, node.f:39" in result.stderr


def test_a_counted_do_loop():
    # node.f:39 is DO 10 I = ME+1, N-1, NP: its count comes from N; --iterations was
    # silently ignored there (the prediction did not change)
    result = invoke("predict", HOST, NODE, "-P", "4", "--set", "N=100", "--set", "NITER=3",
                    "--iterations", "node.f:39=5")
    assert result.exit_code == 2, result.output
    assert "--iterations node.f:39: the DO loop at node.f:39 is counted from its limits" \
        in result.stderr
    assert "--set NAME=VALUE" in result.stderr


DATA_LIMITS = """
      PROGRAM RT
      INTEGER IA(11), I, K
      REAL S
      READ *, IA
      S = 0.0
      DO 20 K = 1, 10
         DO 10 I = IA(K), IA(K+1) - 1
            S = S + 1.0
   10    CONTINUE
   20 CONTINUE
      PRINT *, S
      END
"""


def test_a_do_loop_with_data_limits_takes_the_count(tmp_path):
    # DO 10 I = IA(K), IA(K+1) - 1 inside a counted loop: its count is the trip count
    # n_rt_f_7, and --iterations rt.f:7=5 gives the same prediction as --set n_rt_f_7=5 (it
    # was ignored: the outer loop's closed form read the symbol's default)
    path = tmp_path / "rt.f"
    path.write_text(DATA_LIMITS.lstrip("\n"))
    seconds = {}
    for flag in (["--iterations", "rt.f:7=5"], ["--set", "n_rt_f_7=5"], []):
        result = invoke("predict", path, *flag, "--format", "json")
        assert result.exit_code == 0, result.output
        seconds[" ".join(flag)] = json.loads(result.stdout)["total_seconds"]
    assert seconds["--iterations rt.f:7=5"] == pytest.approx(seconds["--set n_rt_f_7=5"],
                                                             rel=1e-12)
    assert seconds[""] < seconds["--set n_rt_f_7=5"]  # the default trip count is 1
