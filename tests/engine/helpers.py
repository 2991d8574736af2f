"""Hand-derived machine constants and helpers for the interpreter-engine tests.

The constants below are typed in from the paper's tables (Parashar, Hariri, Haupt & Fox 1993),
not read from ``machine_specs/ipsc860.yaml``: a test that multiplies them out checks the spec,
the filter and the engine together. A ``[min, max]`` range is used at the default bound,
``mid = (max - min)/2 + min``. Clock counts are converted with the 40 MHz clock (25 ns).
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

import sympy as sp

from interp.application.aag import build_aag
from interp.engine.predict import predict
from interp.system import load_machine

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]
PROGRAMS = HERE / "programs"  # the tiny test programs of this directory
SAMPLES = REPO / "programs"  # the sample programs shipped with interp
TRAPEZOID = [str(SAMPLES / "trapezoid" / "host.f"), str(SAMPLES / "trapezoid" / "node.f")]

REL = 1e-9  # every hand-worked value must agree to this relative tolerance


def mid(hi, lo):
    """The paper's user-defined bound: (max - min)/2 + min."""
    return (hi - lo) / 2 + lo


# ---- Table 1: processing component (iPSC/860 node, 40 MHz) ----------------------------------
CLK = 2.5e-8  # s per clock (Table 1, Unit Clk Freq: 40 MHz)
ADD = mid(1, 1) * CLK  # Int/Real Add/Sub
MUL = mid(3, 2) * CLK  # Int/Real Mul
REAL_DIV = mid(2.391e-6 + 5 * CLK, 2.241e-6 + 2 * CLK)  # Real Div: (t/Clk)+n clocks
INT_TO_REAL = mid(14, 8) * CLK  # Mix Oper: Int -> Real
FLOAT = mid(15, 7) * CLK  # float() (also DBLE, REAL)
NINT = mid(6, 3) * CLK  # NINT: spec assumption (Real -> Int plus rounding)
NOSTEP_FIXED = mid(10, 5) * CLK  # No Step Limit Ovhd
NOSTEP_ITER = mid(14, 8) * CLK  # Per-Iter Ovhd (No Step)
STEP_FIXED = mid(1.256e-6 + 17 * CLK, 1.106e-6 + 10 * CLK)  # Step Lim Ovhd
STEP_ITER = mid(17, 10) * CLK  # Per-Iter Ovhd (Step)
COND = mid(1, 1) * CLK  # Condt Ovhd (per condition tested)
TAKEN = mid(1, 1) * CLK  # Branch Taken Ovhd
MYNODE = mid(5.421e-7, 5.302e-7)  # mynode() (NX/2): (5.421e-7/Clk) clocks = 5.421e-7 s
NUMNODES = mid(5.683e-7, 5.552e-7)  # numnodes() (NX/2)
MYHOST = mid(5.421e-7, 5.302e-7)  # myhost(): spec assumption, a kernel trap like mynode()

# ---- Table 2: memory component ------------------------------------------------------------
FETCH = 1 * CLK
FETCH_MISS = 6 * CLK
STORE = 2 * CLK
STORE_MISS = 4 * CLK
CACHE_BLOCK = 32  # bytes

# ---- Table 3: communication/synchronization component ---------------------------------------
STATIC_STARTUP, STATIC_PER_BYTE, STATIC_PER_HOP = 70e-6, 0.42e-6, 11e-6
DYNAMIC_STARTUP, DYNAMIC_PER_BYTE, DYNAMIC_PER_HOP = 175e-6, 0.36e-6, 33e-6
RECEIVE = 0.0  # Receive Ovhd is '-' in Table 3 (spec assumption: 0 s)
SYNC_OVERHEAD = 67e-6
STATIC_BUFFER = 100  # bytes: larger synchronous messages use dynamic buffers



# ---- the probe IF: which arm ran, read off the time ------------------------------------------
def probe_if(cond: str) -> str:
    """An IF whose THEN stores three constants and whose ELSE stores one (Fortran text)."""
    return (f"      IF ({cond}) THEN\n         X = 1.0D0\n         Y = 2.0D0\n"
            "         Z = 3.0D0\n      ELSE\n         X = 4.0D0\n      END IF\n")


# THEN: 3 stores and 1 condition tested; ELSE: 1 store and 2 conditions (ELSE counts as the
# second), TAKEN in both: THEN is longer by 2·STORE − COND = 2·50 ns − 25 ns = 75 ns.
PROBE_THEN_MINUS_ELSE = (3 * STORE + COND) - (STORE + 2 * COND)

def static_msg(nbytes: int, hops: int) -> float:
    """Sender δ (= startup + transmission) of a synchronous message in static buffers."""
    return STATIC_STARTUP + nbytes * STATIC_PER_BYTE + hops * STATIC_PER_HOP


def dynamic_msg(nbytes: int, hops: int) -> float:
    return DYNAMIC_STARTUP + nbytes * DYNAMIC_PER_BYTE + hops * DYNAMIC_PER_HOP


# ---- helpers ------------------------------------------------------------------------------


@lru_cache(maxsize=None)
def aag_of(*files: str):
    """The AAG of ``files`` (built once per session; the engine never mutates it)."""
    return build_aag([str(f) for f in files])


@lru_cache(maxsize=None)
def load(name: str = "ipsc860"):
    """A machine spec, loaded once (a SAG is immutable)."""
    return load_machine(name)


def program(name: str) -> str:
    return str(PROGRAMS / name)


def run(files, nprocs: int, given: dict | None = None, machine=None, **kw):
    """predict() on ``files`` with integer inputs given as plain ints."""
    files = [files] if isinstance(files, (str, Path)) else list(files)
    given = {k: sp.Integer(v) if isinstance(v, int) else v for k, v in (given or {}).items()}
    return predict(aag_of(*[str(f) for f in files]), machine or load(),
                   nprocs, given, **kw)


def rows_by_pid(pred) -> dict[int, dict]:
    return {r["pid"]: r for r in pred.process_rows()}


def at(pred, expr) -> float:
    """A time of ``pred`` (number or formula) at the inputs given."""
    v = pred.evaluate(expr)
    assert v.is_number, f"{expr} still depends on {v.free_symbols}"
    return float(v)


def formula_at(expr: sp.Expr, **values) -> float:
    """Evaluate a formula with its symbols (found by name) set to ``values``."""
    expr = sp.sympify(expr)
    subs = {s: values[s.name] for s in expr.free_symbols if s.name in values}
    v = expr.subs(subs)
    assert v.is_number, f"{expr} still depends on {v.free_symbols}"
    return float(v)
