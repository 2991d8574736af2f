"""A message goes to the first posted receive that matches it: an earlier receive with no
message yet does not hold back a later one (NPB MG's comm3 posts two MPI_IRECVs by tag and
sends the second tag first; above the eager threshold that was reported as a deadlock)."""

from __future__ import annotations

import pytest

from interp.system import load_machine

from .helpers import program, run

CLUSTER_PER_BYTE = 0.08e-9  # cluster.yaml cs.dynamic.per_byte at load 0: 0.08 ns / (1 - 0)
EAGER = 65536  # cluster.yaml cs.spec.eager_threshold: 64 KiB


@pytest.mark.parametrize("p", [1, 2, 3])
def test_sends_in_the_other_order_than_the_receives_do_not_hang(deadline, p):
    cluster = load_machine("cluster")
    # N = 9000 and 18000 words: 72000 and 144000 bytes, both above the 64 KiB threshold
    assert 9000 * 8 > EAGER
    with deadline(30):
        t1 = run(program("irecvorder.f"), p, {"N": 9000}, machine=cluster).seconds
        t2 = run(program("irecvorder.f"), p, {"N": 18000}, machine=cluster).seconds
    # each rank's two MPI_SENDs are rendezvous, one after the other, each blocking until its
    # data has arrived: 9000 more words add 2 × 72000 B × 0.08 ns/B = 11.52 us
    assert float(t2 - t1) == pytest.approx(2 * 72000 * CLUSTER_PER_BYTE, rel=1e-9)
