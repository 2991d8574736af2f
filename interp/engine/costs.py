"""Ω for sequential work: Seq op counts, loop and condition overheads, calls, memory accesses.

Every cost is a SymPy expression in seconds, read from the SAG (Table 1 for operators and
overheads, Table 2 for the memory hierarchy). Results are cached per SAU and AAU: a Seq costs
the same every time it runs.
"""

from __future__ import annotations

import sympy as sp

from interp.application import aau as A
from interp.application import ast
from interp.application.expr import names_in
from interp.application.opcount import OpCounts
from interp.engine.timeval import as_time
from interp.system import SAG

# Table 1 class of each counted operation.
_OP_CLASS = {
    "int_add": "add_sub", "real_add": "add_sub", "int_mul": "mul", "real_mul": "mul",
    "int_div": "int_div", "real_div": "real_div",
    "int_to_real": "int_to_real", "real_to_int": "real_to_int",
}


class CostModel:
    """The machine as the engine sees it: op costs of one SAU at one bound (min/max/mid).

    Values are memoised per name: the SAG is immutable, and hashing it per lookup is slow.
    """

    def __init__(self, sag: SAG, sau: str, bound: str = "mid") -> None:
        self.sag, self.sau, self.bound = sag, sau, bound
        self._cache: dict[tuple, object] = {}

    def memo(self, key: tuple, compute):
        """``compute()``, once per key for this cost model (one interpretation)."""
        value = self._cache.get(key)
        if value is None:
            value = self._cache[key] = compute()
        return value

    def op(self, name: str) -> float:
        """Seconds for one operation: ``add_sub``, ``loop.step_fixed``, ``library.sqrt``..."""
        return self.memo(("op", name),
                          lambda: as_time(self.sag.op_seconds(name, self.bound, self.sau)))

    def library(self, group: str, name: str) -> sp.Expr:
        def compute():
            path = f"{self.sau}.p.{group}.{name}"
            if self.sag.has(path):
                return as_time(self.sag.seconds(path, self.bound))
            return self.op("library.default")

        return self.memo(("lib", group, name), compute)

    def memory(self, name: str) -> sp.Expr:
        """``fetch``, ``fetch_miss``, ``store``, ``store_miss`` (Table 2), in seconds."""
        path = f"{self.sau}.m.access.{name}"
        return self.memo(("mem", name), lambda: as_time(self.sag.seconds(path, self.bound))
                          if self.sag.has(path) else 0.0)

    def cache_geometry(self) -> tuple[int, int]:
        """(cache size, block size) in bytes; (0, 1) when the SAU has no cache."""
        def compute():
            size_p, block_p = f"{self.sau}.m.cache.size", f"{self.sau}.m.cache.block"
            if not (self.sag.has(size_p) and self.sag.has(block_p)):
                return 0, 1
            return int(self.sag.value(size_p, self.bound)), int(self.sag.value(block_p, self.bound))

        return self.memo(("cache",), compute)

    def seq_seconds(self, seq_id: int, compute) -> sp.Expr:
        """A Seq AAU's cost, computed once per AAU (it does not change between runs)."""
        return self.memo(("seq", seq_id), compute)


def compute_seconds(ops: OpCounts, cm: CostModel, hit: float = 1.0) -> sp.Expr:
    """Σ count × op cost, plus memory accesses at cache hit ratio ``hit`` (the paper's weighted
    sum of the two hierarchy levels: a miss costs the access plus the miss overhead)."""
    total = 0.0
    for field_name, cls in _OP_CLASS.items():
        n = getattr(ops, field_name)
        if n:
            total += n * cm.op(cls)
    if ops.calls:
        total += ops.calls * cm.op("call.overhead") + ops.call_args * cm.op("call.per_arg")
    for name, n in ops.library.items():
        total += n * cm.library("library", name)
    for name, n in ops.nx.items():
        total += n * cm.library("nx", name)
    if ops.fetch:
        total += ops.fetch * (cm.memory("fetch") + (1 - hit) * cm.memory("fetch_miss"))
    if ops.store:
        total += ops.store * (cm.memory("store") + (1 - hit) * cm.memory("store_miss"))
    return total


def hit_ratio(seq: A.Seq, table, cm: CostModel) -> float:
    """The fraction of a Seq's memory accesses that hit the cache.

    Working-set window: a variable whose reuse distance (distinct accesses between its
    successive accesses, from the augmented symbol table) fits in the cache's blocks hits;
    an array element additionally misses once per cache block it streams through.
    """
    cache, block = cm.cache_geometry()
    if cache == 0:
        return 1.0
    lines = cache // block
    hits = total = 0.0
    for stmt in seq.stmts:
        for name in _accessed(stmt, table):
            sym = table.symbols.get(name)
            if sym is None or sym.kind == "parameter":
                continue
            reuse = sym.reuse_distance
            h = 1.0 if reuse is None or reuse < lines else 0.0
            if sym.is_array:
                h *= 1.0 - min(sym.elem_bytes / block, 1.0)
            hits += h
            total += 1
    return hits / total if total else 1.0


def _accessed(stmt: ast.Stmt, table) -> list[str]:
    if isinstance(stmt, ast.Assign):
        return [*names_in(stmt.value, table), stmt.target.name]
    if isinstance(stmt, ast.Write):
        return [n for item in stmt.items for n in names_in(item, table)]
    return []


def loop_overheads(it: A.Iter, cm: CostModel) -> tuple[sp.Expr, sp.Expr]:
    """(t_fixed, t_per_iter) of Table 1 for a loop, plus evaluating its bounds once."""
    kind = "step" if it.limit_type == "step" else "nostep"
    fixed = cm.op(f"loop.{kind}_fixed") + compute_seconds(it.bound_ops, cm)
    per_iter = cm.op(f"loop.{kind}_per_iter")
    if it.limit_type == "while":  # the condition is evaluated every iteration
        per_iter = cm.op("loop.nostep_per_iter") + compute_seconds(it.bound_ops, cm)
        fixed = cm.op("loop.nostep_fixed")
    return fixed, per_iter


def atomic_conditions(cond: ast.Expr | None) -> int:
    """How many conditions an IF tests: ``C1 .AND. C2`` counts two (the paper's Algorithm 3);
    an ELSE counts one."""
    if cond is None:
        return 1
    if isinstance(cond, ast.BinOp) and cond.op in ("AND", "OR", "EQV", "NEQV"):
        return atomic_conditions(cond.left) + atomic_conditions(cond.right)
    if isinstance(cond, ast.UnOp) and cond.op == "NOT":
        return atomic_conditions(cond.operand)
    return 1


def branch_overhead(branches: list[A.Branch], k: int | None, cm: CostModel) -> sp.Expr:
    """Overhead of reaching branch ``k`` (None: no branch taken) — every condition tested up to
    and including it, plus the branch-taken overhead (core paper, Algorithm 3). Memoised per
    branch list: an IF in a loop is reached once per iteration, its overhead never changes."""
    return cm.memo(("branch", id(branches), k), lambda: _branch_overhead(branches, k, cm))


def _branch_overhead(branches: list[A.Branch], k: int | None, cm: CostModel) -> sp.Expr:
    upto = branches if k is None else branches[: k + 1]
    tested = sum(atomic_conditions(b.cond) for b in upto)
    evaluate = sum((compute_seconds(_operands_only(b.cond_ops, b.cond), cm) for b in upto
                    if b.cond is not None), 0.0)
    taken = cm.op("cond.branch_taken") if k is not None else 0.0
    return tested * cm.op("cond.condition") + taken + evaluate


def _operands_only(ops: OpCounts, cond: ast.Expr | None) -> OpCounts:
    """A condition's arithmetic without the comparisons and connectives themselves, which the
    per-condition overhead already pays for."""
    out = OpCounts()
    out += ops
    n = _connectives(cond)
    take = min(out.int_add, n)
    out.int_add -= take
    out.real_add -= min(out.real_add, n - take)
    return out


def _connectives(cond: ast.Expr | None) -> int:
    if cond is None:
        return 0
    if isinstance(cond, ast.BinOp):
        own = 1 if cond.op in ast.RELATIONAL or cond.op in ("AND", "OR", "EQV", "NEQV") else 0
        return own + _connectives(cond.left) + _connectives(cond.right)
    if isinstance(cond, ast.UnOp):
        return (1 if cond.op == "NOT" else 0) + _connectives(cond.operand)
    return 0
