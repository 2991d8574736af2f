"""An unknown what-if target is answered with names ending the same way first: ``node.clock``
suggests ``node.p.general.clock`` (it suggested ``node.p.nx.dclock``)."""

from __future__ import annotations

from .helpers import SAMPLES, invoke

TRAPEZOID = [SAMPLES / "trapezoid" / "host.f", SAMPLES / "trapezoid" / "node.f"]


def test_node_clock_suggests_the_clock():
    result = invoke("predict", *TRAPEZOID, "-P", "4", "--set", "N=1", "--set", "NITER=1",
                    "--what-if", "node.clock = 80 MHz")
    assert result.exit_code == 2, result.output
    hint = result.stderr.strip().splitlines()[-1]
    assert hint.startswith("  hint: did you mean 'node.p.general.clock'"), hint
    assert "dclock" not in hint
