"""Fixtures for the what-if tests: programs, machines and their predictions, built once."""

from __future__ import annotations

from pathlib import Path

import pytest

from interp import api

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
PROGRAMS = HERE / "programs"
TRAPEZOID = [str(ROOT / "programs/trapezoid/host.f"), str(ROOT / "programs/trapezoid/node.f")]


@pytest.fixture(scope="session")
def ipsc():
    return api.Machine.load("ipsc860")


@pytest.fixture(scope="session")
def cluster():
    return api.Machine.load("cluster")


@pytest.fixture(scope="session")
def twonode():
    """Node 0 sends one 1000-byte message to node 1 (dynamic buffers on the iPSC/860)."""
    return api.Program.load([str(PROGRAMS / "twonode.f")])


@pytest.fixture(scope="session")
def bigmsg():
    """Ten 1,000,000-byte messages from node 0 to node 1: mostly transmission."""
    return api.Program.load([str(PROGRAMS / "bigmsg.f")])


@pytest.fixture(scope="session")
def trapezoid():
    return api.Program.load(TRAPEZOID)
