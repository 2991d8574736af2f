"""Fixtures for the Systems module tests."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

# Until the package is installed in the venv (pip install -e .), import it from the checkout.
ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from interp.system import load_machine  # noqa: E402

# A small but complete spec; tests plant one mistake in it and assert where it is reported.
MINIMAL = """\
machine:
  name: tiny
  title: a tiny machine
  nodes: node
sag:
  name: node
  p:
    general:
      clock: 40 MHz
      max_procs: 4
    ops: {add_sub: 1 clk, mul: 2 clk, int_div: 40 clk, real_div: 60 clk, int_to_real: 8 clk, real_to_int: 1 clk}
    loop: {nostep_fixed: 5 clk, nostep_per_iter: 8 clk, step_fixed: 10 clk, step_per_iter: 10 clk}
    cond: {condition: 1 clk, branch_taken: 1 clk}
    call: {overhead: 1 clk, per_arg: 0 clk}
    library: {default: 100 clk}
  cs:
    spec:
      topology: hypercube
      routing: e-cube
      switching: circuit
    dynamic:
      startup: 175e-6 s
      per_byte: 0.36e-6 s
      per_hop: 33e-6 s
      receive: 0 s
    sync: {overhead: 67e-6 s}
    overlap: {sync_send: 0, async_send: 0, recv: 0, collective: 0}
"""


@pytest.fixture(scope="session")
def ipsc():
    return load_machine("ipsc860")


@pytest.fixture(scope="session")
def cluster():
    return load_machine("cluster")


@pytest.fixture
def write_spec(tmp_path):
    """Write spec text to a file and return its path (as a string)."""

    def write(text: str, name: str = "spec.yaml") -> str:
        path = tmp_path / name
        path.write_text(text, encoding="utf-8")
        return str(path)

    return write
