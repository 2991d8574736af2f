"""MPI_BCAST among point-to-point messages under ``channel: fair`` (``validation/probes/
treebc.f``): ranks broadcast by hand down a binomial tree with MPI_SEND/MPI_RECV and call
MPI_BCAST in the same loop. It was −16.5% against SMPI at P = 4 (NITER = 2, 160,000 B), −25%
at 8 and −19% to −49% for longer loops: the broadcast was priced as one batch when its last
member entered (rank 3, after its point-to-point message), its flows taking only what the
point-to-point messages received by then had left, and fixed before the later ones; so rank 0's
messages of the two kinds did not share its links both ways, as SMPI's (its MPI_BCAST is
point-to-point messages) do. Under ``fair`` an MPI_BCAST is now the tree's messages, each
member receiving from its parent and sending to its children as it gets there.

Hand-worked at P = 4, NITER = 2, NW = 20,000 doubles (160,000 B) on the iPSC/860, computation
off (Table 3, dynamic buffers: startup 175 us, 0.36 us/B: 57,600 us on the wire, 33 us a hop;
MPI sends eager, the sender free after its startup, the bytes leaving 175 + 33 = 208 us after
it calls). Rank 0 calls, 175 us apart: to 1, to 2 (the sends), to 2, to 1 (SMPI's binomial
MPI_BCAST: the farthest child first), then the same again. Rank 0 → 1 departures 0, 525, 700,
1,225 us; rank 0 → 2: 175, 350, 875, 1,050 us. Every flow on a link gets an equal share
(max-min; one hop each), so the four on a link end in the order they started.

* Link 0 → 1, from 208 us: by the fourth's start (1,225 later) the first has 525 + 175/2 +
  525/3 = 787.5 us of its bytes through, the third 175; then four share: the first ends
  1,225 + 4·(57,600 − 787.5) = 228,475 after 208, the second 1,575 later, the third
  (612.5 − 525 = 87.5 left, two sharing) 175 later: at 208 + 230,225 = 230,433 us.
  Rank 1 forwards (the sends' tree: 1 → 3) the first at 228,683 and the third at 230,433:
  their bytes leave at 228,891 and 230,641 on link 1 → 3: the first alone 1,750, then both
  share: the second ends at 228,891 + 2·57,600 = 344,091 us.
* Link 0 → 2, from 383 us: offsets 0, 175, 700, 875; by 875 the first has 175 + 525/2 + 175/3
  = 495.83 us through, the second 262.5 + 58.33 = 320.83, the third 58.33: the first ends
  875 + 4·(57,600 − 495.83) = 229,291.67 after 383, the second (175 left, three sharing) 525
  later: 229,816.67; the fourth last, at 230,400: at 230,783 us. Rank 2 relays the
  broadcasts (2 → 3): the second flow (received at 230,199.67 us) and the fourth (230,783):
  bytes leaving at 230,407.67 and 230,991; the second of them ends at 230,407.67 + 2·57,600 =
  345,607.67 us, rank 3's last message: the time.
"""

from __future__ import annotations

import pytest
import sympy as sp

from interp.analysis import validate as V
from interp.application.aag import build_aag
from interp.engine.predict import predict
from interp.system import load_machine
from interp.system.simgrid import simgrid_semantics, zero_computation

from .conftest import VALIDATION

PROGRAM = VALIDATION / "probes" / "treebc.f"
WIRE, LEAVE = 57_600.0, 175.0 + 33.0  # us: 160,000 B at 0.36 us/B; startup + one hop


def _expected_us() -> float:
    lead = 525 + 175 / 2 + 525 / 3  # link 0 -> 1: the first flow's bytes through at 1,225
    first = LEAVE + 1225 + 4 * (WIRE - lead)
    assert first == pytest.approx(228_683.0)
    third = LEAVE + 230_225  # the first, then 1,575, then 175 later (worked above)
    # link 1 -> 3: the forwards leave at first + LEAVE and third + LEAVE, the link busy
    # from the first's start until both are through
    p2p_last = first + LEAVE + 2 * WIRE
    assert p2p_last == pytest.approx(344_091.0)
    assert third + LEAVE > first + LEAVE and third + LEAVE < first + LEAVE + WIRE
    # link 0 -> 2 from 383: the second flow ends 229,816.67 after it; rank 2 relays it
    second = 175 + LEAVE + 875 + 4 * (WIRE - (175 + 525 / 2 + 175 / 3)) + 3 * 175
    assert second == pytest.approx(230_199.67, abs=0.01)
    bcast_last = second + LEAVE + 2 * WIRE
    return max(p2p_last, bcast_last)


def _validate_semantics(name: str):
    return zero_computation(simgrid_semantics(load_machine(name))[0])


@pytest.mark.parametrize("exact", [False, True])
def test_interp_hand_worked_at_p4(exact):
    """The classes' path (each member its own part of the tree) and the exact one alike."""
    expected = _expected_us()
    assert expected == pytest.approx(345_607.67, abs=0.01)
    pred = predict(build_aag([str(PROGRAM)]), _validate_semantics("ipsc860"), 4, {},
                   exact=exact)
    assert float(pred.seconds) * 1e6 == pytest.approx(expected, rel=1e-9)


@pytest.mark.parametrize("machine", ["ipsc860", "cluster"])
def test_the_classes_give_the_exact_modes_time_at_p16(machine):
    aag = build_aag([str(PROGRAM)])
    fast = predict(aag, _validate_semantics(machine), 16, {})
    exact = predict(aag, _validate_semantics(machine), 16, {}, exact=True)
    assert float(fast.seconds) == pytest.approx(float(exact.seconds), rel=1e-12)


@pytest.mark.parametrize("order", [1, 2])
@pytest.mark.parametrize("niter, nw", [(2, 20_000), (10, 1000), (10, 16)])
def test_smpi_agrees(smpi, tmp_path, order, niter, nw):
    """Sends then MPI_BCAST (ORDER = 1) and MPI_BCAST then sends (2), large and small
    messages, P = 4, 8, 16: within 0.01% of SMPI (they were up to −49% apart)."""
    given = {"ORDER": sp.Integer(order), "NITER": sp.Integer(niter), "NW": sp.Integer(nw)}
    rows = V.validate([str(PROGRAM)], [4, 8, 16], load_machine("ipsc860"),
                      workdir=tmp_path, given=given)
    for row in rows:
        assert row.error == pytest.approx(0.0, abs=1e-4), (row.nprocs, row.smpi, row.interp)
