"""A static buffer taken by a message is freed when an asynchronous receive (MPI_IRECV,
irecv) takes the message, not only a blocking one (core paper §3.4.2: about 1000 static
buffers of 100 bytes a node on the iPSC/860; a small synchronous send waits only while all of
them hold messages not yet received).

Before the fix a message taken by an MPI_IRECV held its buffer for ever: after 1000 of them
every later small MPI_SEND to that rank waited for ever, and `check` reported a deadlock that
the program does not have (NPB CG, class S, P = 8, at cg.f:1274)."""

from __future__ import annotations

from pytest import approx

from interp import api

from .helpers import PROGRAMS, rows_by_pid

STARTUP, PER_BYTE, PER_HOP = 70e-6, 0.42e-6, 11e-6  # Table 3, static buffers (≤ 100 B)


def test_a_thousand_and_more_messages_taken_by_irecv_do_not_hang():
    s = api.saag(str(PROGRAMS / "irecv_many.f"), "ipsc860", 2)
    assert s.problems == []


def test_the_buffer_is_free_when_the_irecv_has_taken_its_message():
    """One static buffer (what-if): rank 0's second 8-byte MPI_SEND waits until the first
    message is out of the buffer. Rank 1 posted its MPI_IRECV long before, so that is the
    first message's arrival, a static message later: 70 + 8·0.42 + 1 hop·11 = 84.36 us after
    it left. The second send was called when the first one's call ended, 70 us after the
    first left: it waits 84.36 − 70 = 14.36 us."""
    pred = api.predict(str(PROGRAMS / "irecv_buffers.f"), "ipsc860", 2,
                       what_if=["node.cs.spec.static_buffers = 1"])
    arrival = STARTUP + 8 * PER_BYTE + 1 * PER_HOP
    assert arrival == approx(84.36e-6)
    assert rows_by_pid(pred)[0]["waiting"] == approx(arrival - STARTUP)  # 14.36 us
