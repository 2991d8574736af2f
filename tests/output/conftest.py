"""Fixtures for the Output module tests: predictions with their traces, made once."""

from __future__ import annotations

from pathlib import Path

import pytest
import sympy as sp
from click.testing import CliRunner

from interp.application.aag import build_aag
from interp.cli import main
from interp.engine.predict import predict
from interp.resources import PROGRAMS
from interp.system import load_machine

HERE = Path(__file__).parent
TINY = str(HERE / "programs" / "tiny.f")
HOST = str(PROGRAMS / "trapezoid" / "host.f")
NODE = str(PROGRAMS / "trapezoid" / "node.f")
TRAP_ARGS = [HOST, NODE, "-P", "4", "--set", "N=10000", "--set", "NITER=10"]


@pytest.fixture(scope="session")
def ipsc():
    return load_machine("ipsc860")


@pytest.fixture(scope="session")
def tiny(ipsc):
    """tests/output/programs/tiny.f on 2 nodes (every time can be checked by hand)."""
    return predict(build_aag([TINY]), ipsc, 2, {}, trace=True)


@pytest.fixture(scope="session")
def trap(ipsc):
    """The trapezoid benchmark (host + node) on 4 nodes, N = 10^4, NITER = 10."""
    aag = build_aag([HOST, NODE])
    return predict(aag, ipsc, 4, {"N": sp.Integer(10**4), "NITER": sp.Integer(10)}, trace=True)


def run(*args: str):
    return CliRunner().invoke(main, [str(a) for a in args])


def value(pred, x) -> float:
    return float(pred.evaluate(x))


def busy(pred, p) -> float:
    """A process's computation + communication (call overhead, transmission, waiting)."""
    return value(pred, sum(p.cats.values()))
