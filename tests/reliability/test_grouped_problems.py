"""``check`` groups: a deadlock of 16 nodes blocked at one CRECV names the place once (it
repeated ``see deadlock_node.f:6:7`` 15 times); a send unmatched in each of 5
iterations is one line, "(5 times)"."""

from __future__ import annotations

from .helpers import fortran, invoke


def test_a_deadlock_of_sixteen_nodes_at_one_line(tmp_path):
    path = fortran(tmp_path, """
        PROGRAM DL
        INTEGER ME, MYNODE, NUMNODES, P
        REAL X
        ME = MYNODE()
        P = NUMNODES()
        CALL CRECV(1, X, 4)
        CALL CSEND(1, X, 4, MOD(ME+1, P), 0)
        END
    """, "deadlock_node.f")
    result = invoke("check", path, "-P", "16")
    assert result.exit_code == 1, result.output
    lines = result.stdout.strip().splitlines()
    assert len(lines) == 2, result.stdout  # the deadlock, and the count
    assert lines[0].startswith(f"{path}:6:7: deadlock:")
    assert "see" not in result.stdout  # the one place is the line's own
    # the cycle names the line once for the 16 nodes waiting there (it was 16 copies)
    assert lines[0].count("deadlock_node.f:6:7") == 2  # the line's own place, and the run's
    assert "node 0 .. node 15 (16 processes) each wait in CRECV" in lines[0]
    assert lines[0].endswith("each for the next -> node 0")


def test_a_deadlock_cycle_of_two_different_places_names_both(tmp_path):
    # even nodes wait in CRECV type 1, odd ones in CRECV type 2: runs of one, each named
    path = fortran(tmp_path, """
        PROGRAM DL
        INTEGER ME, MYNODE
        REAL X
        ME = MYNODE()
        IF (ME .EQ. 0) CALL CRECV(1, X, 4)
        IF (ME .EQ. 1) CALL CRECV(2, X, 4)
        CALL CSEND(1 + ME, X, 4, 1 - ME, 0)
        END
    """)
    result = invoke("check", path, "-P", "2")
    assert result.exit_code == 1, result.output
    first = result.stdout.splitlines()[0]
    assert "node 0 waits in CRECV (from any node, type 1)" in first, first
    assert "-> node 1 waits in CRECV (from any node, type 2)" in first, first


def test_an_unmatched_send_in_every_iteration(tmp_path):
    path = fortran(tmp_path, """
        PROGRAM UM
        INTEGER ME, MYNODE, I
        REAL X
        ME = MYNODE()
        DO 10 I = 1, 5
        IF (ME .EQ. 0) CALL CSEND(1, X, 4, 1, 0)
        10 CONTINUE
        END
    """)
    result = invoke("check", path, "-P", "2")
    assert result.exit_code == 1, result.output
    lines = result.stdout.strip().splitlines()
    assert len(lines) == 2, result.stdout
    assert lines[0].endswith("but no receive ever takes it (5 times)")
    assert lines[1] == "1 problem(s) found on P = 2 (5 occurrences)"
