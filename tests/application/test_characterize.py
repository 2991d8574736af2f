"""Level-1 characterization: critical variables, external inputs, node-dependent values and the
augmented symbol table (reuse distances)."""

from __future__ import annotations

from .helpers import body

CRITICAL = """
    PROGRAM P
    INTEGER ME, NP, N, M, K, I
    READ (5,*) N
    ME = MYNODE()
    NP = NUMNODES()
    M = N / NP
    K = M + ME
    DO 10 I = 1, K
      X = X + Y
    10 CONTINUE
    IF (Z .GT. 0) W = 1
    END
"""


def crit(aag):
    return {c.name: c for c in aag.critical_variables}


def ext(aag):
    return {e.name: e for e in aag.external_inputs}


def test_critical_variables_and_their_roles(aag_of):
    cv = crit(aag_of(CRITICAL))
    assert set(cv) == {"I", "K", "Z"}
    assert (cv["I"].roles, cv["K"].roles, cv["Z"].roles) == (["loop index"], ["loop bound"],
                                                             ["condition"])


def test_definition_path_and_defining_aau(aag_of):
    aag = aag_of(CRITICAL)
    seq, loop, cond = body(aag)
    k = crit(aag)["K"]
    # K = M + ME; M = N / NP: breadth first, nearest first
    assert k.definition_path == ["M", "ME", "N", "NP"]
    assert [(aau, loc.line, how) for aau, loc, how in k.defined_at] == [(seq.id, 7, "assign")]
    assert [(aau, loc.line, loc.column) for aau, loc in k.uses] == [(loop.id, 8, 20)]
    assert k.external and k.node_dependent and not k.from_message
    i = crit(aag)["I"]
    assert [(aau, how) for aau, _, how in i.defined_at] == [(loop.id, "loop")]
    z = crit(aag)["Z"]
    assert z.defined_at == [] and z.external and [a for a, _ in z.uses] == [cond.id]


def test_external_inputs_read_and_never_defined(aag_of):
    e = ext(aag_of(CRITICAL))
    assert set(e) == {"N", "Y", "Z"}  # X is read before it is set, but it is also set
    assert (e["N"].how, e["N"].critical, e["N"].type) == ("read", True, "INTEGER")
    assert [(loc.line, loc.column) for loc in e["N"].locations] == [(3, 7)]
    assert (e["Y"].how, e["Y"].critical, e["Y"].type) == ("undefined", False, "REAL")
    assert (e["Z"].how, e["Z"].critical) == ("undefined", True)


def test_read_through_an_implied_do_marks_the_array(aag_of):
    e = ext(aag_of("""
        PROGRAM P
        REAL A(100)
        READ (5,*) N, (A(I), I = 1, N)
        S = A(1)
        END
    """))
    assert {n: v.how for n, v in e.items()} == {"N": "read", "A": "read"}


def test_common_variable_set_in_another_unit_is_not_external(aag_of):
    e = ext(aag_of("""
        PROGRAM P
        COMMON /C/ N
        CALL INIT
        DO 10 I = 1, N
        10 CONTINUE
        END
        SUBROUTINE INIT
        COMMON /C/ N
        N = 5
        END
    """))
    assert "N" not in e


def test_node_dependent_values_from_nx2_and_mpi(aag_of):
    aag = aag_of("""
        PROGRAM P
        INCLUDE 'mpif.h'
        CALL MPI_COMM_RANK(MPI_COMM_WORLD, ME, IERR)
        CALL MPI_COMM_SIZE(MPI_COMM_WORLD, NP, IERR)
        LAST = NP - 1
        IF (ME .EQ. LAST) X = 1
        DO 10 I = 1, 10
        10 CONTINUE
        END
    """)
    cv = crit(aag)
    assert cv["ME"].node_dependent and cv["LAST"].node_dependent
    assert cv["LAST"].definition_path == ["NP"]
    assert [how for _, _, how in cv["ME"].defined_at] == ["library"]
    assert not cv["I"].node_dependent
    # MPI_COMM_WORLD is a constant of mpif.h, never an input
    assert "MPI_COMM_WORLD" not in ext(aag) and "MPI_COMM_WORLD" not in cv


def test_values_received_in_messages(aag_of):
    cv = crit(aag_of("""
        PROGRAM P
        INTEGER NITER, N
        CALL CRECV(5, NITER, 4)
        N = NITER * 2
        DO 10 I = 1, N
        10 CONTINUE
        END
    """))
    assert cv["N"].from_message and not cv["N"].external
    assert cv["N"].definition_path == ["NITER"]


def test_parameters_are_not_critical_variables(aag_of):
    cv = crit(aag_of("""
        PROGRAM P
        PARAMETER (N = 4)
        DO 10 I = 1, N
        10 CONTINUE
        END
    """))
    assert set(cv) == {"I"}


# ---- augmented symbol table ------------------------------------------------------------------


def test_reuse_distance_straight_line(aag_of):
    aag = aag_of("""
        PROGRAM P
        X = A + B
        Y = X * A
        END
    """)
    syms = aag.units["P"].symbols.symbols
    # access sequence (operands, then the target): A B X | X A Y
    # X: positions 2 → 3, nothing in between            → 0
    # A: positions 0 → 4, distinct in between {B, X}     → 2
    assert (syms["X"].reuse_distance, syms["A"].reuse_distance) == (0.0, 2.0)
    assert (syms["B"].reuse_distance, syms["Y"].reuse_distance) == (None, None)  # used once
    assert {n: s.accesses for n, s in syms.items()} == {"A": 2, "B": 1, "X": 2, "Y": 1}


def test_reuse_distance_across_loop_iterations(aag_of):
    aag = aag_of("""
        PROGRAM P
        REAL X(10)
        DO 10 I = 1, N
          S = S + X(I)
        10 CONTINUE
        END
    """)
    syms = aag.units["P"].symbols.symbols
    # sequence: N (bound) | I (index) S X I (operands) S (target); the body is I S X I S
    # within one pass:  I: 1 → 4, between {S, X} = 2;   S: 2 → 5, between {X, I} = 2
    # iteration wrap (last access → first access of the next iteration):
    #   I: after its last (body pos 3) {S}, before its first (pos 0) {}  → 1
    #   S: after pos 4 {}, before pos 1 {I}                              → 1
    #   X: after pos 2 {I, S}, before pos 2 {I, S}                       → 2
    # means: I (2 + 1) / 2 = 1.5, S (2 + 1) / 2 = 1.5, X 2 / 1 = 2.0
    assert (syms["I"].reuse_distance, syms["S"].reuse_distance, syms["X"].reuse_distance) == (
        1.5, 1.5, 2.0)
    assert syms["N"].reuse_distance is None
    assert (syms["I"].accesses, syms["S"].accesses, syms["X"].accesses, syms["N"].accesses) == (
        2, 2, 1, 1)
