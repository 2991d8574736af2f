"""``--iterations FILE:LINE=N`` naming a line where no loop starts is a usage error listing the
loops of that file, nearest first (it was silently ignored)."""

from __future__ import annotations

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
