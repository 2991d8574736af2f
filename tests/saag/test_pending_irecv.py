"""An NX/2 IRECV that no message ever reaches is unmatched, at the IRECV. check said "ok": a
pending MPI request was reported (unwaited), an NX/2 message id never, so a receive posted
for a type no node sends went unnoticed. An NX/2 message id need not be waited on: an IRECV
its message reaches is fine without MSGWAIT."""

from __future__ import annotations

from .helpers import loc, problems, prog, saag


def test_an_irecv_no_message_reaches_is_unmatched_at_the_irecv():
    f = prog("pending_irecv.f")
    found = problems(saag(f, 2))
    assert [(p["kind"], p["locations"]) for p in found] == [("unmatched", [loc(f, 5, 10)])]
    assert "node 1" in found[0]["message"] and "IRECV (type 3)" in found[0]["message"]


def test_an_irecv_its_message_reaches_needs_no_msgwait():
    assert problems(saag(prog("irecv_unwaited_ok.f"), 2)) == []
