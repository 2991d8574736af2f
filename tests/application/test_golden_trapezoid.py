"""Golden AAGs of the paper's benchmark, programs/trapezoid/{node,host}.f.

Every operation count below is worked by hand from the rules in opcount.py's docstring
(f = fetch, s = store, ra/rm/rd = real add/mul/div, ia = int add; PARAMETERs are not fetched,
literals are free, DBLE is Table 1's float(), NINT a library call, NX/2 queries nx operations).
"""

from __future__ import annotations

import sympy as sp

from interp.application.aag import build_aag
from interp.resources import PROGRAMS

from .helpers import shape

NODE = PROGRAMS / "trapezoid" / "node.f"
HOST = PROGRAMS / "trapezoid" / "host.f"

ME, N, NP, NITER = (sp.Symbol(s, integer=True) for s in ("ME", "N", "NP", "NITER"))


def aaus(path):
    (unit,) = build_aag([path]).units.values()
    return unit.aaus


def test_node_structure():
    assert shape(aaus(NODE)) == [
        "Start",
        "Seq",                              # 25-26  ME = MYNODE(); NP = NUMNODES()
        "Comm",                             # 28     CRECV(5, NITER, 4)
        ("IterSync", [                      # 30-56  DO 100 ITER = 1, NITER
            "Comm",                         # 31     CRECV(10, PARAMS, 24)
            "Seq",                          # 32-38  A, B, N, H, SUM = 0
            ("IterD", ["Seq"]),             # 39-42  DO 10 I = ME+1, N-1, NP
            ("CondtD", [["Seq"]]),          # 45-49  IF (ME .EQ. 0) THEN end points
            "Seq",                          # 50     SUM = SUM*H
            "SyncSeq",                      # 53     GDSUM
            ("CondtSync", [["Comm"]]),      # 55     IF (ME .EQ. 0) CALL CSEND(...)
        ]),
        "End",                              # 58     STOP
        "End",                              # 59     END
    ]


def test_node_spans_trip_counts_and_overheads():
    start, seq0, recv0, outer, stop, end = aaus(NODE)
    assert [(a.loc.line, a.end_line) for a in (start, seq0, recv0, outer, stop, end)] == [
        (18, 18), (25, 26), (28, 28), (30, 56), (58, 58), (59, 59)]
    assert (stop.kind, end.kind) == ("stop", "end")

    recv, seq1, inner, cond, seq3, gdsum, send_if = outer.children
    assert [(a.loc.line, a.end_line) for a in outer.children] == [
        (31, 31), (32, 38), (39, 42), (45, 49), (50, 50), (53, 53), (55, 55)]

    # DO 100 ITER = 1, NITER: NITER iterations; bounds cost f NITER
    assert outer.num_iters == sp.Max(0, NITER)
    assert outer.limit_type == "nostep" and outer.bound_ops.to_json() == dict(fetch=1)
    # DO 10 I = ME+1, N-1, NP: MAX(INT((N-1 - (ME+1) + NP) / NP), 0)
    assert sp.simplify(inner.num_iters - sp.Max(0, sp.floor((N - 1 - (ME + 1) + NP) / NP))) == 0
    # bounds: ME+1 (f 1, ia 1), N-1 (f 1, ia 1), NP (f 1)
    assert inner.limit_type == "step" and inner.bound_ops.to_json() == dict(int_add=2, fetch=3)
    # IF (ME .EQ. 0): f ME, one compare = ia 1 — on the CondtD, not in its body
    assert [b.cond_ops.to_json() for b in cond.branches] == [dict(int_add=1, fetch=1)]
    assert [b.cond_ops.to_json() for b in send_if.branches] == [dict(int_add=1, fetch=1)]


def test_node_seq_op_counts():
    _, seq0, _, outer, _, _ = aaus(NODE)
    _, seq1, inner, cond, seq3, _, _ = outer.children
    (seq2,) = inner.children
    (seq_cond,) = cond.branches[0].body

    # ME = MYNODE()                   s 1, nx mynode
    # NP = NUMNODES()                 s 1, nx numnodes
    assert seq0.ops.to_json() == dict(store=2, nx={"mynode": 1, "numnodes": 1})

    # A = PARAMS(1)                   f 1, s 1
    # B = PARAMS(2)                   f 1, s 1
    # N = NINT(PARAMS(3))             f 1, nint, s 1
    # H = (B - A) / DBLE(N)           f B A N = 3, ra 1, float, rd 1, s 1
    # SUM = 0.0D0                     s 1
    # total                           f 6, s 5, ra 1, rd 1, nint 1, float 1
    assert seq1.ops.to_json() == dict(real_add=1, real_div=1, fetch=6, store=5,
                                      library={"float": 1, "nint": 1})
    assert len(seq1.stmts) == 5

    # X = A + DBLE(I)*H               f A I H = 3, float, rm 1, ra 1, s 1
    # SUM = SUM + 4.0D0/(1.0D0 + X*X) f SUM X X = 3, rm 1, ra 2, rd 1, s 1
    # 10 CONTINUE                     nothing
    # total                           f 6, s 2, ra 3, rm 2, rd 1, float 1
    assert seq2.ops.to_json() == dict(real_add=3, real_mul=2, real_div=1, fetch=6, store=2,
                                      library={"float": 1})
    assert len(seq2.stmts) == 3

    # FA = 4.0D0/(1.0D0 + A*A)        f 2, rm 1, ra 1, rd 1, s 1
    # FB = 4.0D0/(1.0D0 + B*B)        f 2, rm 1, ra 1, rd 1, s 1
    # SUM = SUM + 0.5D0*(FA + FB)     f 3, ra 2, rm 1, s 1
    # total                           f 7, s 3, ra 4, rm 3, rd 2
    assert seq_cond.ops.to_json() == dict(real_add=4, real_mul=3, real_div=2, fetch=7, store=3)

    # SUM = SUM*H                     f 2, rm 1, s 1
    assert seq3.ops.to_json() == dict(real_mul=1, fetch=2, store=1)


def test_node_communication():
    _, _, recv0, outer, _, _ = aaus(NODE)
    recv, _, _, _, _, gdsum, send_if = outer.children
    (send,) = send_if.branches[0].body
    assert (recv0.call.name, recv0.params()["args"]) == ("CRECV", {"type": "5", "buf": "NITER",
                                                                   "size": "4"})
    assert recv.params()["args"] == {"type": "10", "buf": "PARAMS", "size": "24"}
    assert (gdsum.type, gdsum.call.name, gdsum.params()["reduce"]) == ("SyncSeq", "GDSUM", "sum")
    assert send.params()["args"] == {"type": "20", "buf": "SUM", "size": "8", "dest": "MYHOST()",
                                     "pid": "0"}
    # evaluating the arguments: MYHOST() is one nx query
    assert send.arg_ops.to_json() == dict(nx={"myhost": 1})


def test_node_characterization():
    aag = build_aag([NODE])
    cv = {c.name: c for c in aag.critical_variables}
    assert {n: sorted(set(c.roles)) for n, c in cv.items()} == {
        "I": ["loop index"], "ITER": ["loop index"], "ME": ["condition", "loop start"],
        "N": ["loop bound"], "NITER": ["loop bound"], "NP": ["loop step"]}
    assert cv["ME"].node_dependent and cv["NP"].node_dependent
    assert cv["NITER"].from_message and cv["N"].from_message
    assert cv["N"].definition_path == ["PARAMS"]
    assert not any(c.external for c in cv.values())
    assert aag.external_inputs == []  # everything arrives by message


def test_host_structure_and_counts():
    got = aaus(HOST)
    assert shape(got) == [
        "Start",
        "Seq",                                   # 23-28 READ N; READ NITER; A = 0; B = 1
        "Spawn",                                 # 31    LOAD('node', -1, 0)
        "Seq",                                   # 32    NP = NUMNODES()
        "Comm",                                  # 35    CSEND(5, NITER, 4, -1, 0)
        ("IterSync", ["Seq", "Comm", "Comm"]),   # 37-43 DO 100 ITER = 1, NITER
        "Seq",                                   # 45-46 two WRITEs (FORMATs are not executed)
        "End",                                   # 49    STOP
        "End",                                   # 50    END
    ]
    _, seq0, spawn, seq1, send0, loop, seq3, _, _ = got
    assert [(a.loc.line, a.end_line) for a in (seq0, spawn, seq1, send0, loop, seq3)] == [
        (23, 28), (31, 31), (32, 32), (35, 35), (37, 43), (45, 46)]

    # READ (5,*) N                    io call, s 1
    # READ (5,*) NITER                io call, s 1
    # A = 0.0D0; B = 1.0D0            s 2
    assert seq0.ops.to_json() == dict(store=4, calls=2, library={"io": 2})
    assert spawn.program == "node"
    # NP = NUMNODES()                 s 1, nx numnodes
    assert seq1.ops.to_json() == dict(store=1, nx={"numnodes": 1})

    assert loop.num_iters == sp.Max(0, NITER) and loop.bound_ops.to_json() == dict(fetch=1)
    seq2, send, recv = loop.children
    # PARAMS(1) = A; PARAMS(2) = B    f 1 + 1, s 2
    # PARAMS(3) = DBLE(N)             f 1, float, s 1
    assert seq2.ops.to_json() == dict(fetch=3, store=3, library={"float": 1})
    assert send.params()["args"] == {"type": "10", "buf": "PARAMS", "size": "24", "dest": "-1",
                                     "pid": "0"}
    assert recv.params()["args"] == {"type": "20", "buf": "RESULT", "size": "8"}

    # WRITE (6,200) N, NITER, NP      io call, f 3
    # WRITE (6,210) RESULT, RESULT-PI io call, f 2 (PI is a PARAMETER), ra 1
    assert seq3.ops.to_json() == dict(real_add=1, fetch=5, calls=2, library={"io": 2})


def test_host_characterization():
    aag = build_aag([HOST])
    ext = {e.name: (e.how, e.critical) for e in aag.external_inputs}
    assert ext == {"N": ("read", False), "NITER": ("read", True)}
    cv = {c.name: c for c in aag.critical_variables}
    assert set(cv) == {"ITER", "NITER"} and cv["NITER"].external


def test_host_and_node_together():
    aag = build_aag([HOST, NODE])
    assert [u.name for u in aag.programs()] == ["TRAPH", "TRAPN"]
    ids = [a.id for a in aag.all_aaus()]
    assert len(ids) == len(set(ids))
