"""The 2-D FFT programs of the lost-cycles case study (programs/fft2d_dp, programs/fft2d_tp):
they parse, and at a small size their messages, their butterflies and their lost cycles are
counted by hand. N = 32, P = 4 on the cluster spec."""

from __future__ import annotations

import pytest
from pytest import approx

from interp import api
from interp.analysis.lostcycles import PARTS
from interp.system import load_machine

from .helpers import SAMPLES

DP = [str(SAMPLES / "fft2d_dp" / "fft2d_dp.f")]
TP = [str(SAMPLES / "fft2d_tp" / "fft2d_tp.f")]
N, P = 32, 4
LOGN = 5  # 2**5 = 32
DOUBLE_COMPLEX = 16  # bytes


def _edges(files, niter: int) -> list[dict]:
    built = api.saag(files, "cluster", P, {"N": N, "NITER": niter})
    assert built.problems == []
    return [e.to_json() for e in built.edges]


def test_dp_alltoall_blocks_hand_counted():
    """NB = N/P = 8 columns per rank; the block for each other rank is NB·NB = 64 double
    complex = 64·16 = 1024 B. The ring takes P − 1 = 3 rounds, so each rank sends to each of
    the 3 others once per transform: 12 edges of 1024 B, each NITER = 2 times; per rank
    3·2 = 6 messages, 6144 B. The inputs: two binomial broadcasts of one INTEGER (4 B) from
    rank 0 (0→2, then 0→1 and 2→3); the checksum: one binomial reduce of 8 B (1→0 and 3→2,
    then 2→0)."""
    nb = N // P
    block = nb * nb * DOUBLE_COMPLEX
    assert block == 1024
    edges = _edges(DP, niter=2)
    a2a = [e for e in edges if e["size"] == str(block)]
    assert sorted((e["src"], e["dst"]) for e in a2a) == sorted(
        (f"rank {s}", f"rank {d}") for s in range(P) for d in range(P) if s != d)
    assert {e["count"] for e in a2a} == {2}
    for r in range(P):
        assert sum(e["count"] * int(e["size"]) for e in a2a if e["src"] == f"rank {r}") == 6144
    bcast = [(e["src"], e["dst"]) for e in edges if e["pattern"] == "broadcast"]
    assert bcast == [("rank 0", "rank 2"), ("rank 0", "rank 1"), ("rank 2", "rank 3")] * 2
    assert sorted((e["src"], e["dst"]) for e in edges if e["size"] == "8") == [
        ("rank 1", "rank 0"), ("rank 2", "rank 0"), ("rank 3", "rank 2")]
    assert len(edges) == 6 + 12 + 3


def test_tp_blocks_and_credits_hand_counted():
    """NH = P/2 = 2 ranks per group, NB = N/NH = 16: group 1's rank G (0, 1) sends each rank
    of group 2 (2, 3) one block of NB·NB = 256 double complex = 4096 B per matrix, NITER = 3
    times; group 2's rank H sends rank H − NH a credit (one double complex, 16 B) after each
    matrix but the last: NITER − 1 = 2 times."""
    nb = N // (P // 2)
    block = nb * nb * DOUBLE_COMPLEX
    assert block == 4096
    p2p = [e for e in _edges(TP, niter=3) if e["pattern"] == "point-to-point"]
    blocks = sorted((e["src"], e["dst"], e["count"]) for e in p2p if e["size"] == str(block))
    assert blocks == [("rank 0", "rank 2", 3), ("rank 0", "rank 3", 3),
                      ("rank 1", "rank 2", 3), ("rank 1", "rank 3", 3)]
    credits = sorted((e["src"], e["dst"], e["count"]) for e in p2p if e["size"] == "16")
    assert credits == [("rank 2", "rank 0", 2), ("rank 3", "rank 1", 2)]
    assert len(p2p) == 6


def _butterflies(pred) -> float:
    """Executions of the butterfly (the Seq at `V = W(K*NG)*T(L+M)`), over all processes."""
    (row,) = [r for r in pred.aau_rows() if r["type"] == "Seq" and r["line"] <= _line(
        "V = W(K*NG)*T(L+M)") <= r["end_line"]]
    return float(row["count"])


def _line(text: str) -> int:
    lines = (SAMPLES / "fft2d_dp" / "fft2d_dp.f").read_text().splitlines()
    (i,) = [k for k, ln in enumerate(lines) if text in ln]
    return i + 1


def test_dp_butterflies_hand_counted():
    """One FFT of length N = 32: LOGN = 5 stages of N/2 = 16 butterflies, 80. Each rank
    transforms its NB = 8 columns and its 8 rows per matrix, 16 FFTs; NITER = 2 matrices on
    P = 4 ranks: 4·2·16·80 = 10240 butterflies, as many as one rank would do alone."""
    pred = api.predict(DP, "cluster", P, {"N": N, "NITER": 2}, symbolic=False)
    assert _butterflies(pred) == 4 * 2 * 16 * (LOGN * N // 2) == 10240
    alone = api.predict(DP, "cluster", 1, {"N": N, "NITER": 2}, symbolic=False)
    assert _butterflies(alone) == 2 * 2 * N * (LOGN * N // 2) == 10240


def test_one_rank_alltoall_sends_nothing():
    """On one rank MPI_ALLTOALL has no message to send: the run is all computation (the
    pricing of a collective's messages on shared links used to fail on an empty round list)."""
    pred = api.predict(DP, "cluster", 1, {"N": N, "NITER": 2}, symbolic=False)
    (row,) = pred.process_rows()
    assert float(row["transmission"]) == 0.0 and float(row["waiting"]) == 0.0
    assert pred.seconds == approx(float(row["computation"]), rel=1e-12)


@pytest.mark.parametrize("files", [DP, TP], ids=["dp", "tp"])
@pytest.mark.parametrize("machine", ["cluster", "ipsc860"])
def test_lost_cycles_sum_exactly(files, machine):
    """LI + IP + SL + CL + RC + Remaining = p·T_p, each process's row sums to T_p, and T_p
    is `predict`'s time."""
    inputs = {"N": N, "NITER": 3}
    lc = api.lost_cycles(files, machine, P, inputs)
    whole = lc.breakdown("program")[""]
    assert set(whole) == set(PARTS)
    assert min(whole.values()) >= 0.0
    assert sum(whole.values()) == approx(P * lc.tp, rel=1e-12)
    for row in lc.breakdown("proc").values():
        assert sum(row.values()) == approx(lc.tp, rel=1e-12)
    assert lc.tp == approx(api.predict(files, machine, P, inputs, symbolic=False).seconds,
                           rel=1e-9)


def test_tp_pipeline_waits_are_lost_cycles():
    """fft2d_tp on P = 2 (one rank per group): rank 0 initializes and transforms columns,
    rank 1 transposes and transforms rows, each stage about the same work. With NITER = 3
    matrices the pipeline runs about NITER + 1 = 4 stage times, and each rank computes in 3
    of them: it idles about 1/4 of T_p, rank 1 while the pipeline fills (IP: rank 0 computes
    alone, in AAUs rank 1 does not run) and rank 0 while it drains, in MPI_REDUCE (SL). Not
    exactly 1/4: rank 0's stage also initializes the matrix, rank 1's unpacks it."""
    lc = api.lost_cycles(TP, "cluster", 2, {"N": N, "NITER": 3})
    whole = lc.breakdown("program")[""]
    assert whole["li"] == 0.0  # one rank per group: no two ranks run the same AAU at once
    assert whole["ip"] > 0 and whole["sl"] > 0
    assert (whole["ip"] + whole["sl"]) / lc.total == approx(1 / 4, abs=0.05)


def test_tp_refuses_an_odd_number_of_ranks():
    built = api.saag(TP, load_machine("cluster"), 3, {"N": N, "NITER": 2})
    assert [p.kind for p in built.problems] == ["abort"]


@pytest.mark.parametrize("files", [DP, TP], ids=["dp", "tp"])
def test_no_process_has_a_negative_category(files):
    """fft2d_tp's rank 1 leaves MPI_REDUCE (a leaf: it sends to rank 0 and is done) long before
    group 2 enters it; its wait in the reduce was counted until the last member entered, more
    than it stayed, which left it a transmission of −350 us."""
    pred = api.predict(files, "cluster", P, {"N": N, "NITER": 2}, symbolic=False)
    for row in pred.process_rows():
        for c in ("computation", "call", "transmission", "waiting", "idle"):
            assert float(row[c]) >= 0.0, (row["process"], c, row[c])
