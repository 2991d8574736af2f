"""The fast path (messages in flight indexed by destination, one shared MPI_COMM_WORLD) against
the exact mode's reference path (every lookup a scan, a world communicator per process): the
same prediction, to 1e-9 relative, for every program in programs/ and validation/ at several P
(docs/scale.md). A program interp refuses is refused the same way on both paths."""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

import pytest

from interp import api
from interp.errors import InterpError

ROOT = Path(__file__).resolve().parents[2]

# (files, inputs): each program with the inputs it reads (small, to keep the test short)
PROGRAMS = [
    (("programs/trapezoid/host.f", "programs/trapezoid/node.f"), {"N": 1000, "NITER": 3}),
    (("programs/pingpong/pingpong.f",), {}),
    (("programs/ring/ring.f",), {}),
    (("programs/pipeline/pipeline.f",), {}),
    (("programs/reduction/reduction.f",), {}),
    (("programs/halo/halo.f",), {}),
    (("programs/mpi_ring/ring_mpi.f",), {}),
    (("programs/mpi_trapezoid/trap_mpi.f",), {"N": 1000, "NITER": 3}),
    (("programs/fft2d_dp/fft2d_dp.f",), {"N": 64, "NITER": 2}),
    (("programs/fft2d_tp/fft2d_tp.f",), {"N": 64, "NITER": 2}),
    (("programs/mpi_jacobi/jacobi_mpi.f",), {"N": 4096}),
    (("validation/multifile/main.f", "validation/multifile/exch.f",
      "validation/multifile/clock.f"), {}),
] + [((f"validation/{name}",), {}) for name in (
    "allreduce.f", "bcast.f", "bcast_root0.f", "bcast_rootlast.f", "burst.f", "collect.f",
    "halo1d.f", "halo2d.f", "mworker.f", "mworker_dyn.f", "overlap.f", "pingpong.f",
    "pipeline.f", "reduce_root0.f", "reduce_rootlast.f", "ring.f", "selfsend.f")]


@lru_cache(maxsize=None)
def _program(files: tuple[str, ...]) -> api.Program:
    return api.Program.load([str(ROOT / f) for f in files])


def _outcome(files, inputs, nprocs: int, exact: bool):
    """The prediction's number and per-process finishes, or the refusal's message."""
    try:
        pred = api.predict(_program(files), "cluster", nprocs, inputs=inputs, exact=exact)
    except InterpError as err:
        return str(err)
    finish = [float(pred.evaluate(p.finish)) for p in pred.processes if p.finish is not None]
    return pred.seconds, finish, [str(n) for n in pred.notes]


def _close(a: float, b: float) -> bool:
    return abs(a - b) <= 1e-9 * max(abs(a), abs(b), 1e-300)


@pytest.mark.parametrize("nprocs", [4, 16, 64])
@pytest.mark.parametrize("files,inputs", PROGRAMS, ids=[p[0][0] for p in PROGRAMS])
def test_fast_path_equals_exact_mode(files, inputs, nprocs):
    fast = _outcome(files, inputs, nprocs, exact=False)
    exact = _outcome(files, inputs, nprocs, exact=True)
    if isinstance(exact, str):
        assert fast == exact
        return
    assert not isinstance(fast, str), fast
    assert _close(fast[0], exact[0])
    assert len(fast[1]) == len(exact[1])
    assert all(_close(a, b) for a, b in zip(fast[1], exact[1]))
    assert fast[2] == exact[2]
