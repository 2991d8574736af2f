"""The (augmented) symbol table of a program unit.

Types come from declarations, IMPLICIT rules and F77's default implicit typing (I–N integer,
otherwise real). The level-1 parse later adds, per variable, the reuse information the memory
model needs: the number of distinct accesses between successive accesses to it.
"""

from __future__ import annotations

from collections.abc import Mapping

from dataclasses import dataclass, field

from interp.application import ast
from interp.application.ast import expr_text
from interp.application.catalog import intrinsics, library_calls, mpi_constants
from interp.errors import InterpError, SourceLocation

# DCOMPLEX is DOUBLE COMPLEX (COMPLEX*16): two DOUBLE parts.
TYPE_BYTES = {"INTEGER": 4, "REAL": 4, "DOUBLE": 8, "LOGICAL": 4, "COMPLEX": 8, "DCOMPLEX": 16,
              "CHARACTER": 1}
NUMERIC_RANK = {"INTEGER": 0, "REAL": 1, "DOUBLE": 2, "COMPLEX": 3, "DCOMPLEX": 4}
COMPLEX_TYPES = {"COMPLEX", "DCOMPLEX"}


@dataclass(eq=False)
class Symbol:
    name: str
    type: str
    kind: str = "variable"  # variable | array | parameter | function | external | intrinsic | library
    dims: list[tuple[ast.Expr | None, ast.Expr | None]] | None = None
    char_len: int | None = None
    common: str | None = None
    dummy: bool = False
    explicit: bool = False
    value: ast.Expr | None = None  # PARAMETER value (AST), resolved by the symbolic pass
    constant: int | None = None  # known integer value (PARAMETER or mpif.h)
    loc: SourceLocation | None = None
    reuse_distance: float | None = None
    accesses: int = 0

    @property
    def is_array(self) -> bool:
        return self.dims is not None

    @property
    def elem_bytes(self) -> int:
        size = TYPE_BYTES.get(self.type, 4)
        return (self.char_len or 1) if self.type == "CHARACTER" else size

    def to_json(self) -> dict:
        return {
            "name": self.name,
            "type": self.type,
            "kind": self.kind,
            "shape": [
                [expr_text(lo) if lo is not None else "1", expr_text(hi) if hi is not None else "*"]
                for lo, hi in (self.dims or [])
            ],
            "elem_bytes": self.elem_bytes,
            "common": self.common,
            "dummy": self.dummy,
            "reuse_distance": self.reuse_distance,
            "accesses": self.accesses,
        }


def _default_implicit() -> dict[str, str]:
    return {chr(c): ("INTEGER" if "I" <= chr(c) <= "N" else "REAL") for c in range(65, 91)}


@dataclass
class SymbolTable:
    unit: str
    symbols: dict[str, Symbol] = field(default_factory=dict)
    implicit: dict[str, str] | None = field(default_factory=_default_implicit)
    user_units: set[str] = field(default_factory=set)
    statement_functions: dict[str, ast.StatementFunction] = field(default_factory=dict)

    def declare(self, name: str, **attrs) -> Symbol:
        sym = self.symbols.get(name)
        if sym is None:
            sym = Symbol(name, self._implicit_type(name) or "REAL")
            self.symbols[name] = sym
        for key, value in attrs.items():
            if value is not None:
                setattr(sym, key, value)
        return sym

    def _implicit_type(self, name: str) -> str | None:
        if self.implicit is None:
            return None
        return self.implicit.get(name[0])

    def lookup(self, name: str, loc: SourceLocation | None = None) -> Symbol:
        """The symbol for ``name``, typed implicitly on first use (error under IMPLICIT NONE)."""
        sym = self.symbols.get(name)
        if sym is not None:
            return sym
        if name in library_calls():
            call = library_calls()[name]
            rtype = {"logical": "LOGICAL", "clock": "DOUBLE"}.get(call.returns or "", "INTEGER")
            return self.symbols.setdefault(name, Symbol(name, rtype, kind="library"))
        if name in intrinsics():
            return self.symbols.setdefault(name, Symbol(name, "INTEGER", kind="intrinsic"))
        if name == ast.IO_STATUS:
            return self.symbols.setdefault(name, Symbol(name, "INTEGER"))
        if name in self.user_units:
            return self.symbols.setdefault(name, Symbol(name, self._implicit_type(name) or "REAL",
                                                        kind="function"))
        itype = self._implicit_type(name)
        if itype is None:
            raise InterpError(
                f"{name} has no type (IMPLICIT NONE is in effect in {self.unit})",
                loc,
                hint=f"declare it, e.g. INTEGER {name} or DOUBLE PRECISION {name}",
            )
        return self.symbols.setdefault(name, Symbol(name, itype))

    def is_function(self, name: str) -> bool:
        sym = self.symbols.get(name)
        if sym is not None and sym.is_array:
            return False
        return (
            name in self.user_units
            or name in intrinsics()
            or name in library_calls()
            or (sym is not None and sym.kind in ("function", "external", "intrinsic", "library"))
        )


def build_symbol_table(unit: ast.ProgramUnit, user_units: set[str],
                       parameters: Mapping[str, int | float] | None = None) -> SymbolTable:
    """Collect declarations of ``unit`` into a symbol table; ``parameters``: PARAMETER
    constants given other values (``--set`` of a PARAMETER), by name."""
    table = SymbolTable(unit.name, user_units=set(user_units) - {unit.name})
    for decl in unit.decls:
        if isinstance(decl, ast.Implicit):
            if decl.none:
                table.implicit = None
            else:
                table.implicit = table.implicit or _default_implicit()
                for spec, ranges in decl.rules:
                    for lo, hi in ranges:
                        for c in range(ord(lo), ord(hi) + 1):
                            table.implicit[chr(c)] = spec.base
    for decl in unit.decls:
        _declare(table, decl, parameters or {})
    for name in unit.dummies:
        table.declare(name, dummy=True)
    if unit.kind == "FUNCTION":
        rtype = unit.result_type.base if unit.result_type else None
        table.declare(unit.name, type=rtype, explicit=True if rtype else None)
    if any(inc.upper() == "MPIF.H" for inc in unit.includes):
        for name, value in mpi_constants().items():
            table.declare(name, type="INTEGER", kind="parameter", constant=value, explicit=True)
    for name, sf in unit.stmt_functions.items():
        table.declare(name, kind="function", loc=sf.loc)
        table.statement_functions[name] = sf
    return table


def _declare(table: SymbolTable, decl: ast.Stmt, parameters: Mapping[str, int | float]) -> None:
    if isinstance(decl, ast.TypeDecl):
        for e in decl.entities:
            ctype = decl.type.base
            clen = e.char_len if e.char_len is not None else decl.type.size if ctype == "CHARACTER" else None
            table.declare(e.name, type=ctype, explicit=True, loc=e.loc, char_len=clen)
            if e.dims:
                table.declare(e.name, dims=e.dims, kind="array")
    elif isinstance(decl, ast.Dimension):
        for e in decl.entities:
            table.declare(e.name, dims=e.dims, kind="array", loc=e.loc)
    elif isinstance(decl, ast.ParameterStmt):
        for name, expr, loc in decl.defs:
            if name in parameters:
                value = parameters[name]
                expr = ast.Num(value, "INTEGER" if isinstance(value, int) else "DOUBLE", loc)
            table.declare(name, kind="parameter", value=expr, loc=loc)
    elif isinstance(decl, ast.Common):
        for block, entities in decl.blocks:
            for e in entities:
                table.declare(e.name, common=block or "//", loc=e.loc)
                if e.dims:
                    table.declare(e.name, dims=e.dims, kind="array")
    elif isinstance(decl, ast.NameListStmt) and decl.kind in ("EXTERNAL", "INTRINSIC"):
        for name in decl.names:
            table.declare(name, kind=decl.kind.lower())
