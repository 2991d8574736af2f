"""The Fortran syntax tree: expressions, statements and program units, each with its location.

Declared once and compactly (pycparser style); :mod:`interp.application.parser` builds them and
:mod:`interp.application.structure` nests the statements into blocks.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Union

from interp.errors import SourceLocation

# ---- expressions ----------------------------------------------------------------------


@dataclass(eq=False)
class Num:
    value: int | float | complex
    kind: str  # INTEGER | REAL | DOUBLE | COMPLEX | DCOMPLEX
    loc: SourceLocation


@dataclass(eq=False)
class Str:
    value: str
    loc: SourceLocation


@dataclass(eq=False)
class Logical:
    value: bool
    loc: SourceLocation


@dataclass(eq=False)
class Var:
    name: str
    loc: SourceLocation


@dataclass(eq=False)
class Ref:
    """``NAME(args)``: an array element, a function call or an intrinsic; the symbol table decides."""

    name: str
    args: list[Expr]
    loc: SourceLocation


@dataclass(eq=False)
class Range:
    """``lo:hi`` inside a reference (character substring)."""

    lo: Expr | None
    hi: Expr | None
    loc: SourceLocation


@dataclass(eq=False)
class BinOp:
    op: str  # + - * / ** // EQ NE LT LE GT GE AND OR EQV NEQV
    left: Expr
    right: Expr
    loc: SourceLocation


@dataclass(eq=False)
class UnOp:
    op: str  # - + NOT
    operand: Expr
    loc: SourceLocation


@dataclass(eq=False)
class ImpliedDo:
    items: list[Expr]
    var: str
    start: Expr
    stop: Expr
    step: Expr | None
    loc: SourceLocation


Expr = Union[Num, Str, Logical, Var, Ref, Range, BinOp, UnOp, ImpliedDo]

RELATIONAL = {"EQ", "NE", "LT", "LE", "GT", "GE"}
LOGICAL_OPS = {"AND", "OR", "EQV", "NEQV", "NOT"}

_BIN_TEXT = {"EQ": ".EQ.", "NE": ".NE.", "LT": ".LT.", "LE": ".LE.", "GT": ".GT.", "GE": ".GE.",
             "AND": ".AND.", "OR": ".OR.", "EQV": ".EQV.", "NEQV": ".NEQV."}


def expr_text(e: Expr) -> str:
    """Fortran text of an expression (for reports and JSON)."""
    if isinstance(e, Num):
        if isinstance(e.value, complex):
            return f"({e.value.real!r}, {e.value.imag!r})"
        return repr(e.value) if e.kind != "INTEGER" else str(e.value)
    if isinstance(e, Str):
        return "'" + e.value.replace("'", "''") + "'"
    if isinstance(e, Logical):
        return ".TRUE." if e.value else ".FALSE."
    if isinstance(e, Var):
        return e.name
    if isinstance(e, Ref):
        return f"{e.name}({', '.join(expr_text(a) for a in e.args)})"
    if isinstance(e, Range):
        return f"{expr_text(e.lo) if e.lo else ''}:{expr_text(e.hi) if e.hi else ''}"
    if isinstance(e, BinOp):
        op = _BIN_TEXT.get(e.op, e.op)
        return f"({expr_text(e.left)} {op} {expr_text(e.right)})"
    if isinstance(e, UnOp):
        return f".NOT. {expr_text(e.operand)}" if e.op == "NOT" else f"{e.op}{expr_text(e.operand)}"
    if isinstance(e, ImpliedDo):
        items = ", ".join(expr_text(i) for i in e.items)
        return f"({items}, {e.var}={expr_text(e.start)}, {expr_text(e.stop)})"
    return "?"


# ---- statements (flat, as parsed) -------------------------------------------------------


@dataclass(eq=False)
class Stmt:
    loc: SourceLocation
    label: int | None = field(default=None, kw_only=True)


@dataclass(eq=False)
class Assign(Stmt):
    target: Var | Ref
    value: Expr


@dataclass(eq=False)
class CallStmt(Stmt):
    name: str
    args: list[Expr]


@dataclass(eq=False)
class DoStmt(Stmt):
    end_label: int | None
    var: str
    start: Expr
    stop: Expr
    step: Expr | None


@dataclass(eq=False)
class DoWhileStmt(Stmt):
    end_label: int | None
    cond: Expr


@dataclass(eq=False)
class EndDo(Stmt):
    pass


@dataclass(eq=False)
class Continue(Stmt):
    pass


@dataclass(eq=False)
class IfThen(Stmt):
    cond: Expr


@dataclass(eq=False)
class ElseIf(Stmt):
    cond: Expr


@dataclass(eq=False)
class Else(Stmt):
    pass


@dataclass(eq=False)
class EndIf(Stmt):
    pass


@dataclass(eq=False)
class LogicalIf(Stmt):
    cond: Expr
    stmt: Stmt


@dataclass(eq=False)
class Goto(Stmt):
    target: int


@dataclass(eq=False)
class AssignLabel(Assign):
    """``ASSIGN 10 TO K``: K holds the label 10 (for an assigned GO TO)."""


@dataclass(eq=False)
class AssignedGoto(Stmt):
    """``GO TO K (10, 20)``: to the label K holds; ``labels`` None when the list is omitted."""

    var: Var
    labels: list[int] | None


@dataclass(eq=False)
class Return(Stmt):
    pass


@dataclass(eq=False)
class Stop(Stmt):
    pass


# The control list of an I/O statement by keyword: UNIT, FMT (the first two positional
# items), FILE, STATUS, IOSTAT, ERR, END, EXIST...; ``*`` (the default unit, list-directed
# format) is Str("*").
IoSpecs = dict[str, "Expr"]
# The status variable an I/O statement with ERR= or END= and no IOSTAT= sets (INTEGER):
# ``READ (u, *, END=L) X`` is read as ``READ (u, *, IOSTAT=IOSTAT$) X`` followed by
# ``IF (IOSTAT$ .LT. 0) GO TO L`` (ERR=: ``.GT. 0``).
IO_STATUS = "IOSTAT$"


@dataclass(eq=False)
class Read(Stmt):
    items: list[Expr]
    specs: IoSpecs = field(default_factory=dict)


@dataclass(eq=False)
class Write(Stmt):
    items: list[Expr]


@dataclass(eq=False)
class FileOp(Stmt):
    kind: str  # OPEN | CLOSE | INQUIRE | REWIND | BACKSPACE | ENDFILE
    specs: IoSpecs = field(default_factory=dict)


@dataclass(eq=False)
class Format(Stmt):
    pass


@dataclass(eq=False)
class End(Stmt):
    pass


# ---- specification statements -----------------------------------------------------------


@dataclass(eq=False)
class TypeSpec:
    base: str  # INTEGER | REAL | DOUBLE | LOGICAL | COMPLEX | DCOMPLEX | CHARACTER
    size: int | None = None  # REAL*8, CHARACTER*n


@dataclass(eq=False)
class Entity:
    name: str
    dims: list[tuple[Expr | None, Expr | None]] | None  # (lower, upper); None upper = assumed
    char_len: int | None
    loc: SourceLocation


@dataclass(eq=False)
class TypeDecl(Stmt):
    type: TypeSpec
    entities: list[Entity]


@dataclass(eq=False)
class Dimension(Stmt):
    entities: list[Entity]


@dataclass(eq=False)
class ParameterStmt(Stmt):
    defs: list[tuple[str, Expr, SourceLocation]]


@dataclass(eq=False)
class Common(Stmt):
    blocks: list[tuple[str, list[Entity]]]


@dataclass(eq=False)
class Data(Stmt):
    targets: list[Var | Ref]  # every name it gives values, an implied DO's items included
    values: list[Expr]
    sets: list[tuple[list[Var | Ref | ImpliedDo], list[Expr]]] = field(default_factory=list)
    # each ``targets /values/`` pair as written (an implied DO kept whole)


@dataclass(eq=False)
class NameListStmt(Stmt):
    kind: str  # EXTERNAL | INTRINSIC | SAVE
    names: list[str]


@dataclass(eq=False)
class Implicit(Stmt):
    none: bool
    rules: list[tuple[TypeSpec, list[tuple[str, str]]]]


@dataclass(eq=False)
class Include(Stmt):
    path: str


@dataclass(eq=False)
class UnitHeader(Stmt):
    kind: str  # PROGRAM | SUBROUTINE | FUNCTION
    name: str
    dummies: list[str]
    result_type: TypeSpec | None


# ---- structured statements (built by interp.application.structure) -----------------------


@dataclass(eq=False)
class DoLoop(Stmt):
    var: str
    start: Expr
    stop: Expr
    step: Expr | None
    body: list[Stmt]
    end_line: int
    exits: bool = False  # left by a GO TO out of the body: its trip count is not known


@dataclass(eq=False)
class WhileLoop(Stmt):
    """DO WHILE, or a GO TO loop: ``10 ... IF (c) GO TO 10`` (cond = c, tested last) or
    ``10 IF (c) THEN ... GO TO 10 END IF`` (tested first; ``goto``)."""

    cond: Expr
    body: list[Stmt]
    end_line: int
    test_at_end: bool = False
    goto: bool = False


@dataclass(eq=False)
class GotoLoop(Stmt):
    """A natural loop of GO TOs: its body runs again whenever a GO TO reaches its head (the
    label it carries) and ends when control falls off its end or leaves it by another GO TO."""

    body: list[Stmt]
    end_line: int


@dataclass(eq=False)
class IfBlock(Stmt):
    branches: list[tuple[Expr, list[Stmt], SourceLocation]]
    else_body: list[Stmt] | None
    end_line: int
    else_loc: SourceLocation | None = None


@dataclass(eq=False)
class Exit(Stmt):
    """A GO TO out of the enclosing loop (to ``target``)."""

    target: int


@dataclass(eq=False)
class StatementFunction:
    name: str
    args: list[str]
    body: Expr
    loc: SourceLocation


@dataclass(eq=False)
class ProgramUnit:
    kind: str  # PROGRAM | SUBROUTINE | FUNCTION
    name: str
    dummies: list[str]
    result_type: TypeSpec | None
    body: list[Stmt]
    decls: list[Stmt]
    loc: SourceLocation
    end_line: int
    stmt_functions: dict[str, StatementFunction] = field(default_factory=dict)
    includes: list[str] = field(default_factory=list)
