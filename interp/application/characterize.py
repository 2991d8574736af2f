"""Level-1 characterization beyond the graph (core paper §3.3.2, "Level 1 Parse"):

* critical variables — variables that influence the flow of control (loop indices and bounds,
  conditions) — each with its definition path and the AAUs where it is defined;
* external inputs — values the program READs or uses without ever defining;
* node-dependent values — derived from ``mynode()``/``numnodes()`` (or MPI rank/size);
* the augmented symbol table — per variable, the number of distinct accesses between
  successive accesses to it (the reuse information of the memory model).
"""

from __future__ import annotations

from dataclasses import dataclass

from interp.application import ast
from interp.application.expr import names_in
from interp.errors import SourceLocation


@dataclass
class CriticalVariable:
    name: str
    unit: str
    roles: list[str]
    uses: list[tuple[int, SourceLocation]]
    defined_at: list[tuple[int, SourceLocation, str]]
    definition_path: list[str]  # variables its value is computed from, nearest first
    external: bool
    node_dependent: bool
    from_message: bool

    def to_json(self) -> dict:
        return {
            "name": self.name,
            "unit": self.unit,
            "roles": sorted(set(self.roles)),
            "uses": [{"aau": i, **loc.to_json()} for i, loc in self.uses],
            "defined_at": [{"aau": i, "how": how, **loc.to_json()} for i, loc, how in self.defined_at],
            "definition_path": self.definition_path,
            "external": self.external,
            "node_dependent": self.node_dependent,
            "from_message": self.from_message,
        }


@dataclass
class ExternalInput:
    name: str
    unit: str
    how: str  # read | undefined
    locations: list[SourceLocation]
    critical: bool
    type: str

    def to_json(self) -> dict:
        return {"name": self.name, "unit": self.unit, "how": self.how, "critical": self.critical,
                "type": self.type, "locations": [loc.to_json() for loc in self.locations]}


def _defined_elsewhere(aag, name: str, unit_name: str) -> bool:
    """A COMMON variable given a value in another unit is not an external input."""
    for other in aag.units.values():
        if other.name != unit_name and name in other.definitions:
            sym = other.symbols.symbols.get(name)
            if sym is not None and sym.common is not None:
                return True
    return False


def _closure(unit, name: str) -> list[str]:
    """Variables ``name`` is computed from, breadth first (its definition path)."""
    seen, order, frontier = {name}, [], [name]
    while frontier:
        nxt = []
        for var in frontier:
            for d in unit.definitions.get(var, []):
                for dep in d.depends_on:
                    if dep not in seen:
                        seen.add(dep)
                        order.append(dep)
                        nxt.append(dep)
        frontier = nxt
    return order


def _node_dependent(unit, name: str, path: list[str]) -> bool:
    for var in [name, *path]:
        if any(d.node_source in ("node_id", "num_nodes") for d in unit.definitions.get(var, [])):
            return True
    return False


def _is_value(unit, name: str) -> bool:
    sym = unit.symbols.symbols.get(name)
    return sym is None or (sym.kind in ("variable", "array") and sym.constant is None)


def characterize(aag) -> None:
    """Fill ``aag.critical_variables``, ``aag.external_inputs`` and the reuse distances."""
    externals: list[ExternalInput] = []
    for unit in aag.units.values():
        unit_ext: dict[str, ExternalInput] = {}
        for var, defs in unit.definitions.items():
            reads = [d.loc for d in defs if d.how == "read"]
            if reads:
                sym = unit.symbols.lookup(var) if var in unit.symbols.symbols else None
                unit_ext[var] = ExternalInput(var, unit.name, "read", reads, False,
                                              sym.type if sym else "REAL")
        referenced = set(unit.uses) | set(unit.critical_uses)
        for var in sorted(referenced):
            if var in unit.definitions or not _is_value(unit, var):
                continue
            if _defined_elsewhere(aag, var, unit.name):
                continue
            sym = unit.symbols.symbols.get(var)
            locs = [loc for _, loc in unit.uses.get(var, [])] or [
                loc for _, loc, _ in unit.critical_uses.get(var, [])]
            unit_ext[var] = ExternalInput(var, unit.name, "undefined", locs[:3], False,
                                          sym.type if sym else "REAL")
        crit = []
        for var, uses in unit.critical_uses.items():
            path = _closure(unit, var)
            ext = var in unit_ext or any(p in unit_ext for p in path)
            if var in unit_ext:
                unit_ext[var].critical = True
            for p in path:
                if p in unit_ext:
                    unit_ext[p].critical = True
            defs = unit.definitions.get(var, [])
            crit.append(CriticalVariable(
                name=var, unit=unit.name, roles=[r for _, _, r in uses],
                uses=[(i, loc) for i, loc, _ in uses],
                defined_at=[(d.aau_id, d.loc, d.how) for d in defs],
                definition_path=path,
                external=ext,
                node_dependent=_node_dependent(unit, var, path),
                from_message=any(d.how == "message" for v in [var, *path]
                                 for d in unit.definitions.get(v, [])),
            ))
        aag.critical_variables.extend(sorted(crit, key=lambda c: (c.unit, c.name)))
        externals.extend(unit_ext.values())
        _reuse_distances(unit)
    aag.external_inputs = sorted(externals, key=lambda e: (e.unit, e.name))


# ---- the augmented symbol table -----------------------------------------------------------------


class _Fenwick:
    def __init__(self, n: int) -> None:
        self.tree = [0] * (n + 1)

    def add(self, i: int, delta: int) -> None:
        i += 1
        while i < len(self.tree):
            self.tree[i] += delta
            i += i & -i

    def prefix(self, i: int) -> int:  # sum of [0, i)
        total = 0
        while i > 0:
            total += self.tree[i]
            i -= i & -i
        return total


def _accesses(stmts: list[ast.Stmt], table, out: list[str], loops: list[tuple[int, int]]) -> None:
    """The variable access sequence in textual order; loop bodies recorded as spans."""
    for s in stmts:
        if isinstance(s, ast.Assign):
            out.extend(names_in(s.value, table))
            if isinstance(s.target, ast.Ref):
                for a in s.target.args:
                    out.extend(names_in(a, table))
            out.append(s.target.name)
        elif isinstance(s, ast.CallStmt):
            for a in s.args:
                out.extend(names_in(a, table))
        elif isinstance(s, (ast.Write, ast.Read)):
            for item in s.items:
                out.extend(names_in(item, table))
        elif isinstance(s, ast.DoLoop):
            for e in (s.start, s.stop, s.step):
                if e is not None:
                    out.extend(names_in(e, table))
            body_start = len(out)
            out.append(s.var)
            _accesses(s.body, table, out, loops)
            loops.append((body_start, len(out)))
        elif isinstance(s, (ast.WhileLoop, ast.GotoLoop)):
            body_start = len(out)
            if isinstance(s, ast.WhileLoop):
                out.extend(names_in(s.cond, table))
            _accesses(s.body, table, out, loops)
            loops.append((body_start, len(out)))
        elif isinstance(s, ast.IfBlock):
            for cond, body, _ in s.branches:
                out.extend(names_in(cond, table))
                _accesses(body, table, out, loops)
            if s.else_body:
                _accesses(s.else_body, table, out, loops)


def _reuse_distances(unit) -> None:
    """Mean number of distinct other variables accessed between successive accesses (stack
    distance), counting the wrap-around from one loop iteration to the next."""
    seq: list[str] = []
    loops: list[tuple[int, int]] = []
    _accesses(unit.unit.body, unit.symbols, seq, loops)
    distances: dict[str, list[int]] = {}
    counts: dict[str, int] = {}
    fen = _Fenwick(len(seq))
    last: dict[str, int] = {}
    for i, name in enumerate(seq):
        counts[name] = counts.get(name, 0) + 1
        if name in last:
            distances.setdefault(name, []).append(fen.prefix(i) - fen.prefix(last[name] + 1))
            fen.add(last[name], -1)
        fen.add(i, 1)
        last[name] = i
    for lo, hi in loops:  # from the last access of an iteration to the first of the next
        body = seq[lo:hi]
        first: dict[str, int] = {}
        final: dict[str, int] = {}
        for k, name in enumerate(body):
            first.setdefault(name, k)
            final[name] = k
        for name in first:
            between = set(body[final[name] + 1:]) | set(body[: first[name]])
            between.discard(name)
            distances.setdefault(name, []).append(len(between))
    for name, sym in unit.symbols.symbols.items():
        if name in counts:
            sym.accesses = counts[name]
            d = distances.get(name)
            sym.reuse_distance = round(sum(d) / len(d), 3) if d else None
