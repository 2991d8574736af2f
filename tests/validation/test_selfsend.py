"""A message a rank sends to itself, in interp and in the exported SimGrid platform.

interp prices a message to self as any message with 0 hops: the sender's startup, then
``per_byte·size`` before it arrives, on no link (docs/validation.md, "Messages to self").
The platform gives every rank a loopback link with those values, so SMPI agrees; without it
SimGrid's default loopback (10 GB/s) makes the message nearly free (MG class S at P = 4, a
2x2x1 process grid, was +7.5%).
"""

from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest

from interp.analysis import validate as V
from interp.application.aag import build_aag
from interp.system import load_machine
from interp.system.simgrid import export_simgrid

from .conftest import VALIDATION

PROGRAM = VALIDATION / "selfsend.f"

# iPSC/860, Table 3, dynamic buffers (8000 B > the 100 B static buffers)
STARTUP = 175e-6
PER_BYTE = 0.36e-6
BYTES = 1000 * 8
# 10 x (MPI_SEND's startup + the 8000 bytes at per_byte, 0 hops; IRECV and WAIT cost 0)
EXPECTED = 10 * (STARTUP + BYTES * PER_BYTE)  # 10 x (175 + 2880) us = 30.55 ms


@pytest.fixture(scope="module")
def ipsc():
    return load_machine("ipsc860")


def _root(sag, p):
    return ET.fromstring(export_simgrid(sag, p).xml.split("\n", 2)[2])


def test_platform_has_a_loopback_per_rank(ipsc):
    root = _root(ipsc, 4)
    links = {ln.get("id"): ln for ln in root.iter("link")}
    for k in range(4):
        routes = [r for r in root.iter("route")
                  if r.get("src") == f"node{k}" and r.get("dst") == f"node{k}"]
        assert len(routes) == 1
        assert [c.get("id") for c in routes[0]] == [f"node{k}-loopback"]
        link = links[f"node{k}-loopback"]
        assert link.get("sharing_policy") == "FATPIPE"
        assert float(link.get("bandwidth")[:-3]) == pytest.approx(1 / PER_BYTE)  # 1/0.36e-6 B/s
        assert float(link.get("latency")[:-1]) == 0


def test_crossbar_loopback():
    cluster = load_machine("cluster")
    c = next(_root(cluster, 4).iter("cluster"))
    per_byte = 0.08e-9 / (1 - 0.0)  # cluster.yaml: 0.08 ns / (1 - load), load 0 by default
    assert float(c.get("loopback_bw")[:-3]) == pytest.approx(1 / per_byte)
    assert c.get("loopback_lat") == "0s"


@pytest.mark.parametrize("p", [1, 4])
def test_interp_prices_self_message(ipsc, p):
    pred = V.predict_communication(build_aag([str(PROGRAM)]), ipsc, p)
    assert float(pred.seconds) == pytest.approx(EXPECTED, rel=1e-9)


@pytest.mark.parametrize("p", [1, 4])
def test_smpi_agrees(ipsc, p, smpi, workdir):
    exe = V.compile_program(PROGRAM, workdir)
    run = V.run_smpi(exe, ipsc, p, workdir)
    assert run.seconds == pytest.approx(EXPECTED, rel=0.05), \
        f"SMPI {run.seconds * 1e6:.1f} us, expected {EXPECTED * 1e6:.1f} us"
