"""Operation counts by the classes of Table 1 (core paper) — what a Seq AAU carries.

Counting rules (one place, so tests and the engine agree):

* ``+ -`` → ``int_add``/``real_add``; ``*`` → ``int_mul``/``real_mul``; ``/`` → ``int_div`` or
  ``real_div`` by the result type; a comparison or logical operator is one add/sub of its
  operands' type (a compare is a subtract); unary minus of a variable is one add/sub.
* ``x**k`` with an integer literal k costs the multiplications of binary exponentiation
  (``floor(log2 k) + popcount(k) - 1``); any other power is a ``pow`` library call.
* A mixed operation (an INTEGER operand in a REAL/DOUBLE expression, or a REAL value stored in
  an INTEGER) adds one ``int_to_real`` / ``real_to_int``; literals are converted by the compiler
  and cost nothing.
* Every read of a variable or array element is a ``fetch``, every assignment a ``store``;
  PARAMETER constants are folded and not fetched. Index expressions are counted, address
  arithmetic is not.
* COMPLEX and DOUBLE COMPLEX arithmetic is counted as the real operations it is made of (the
  paper's Table 1 has no complex row; this is interp's assumption, stated in the specs and
  README): complex ± complex = 2 adds; complex × complex = 4 muls + 2 adds; complex / complex
  = (ac+bd)/(c²+d²), (bc−ad)/(c²+d²): 6 muls + 3 adds + 2 divs; with one real operand, ± is
  1 add, × 2 muls, / 2 divs; a complex compare is 2 compares, a complex negation 2 adds.
  CONJG is 1 add, CMPLX/REAL/AIMAG of a complex are free, ABS of a complex is 2 muls + 1 add
  + a sqrt. A complex value is one fetch or store (of its 8 or 16 bytes).
* Intrinsics are library calls (``float`` for FLOAT/DBLE/REAL as in Table 1, ``abs``, ``sqrt``
  ...); NX/2 and MPI queries (``mynode()``...) are machine-specific operations; a user FUNCTION
  call is a ``call``; a statement function is expanded in place.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field, replace

from interp.application import ast
from interp.application.catalog import intrinsics, library_calls, not_modelled
from interp.application.expr import expr_type
from interp.application.symbols import COMPLEX_TYPES, NUMERIC_RANK, SymbolTable
from interp.errors import InterpError

ARITH_FIELDS = (
    "int_add", "real_add", "int_mul", "real_mul", "int_div", "real_div",
    "int_to_real", "real_to_int", "fetch", "store", "calls",
)


@dataclass
class OpCounts:
    """Counts of Table 1 operation classes; ``library``/``nx`` keyed by the spec's cost name."""

    int_add: int = 0
    real_add: int = 0
    int_mul: int = 0
    real_mul: int = 0
    int_div: int = 0
    real_div: int = 0
    int_to_real: int = 0
    real_to_int: int = 0
    fetch: int = 0
    store: int = 0
    calls: int = 0
    call_args: int = 0
    library: Counter = field(default_factory=Counter)
    nx: Counter = field(default_factory=Counter)
    user_calls: list[str] = field(default_factory=list)
    user_args: list[tuple] = field(default_factory=list)  # each reference's actual arguments

    def __iadd__(self, other: "OpCounts") -> "OpCounts":
        for f in ARITH_FIELDS + ("call_args",):
            setattr(self, f, getattr(self, f) + getattr(other, f))
        self.library.update(other.library)
        self.nx.update(other.nx)
        self.user_calls.extend(other.user_calls)
        self.user_args.extend(other.user_args)
        return self

    def __add__(self, other: "OpCounts") -> "OpCounts":
        out = OpCounts()
        out += self
        out += other
        return out

    def is_empty(self) -> bool:
        return not any(getattr(self, f) for f in ARITH_FIELDS) and not self.library and not self.nx

    def to_json(self) -> dict:
        out = {f: getattr(self, f) for f in ARITH_FIELDS + ("call_args",) if getattr(self, f)}
        if self.library:
            out["library"] = dict(sorted(self.library.items()))
        if self.nx:
            out["nx"] = dict(sorted(self.nx.items()))
        if self.user_calls:
            out["user_calls"] = list(self.user_calls)
        return out


def _is_real(t: str) -> bool:
    return t in ("REAL", "DOUBLE", "COMPLEX", "DCOMPLEX")


# Complex arithmetic as real operations (see the module docstring): by operator, for two
# complex operands and for a complex with a real one.
COMPLEX_BINOP_OPS = {
    ("+", 2): {"real_add": 2}, ("+", 1): {"real_add": 1},
    ("-", 2): {"real_add": 2}, ("-", 1): {"real_add": 1},
    ("*", 2): {"real_mul": 4, "real_add": 2}, ("*", 1): {"real_mul": 2},
    ("/", 2): {"real_mul": 6, "real_add": 3, "real_div": 2}, ("/", 1): {"real_div": 2},
}
COMPLEX_COMPARE_OPS = {"real_add": 2}
# The complex intrinsics' catalog cost names, as real operations and library calls.
COMPLEX_PARTS_OPS = {
    "part": {}, "conj": {"real_add": 1}, "cabs": {"real_mul": 2, "real_add": 1, "sqrt": 1},
}


def _count(ops: "OpCounts", table: dict[str, int], times: int = 1) -> None:
    for name, n in table.items():
        if name in ARITH_FIELDS:
            setattr(ops, name, getattr(ops, name) + n * times)
        else:
            ops.library[name] += n * times


def _is_literal(e: ast.Expr) -> bool:
    if isinstance(e, ast.UnOp):
        return _is_literal(e.operand)
    return isinstance(e, (ast.Num, ast.Logical, ast.Str))


def _substitute(e: ast.Expr, binding: dict[str, ast.Expr]) -> ast.Expr:
    """``e`` with each variable named in ``binding`` replaced by its expression."""
    if isinstance(e, ast.Var):
        return binding.get(e.name, e)
    if isinstance(e, ast.Ref):
        return replace(e, args=[_substitute(a, binding) for a in e.args])
    if isinstance(e, ast.BinOp):
        return replace(e, left=_substitute(e.left, binding), right=_substitute(e.right, binding))
    if isinstance(e, ast.UnOp):
        return replace(e, operand=_substitute(e.operand, binding))
    return e


def _power_muls(k: int) -> int:
    return 0 if k < 2 else k.bit_length() - 1 + bin(k).count("1") - 1


def _complex_cost(e: ast.Ref, cost: str, table: SymbolTable) -> str:
    """A generic intrinsic on a complex argument: REAL/DBLE pick a part, ABS is the modulus."""
    if expr_type(e.args[0], table) not in COMPLEX_TYPES:
        return cost
    return {"float": "part", "abs": "cabs"}.get(cost, cost)


def _check_same_type(e: ast.Ref, table: SymbolTable) -> None:
    """A generic intrinsic of several arguments (MOD, MIN, MAX, SIGN, DIM, ATAN2) takes them
    of one type (F77 15.3, 15.10; gfortran refuses ``MOD(I, X)``, an INTEGER with a REAL):
    interp would otherwise price and evaluate an operation the compiler never builds."""
    types = [expr_type(a, table) for a in e.args]
    if len({x == "INTEGER" for x in types}) < 2 or any(x not in NUMERIC_RANK for x in types):
        return  # (REAL with DOUBLE: gfortran widens; a LOGICAL: the bound's own error)
    wide = max(types, key=lambda x: NUMERIC_RANK.get(x, -1))
    narrow = next(x for x in types if x != wide)
    conv = {"REAL": "REAL", "DOUBLE": "DBLE", "COMPLEX": "CMPLX"}.get(wide)
    texts = [ast.expr_text(a) for a in e.args]
    texts = [x[1:-1] if isinstance(a, ast.BinOp) and x.startswith("(") else x  # its own (…)
             for a, x in zip(e.args, texts)]
    example = ", ".join(f"{conv}({x})" if t != wide and conv else x for x, t in zip(texts, types))
    raise InterpError(
        f"the arguments of {e.name} are {types[0]} and "
        f"{next(x for x in types if x != types[0])}: Fortran 77 requires them of one type",
        e.loc, hint=f"convert the {narrow} one with REAL(), DBLE() or INT()"
                    + (f", e.g. {e.name}({example})" if conv else ""))


class OpCounter:
    """Counts the operations of expressions and statements within one program unit."""

    def __init__(self, table: SymbolTable, stmt_functions: dict[str, ast.StatementFunction]):
        self.table = table
        self.stmt_functions = stmt_functions

    # ---- expressions ----
    def expr(self, e: ast.Expr) -> OpCounts:
        ops = OpCounts()
        self._expr(e, ops)
        return ops

    def _add(self, ops: OpCounts, t: str) -> None:
        if _is_real(t):
            ops.real_add += 1
        else:
            ops.int_add += 1

    def _convert_mixed(self, ops: OpCounts, result: str, operand: ast.Expr, otype: str) -> None:
        if _is_real(result) and otype == "INTEGER" and not _is_literal(operand):
            ops.int_to_real += 1

    def _expr(self, e: ast.Expr, ops: OpCounts) -> None:
        t = self.table
        if isinstance(e, ast.Var):
            sym = t.lookup(e.name, e.loc)
            if sym.kind != "parameter" and sym.constant is None:
                ops.fetch += 1
        elif isinstance(e, ast.Ref):
            self._ref(e, ops)
        elif isinstance(e, ast.UnOp):
            self._expr(e.operand, ops)
            if e.op == "NOT":
                ops.int_add += 1
            elif e.op == "-" and not _is_literal(e.operand):
                otype = expr_type(e.operand, t)
                if otype in COMPLEX_TYPES:
                    _count(ops, COMPLEX_BINOP_OPS[("-", 2)])
                else:
                    self._add(ops, otype)
        elif isinstance(e, ast.BinOp):
            self._binop(e, ops)
        elif isinstance(e, ast.Range):
            for part in (e.lo, e.hi):
                if part is not None:
                    self._expr(part, ops)
        elif isinstance(e, ast.ImpliedDo):
            for item in e.items:
                self._expr(item, ops)

    def _binop(self, e: ast.BinOp, ops: OpCounts) -> None:
        t = self.table
        self._expr(e.left, ops)
        if e.op == "**" and isinstance(e.right, ast.Num) and e.right.kind == "INTEGER":
            ops_type = expr_type(e.left, t)
            n = _power_muls(int(e.right.value))
            if ops_type in COMPLEX_TYPES:
                _count(ops, COMPLEX_BINOP_OPS[("*", 2)], n)
            elif _is_real(ops_type):
                ops.real_mul += n
            else:
                ops.int_mul += n
            return
        self._expr(e.right, ops)
        lt, rt = expr_type(e.left, t), expr_type(e.right, t)
        if e.op == "//":
            return
        if e.op in ("AND", "OR", "EQV", "NEQV"):
            ops.int_add += 1
            return
        result = expr_type(e, t) if e.op not in ast.RELATIONAL else (
            "REAL" if _is_real(lt) or _is_real(rt) else "INTEGER")
        self._convert_mixed(ops, result, e.left, lt)
        self._convert_mixed(ops, result, e.right, rt)
        if lt in COMPLEX_TYPES or rt in COMPLEX_TYPES:
            self._complex_binop(e.op, lt, rt, ops)
            return
        if e.op in ("+", "-") or e.op in ast.RELATIONAL:
            self._add(ops, result)
        elif e.op == "*":
            if _is_real(result):
                ops.real_mul += 1
            else:
                ops.int_mul += 1
        elif e.op == "/":
            if _is_real(result):
                ops.real_div += 1
            else:
                ops.int_div += 1
        elif e.op == "**":
            ops.library["pow"] += 1

    def _complex_binop(self, op: str, lt: str, rt: str, ops: OpCounts) -> None:
        if op in ast.RELATIONAL:
            _count(ops, COMPLEX_COMPARE_OPS)
        elif op == "**":
            ops.library["pow"] += 1
        else:
            _count(ops, COMPLEX_BINOP_OPS[(op, (lt in COMPLEX_TYPES) + (rt in COMPLEX_TYPES))])

    def _ref(self, e: ast.Ref, ops: OpCounts) -> None:
        t = self.table
        sym = t.symbols.get(e.name)
        if sym is not None and sym.is_array:
            _check_rank(sym, e)
            ops.fetch += 1
            for a in e.args:
                self._expr(a, ops)
            return
        if e.name in self.stmt_functions:  # expanded in place: dummies become the arguments
            sf = self.stmt_functions[e.name]
            self._expr(_substitute(sf.body, dict(zip(sf.args, e.args))), ops)
            return
        for a in e.args:
            self._expr(a, ops)
        intr = intrinsics().get(e.name)
        call = library_calls().get(e.name)
        if intr is not None and (sym is None or sym.kind == "intrinsic"):
            if intr.type == "arg":
                _check_same_type(e, t)
            cost = _complex_cost(e, intr.cost, t) if e.args else intr.cost
            if cost in COMPLEX_PARTS_OPS:
                _count(ops, COMPLEX_PARTS_OPS[cost])
                for a in e.args:  # CMPLX(I, J): integer parts are converted
                    self._convert_mixed(ops, "REAL", a, expr_type(a, t))
            else:
                ops.library[cost] += 1
        elif call is not None:
            ops.nx[call.cost or "default"] += 1
        elif e.name not in t.user_units and (refused := not_modelled(e.name, e.loc)):
            raise refused
        elif sym is None or sym.kind in ("function", "external"):
            ops.calls += 1
            ops.call_args += len(e.args)
            ops.user_calls.append(e.name)
            ops.user_args.append(tuple(e.args))
        else:  # a scalar used with arguments: the symbol table said it is not an array
            t.lookup(e.name, e.loc)
            ops.calls += 1
            ops.user_calls.append(e.name)
            ops.user_args.append(tuple(e.args))

    # ---- statements ----
    def assignment(self, s: ast.Assign) -> OpCounts:
        ops = self.expr(s.value)
        target = s.target
        ops.store += 1
        if isinstance(target, ast.Ref):
            _check_element_target(self.table.lookup(target.name, target.loc), target)
            for a in target.args:
                self._expr(a, ops)
        ttype = self.table.lookup(target.name, target.loc).type
        vtype = expr_type(s.value, self.table)
        if not _is_literal(s.value):
            if ttype == "INTEGER" and _is_real(vtype):
                ops.real_to_int += 1
            elif _is_real(ttype) and vtype == "INTEGER":
                ops.int_to_real += 1
        return ops

    def call_args(self, args: list[ast.Expr]) -> OpCounts:
        """Evaluating actual arguments: expressions are computed, plain names are passed."""
        ops = OpCounts()
        for a in args:
            if not isinstance(a, (ast.Var, ast.Num, ast.Str, ast.Logical)) and not (
                isinstance(a, ast.Ref) and self.table.symbols.get(a.name) is not None
                and self.table.symbols[a.name].is_array
            ):
                self._expr(a, ops)
        return ops


def _subscripts(e: ast.Ref) -> list[ast.Expr]:
    """The subscripts of ``e``: a trailing ``lo:hi`` is a substring of the element, not one."""
    return [a for a in e.args if not isinstance(a, ast.Range)]


def _check_rank(sym, e: ast.Ref) -> None:
    """``X(1, 2)`` on a 1-D array: gfortran rejects it; interp used to accept it."""
    given = len(_subscripts(e))
    if given and given != len(sym.dims):
        rank = len(sym.dims)
        where = f" (declared at {sym.loc})" if sym.loc else ""
        raise InterpError(f"{sym.name} has rank {rank}{where}, {given} subscript"
                          f"{'s' * (given != 1)} given", e.loc,
                          hint=f"give {rank} subscript{'s' * (rank != 1)}")


def _check_element_target(sym, target: ast.Ref) -> None:
    """An assignment to ``Y(I)`` needs Y to be an array (or a CHARACTER variable, for a
    substring): a statement function is defined only before the first executable statement,
    so inside the body it is an error (gfortran rejects it too)."""
    if sym.is_array:
        _check_rank(sym, target)
    elif not (sym.type == "CHARACTER" and not _subscripts(target)):
        raise InterpError(
            f"{target.name} is not an array: {target.name}(...) = ... assigns to an element",
            target.loc,
            hint=f"declare it, e.g. {sym.type if sym.type != 'DOUBLE' else 'DOUBLE PRECISION'} "
                 f"{target.name}(N); a statement function is defined only before the first "
                 "executable statement")
