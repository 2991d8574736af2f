"""AAU classification (core paper Table 4), sub-AAGs, Call AAUs and clustering granularity."""

from __future__ import annotations

import pytest

from interp.application import aau as A
from interp.application.aag import build_aag
from interp.errors import InterpError, SourceLocation

from .helpers import body, shape

ALL13 = """
    PROGRAM P
    INTEGER ME, I, N
    DOUBLE PRECISION X, WORK(1)
    ME = MYNODE()
    CALL LOAD('node', -1, 0)
    CALL CSEND(1, X, 8, 0, 0)
    CALL GSYNC()
    CALL GDSUM(X, 1, WORK)
    DO 10 I = 1, N
      X = X + 1
    10 CONTINUE
    DO 20 I = 1, N
      CALL CRECV(1, X, 8)
    20 CONTINUE
    DO WHILE (X .LT. 5)
      X = X + 1
    END DO
    IF (ME .EQ. 0) X = 0
    IF (ME .EQ. 0) CALL GSYNC()
    CALL WORKER(X)
    STOP
    END
    SUBROUTINE WORKER(Y)
    DOUBLE PRECISION Y
    IDS = ISEND(2, Y, 8, 1, 0)
    CALL MSGWAIT(IDS)
    RETURN
    END
"""


def test_all_13_aau_types_with_their_names(aag_of):
    aag = aag_of(ALL13)
    assert shape(aag.units["P"].aaus) == [
        "Start",
        "Seq",                      # ME = MYNODE()
        "Spawn",                    # LOAD
        "Comm",                     # CSEND
        "Sync",                     # GSYNC
        "SyncSeq",                  # GDSUM
        ("IterD", ["Seq"]),         # no communication in the body
        ("IterSync", ["Comm"]),     # CRECV in the body
        ("IterND", ["Seq"]),        # DO WHILE
        ("CondtD", [["Seq"]]),
        ("CondtSync", [["Sync"]]),
        "Call",
        "End",                      # STOP
        "End",                      # END
    ]
    assert {a.type for a in aag.all_aaus()} == set(A.AAU_TYPES)
    assert len(A.AAU_TYPES) == 13
    assert [a.kind for a in aag.units["P"].aaus if a.type == "End"] == ["stop", "end"]
    assert [a.kind for a in aag.units["WORKER"].aaus if a.type == "End"] == ["return", "end"]


def test_simple_and_compound(aag_of):
    aag = aag_of(ALL13)
    compound = {a.type for a in aag.all_aaus() if a.COMPOUND}
    assert compound == {"IterD", "IterSync", "IterND", "CondtD", "CondtSync", "Call"}


def test_aau_source_spans(aag_of):
    aag = aag_of(ALL13)
    by_type = {}
    for a in aag.units["P"].aaus:
        by_type.setdefault(a.type, a)
    # DO 10 on line 9 ... 10 CONTINUE on line 11; DO WHILE lines 15-17
    assert (by_type["IterD"].loc.line, by_type["IterD"].end_line) == (9, 11)
    assert (by_type["IterND"].loc.line, by_type["IterND"].end_line) == (15, 17)
    assert (by_type["Spawn"].loc.line, by_type["Spawn"].end_line) == (5, 5)
    assert all(a.unit == "P" for a in aag.units["P"].walk())


def test_library_aau_parameters(aag_of):
    aag = aag_of(ALL13)
    by_type = {a.type: a for a in aag.all_aaus()}
    assert by_type["Spawn"].program == "node"
    send = next(a for a in aag.units["P"].aaus if a.type == "Comm")
    assert send.params()["args"] == {"type": "1", "buf": "X", "size": "8", "dest": "0", "pid": "0"}
    assert send.synchronous
    isend, wait = [a for a in aag.units["WORKER"].aaus if a.type == "Comm"]
    assert (isend.call.op, isend.synchronous, isend.result) == ("send", False, "IDS")
    assert wait.call.op == "wait"
    assert by_type["SyncSeq"].params()["reduce"] == "sum"


def test_call_aau_carries_the_callees_sub_aag(aag_of):
    aag = aag_of(ALL13)
    call = next(a for a in aag.units["P"].aaus if a.type == "Call")
    assert call.callee == "WORKER" and call.callee_body is aag.units["WORKER"].aaus
    assert call.callee_has_sync and call.has_sync()
    assert call.params()["callee_aaus"] == [a.id for a in aag.units["WORKER"].aaus]
    assert aag.graph.edges[call.id, aag.units["WORKER"].aaus[0].id]["kind"] == "call"


def test_loop_calling_a_communicating_subroutine_is_itersync(aag_of):
    aag = aag_of("""
        PROGRAM P
        DO 10 I = 1, 4
          CALL OUTER(X)
        10 CONTINUE
        DO 20 I = 1, 4
          CALL QUIET(X)
        20 CONTINUE
        IF (X .GT. 0) CALL OUTER(X)
        END
        SUBROUTINE OUTER(Y)
        CALL INNER(Y)
        END
        SUBROUTINE INNER(Y)
        CALL CSEND(1, Y, 4, 0, 0)
        END
        SUBROUTINE QUIET(Y)
        Y = Y + 1
        END
    """)
    # OUTER only calls INNER, which sends: the loop is synchronized through two calls
    assert shape(body(aag, "P")) == [("IterSync", ["Call"]), ("IterD", ["Call"]),
                                     ("CondtSync", [["Call"]])]


def test_call_of_an_unknown_external_routine_is_sequential(aag_of):
    (seq,) = body(aag_of("""
        PROGRAM P
        CALL FOREIGN(X, 2)
        END
    """))
    assert seq.type == "Seq"
    assert seq.ops.to_json() == dict(calls=1, call_args=2, library={"default": 1})


def test_recursion_is_a_clear_error(fixed):
    path = fixed("""
        PROGRAM P
        CALL A
        END
        SUBROUTINE A
        CALL B
        END
        SUBROUTINE B
        CALL A
        END
    """)
    with pytest.raises(InterpError) as exc:
        build_aag([path])
    assert exc.value.message == "recursive calls are not supported: A -> B -> A"
    assert exc.value.location == SourceLocation(str(path), 5, 7, 5)
    assert "recursion" in exc.value.hint


def test_self_recursion_through_a_function_reference(fixed):
    path = fixed("""
        INTEGER FUNCTION F(N)
        F = 1
        IF (N .GT. 1) F = G(N)
        END
        INTEGER FUNCTION G(N)
        G = N * F(N - 1)
        END
    """)
    with pytest.raises(InterpError, match="recursive calls are not supported: (F -> G -> F|G -> F -> G)"):
        build_aag([path])


def test_communication_inside_an_expression_is_rejected(fixed):
    path = fixed("""
        PROGRAM P
        X = 1 + IRECV(1, Y, 4)
        END
    """)
    with pytest.raises(InterpError) as exc:
        build_aag([path])
    assert exc.value.message == "IRECV must be called on its own, not inside an expression"
    assert exc.value.location == SourceLocation(str(path), 2, 15, 2)


def test_asynchronous_receive_result_is_a_comm(aag_of):
    (cond,) = body(aag_of("""
        PROGRAM P
        IF (ME .GT. 0) IDR = IRECV(40, U, 8)
        END
    """))
    assert cond.type == "CondtSync"
    (recv,) = cond.branches[0].body
    assert (recv.type, recv.result, recv.synchronous) == ("Comm", "IDR", False)


@pytest.mark.parametrize("bounds, message, column", [
    # "DO 10 I = 1, N .LT. 3" from column 7: the bound starts at character 14 → column 20
    ("1, N .LT. 3", "the loop bound (N .LT. 3) is LOGICAL, not a number", 20),
    ("1, 'A'", "the loop bound 'A' is CHARACTER, not a number", 20),
    ("1, N, .TRUE.", "the loop step .TRUE. is LOGICAL, not a number", 23),
    ("1, 10, 2-2", "the loop step is zero", 24),
])
def test_bad_loop_bounds_are_clear_errors(fixed, bounds, message, column):
    path = fixed(f"""
        PROGRAM P
        DO 10 I = {bounds}
        10 CONTINUE
        END
    """)
    with pytest.raises(InterpError) as exc:
        build_aag([path])
    assert exc.value.message == message
    assert exc.value.location == SourceLocation(str(path), 2, column, 2)


def test_logical_value_inside_a_numeric_bound_leaves_the_count_unknown(aag_of):
    (loop,) = body(aag_of("""
        PROGRAM P
        DO 10 I = 1, MIN(2, N .GT. 1)
        10 CONTINUE
        END
    """))
    assert loop.type == "IterND" and loop.num_iters is None
    assert "MIN(2, (N .GT. 1)) mixes logical and numeric values" in loop.nd_reason


# ---- granularity -----------------------------------------------------------------------------

CLUSTER = """
    PROGRAM P
    X = 1.0
    Y = X + 1.0
    Z = Y * X
    CALL CSEND(1, Z, 4, 0, 0)
    A = Z
    B = A
    END
"""


def test_largest_clusters_contiguous_sequential_statements(aag_of):
    seqs = [a for a in body(aag_of(CLUSTER)) if a.type == "Seq"]
    assert [len(s.stmts) for s in seqs] == [3, 2]
    assert [(s.loc.line, s.end_line) for s in seqs] == [(2, 4), (6, 7)]


def test_statement_granularity_gives_one_seq_per_statement(aag_of):
    aags = body(aag_of(CLUSTER, granularity="statement"))
    assert [a.type for a in aags] == ["Seq", "Seq", "Seq", "Comm", "Seq", "Seq"]
    assert all(len(a.stmts) == 1 for a in aags if a.type == "Seq")
    assert [a.loc.line for a in aags] == [2, 3, 4, 5, 6, 7]


def test_statement_granularity_applies_inside_compound_aaus(aag_of):
    (loop,) = body(aag_of("""
        PROGRAM P
        DO 10 I = 1, 3
          X = X + 1
          Y = Y + 1
        10 CONTINUE
        END
    """, granularity="statement"))
    assert [(a.type, a.loc.line) for a in loop.children] == [("Seq", 3), ("Seq", 4), ("Seq", 5)]


def test_unknown_granularity(fixed):
    with pytest.raises(InterpError, match="unknown granularity 'fine'"):
        build_aag([fixed(CLUSTER)], "fine")


def test_no_files():
    with pytest.raises(InterpError, match="no source files given"):
        build_aag([])


def test_execution_order_edges(aag_of):
    aag = aag_of("""
        PROGRAM P
        DO 10 I = 1, 3
          X = X + 1
        10 CONTINUE
        IF (X .GT. 1) Y = 2
        END
    """)
    start, loop, cond, end = aag.units["P"].aaus
    kinds = {(x, y): d["kind"] for x, y, d in aag.graph.edges(data=True)}
    assert kinds == {
        (start.id, loop.id): "next", (loop.id, cond.id): "next", (cond.id, end.id): "next",
        (loop.id, loop.children[0].id): "body", (cond.id, cond.branches[0].body[0].id): "branch",
    }
