"""Hypothesis strategies for hostile input, and the one invariant every input must keep.

Inputs: Fortran statements and whole small programs (valid and broken: wrong argument counts,
unbalanced blocks, GO TOs anywhere, huge and odd numbers), machine specs (the shipped one with
values replaced, lines dropped, aliases nested) and what-if statements. Shared by
tests/reliability/test_fuzz_campaign.py (a few examples, in CI) and benchmarks/fuzz_campaign.py
(minutes of them).

The invariant (issue 15): the command ends with exit 0, 1 or 2, never with an exception
(no Python traceback), within the step budget given to it.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from pathlib import Path

from click.testing import CliRunner
from hypothesis import strategies as st

from interp.cli import main

ROOT = Path(__file__).resolve().parents[2]
SPEC = (ROOT / "machine_specs" / "ipsc860.yaml").read_text()
FUZZ_STEPS = "20000"  # --max-steps for every case: a loop without end stops quickly

NAMES = ["I", "J", "K", "N", "X", "Y", "ME", "NP", "A", "B"]
NUMBERS = st.sampled_from(["0", "1", "-1", "2", "7", "1000", "1.5", "1E30", "1D300", "1E-300",
                           "2147483647", "99999999999999999999", "0.0", "-0.5"])
OPS = ["+", "-", "*", "/", "**"]
RELS = [".LT.", ".LE.", ".GT.", ".GE.", ".EQ.", ".NE."]


@st.composite
def expressions(draw, depth: int = 1) -> str:
    if depth == 0 or draw(st.booleans()):
        return draw(st.one_of(NUMBERS, st.sampled_from(NAMES), st.sampled_from(["A(I)", "A(1,2)",
                                                                               "MOD(I, 0)"])))
    left, right = draw(expressions(depth - 1)), draw(expressions(depth - 1))
    return f"({left} {draw(st.sampled_from(OPS))} {right})"


@st.composite
def conditions(draw) -> str:
    return f"{draw(expressions(1))} {draw(st.sampled_from(RELS))} {draw(expressions(1))}"


@st.composite
def calls(draw) -> str:
    """A message-passing call with any number of arguments, some of them wrong."""
    name = draw(st.sampled_from(["CSEND", "CRECV", "GSYNC", "CSENDRECV", "MPI_SEND", "MPI_RECV",
                                 "MPI_BARRIER", "MPI_ALLREDUCE", "IRECV", "MSGWAIT", "FOO"]))
    args = draw(st.lists(st.one_of(expressions(1), st.just("X"), st.just("MPI_COMM_WORLD")),
                         max_size=8))
    return f"CALL {name}({', '.join(args)})"


@st.composite
def statements(draw, depth: int = 2) -> list[str]:
    """One statement, or a block of them (lines without their label field)."""
    simple = st.one_of(
        st.builds(lambda n, e: f"{n} = {e}", st.sampled_from(NAMES + ["A(I)", "Y(I)"]),
                  expressions()),
        calls(),
        st.builds(lambda l: f"GO TO {l}", st.sampled_from([10, 20, 30])),
        st.builds(lambda c, l: f"IF ({c}) GO TO {l}", conditions(), st.sampled_from([10, 20])),
        st.sampled_from(["CONTINUE", "STOP", "RETURN", "READ(*,*) N", "I = I + 1", "I = I - 1",
                         "N = N * 2", "PRINT *, X"]),
    )
    broken = st.sampled_from(["END IF", "END DO", "ELSE", ")(", "DO", "IF (", "X = "])
    if draw(st.integers(0, 19)) == 0:  # a broken statement now and then: most reach the engine
        return [draw(broken)]
    if depth == 0 or draw(st.integers(0, 3)) > 0:
        return [draw(simple)]
    body = [s for _ in range(draw(st.integers(0, 3))) for s in draw(statements(depth - 1))]
    kind = draw(st.sampled_from(["if", "do", "while", "goto"]))
    if kind == "if":
        return [f"IF ({draw(conditions())}) THEN", *body, "END IF"]
    if kind == "do":
        return [f"DO I = {draw(expressions(1))}, {draw(expressions(1))}", *body, "END DO"]
    if kind == "while":
        return [f"DO WHILE ({draw(conditions())})", *body, "END DO"]
    return ["CONTINUE", *body, f"IF ({draw(conditions())}) GO TO 10"]


@st.composite
def programs(draw) -> str:
    """A small node program: header, declarations, statements (some labelled), END."""
    lines = ["      PROGRAM FUZZ", "      INTEGER I, J, K, N, ME, NP, MYNODE, NUMNODES",
             "      REAL X, Y, A(8), B(4, 4)"]
    if draw(st.booleans()):
        lines += ["      ME = MYNODE()", "      NP = NUMNODES()"]
    if draw(st.booleans()):
        lines += ["      READ(*,*) N"]
    body = [s for _ in range(draw(st.integers(1, 6))) for s in draw(statements())]
    labels = iter(draw(st.permutations([10, 20, 30])))
    for s in body:
        label = next(labels, None) if draw(st.integers(0, 4)) == 0 else None
        lines.append(f"{label:>5} {s}" if label else f"      {s}")
    if draw(st.integers(0, 9)) > 0:
        lines.append("      END")
    return "\n".join(lines) + "\n"


@st.composite
def specs(draw) -> str:
    """The shipped spec with lines dropped or duplicated, values replaced, aliases nested."""
    lines = SPEC.splitlines()
    for _ in range(draw(st.integers(1, 4))):
        k = draw(st.integers(0, len(lines) - 1))
        how = draw(st.sampled_from(["drop", "dup", "value", "alias", "garbage"]))
        if how == "drop":
            del lines[k]
        elif how == "dup":
            lines.insert(k, lines[k])
        elif how == "value" and ":" in lines[k]:
            key = lines[k].split(":", 1)[0]
            lines[k] = f"{key}: {draw(st.sampled_from(['-1', '0', '.nan', '.inf', '1e999', 'x', '[]', '{}', '~', '1e-999', '12 MHz', '&a [1]', '*a']))}"
        elif how == "alias":
            lines = ["x0: &x0 [1, 1, 1, 1, 1, 1, 1, 1]"] + [
                f"x{i}: &x{i} [{', '.join([f'*x{i - 1}'] * 8)}]" for i in range(1, 8)] + lines
        elif how == "garbage":
            lines[k] = draw(st.text(max_size=20))
        if not lines:
            break
    return "\n".join(lines) + "\n"


PARAMETERS = ["clock", "P", "N", "NITER", "node.cs.dynamic.per_byte", "node.cs.*.per_hop",
              "node.p.ops.real_div", "load", "node.clock", "foo", "", "node.p.nx.dclock"]
VALUES = ["32", "0", "-5", "1e999999", "1e-999999", "1e308", "nan", "inf", "80MHz", "1e999999 MHz",
          "1e-999999 MHz", "20 clk", "0.3", "x", "", "2**10000", "1.5", "3"]


@st.composite
def what_ifs(draw) -> list[str]:
    return [f"{draw(st.sampled_from(PARAMETERS))} {draw(st.sampled_from(['=', '*=', '/=', '+=', '-=', '==']))} "
            f"{draw(st.sampled_from(VALUES))}" for _ in range(draw(st.integers(1, 3)))]


# ---- running one case --------------------------------------------------------------------------


@dataclass
class Outcome:
    args: list[str]
    exit_code: int
    output: str
    seconds: float
    crash: str | None  # why the invariant does not hold; None when it does


def run(args: list[str], stdin: str = "") -> Outcome:
    """``interp ARGS`` in process (CliRunner), checked against the invariant."""
    start = time.perf_counter()
    result = CliRunner().invoke(main, args, input=stdin)
    seconds = time.perf_counter() - start
    output = result.output  # stdout and stderr, as a user sees them
    crash = None
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        crash = f"{type(result.exception).__name__}: {result.exception}"
    elif result.exit_code not in (0, 1, 2):
        crash = f"exit {result.exit_code}"
    elif "Traceback (most recent call last)" in output:
        crash = "a traceback in the output"
    return Outcome(args, result.exit_code, output, seconds, crash)


def program_case(tmp: Path, source: str, command: str, nprocs: int) -> Outcome:
    path = tmp / "fuzz.f"
    path.write_text(source)
    args = [command, str(path), "-P", str(nprocs)]
    if command != "graph":
        args += ["--max-steps", FUZZ_STEPS, "--set", "N=5"]
    return run(args, stdin="5\n")


def spec_case(tmp: Path, text: str) -> Outcome:
    path = tmp / "spec.yaml"
    path.write_text(text)
    return run(["machine", "validate", str(path)])


def what_if_case(statements_: list[str]) -> Outcome:
    args = ["predict", str(ROOT / "programs" / "mpi_ring" / "ring_mpi.f"), "-P", "4",
            "--max-steps", FUZZ_STEPS]
    for s in statements_:
        args += ["--what-if", s]
    return run(args)
