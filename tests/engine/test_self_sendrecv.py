"""An MPI_SENDRECV to and from the calling rank itself (``cs.spec.self_sendrecv``):
``message`` (the default) prices it as its send to self, ``copy`` (SMPI's Request::sendrecv,
which ``interp validate`` predicts with) copies the buffer, no message, no time; the values
are followed either way. A periodic Cartesian grid with a dimension of extent 1 makes them
(MPI_DIMS_CREATE(2, 2) = (2, 1)): cart2d.f of the unseen programs was +90% against SMPI at
P = 2 on the iPSC/860, shiftsr.f +54% (docs/validation.md, "Messages to self").

sendrecv_self.f, P = 2, iPSC/860 (Table 3), computation off: 8000 B to self costs 175 us
startup + 8000 · 0.36 = 2880 us on the node's own loopback (0 hops), receive 0; then rank 0
sends rank 1 300 doubles (B(1) = 3, copied from A): 175 + 2400 · 0.36 + 33 = 1072 us."""

from __future__ import annotations

import pytest

from interp.system import load_machine
from interp.system.filter import self_sendrecv
from interp.system.simgrid import simgrid_channel, simgrid_semantics, zero_computation

from .helpers import REL, program, rows_by_pid, run

SELF = 175 + 8000 * 0.36  # 3055 us
LAST = 175 + 2400 * 0.36 + 33  # 1072 us


@pytest.mark.parametrize("mode,before", [("message", 10 * SELF), ("copy", 0.0)])
@pytest.mark.parametrize("exact", [False, True])
def test_sendrecv_to_self(mode, before, exact):
    """message: ten of 3055 us, then the 1072 us message: rank 1 ends at 31,622 us, rank 0 at
    30,550 + 175. copy: no time: rank 1 at 1072, rank 0 at 175 (before, it priced them as
    messages whatever the spec said: SMPI gives 0 for the ten)."""
    machine = zero_computation(simgrid_channel(load_machine("ipsc860")))
    if mode != "message":
        machine = machine.with_values({"node.cs.spec.self_sendrecv": mode})
    rows = rows_by_pid(run(program("sendrecv_self.f"), 2, machine=machine, exact=exact))
    ends = {pid: float(r["finish"]) * 1e6 for pid, r in rows.items()}
    assert ends == pytest.approx({0: before + 175, 1: before + LAST}, rel=REL)


def test_validate_copies():
    assert self_sendrecv(simgrid_semantics(load_machine("ipsc860"))[0]) == "copy"
