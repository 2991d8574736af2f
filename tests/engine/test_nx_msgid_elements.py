"""NX/2 message ids kept in an array, ``MID(K) = IRECV(...)`` then ``CALL MSGWAIT(MID(K))``
(a fan-in with posted receives): the id is the element's, as MSGWAIT names it. It was the
whole array's name, so check and predict stopped with "node 0 waits on MID(1), which no
isend/irecv started".

P = 4, computation off: nodes 1, 2, 3 send node 0 40 bytes each (a synchronous message of at
most 100 B: Table 3's static buffers), node 3 over 2 hops (e-cube 3 → 2 → 0); the sender is
busy for startup + transmission: 70 + 40·0.42 + 11 = 97.8 us (1 hop), 108.8 us (2 hops). Node
0's posted receives cost nothing; its last MSGWAIT ends when node 3's message is in, 108.8 us.
(Node 3's message shares the link 2 → 0 with node 2's while both are in flight: with
``contention: none`` the numbers are the formula's.)
"""

from __future__ import annotations

import pytest

from interp.system import load_machine
from interp.system.simgrid import zero_computation

from .helpers import REPO, STATIC_PER_BYTE, STATIC_PER_HOP, STATIC_STARTUP, run

SOURCE = """\
      PROGRAM FANIN
      PARAMETER (MAXN = 16)
      INTEGER MID(MAXN), K, ME, NP
      REAL BUF(10), PART(10, MAXN)
      ME = MYNODE()
      NP = NUMNODES()
      IF (ME .EQ. 0) THEN
         DO 10 K = 1, NP - 1
            MID(K) = IRECV(50 + K, PART(1, K), 40)
   10    CONTINUE
         DO 20 K = NP - 1, 1, -1
            CALL MSGWAIT(MID(K))
   20    CONTINUE
      ELSE
         CALL CSEND(50 + ME, BUF, 40, 0, 0)
      END IF
      END
"""


def test_posted_receives_in_an_array_are_waited_for_one_by_one(tmp_path):
    spec = (REPO / "machine_specs" / "ipsc860.yaml").read_text()
    anchor = "              static_buffer_use: synchronous"
    (tmp_path / "nocont.yaml").write_text(spec.replace(anchor, anchor + "\n              contention: none"))
    machine = zero_computation(load_machine(str(tmp_path / "nocont.yaml")))
    path = tmp_path / "fanin.f"
    path.write_text(SOURCE)
    pred = run(str(path), 4, machine=machine)
    one = STATIC_STARTUP + 40 * STATIC_PER_BYTE + STATIC_PER_HOP  # 97.8 us
    finish = {r["pid"]: float(r["finish"]) for r in pred.process_rows()}
    assert finish == pytest.approx({0: one + STATIC_PER_HOP, 1: one, 2: one,
                                    3: one + STATIC_PER_HOP}, rel=1e-9)
    assert one == pytest.approx(97.8e-6)
