"""Every sample program in programs/ parses and builds an AAG, at both granularities."""

from __future__ import annotations

import json

import pytest

from interp.application.aag import build_aag
from interp.application.aau import SYNC_TYPES
from interp.output.graph_view import aag_json
from interp.resources import PROGRAMS

SOURCES = sorted(PROGRAMS.glob("*/*.f"))

# External inputs per programs/README.md ("External inputs" column).
READ_INPUTS = {
    "trapezoid/host.f": {"N", "NITER"},
    "mpi_trapezoid/trap_mpi.f": {"N", "NITER"},
    "fft2d_dp/fft2d_dp.f": {"N", "NITER"},
    "fft2d_tp/fft2d_tp.f": {"N", "NITER"},
    "mpi_jacobi/jacobi_mpi.f": {"N"},
}


def test_the_sample_set_is_there():
    assert len(SOURCES) == 12


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: f"{p.parent.name}/{p.name}")
@pytest.mark.parametrize("granularity", ["largest", "statement"])
def test_program_builds_an_aag(path, granularity):
    aag = build_aag([path], granularity)
    (unit,) = aag.programs()
    assert unit.aaus[0].type == "Start" and unit.aaus[-1].type == "End"
    types = {a.type for a in aag.all_aaus()}
    assert types & SYNC_TYPES, "every sample is a message-passing program"
    json.dumps(aag_json(aag))
    rel = f"{path.parent.name}/{path.name}"
    assert {e.name for e in aag.external_inputs if e.how == "read"} == READ_INPUTS.get(rel, set())
    assert {e.name for e in aag.external_inputs if e.how == "undefined"} == set()
