"""Units of machine-spec values, known in this one place (kerncraft-style: ``70e-6 s``, ``40 MHz``).

A dimension is a vector of exponents over three base units: seconds, clocks and bytes. Clocks
are a base unit of their own, as in Table 1 of the paper, where ``(1.256e-6/Clk)+2`` turns a
time into clocks with the clock period ``Clk``; a time-like parameter may be given in either and
is converted to seconds with the clock of its SAU.

Sizes use binary multiples (``KB`` = ``KiB`` = 1024 B), as memory sizes do: the paper's
"8 KBytes" cache holds 8192 bytes.
"""

from __future__ import annotations

import difflib
from dataclasses import dataclass

import sympy

Dim = tuple[int, int, int]  # exponents of (seconds, clocks, bytes)

NONE: Dim = (0, 0, 0)
TIME: Dim = (1, 0, 0)
CLOCKS: Dim = (0, 1, 0)
BYTES: Dim = (0, 0, 1)
FREQUENCY: Dim = (-1, 1, 0)  # clocks per second
PERIOD: Dim = (1, -1, 0)  # seconds per clock: the dimension of ``Clk``


@dataclass(frozen=True)
class Unit:
    name: str
    dim: Dim
    factor: sympy.Rational  # value of one unit in the base unit of ``dim``


def _units() -> dict[str, Unit]:
    r = sympy.Rational
    table = [
        Unit("s", TIME, r(1)),
        Unit("ms", TIME, r(1, 10**3)),
        Unit("us", TIME, r(1, 10**6)),
        Unit("\u00b5s", TIME, r(1, 10**6)),
        Unit("ns", TIME, r(1, 10**9)),
        Unit("clk", CLOCKS, r(1)),
        Unit("B", BYTES, r(1)),
        Unit("KB", BYTES, r(2**10)),
        Unit("KiB", BYTES, r(2**10)),
        Unit("MB", BYTES, r(2**20)),
        Unit("MiB", BYTES, r(2**20)),
        Unit("GB", BYTES, r(2**30)),
        Unit("GiB", BYTES, r(2**30)),
        Unit("Hz", FREQUENCY, r(1)),
        Unit("kHz", FREQUENCY, r(10**3)),
        Unit("MHz", FREQUENCY, r(10**6)),
        Unit("GHz", FREQUENCY, r(10**9)),
    ]
    return {u.name: u for u in table}


UNITS: dict[str, Unit] = _units()


@dataclass(frozen=True)
class Kind:
    """What a parameter measures: the dimensions it accepts and how to say so in an error."""

    name: str
    dims: frozenset[Dim]
    expected: str


KINDS: dict[str, Kind] = {
    k.name: k
    for k in (
        Kind("time", frozenset({TIME, CLOCKS}), "a time such as '70e-6 s' or '3 clk'"),
        Kind("bytes", frozenset({BYTES}), "a size such as '100 B' or '8 KB'"),
        Kind("frequency", frozenset({FREQUENCY}), "a frequency such as '40 MHz'"),
        Kind("count", frozenset({NONE}), "a plain number such as 16"),
        Kind("fraction", frozenset({NONE}), "a plain number between 0 and 1"),
    )
}
TEXT = "text"  # kind of named choices such as a topology; not a quantity

_DIM_NAMES = {
    NONE: "a plain number",
    TIME: "a time",
    CLOCKS: "a number of clocks",
    BYTES: "a size in bytes",
    FREQUENCY: "a frequency",
    PERIOD: "a clock period",
}


def unit(name: str) -> Unit | None:
    return UNITS.get(name)


def suggest(word: str, choices) -> str | None:
    """The closest of ``choices`` to ``word``, for "did you mean" hints."""
    close = difflib.get_close_matches(word, list(choices), n=1, cutoff=0.5)
    if not close:
        folded = {c.lower(): c for c in choices}
        close = [folded[word.lower()]] if word.lower() in folded else []
    return close[0] if close else None


def dim_name(dim: Dim) -> str:
    if dim in _DIM_NAMES:
        return _DIM_NAMES[dim]
    parts = [f"{u}^{e}" for u, e in zip(("s", "clk", "B"), dim) if e]
    return "a quantity in " + " ".join(parts)


def dim_mul(a: Dim, b: Dim, sign: int = 1) -> Dim:
    return (a[0] + sign * b[0], a[1] + sign * b[1], a[2] + sign * b[2])


def dim_pow(a: Dim, n: int) -> Dim:
    return (a[0] * n, a[1] * n, a[2] * n)
