"""Expressions: walking, typing, and conversion to SymPy.

The SymPy view is what trip counts, conditions and message sizes are made of. Names become
symbols (integer-valued when the Fortran type is INTEGER) unless a resolver gives their value.
Fortran semantics kept exact for numbers: integer division truncates toward zero, MOD takes the
sign of its first argument. For symbolic operands integer division becomes ``floor`` — exact
for the non-negative sizes, counts and ranks it is used on (stated in the README).
"""

from __future__ import annotations

import math
import operator
from functools import lru_cache
from typing import Callable, Iterator

import sympy as sp

from interp.application import ast
from interp.application.ast import expr_text
from interp.application.catalog import intrinsics
from interp.application.symbols import COMPLEX_TYPES, NUMERIC_RANK, SymbolTable
from interp.errors import InterpError

def walk(e: ast.Expr) -> Iterator[ast.Expr]:
    """Every node of ``e``, parents before children, left to right."""
    stack = [e]
    while stack:
        e = stack.pop()
        yield e
        if isinstance(e, ast.Ref):
            stack.extend(reversed(e.args))
        elif isinstance(e, ast.BinOp):
            stack += (e.right, e.left)
        elif isinstance(e, ast.UnOp):
            stack.append(e.operand)
        elif isinstance(e, ast.Range):
            stack += [part for part in (e.hi, e.lo) if part is not None]
        elif isinstance(e, ast.ImpliedDo):
            stack += reversed([*e.items, e.start, e.stop, *([e.step] if e.step else [])])


def names_in(e: ast.Expr, table: SymbolTable) -> list[str]:
    """Variables (scalars and arrays) an expression reads, in order, without functions."""
    out = []
    for node in walk(e):
        if isinstance(node, ast.Var):
            out.append(node.name)
        elif isinstance(node, ast.Ref) and not table.is_function(node.name):
            out.append(node.name)
    return out


def expr_type(e: ast.Expr, table: SymbolTable) -> str:
    """The Fortran type of an expression (INTEGER, REAL, DOUBLE, LOGICAL, CHARACTER, COMPLEX)."""
    if isinstance(e, ast.Num):
        return e.kind
    if isinstance(e, ast.Str):
        return "CHARACTER"
    if isinstance(e, ast.Logical):
        return "LOGICAL"
    if isinstance(e, ast.Var):
        return table.lookup(e.name, e.loc).type
    if isinstance(e, ast.Ref):
        intr = intrinsics().get(e.name)
        sym = table.symbols.get(e.name)
        if intr is not None and (sym is None or sym.kind == "intrinsic"):
            if intr.type in ("arg", "arg_part"):
                arg = expr_type(e.args[0], table) if e.args else "REAL"
                return complex_part(arg) if intr.type == "arg_part" else arg
            return intr.type
        return table.lookup(e.name, e.loc).type
    if isinstance(e, ast.BinOp):
        if e.op in ast.RELATIONAL or e.op in ast.LOGICAL_OPS:
            return "LOGICAL"
        if e.op == "//":
            return "CHARACTER"
        return wider(expr_type(e.left, table), expr_type(e.right, table))
    if isinstance(e, ast.UnOp):
        return "LOGICAL" if e.op == "NOT" else expr_type(e.operand, table)
    return "INTEGER"


def wider(a: str, b: str) -> str:
    if a not in NUMERIC_RANK or b not in NUMERIC_RANK:
        return a if a not in NUMERIC_RANK else b
    if {a, b} == {"DOUBLE", "COMPLEX"}:  # a double and a complex: as compilers do
        return "DCOMPLEX"
    return a if NUMERIC_RANK[a] >= NUMERIC_RANK[b] else b


def complex_part(t: str) -> str:
    """The type of a part (or the modulus) of a value of type ``t``: REAL of COMPLEX, DOUBLE of
    DOUBLE COMPLEX; other types are their own."""
    return {"COMPLEX": "REAL", "DCOMPLEX": "DOUBLE"}.get(t, t)


# ---- SymPy -------------------------------------------------------------------------------------

Resolver = Callable[[str], "sp.Expr | None"]


def _function_value(resolve, e, args):
    """The value of a reference to a user FUNCTION: the resolver's ``function`` hook (the
    engine interprets the body with these arguments), else what it knows of ``NAME()``."""
    hook = getattr(resolve, "function", None)
    value = hook(e, args) if hook is not None else None
    if value is None and resolve is not None:
        value = resolve(f"{e.name}()")
    return value


def fortran_symbol(name: str, ftype: str = "INTEGER") -> sp.Symbol:
    """The SymPy symbol for a Fortran variable (integer-valued for INTEGER variables)."""
    if ftype == "INTEGER":
        return sp.Symbol(name, integer=True)
    if ftype == "LOGICAL" or ftype in COMPLEX_TYPES:
        return sp.Symbol(name)
    return sp.Symbol(name, real=True)


def int_div(a: sp.Expr, b: sp.Expr) -> sp.Expr:
    """Fortran integer division: truncation toward zero."""
    if a.is_Number and b.is_Number:
        if b == 0:
            raise ZeroDivisionError
        q = abs(int(a)) // abs(int(b))
        return sp.Integer(q if (a >= 0) == (b > 0) else -q)
    return sp.floor(a / b)


def fortran_mod(a: sp.Expr, b: sp.Expr) -> sp.Expr:
    """Fortran MOD: a - INT(a/b)*b, sign of a."""
    if a.is_Number and b.is_Number and a.is_integer and b.is_integer:
        return a - int_div(a, b) * b
    return sp.Mod(a, b)


class SymbolicError(InterpError):
    """An expression that cannot be given a closed form (e.g. an array element as a loop bound)."""


class NotComputable(SymbolicError):
    """A function value interp does not compute from the source (a library query such as
    MSGDONE, answered only by the run): not run-time data a branch probability may stand for."""


def _ishft(i: int, n: int) -> int:
    """ISHFT on a 32-bit INTEGER: left by n, or a logical right shift by −n."""
    v = (i << n) & 0xFFFFFFFF if n >= 0 else (i & 0xFFFFFFFF) >> -n
    return v - (1 << 32) if v >= 1 << 31 else v


def _bitwise(name: str, a: sp.Expr, b: sp.Expr) -> sp.Expr:
    if a.is_Integer and b.is_Integer:
        op = {"IEOR": int.__xor__, "IAND": int.__and__, "IOR": int.__or__, "ISHFT": _ishft}[name]
        return sp.Integer(op(int(a), int(b)))
    return sp.Function(name)(a, b)


class _NotNumeric(Exception):
    pass


def as_sympy(v):
    """A value as SymPy (Python numbers and bools from the numeric fast path included)."""
    if isinstance(v, sp.Basic):
        return v
    if isinstance(v, bool):
        return sp.true if v else sp.false
    if isinstance(v, int):
        return sp.Integer(v)
    if isinstance(v, float):
        return sp.Float(v)
    to_sympy_ = getattr(v, "_sympy_", None)  # the engine's linear-form times
    return to_sympy_() if to_sympy_ is not None else v


def python_value(v):
    """A resolved value as a Python number, bool or CHARACTER string; _NotNumeric when it is
    symbolic."""
    if isinstance(v, (bool, int, float, str)):
        return v
    if v is sp.true or v is sp.false:
        return bool(v)
    if isinstance(v, sp.Basic):
        if v.is_Integer:
            return int(v)
        if v.is_Number:
            return float(v)
    raise _NotNumeric


def _trunc_div(a: int, b: int) -> int:
    q = abs(a) // abs(b)
    return q if (a >= 0) == (b > 0) else -q


_NUM_BINOPS = {
    "+": operator.add, "-": operator.sub, "*": operator.mul, "**": operator.pow,
    "EQ": operator.eq, "NE": operator.ne, "LT": operator.lt, "LE": operator.le,
    "GT": operator.gt, "GE": operator.ge,
    "AND": lambda a, b: bool(a) and bool(b), "OR": lambda a, b: bool(a) or bool(b),
    "EQV": lambda a, b: bool(a) == bool(b), "NEQV": lambda a, b: bool(a) != bool(b),
}


def _fortran_mod(a, b):
    if isinstance(a, int) and isinstance(b, int):
        return a - _trunc_div(a, b) * b
    return math.fmod(a, b)


def _real_part(a) -> float:
    return a.real if isinstance(a, complex) else float(a)


def _fortran_sign(a, b):
    """SIGN(A, B): |A| with the sign of B (B = 0 counts as positive, F77 15.10)."""
    return abs(a) if b >= 0 else -abs(a)


def _nint(a) -> int:
    return int(math.copysign(math.floor(abs(a) + 0.5), a))


_NUM_INTRINSICS = {
    "MOD": _fortran_mod, "DMOD": _fortran_mod, "MIN": min, "MIN0": min, "AMIN1": min,
    "DMIN1": min, "MAX": max, "MAX0": max, "AMAX1": max, "DMAX1": max,
    "ABS": abs, "IABS": abs, "DABS": abs, "INT": lambda a: int(a), "IFIX": lambda a: int(a),
    "IDINT": lambda a: int(a), "NINT": _nint, "IDNINT": _nint,
    "AINT": lambda a: float(math.trunc(a)), "DINT": lambda a: float(math.trunc(a)),
    "ANINT": lambda a: float(_nint(a)), "DNINT": lambda a: float(_nint(a)),
    "DIM": lambda a, b: max(a - b, 0), "IDIM": lambda a, b: max(a - b, 0),
    "DDIM": lambda a, b: max(a - b, 0), "DPROD": lambda a, b: float(a) * float(b),
    "FLOAT": float, "REAL": _real_part, "DBLE": _real_part, "DFLOAT": float, "SNGL": float,
    "DREAL": _real_part, "AIMAG": lambda z: complex(z).imag, "DIMAG": lambda z: complex(z).imag,
    "CMPLX": complex, "DCMPLX": complex, "CONJG": lambda z: complex(z).conjugate(),
    "DCONJG": lambda z: complex(z).conjugate(), "CABS": abs, "CDABS": abs, "ZABS": abs,
    "SQRT": math.sqrt, "DSQRT": math.sqrt, "EXP": math.exp, "DEXP": math.exp,
    "LOG": math.log, "ALOG": math.log, "DLOG": math.log,
    "IEOR": lambda a, b: a ^ b, "IAND": lambda a, b: a & b, "IOR": lambda a, b: a | b,
    "ISHFT": _ishft,
    "SIGN": _fortran_sign, "ISIGN": _fortran_sign, "DSIGN": _fortran_sign,
    "LOG10": math.log10, "ALOG10": math.log10, "DLOG10": math.log10,
    "SIN": math.sin, "DSIN": math.sin, "COS": math.cos, "DCOS": math.cos,
    "TAN": math.tan, "DTAN": math.tan, "ATAN": math.atan, "DATAN": math.atan,
    "ATAN2": math.atan2, "DATAN2": math.atan2,
}


def is_numeric_intrinsic(name: str) -> bool:
    """Whether ``name`` is an intrinsic the numeric fast path computes."""
    return name in _NUM_INTRINSICS


def _compare_characters(op: str, a, b) -> bool:
    """A relation between CHARACTER values: the shorter is padded with blanks (F77 6.3.5),
    so trailing blanks do not count. Anything else on characters is not followed."""
    if not (isinstance(a, str) and isinstance(b, str)) or op not in ("EQ", "NE", "LT", "LE",
                                                                       "GT", "GE"):
        raise _NotNumeric
    return _NUM_BINOPS[op](a.rstrip(" "), b.rstrip(" "))


# what an evaluator raises where the value is not a number (``numeric_value`` gives None)
_FAILS = (_NotNumeric, ZeroDivisionError, OverflowError, ValueError, TypeError)


def numeric_value(e: ast.Expr, table: SymbolTable, resolve: Resolver | None = None):
    """The value of ``e`` as a Python number or bool when every value it reads is a number —
    the fast path of :func:`to_sympy`, with the same Fortran semantics; None otherwise."""
    try:
        return _evaluator(e, table)(resolve)
    except _FAILS:
        return None


def numeric_evaluator(e: ast.Expr, table: SymbolTable) -> Callable:
    """:func:`numeric_value` of ``e`` without its wrapping: a function of a resolver that
    raises one of :data:`NOT_NUMERIC` where numeric_value gives None (for a caller that
    evaluates the same expressions again and again and catches that itself)."""
    return _evaluator(e, table)


# expression → its evaluator: the stepped statements and conditions of a loop are the same
# expressions at every iteration (keyed by identity; the expression is kept so its id is not
# reused while it is here)
_EVALUATORS: dict[tuple[int, int], tuple] = {}


def _evaluator(e: ast.Expr, table: SymbolTable) -> Callable:
    key = (id(e), id(table))
    got = _EVALUATORS.get(key)
    if got is None:
        if len(_EVALUATORS) > 200_000:
            _EVALUATORS.clear()
        got = _EVALUATORS[key] = (e, table, _compile(e, table))
    return got[2]


def _not_numeric(resolve):
    raise _NotNumeric


def _compile(e: ast.Expr, table: SymbolTable) -> Callable:
    """``e`` as a function of a resolver: the walk over its nodes done once. It asks the
    resolver for the same keys in the same order, and converts their values the same way,
    as a walk at every evaluation would (a decision's reads are logged in that order)."""
    if isinstance(e, (ast.Num, ast.Logical, ast.Str)):
        const = e.value
        return lambda resolve: const
    if isinstance(e, ast.Var):
        return _compile_var(e, table)
    if isinstance(e, ast.UnOp):
        f = _compile(e.operand, table)
        if e.op == "NOT":
            return lambda resolve: not f(resolve)
        return (lambda resolve: -f(resolve)) if e.op == "-" else f
    if isinstance(e, ast.BinOp):
        return _compile_binop(e, table)
    if isinstance(e, ast.Ref):
        return _compile_ref(e, table)
    return _not_numeric


def _compile_var(e: ast.Var, table: SymbolTable) -> Callable:
    name = e.name
    sym = table.symbols.get(name)
    if sym is not None and sym.constant is not None:
        const = sym.constant
        fallback = lambda resolve: const  # noqa: E731
    elif sym is not None and sym.kind == "parameter" and sym.value is not None:
        fallback = _parameter(_compile(sym.value, table))
    else:
        fallback = _not_numeric

    def var(resolve):
        value = resolve(name) if resolve else None
        if value is not None:
            kind = type(value)
            return value if kind is float or kind is int else python_value(value)
        return fallback(resolve)
    return var


def _parameter(value: Callable) -> Callable:
    """A PARAMETER's evaluator: its value worked out once. Every name it reads is a PARAMETER
    or a constant (F77 8.6) whose value no resolver gives (the frame's says None for them:
    ``Frame.resolver``), so it is the same number at every evaluation; RANDLC reads R23,
    T23, R46, T46 (``0.5D0 ** 23`` ...) a dozen times a call. When it cannot be worked out
    without a resolver, it is evaluated as before, at each reference."""
    try:
        const = value(None)
    except _FAILS:
        return value
    return lambda resolve: const


def _compile_binop(e: ast.BinOp, table: SymbolTable) -> Callable:
    fa, fb, op = _compile(e.left, table), _compile(e.right, table), e.op
    fn = _NUM_BINOPS.get(op)
    if fn is not None:  # arithmetic, a relation, a connective: the division's test not made
        def operation(resolve):
            a, b = fa(resolve), fb(resolve)
            if isinstance(a, str) or isinstance(b, str):
                return _compare_characters(op, a, b)
            return fn(a, b)
        return operation

    def binop(resolve):
        a, b = fa(resolve), fb(resolve)
        if isinstance(a, str) or isinstance(b, str):
            return _compare_characters(op, a, b)
        if op == "/":
            if isinstance(a, int) and isinstance(b, int) and not isinstance(a, bool):
                return _trunc_div(a, b)
            return a / b
        raise _NotNumeric
    return binop


def _compile_ref(e: ast.Ref, table: SymbolTable) -> Callable:
    name = e.name
    sym = table.symbols.get(name)
    if (sym is not None and sym.type == "CHARACTER" and not sym.is_array and len(e.args) == 1
            and isinstance(e.args[0], ast.Range)):
        return _substring(e, sym, table)
    fs = [_compile(a, table) for a in e.args]
    if sym is not None and sym.is_array:
        if len(fs) == 1:
            return _element1(name, fs[0])

        def element(resolve):
            args = [f(resolve) for f in fs]
            if not resolve:
                raise _NotNumeric
            if all(type(a) is int for a in args):  # element_key of their sp.Integer, quicker
                key = f"{name}({','.join(map(str, args))})"
            else:
                key = element_key(name, [sp.Integer(a) for a in args])
            value = resolve(key)
            if value is None:
                raise _NotNumeric
            return python_value(value)
        return element
    sf = table.statement_functions.get(name)
    if sf is not None:
        return _statement_function(sf, sym, fs, _compile(sf.body, table))
    fn = _NUM_INTRINSICS.get(name)
    if fn is not None:
        if len(fs) == 1:  # INT(T1), DBLE(X): no argument list to build
            f0 = fs[0]
            return lambda resolve: fn(f0(resolve))
        return lambda resolve: fn(*[f(resolve) for f in fs])

    def function(resolve):
        value = _function_value(resolve, e, [f(resolve) for f in fs])
        if value is None:
            raise _NotNumeric
        return python_value(value)
    return function


def _substring(e: ast.Ref, sym, table: SymbolTable) -> Callable:
    """``NAME(lo:hi)`` of a CHARACTER variable: its characters lo to hi (F77 5.7), the value
    blank-padded to its declared length."""
    rng = e.args[0]
    lo = _compile(rng.lo, table) if rng.lo is not None else (lambda resolve: 1)
    hi = _compile(rng.hi, table) if rng.hi is not None else None
    whole = _compile(ast.Var(e.name, e.loc), table)

    def substring(resolve):
        text = whole(resolve)
        if type(text) is not str:
            raise _NotNumeric
        length = sym.char_len or len(text)
        first, last = lo(resolve), hi(resolve) if hi is not None else length
        if type(first) is not int or type(last) is not int or not 1 <= first <= last + 1 \
                or last > length:
            raise _NotNumeric  # out of its bounds: not a value interp gives
        return text.ljust(length)[first - 1:last]
    return substring


def _statement_function(sf: ast.StatementFunction, sym, fs: list[Callable],
                        body: Callable) -> Callable:
    """The evaluator of a statement function's reference: its expression, the dummies the
    arguments' values, every other name as the unit has it (F77 8.1.2)."""
    integer = sym is not None and sym.type == "INTEGER"

    def stmtfn(resolve):
        inner = _bind(sf.args, [f(resolve) for f in fs], resolve)
        value = body(inner)
        return int(value) if integer and type(value) is float else value
    return stmtfn


def _bind(dummies: list[str], values: list, resolve: Resolver | None) -> Resolver:
    """``resolve`` with the statement function's dummies bound to ``values``."""
    bound = dict(zip(dummies, values))

    def inner(key: str):
        if key in bound:
            return bound[key]
        return resolve(key) if resolve else None
    inner.function = getattr(resolve, "function", None)
    return inner


def _element1(name: str, f: Callable) -> Callable:
    """The evaluator of an element of a one-dimensional array, ``element`` above for one
    subscript (most of the elements a stepped statement reads)."""
    def element(resolve):
        i = f(resolve)
        if not resolve:
            raise _NotNumeric
        value = resolve(f"{name}({i})" if type(i) is int else element_key(name, [sp.Integer(i)]))
        if value is None:
            raise _NotNumeric
        return python_value(value)
    return element


# what evaluating over a dictionary of Python values raises where ``numeric_value`` gives None
NOT_NUMERIC = _FAILS + (KeyError,)


def to_sympy(e: ast.Expr, table: SymbolTable, resolve: Resolver | None = None) -> sp.Expr:
    """Convert an expression to SymPy; ``resolve(name)`` may supply a variable's value."""
    try:
        return _to_sympy(e, table, resolve)
    except ZeroDivisionError:
        raise SymbolicError(f"{expr_text(e)} divides by zero", e.loc) from None
    except (TypeError, ValueError):  # SymPy refuses a logical value in arithmetic, or the reverse
        raise SymbolicError(f"{expr_text(e)} mixes logical and numeric values", e.loc) from None


def _to_sympy(e: ast.Expr, table: SymbolTable, resolve: Resolver | None) -> sp.Expr:
    conv = lambda x: to_sympy(x, table, resolve)  # noqa: E731
    if isinstance(e, ast.Num):
        if isinstance(e.value, complex):
            return sp.Float(e.value.real) + sp.I * sp.Float(e.value.imag)
        return sp.Integer(e.value) if e.kind == "INTEGER" else sp.Float(e.value)
    if isinstance(e, ast.Logical):
        return sp.true if e.value else sp.false
    if isinstance(e, ast.Var):
        value = resolve(e.name) if resolve else None
        if value is not None:
            return as_sympy(value)
        sym = table.symbols.get(e.name)
        if sym is not None and sym.constant is not None:
            return sp.Integer(sym.constant)
        if sym is not None and sym.kind == "parameter" and sym.value is not None:
            return conv(sym.value)
        ftype = sym.type if sym else table.lookup(e.name, e.loc).type
        return fortran_symbol(e.name, ftype)
    if isinstance(e, ast.UnOp):
        v = conv(e.operand)
        return sp.Not(v) if e.op == "NOT" else (-v if e.op == "-" else v)
    if isinstance(e, ast.BinOp):
        return _binop(e, conv(e.left), conv(e.right), table)
    if isinstance(e, ast.Ref):
        return _ref(e, table, conv, resolve)
    raise SymbolicError(f"{expr_text(e)} has no numeric value", e.loc)


def _binop(e: ast.BinOp, a: sp.Expr, b: sp.Expr, table: SymbolTable) -> sp.Expr:
    op = e.op
    if op == "+":
        return a + b
    if op == "-":
        return a - b
    if op == "*":
        return a * b
    if op == "/":
        if expr_type(e, table) == "INTEGER":
            if b == 0:
                raise SymbolicError("integer division by zero", e.loc)
            return int_div(a, b)
        return a / b
    if op == "**":
        return a**b
    rel = {"EQ": sp.Eq, "NE": sp.Ne, "LT": sp.Lt, "LE": sp.Le, "GT": sp.Gt, "GE": sp.Ge}
    if op in rel:
        return rel[op](a, b)
    if op == "AND":
        return sp.And(a, b)
    if op == "OR":
        return sp.Or(a, b)
    if op == "EQV":
        return sp.Equivalent(a, b)
    if op == "NEQV":
        return sp.Xor(a, b)
    raise SymbolicError(f"operator {op} has no numeric value here", e.loc)


_SYMPY_MATH = {
    "LOG10": lambda a: sp.log(a, 10), "ALOG10": lambda a: sp.log(a, 10),
    "DLOG10": lambda a: sp.log(a, 10), "SIN": sp.sin, "DSIN": sp.sin, "COS": sp.cos,
    "DCOS": sp.cos, "TAN": sp.tan, "DTAN": sp.tan, "ATAN": sp.atan, "DATAN": sp.atan,
    "ATAN2": lambda a, b: sp.atan2(a, b), "DATAN2": lambda a, b: sp.atan2(a, b),
}


def _ref(e: ast.Ref, table: SymbolTable, conv, resolve: Resolver | None) -> sp.Expr:
    name = e.name
    sym = table.symbols.get(name)
    if sym is not None and sym.is_array:
        value = resolve(element_key(name, [conv(a) for a in e.args])) if resolve else None
        if value is not None:
            return as_sympy(value)
        raise SymbolicError(
            f"the value of array element {expr_text(e)} is not known before run time", e.loc,
            hint="interp follows scalar values; pass the value with --set or use a scalar",
        )
    args = [conv(a) for a in e.args]
    sf = table.statement_functions.get(name)
    if sf is not None:  # its expression, the dummies the arguments (F77 8.1.2)
        value = _to_sympy(sf.body, table, _bind(sf.args, args, resolve))
        return assigned_value(value, sym.type) if sym is not None else value
    if name in ("MOD", "DMOD") and len(args) == 2:
        return fortran_mod(*args)
    if name in ("MIN", "MIN0", "AMIN1", "DMIN1"):
        return sp.Min(*args)
    if name in ("MAX", "MAX0", "AMAX1", "DMAX1"):
        return sp.Max(*args)
    if name in ("ABS", "IABS", "DABS"):
        return sp.Abs(args[0])
    if name in ("INT", "IFIX", "IDINT"):
        a = args[0]
        return sp.Integer(int(a)) if a.is_Number else sp.floor(a)
    if name in ("NINT", "IDNINT"):
        a = args[0]
        if a.is_Number:  # rounds half away from zero
            return sp.Integer(int(sp.sign(a)) * int(sp.floor(abs(a) + sp.Rational(1, 2))))
        return sp.floor(a + sp.Rational(1, 2))
    if name in ("FLOAT", "REAL", "DBLE", "DFLOAT", "SNGL", "DREAL"):
        return sp.re(args[0]) if expr_type(e.args[0], table) in COMPLEX_TYPES else args[0]
    if name in ("AIMAG", "DIMAG"):
        return sp.im(args[0])
    if name in ("CMPLX", "DCMPLX"):
        return args[0] + sp.I * args[1] if len(args) > 1 else args[0]
    if name in ("CONJG", "DCONJG"):
        return sp.conjugate(args[0])
    if name in ("CABS", "CDABS", "ZABS"):
        return sp.Abs(args[0])
    if name in ("SQRT", "DSQRT"):
        return sp.sqrt(args[0])
    if name in ("EXP", "DEXP"):
        return sp.exp(args[0])
    if name in ("LOG", "ALOG", "DLOG"):
        return sp.log(args[0])
    if name in ("IEOR", "IAND", "IOR", "ISHFT") and len(args) == 2:
        return _bitwise(name, *args)
    if name in ("SIGN", "ISIGN", "DSIGN") and len(args) == 2:
        return sp.Piecewise((sp.Abs(args[0]), args[1] >= 0), (-sp.Abs(args[0]), True))
    if name in ("DIM", "IDIM", "DDIM") and len(args) == 2:
        return sp.Max(args[0] - args[1], 0)
    if name in ("AINT", "DINT"):
        return sp.sign(args[0]) * sp.floor(sp.Abs(args[0]))
    if name in _SYMPY_MATH:
        return _SYMPY_MATH[name](*args)
    value = _function_value(resolve, e, args)
    if value is not None:
        return as_sympy(value)
    raise NotComputable(f"the value of {expr_text(e)} is not known before run time", e.loc,
                        hint="interp follows values it can compute from the source")


def assigned_value(value, target_type: str):
    """``value`` as an assignment to a variable of ``target_type`` stores it (F77 10.1):
    an INTEGER variable gets INT(value), truncated toward zero (``floor`` for a symbolic
    value, exact for the non-negative values it is used on); a REAL or DOUBLE variable
    gets the real part of a complex."""
    kind = type(value)
    if kind is int or (kind is float and target_type != "INTEGER"):  # as the tests below say
        return value
    if isinstance(value, bool) or value is sp.true or value is sp.false:
        return value
    if isinstance(value, complex) and target_type not in COMPLEX_TYPES:
        value = value.real
    if target_type != "INTEGER":
        return value
    if isinstance(value, float):
        return math.trunc(value) if math.isfinite(value) else value
    if isinstance(value, sp.Basic) and value.is_number and value.is_real and not value.is_Integer:
        return sp.Integer(int(value)) if value.is_finite else value  # int() truncates
    if isinstance(value, sp.Expr) and not value.is_number and value.is_integer is not True:
        return sp.floor(value)
    return value


def element_key(name: str, indices: list[sp.Expr]) -> str:
    """The key under which the value of ``NAME(i, j)`` is tracked (constant indices only)."""
    if all(i.is_Integer for i in indices):
        return f"{name}({','.join(str(int(i)) for i in indices)})"
    return f"{name}(?)"


@lru_cache(maxsize=4096)
def trip_count(start: sp.Expr, stop: sp.Expr, step: sp.Expr | None) -> sp.Expr:
    """F77 DO trip count: MAX(INT((stop - start + step) / step), 0)."""
    step = sp.Integer(1) if step is None else step
    span = stop - start + step
    if span.is_Number and step.is_Number:
        return sp.Max(0, int_div(sp.Integer(int(span)), sp.Integer(int(step))) if span.is_Integer
                      and step.is_Integer else sp.floor(span / step))
    if step == 1:
        return sp.Max(0, span)
    return _cyclic_trip_count(span, step) or sp.Max(0, sp.floor(span / step))


def _cyclic_trip_count(span: sp.Expr, step: sp.Expr) -> sp.Expr | None:
    """``floor(span / step)`` built without SymPy's evaluation where it is known to be that:
    ``span = N + c`` for a positive integer symbol N and whole c >= -1, ``step`` a whole number
    above 1 that does not divide c. Such a floor has no integer part to take out and is never
    negative, so ``Max(0, floor(..))`` evaluates to it; SymPy spends a few ms proving both per
    loop, and a cyclic distribution (``DO I = ME+1, N-1, NP``) has one per process
    (tests/application/test_expr.py holds the two equal)."""
    if not (step.is_Integer and step > 1 and span.is_Add and len(span.args) == 2):
        return None
    c, n = sorted(span.args, key=lambda t: not t.is_Number)
    if not (c.is_Integer and c >= -1 and c % step != 0 and n.is_Symbol
            and n.is_integer and n.is_positive):
        return None
    return sp.floor(span / step, evaluate=False)
