"""Operation counts by Table-1 class, worked by hand from the rules in opcount.py's docstring.

Each expected count shows its arithmetic. Abbreviations: ia/ra = int_add/real_add,
im/rm = int_mul/real_mul, id/rd = int_div/real_div, i2r/r2i = conversions, f = fetch, s = store.
"""

from __future__ import annotations

import pytest

from .helpers import body

DECLS = """
    PROGRAM P
    INTEGER I, J, K, N
    PARAMETER (N = 10)
    REAL X, Y, A(N)
    DOUBLE PRECISION D
    LOGICAL L, M
"""


def seq_ops(aag_of, stmt: str) -> dict:
    """The op counts of the single Seq a statement becomes."""
    aag = aag_of(DECLS + f"    {stmt}\n    END\n", granularity="statement")
    (seq,) = body(aag)
    assert seq.type == "Seq" and len(seq.stmts) == 1
    return seq.ops.to_json()


@pytest.mark.parametrize("stmt, expected", [
    # f: Y, A(...), I = 3; ia: I+1; rm: Y*2.0; rd: A()/3.0; ra: the +; s: X
    ("X = Y*2.0 + A(I+1)/3.0",
     dict(int_add=1, real_add=1, real_mul=1, real_div=1, fetch=3, store=1)),
    # N is a PARAMETER: folded, not fetched. f: J, K = 2; im: J*K; ia: the -
    ("I = J*K - N", dict(int_add=1, int_mul=1, fetch=2, store=1)),
    # INTEGER I in a REAL sum: one i2r; ra: +
    ("X = I + Y", dict(real_add=1, int_to_real=1, fetch=2, store=1)),
    # a REAL value stored in an INTEGER: one r2i
    ("I = X", dict(real_to_int=1, fetch=1, store=1)),
    # literal operands are converted by the compiler: 2 and 1 cost nothing
    ("X = Y/2 + 1", dict(real_div=1, real_add=1, fetch=1, store=1)),
    # INTEGER / INTEGER is an integer division; storing it in REAL X: one i2r
    ("X = I / J", dict(int_div=1, int_to_real=1, fetch=2, store=1)),
    # X**2: floor(log2 2) + popcount(2) - 1 = 1 + 1 - 1 = 1 rm
    ("D = X**2", dict(real_mul=1, fetch=1, store=1)),
    # X**3: 1 + 2 - 1 = 2 rm; Y**8: 3 + 1 - 1 = 3 rm; total 5 rm, ra: +
    ("D = X**3 + Y**8", dict(real_mul=5, real_add=1, fetch=2, store=1)),
    # I**2 (integer): 1 im
    ("J = I**2", dict(int_mul=1, fetch=1, store=1)),
    # a non-literal exponent is a pow library call
    ("X = X**Y", dict(fetch=2, store=1, library={"pow": 1})),
    # ... and an INTEGER exponent in a REAL power is a mixed operand: one i2r
    ("X = X**I", dict(int_to_real=1, fetch=2, store=1, library={"pow": 1})),
    # unary minus of a variable is one add/sub; of a literal it is free
    ("X = -Y", dict(real_add=1, fetch=1, store=1)),
    ("X = -2.0", dict(store=1)),
    # .NOT. and .AND. are one int add each
    ("L = .NOT. L .AND. M", dict(int_add=2, fetch=2, store=1)),
    # a compare is a subtract of its operands' type
    ("L = I .LT. J", dict(int_add=1, fetch=2, store=1)),
    ("L = X .GT. I", dict(real_add=1, int_to_real=1, fetch=2, store=1)),
    # intrinsics are library calls, FLOAT as Table 1's float(); ra: two +
    ("X = SQRT(Y) + ABS(X) + FLOAT(I)",
     dict(real_add=2, fetch=3, store=1, library={"abs": 1, "float": 1, "sqrt": 1})),
    ("I = MOD(J, 2)", dict(fetch=1, store=1, library={"mod": 1})),
    # NX/2 queries are machine-specific operations
    ("I = MYNODE()", dict(store=1, nx={"mynode": 1})),
    # array element store: its index expression is counted (f: J; ia: J-1), the address is not
    ("A(J-1) = 0.0", dict(int_add=1, fetch=1, store=1)),
    # a user FUNCTION: one call with its 2 arguments (I, X fetched)
    ("Y = UFUN(I, X)", dict(fetch=2, store=1, calls=1, call_args=2, user_calls=["UFUN"])),
])
def test_statement_op_counts(aag_of, stmt, expected):
    assert seq_ops(aag_of, stmt) == expected


def test_statement_function_is_expanded_in_place(aag_of):
    aag = aag_of("""
        PROGRAM P
        F(X) = X*X
        Y = F(A)
        Z = F(A+B)
        END
    """, granularity="statement")
    y, z = body(aag)
    # Y = A*A: f A twice; rm 1; s 1
    assert y.ops.to_json() == dict(real_mul=1, fetch=2, store=1)
    # Z = (A+B)*(A+B): f 4; ra 2; rm 1; s 1
    assert z.ops.to_json() == dict(real_add=2, real_mul=1, fetch=4, store=1)


def test_io_statements(aag_of):
    aag = aag_of("""
        PROGRAM P
        READ (5,*) N, M
        WRITE (6,*) N, X + 1.0
        END
    """, granularity="statement")
    rd, wr = body(aag)
    # READ: one io call, one store per item
    assert rd.ops.to_json() == dict(store=2, calls=1, library={"io": 1})
    # WRITE: one io call; items evaluated: f N, X; ra X + 1.0
    assert wr.ops.to_json() == dict(real_add=1, fetch=2, calls=1, library={"io": 1})


def test_a_largest_seq_sums_its_statements(aag_of):
    aag = aag_of("""
        PROGRAM P
        X = Y + Z
        I = J * K
        END
    """)
    (seq,) = body(aag)
    # (ra 1, f 2, s 1) + (im 1, f 2, s 1)
    assert seq.ops.to_json() == dict(real_add=1, int_mul=1, fetch=4, store=2)


def test_loop_and_condition_overheads_belong_to_the_compound_aau(aag_of):
    aag = aag_of("""
        PROGRAM P
        INTEGER I, N
        DO 10 I = 1, N*2, 2
          X = X + 1.0
        10 CONTINUE
        IF (X .GT. 1.0 .AND. N .GT. 0) THEN
          Y = 1.0
        ELSE IF (N .EQ. 2) THEN
          Y = 2.0
        ELSE
          Y = 3.0
        END IF
        DO WHILE (X .LT. 10.0)
          X = X + 1.0
        END DO
        END
    """)
    loop, cond, wloop = body(aag)
    # bounds 1, N*2, 2: f N; im N*2 (literals free)
    assert loop.bound_ops.to_json() == dict(int_mul=1, fetch=1)
    assert loop.limit_type == "step"
    # the body holds only X = X + 1.0: ra 1, f 1, s 1 (no bound arithmetic)
    assert [a.ops.to_json() for a in loop.children] == [dict(real_add=1, fetch=1, store=1)]
    # X .GT. 1.0 → ra 1; N .GT. 0 → ia 1; .AND. → ia 1; f X, N
    assert [b.cond_ops.to_json() for b in cond.branches] == [
        dict(int_add=2, real_add=1, fetch=2), dict(int_add=1, fetch=1), {}]
    assert [b.body[0].ops.to_json() for b in cond.branches] == [dict(store=1)] * 3
    # X .LT. 10.0 → ra 1, f 1
    assert wloop.bound_ops.to_json() == dict(real_add=1, fetch=1)
    assert wloop.limit_type == "while"


def test_limit_type_nostep_without_a_step(aag_of):
    (loop,) = body(aag_of("""
        PROGRAM P
        DO 10 I = 1, 5, 1
        10 CONTINUE
        END
    """))
    assert loop.limit_type == "nostep" and loop.bound_ops.to_json() == {}
