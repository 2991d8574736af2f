"""Application Abstraction Units: the 13 AAU types of the core paper (Table 4).

Simple: Start, End, Seq, Spawn, Comm, Sync, SyncSeq.
Compound: IterD, IterSync, IterND, CondtD, CondtSync, Call — each owns its sub-AAG (``children``).
Every unit carries its source span; ``params()`` gives the Table 4 parameters as JSON.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import ClassVar, Iterator

import sympy as sp

from interp.application import ast
from interp.application.ast import expr_text
from interp.application.catalog import LibraryCall
from interp.application.opcount import OpCounts
from interp.errors import SourceLocation

AAU_TYPES = (
    "Start", "End", "Seq", "Spawn", "Comm", "Sync", "SyncSeq",
    "IterD", "IterSync", "IterND", "CondtD", "CondtSync", "Call",
)
SYNC_TYPES = frozenset({"Spawn", "Comm", "Sync", "SyncSeq"})


@dataclass(eq=False)
class AAU:
    id: int
    loc: SourceLocation
    unit: str  # the program unit it belongs to
    labels: tuple[int, ...] = ()  # the labels GO TOs go to that start this AAU
    TYPE: ClassVar[str] = ""
    COMPOUND: ClassVar[bool] = False

    @property
    def type(self) -> str:
        return self.TYPE

    @property
    def end_line(self) -> int:
        return self.loc.end_line or self.loc.line

    @property
    def children(self) -> list["AAU"]:
        return []

    def params(self) -> dict:
        return {}

    def walk(self) -> Iterator["AAU"]:
        """This AAU and every AAU of its sub-AAGs (not into called units)."""
        yield self
        for child in self.children:
            yield from child.walk()

    def has_sync(self) -> bool:
        """Whether a Spawn/Comm/Sync/SyncSeq is among its descendants (or is itself one)."""
        return any(a.TYPE in SYNC_TYPES or (a.TYPE == "Call" and a.callee_has_sync) for a in self.walk())


@dataclass(eq=False)
class Start(AAU):
    TYPE: ClassVar[str] = "Start"


@dataclass(eq=False)
class End(AAU):
    """End of a flow of control: the unit's END, a STOP (process ends) or a RETURN."""

    kind: str = "end"  # end | stop | return
    TYPE: ClassVar[str] = "End"

    def params(self) -> dict:
        return {"kind": self.kind}


@dataclass(eq=False)
class Seq(AAU):
    """Contiguous assignments, library calls and I/O: costed by its operation counts."""

    ops: OpCounts = field(default_factory=OpCounts)
    stmts: list[ast.Stmt] = field(default_factory=list)
    TYPE: ClassVar[str] = "Seq"

    def params(self) -> dict:
        return {"num_statements": len(self.stmts), "ops": self.ops.to_json()}


@dataclass(eq=False)
class LibraryAAU(AAU):
    """A message-passing call: its catalog entry and its actual arguments by role."""

    call: LibraryCall | None = None
    args: list[ast.Expr] = field(default_factory=list)
    result: str | None = None  # variable receiving a function result (isend/irecv msgid)
    result_index: list[ast.Expr] = field(default_factory=list)  # MID(K) = IRECV(...): K
    arg_ops: OpCounts = field(default_factory=OpCounts)

    def arg(self, role: str) -> ast.Expr | None:
        i = self.call.role_index(role) if self.call else None
        return self.args[i] if i is not None and i < len(self.args) else None

    def _call_params(self) -> dict:
        roles = {}
        for i, a in enumerate(self.args):
            role = self.call.args[i] if self.call and i < len(self.call.args) else f"arg{i + 1}"
            roles[role.removeprefix("out_")] = expr_text(a)
        out = {"routine": self.call.name if self.call else None,
               "library": self.call.library if self.call else None,
               "op": self.call.op if self.call else None,
               "args": roles}
        if self.result:
            out["result"] = self.result
        return out


@dataclass(eq=False)
class Spawn(LibraryAAU):
    """A fork: NX/2 ``load`` on the host starts the node program (Table 4: NumChildren, Location)."""

    TYPE: ClassVar[str] = "Spawn"

    @property
    def program(self) -> str | None:
        a = self.arg("program")
        return a.value if isinstance(a, ast.Str) else None

    def params(self) -> dict:
        return {**self._call_params(), "program": self.program}


@dataclass(eq=False)
class Comm(LibraryAAU):
    """Explicit communication (Table 4: Type, Size, Src, Dest)."""

    TYPE: ClassVar[str] = "Comm"

    @property
    def synchronous(self) -> bool:
        return bool(self.call and self.call.sync)

    def params(self) -> dict:
        return {**self._call_params(), "synchronous": self.synchronous}


@dataclass(eq=False)
class Sync(LibraryAAU):
    """Explicit synchronization: barriers (Table 4: Type, NumSyncNodes)."""

    TYPE: ClassVar[str] = "Sync"

    def params(self) -> dict:
        return self._call_params()


@dataclass(eq=False)
class SyncSeq(LibraryAAU):
    """A Seq that needs synchronization: global sums, max/min, reductions."""

    TYPE: ClassVar[str] = "SyncSeq"

    def params(self) -> dict:
        out = self._call_params()
        out["reduce"] = self.call.reduce if self.call else None
        return out


@dataclass(eq=False)
class Iter(AAU):
    """An iterative structure. ``limit_type``: ``step``, ``nostep`` (Table 1), ``while``, or
    ``goto`` (a natural loop of GO TOs: it runs again when a GO TO reaches its head)."""

    COMPOUND: ClassVar[bool] = True
    var: str | None = None
    start: ast.Expr | None = None
    stop: ast.Expr | None = None
    step: ast.Expr | None = None
    cond: ast.Expr | None = None  # DO WHILE / GO TO loop condition
    test_at_end: bool = False
    num_iters: sp.Expr | None = None  # closed-form trip count, None when not deterministic
    limit_type: str = "nostep"
    bound_ops: OpCounts = field(default_factory=OpCounts)  # evaluating bounds / the condition
    body: list[AAU] = field(default_factory=list)
    nd_reason: str | None = None
    head_label: int | None = None  # a GO TO to it from the body starts the next iteration
    limits_at_run_time: bool = False  # a DO loop whose limits only the run knows (CELL_LOW(3,C))

    @property
    def children(self) -> list[AAU]:
        return self.body

    def params(self) -> dict:
        out = {"limit_type": self.limit_type, "bound_ops": self.bound_ops.to_json()}
        if self.var:
            out.update(var=self.var, start=expr_text(self.start), stop=expr_text(self.stop),
                       step=expr_text(self.step) if self.step is not None else None)
        if self.num_iters is not None:
            out["num_iters"] = str(self.num_iters)
        if self.cond is not None:
            out["condition"] = expr_text(self.cond)
            out["test_at_end"] = self.test_at_end
        if self.head_label is not None:
            out["head_label"] = self.head_label
        if self.nd_reason:
            out["nondeterministic"] = self.nd_reason
        return out


@dataclass(eq=False)
class IterD(Iter):
    TYPE: ClassVar[str] = "IterD"


@dataclass(eq=False)
class IterSync(Iter):
    TYPE: ClassVar[str] = "IterSync"


@dataclass(eq=False)
class IterND(Iter):
    TYPE: ClassVar[str] = "IterND"


@dataclass(eq=False)
class Branch:
    """One arm of a conditional: its condition (None for ELSE), its cost and its sub-AAG."""

    cond: ast.Expr | None
    cond_ops: OpCounts
    body: list[AAU]
    loc: SourceLocation


@dataclass(eq=False)
class Condt(AAU):
    COMPOUND: ClassVar[bool] = True
    branches: list[Branch] = field(default_factory=list)

    @property
    def children(self) -> list[AAU]:
        return [a for b in self.branches for a in b.body]

    def params(self) -> dict:
        return {
            "num_condts": sum(1 for b in self.branches if b.cond is not None),
            "conditions": [expr_text(b.cond) if b.cond is not None else "ELSE" for b in self.branches],
            "branch_children": [[a.id for a in b.body] for b in self.branches],
        }


@dataclass(eq=False)
class CondtD(Condt):
    TYPE: ClassVar[str] = "CondtD"


@dataclass(eq=False)
class CondtSync(Condt):
    TYPE: ClassVar[str] = "CondtSync"


@dataclass(eq=False)
class Call(AAU):
    """A call of one of the program's own subroutines; its body is the callee's sub-AAG."""

    COMPOUND: ClassVar[bool] = True
    callee: str = ""
    args: list[ast.Expr] = field(default_factory=list)
    arg_ops: OpCounts = field(default_factory=OpCounts)
    callee_body: list[AAU] = field(default_factory=list)  # filled once every unit is built
    callee_has_sync: bool = False
    TYPE: ClassVar[str] = "Call"

    @property
    def children(self) -> list[AAU]:
        return []  # the callee's AAG is shared by every call site; see callee_body

    def params(self) -> dict:
        return {"callee": self.callee, "num_args": len(self.args),
                "args": [expr_text(a) for a in self.args],
                "callee_aaus": [a.id for a in self.callee_body]}


def read_exprs(a: AAU) -> list[ast.Expr]:
    """What a closed form of ``a`` itself (not its children) evaluates: loop bounds and
    condition, IF conditions, the actual arguments of its calls, library calls and FUNCTION
    references (their callees may read them in turn)."""
    if isinstance(a, Iter):
        exprs = [a.start, a.stop, a.step, a.cond]
    elif isinstance(a, Condt):
        exprs = [b.cond for b in a.branches]
    elif isinstance(a, (Call, LibraryAAU)):
        exprs = list(a.args)
    elif isinstance(a, Seq):
        exprs = [e for actuals in a.ops.user_args for e in actuals]
    else:
        exprs = []
    return [e for e in exprs if e is not None]
