"""Every sample in programs/ checks clean (``interp check`` exits 0 and says ok) for a few P,
and the trapezoid host + node programs of the paper's Section 4 for P = 1 … 16."""

from __future__ import annotations

import pytest

from .helpers import aau_at, cli, edges, problems, saag

HOST, NODE = "programs/trapezoid/host.f", "programs/trapezoid/node.f"
TRAP = (HOST, NODE)
SETS = ("--set", "N=1000", "--set", "NITER=3")

SAMPLES = [
    (("programs/ring/ring.f",), (), [1, 2, 4, 16]),
    (("programs/pingpong/pingpong.f",), (), [1, 2, 4]),
    (("programs/pipeline/pipeline.f",), (), [1, 2, 4, 16]),
    (("programs/reduction/reduction.f",), (), [1, 2, 4, 16]),
    (("programs/halo/halo.f",), (), [1, 2, 4]),
    (("programs/mpi_ring/ring_mpi.f",), (), [1, 2, 4, 16]),
    (("programs/mpi_trapezoid/trap_mpi.f",), SETS, [1, 2, 4, 16]),
    (TRAP, SETS, [1, 2, 4, 8, 16]),
]
CASES = [pytest.param(files, sets, p, id=f"{files[-1].split('/')[-1]}-P{p}")
         for files, sets, ps in SAMPLES for p in ps]


def _check_clean(files, nprocs, *extra):
    result = cli("check", *files, "-P", nprocs, *extra)
    assert result.exception is None or isinstance(result.exception, SystemExit), \
        repr(result.exception)
    assert result.exit_code == 0, result.output
    assert result.stdout.startswith(f"ok: {', '.join(files)} on P = {nprocs}:"), result.output


@pytest.mark.parametrize("files, sets, nprocs", CASES)
def test_sample_checks_clean(files, sets, nprocs):
    _check_clean(files, nprocs, *sets)


@pytest.mark.parametrize("nprocs", [1, 4])
def test_trapezoid_checks_clean_without_inputs(nprocs):
    """N and NITER stay symbols: matching does not need their values."""
    _check_clean(TRAP, nprocs)


@pytest.mark.parametrize("nprocs", [1, 2, 4, 8, 16])
def test_trapezoid_edges(nprocs):
    """The host's two broadcasts reach every node's crecv (directly or relayed), the gdsum
    synchronizes every node, and node 0 returns the result to the host, NITER = 3 times."""
    s = saag(TRAP, nprocs, N=1000, NITER=3)
    assert problems(s) == []
    bc5, bc10, rcv20 = (aau_at(TRAP, HOST, n) for n in (35, 41, 42))
    rcv5, rcv10, gdsum, snd20 = (aau_at(TRAP, NODE, n) for n in (28, 31, 53, 55))
    es = edges(s)
    for send, recv, size, tag, count in ((bc5, rcv5, "4", 5, 1), (bc10, rcv10, "24", 10, 3)):
        got = [e for e in es if e["src_aau"] == send]
        assert sorted(e["dst"] for e in got) == sorted(f"node {k}" for k in range(nprocs))
        for e in got:
            assert e["src"] == "host" or e["src"].endswith("(relaying for host)"), e
            assert (e["dst_aau"], e["size"], e["tag"], e["kind"], e["count"]) == \
                (recv, size, tag, "sync", count), e
    back = [e for e in es if e["dst"] == "host"]
    assert [(e["src"], e["src_aau"], e["dst_aau"], e["size"], e["tag"], e["count"])
            for e in back] == [("node 0", snd20, rcv20, "8", 20, 3)]
    coll = [e for e in es if e["kind"] == "collective"]
    assert {(e["src_aau"], e["dst_aau"]) for e in coll} <= {(gdsum, gdsum)}
    assert {e["src"] for e in coll} == ({f"node {k}" for k in range(nprocs)} if nprocs > 1
                                        else set())
    assert len(es) == len(coll) + 2 * nprocs + 1
