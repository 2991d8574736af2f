"""Level-1 parse, second half: flat statements → a structured program unit.

Nests DO ... CONTINUE (shared terminal labels too), DO/END DO, DO WHILE and block IFs, and turns
the GO TO patterns of structured F77 into structure:

* ``IF (c) GO TO L`` forward to a label later in the same block: the statements skipped become the
  body of ``IF (.NOT. c)`` (a branch ending in ``GO TO L`` likewise takes the skipped statements
  out of its path);
* ``L ... IF (c) GO TO L`` backward: a loop tested at its end (IterND);
* a GO TO out of a DO loop: the loop may end early, so its trip count is not known (IterND).

Anything else (a jump into a block) is reported as unsupported, never silently skipped.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from interp.application import ast
from interp.application.cards import Card
from interp.errors import InterpError, SourceLocation, UnsupportedError

_DECLS = (
    ast.TypeDecl, ast.Dimension, ast.ParameterStmt, ast.Common, ast.NameListStmt, ast.Implicit,
    ast.Include,
)


@dataclass
class _Frame:
    kind: str  # unit | do | while | if
    head: ast.Stmt | None
    card: Card | None
    body: list[ast.Stmt] = field(default_factory=list)
    end_label: int | None = None
    branches: list = field(default_factory=list)  # if: [(cond, body, loc)]
    else_body: list[ast.Stmt] | None = None
    else_loc: SourceLocation | None = None


def _err(card: Card, msg: str, hint: str | None = None, cls=InterpError) -> InterpError:
    return card.error(msg, 0, hint=hint, cls=cls)


def _array_names(decls: list[ast.Stmt]) -> set[str]:
    names = set()
    for d in decls:
        entities = []
        if isinstance(d, (ast.TypeDecl, ast.Dimension)):
            entities = d.entities
        elif isinstance(d, ast.Common):
            entities = [e for _, es in d.blocks for e in es]
        names.update(e.name for e in entities if e.dims)
    return names


def build_unit(stmts: list[tuple[Card, ast.Stmt]]) -> ast.ProgramUnit:
    """Build one program unit from its statements (the last one is END)."""
    first_card, first = stmts[0]
    if isinstance(first, ast.UnitHeader):
        header, rest = first, stmts[1:]
    else:  # a main program may omit the PROGRAM statement
        header = ast.UnitHeader(first.loc, "PROGRAM", "MAIN", [], None)
        rest = stmts
    end_card, _end = rest[-1]
    decls: list[ast.Stmt] = []
    executable: list[tuple[Card, ast.Stmt]] = []
    for card, stmt in rest[:-1]:
        if isinstance(stmt, ast.UnitHeader):
            raise _err(card, f"{stmt.kind} {stmt.name} starts before the previous unit's END",
                       hint="add END after the previous program unit")
        if isinstance(stmt, _DECLS):
            if executable and not isinstance(stmt, ast.Include):
                raise _err(card, "specification statement after the first executable statement",
                           hint="move declarations to the top of the program unit")
            decls.append(stmt)
        elif isinstance(stmt, (ast.Data, ast.Format)):
            decls.append(stmt)
            if stmt.label is not None and isinstance(stmt, ast.Format):
                continue
        else:
            executable.append((card, stmt))
    arrays = _array_names(decls)
    stmt_functions: dict[str, ast.StatementFunction] = {}
    while executable and _is_statement_function(executable[0][1], arrays):
        card, stmt = executable.pop(0)
        args = [a.name for a in stmt.target.args]
        stmt_functions[stmt.target.name] = ast.StatementFunction(
            stmt.target.name, args, stmt.value, stmt.loc
        )
    body = _nest(executable, end_card)
    body = _resolve_gotos(body)
    _reject_leftover_gotos(body)
    return ast.ProgramUnit(
        kind=header.kind,
        name=header.name,
        dummies=header.dummies,
        result_type=header.result_type,
        body=body,
        decls=decls,
        loc=header.loc,
        end_line=end_card.end_line,
        stmt_functions=stmt_functions,
        includes=[d.path for d in decls if isinstance(d, ast.Include)],
    )


def _is_statement_function(stmt: ast.Stmt, arrays: set[str]) -> bool:
    return (
        isinstance(stmt, ast.Assign)
        and isinstance(stmt.target, ast.Ref)
        and stmt.target.name not in arrays
        and all(isinstance(a, ast.Var) for a in stmt.target.args)
    )


def _nest(executable: list[tuple[Card, ast.Stmt]], end_card: Card) -> list[ast.Stmt]:
    stack = [_Frame("unit", None, None)]

    def target() -> list[ast.Stmt]:
        top = stack[-1]
        if top.kind == "if":
            return top.else_body if top.else_body is not None else top.branches[-1][1]
        return top.body

    def close_labelled(label: int | None, card: Card) -> None:
        if label is None:
            return
        while stack[-1].kind in ("do", "while") and stack[-1].end_label == label:
            _close_loop(stack, card)
        loop = next((f for f in stack if f.kind in ("do", "while") and f.end_label == label), None)
        if loop is not None:  # the loop this label ends still holds an open block
            inner = stack[stack.index(loop) + 1]
            if inner.kind == "if":
                raise _err(card, f"label {label} ends a DO loop inside an unfinished IF block",
                           hint="close the IF block (END IF) before the loop's terminal statement")
            raise _err(card, f"label {label} ends the DO loop at line {loop.head.loc.line} before "
                             f"the DO loop at line {inner.head.loc.line} inside it",
                       hint="nested DO loops must end in reverse order")

    for card, stmt in executable:
        if isinstance(stmt, ast.DoStmt):
            stack.append(_Frame("do", stmt, card, end_label=stmt.end_label))
        elif isinstance(stmt, ast.DoWhileStmt):
            stack.append(_Frame("while", stmt, card, end_label=stmt.end_label))
        elif isinstance(stmt, ast.IfThen):
            stack.append(_Frame("if", stmt, card, branches=[(stmt.cond, [], stmt.loc)]))
        elif isinstance(stmt, ast.ElseIf):
            top = stack[-1]
            if top.kind != "if" or top.else_body is not None:
                raise _err(card, "ELSE IF without a matching IF (...) THEN",
                           hint="check the nesting of IF, ELSE IF, ELSE and END IF")
            top.branches.append((stmt.cond, [], stmt.loc))
        elif isinstance(stmt, ast.Else):
            top = stack[-1]
            if top.kind != "if" or top.else_body is not None:
                raise _err(card, "ELSE without a matching IF (...) THEN")
            top.else_body, top.else_loc = [], stmt.loc
        elif isinstance(stmt, ast.EndIf):
            top = stack[-1]
            if top.kind != "if":
                raise _err(card, "END IF without a matching IF (...) THEN",
                           hint=_open_hint(stack))
            stack.pop()
            block = ast.IfBlock(top.head.loc, top.branches, top.else_body, card.end_line,
                                else_loc=top.else_loc, label=top.head.label)
            target().append(block)
            if stmt.label is not None:
                target().append(ast.Continue(stmt.loc, label=stmt.label))
            close_labelled(stmt.label, card)
        elif isinstance(stmt, ast.EndDo):
            top = stack[-1]
            if top.kind not in ("do", "while") or (
                top.end_label is not None and top.end_label != stmt.label
            ):
                raise _err(card, "END DO without a matching DO", hint=_open_hint(stack))
            if stmt.label is not None:
                top.body.append(ast.Continue(stmt.loc, label=stmt.label))
            _close_loop(stack, card)
        elif isinstance(stmt, ast.LogicalIf):
            inner = stmt.stmt
            inner.label = None
            target().append(ast.IfBlock(stmt.loc, [(stmt.cond, [inner], stmt.loc)], None,
                                        card.end_line, label=stmt.label))
            close_labelled(stmt.label, card)
        else:
            target().append(stmt)
            close_labelled(stmt.label, card)
    if len(stack) > 1:
        top = stack[-1]
        what = {"do": "DO loop", "while": "DO WHILE loop", "if": "IF block"}[top.kind]
        how = (f"no statement labelled {top.end_label} ends it" if top.end_label
               else "add its END IF" if top.kind == "if" else "add its END DO")
        raise _err(top.card, f"{what} is never closed: {how}",
                   hint=f"the unit ends at line {end_card.line}")
    return stack[0].body


def _open_hint(stack: list[_Frame]) -> str | None:
    top = stack[-1]
    if top.head is None:
        return None
    return f"the innermost open block starts at line {top.head.loc.line}"


def _close_loop(stack: list[_Frame], card: Card) -> None:
    frame = stack.pop()
    head = frame.head
    parent = stack[-1]
    body_target = (
        parent.else_body if parent.kind == "if" and parent.else_body is not None
        else parent.branches[-1][1] if parent.kind == "if" else parent.body
    )
    if isinstance(head, ast.DoStmt):
        loop = ast.DoLoop(head.loc, head.var, head.start, head.stop, head.step, frame.body,
                          card.end_line, label=head.label)
    else:
        loop = ast.WhileLoop(head.loc, head.cond, frame.body, card.end_line, label=head.label)
    body_target.append(loop)


# ---- GO TO → structure ------------------------------------------------------------------------


def _children(stmt: ast.Stmt) -> list[list[ast.Stmt]]:
    if isinstance(stmt, (ast.DoLoop, ast.WhileLoop)):
        return [stmt.body]
    if isinstance(stmt, ast.IfBlock):
        lists = [b for _, b, _ in stmt.branches]
        return lists + ([stmt.else_body] if stmt.else_body is not None else [])
    return []


def _ends_with_goto(body: list[ast.Stmt], label: int) -> bool:
    return bool(body) and isinstance(body[-1], ast.Goto) and body[-1].target == label


def _negate(cond: ast.Expr) -> ast.Expr:
    return ast.UnOp("NOT", cond, cond.loc)


def _resolve_gotos(stmts: list[ast.Stmt]) -> list[ast.Stmt]:
    """Rewrite GO TOs whose target is in ``stmts`` into structure, innermost lists first."""
    for stmt in stmts:
        if isinstance(stmt, ast.DoLoop):
            stmt.body = _resolve_gotos(stmt.body)
            stmt.exits = _mark_exits(stmt.body)
        elif isinstance(stmt, ast.WhileLoop):
            stmt.body = _resolve_gotos(stmt.body)
            _mark_exits(stmt.body)
        elif isinstance(stmt, ast.IfBlock):
            stmt.branches = [(c, _resolve_gotos(b), loc) for c, b, loc in stmt.branches]
            if stmt.else_body is not None:
                stmt.else_body = _resolve_gotos(stmt.else_body)
    changed = True
    while changed:
        changed = False
        labels = _labels(stmts)
        # Last jump first: a later forward skip or a loop's closing GO TO is structured before
        # an earlier jump whose region contains it.
        for i in reversed(range(len(stmts))):
            new = _rewrite_at(stmts, i, labels)
            if new is not None:
                stmts = new
                changed = True
                break
    return stmts


def _labels(stmts: list[ast.Stmt]) -> dict[int, int]:
    return {s.label: i for i, s in enumerate(stmts) if s.label is not None}


def _rewrite_at(stmts: list[ast.Stmt], i: int, labels: dict[int, int]) -> list[ast.Stmt] | None:
    stmt = stmts[i]
    if isinstance(stmt, ast.Goto) and stmt.target in labels:
        j = labels[stmt.target]
        if j > i:  # forward and unconditional: what lies between is never reached
            return stmts[:i] + stmts[j:]
        loop = ast.WhileLoop(stmts[j].loc, ast.Logical(True, stmt.loc), stmts[j:i], stmt.loc.line,
                             test_at_end=True, label=stmts[j].label)
        return stmts[:j] + [_resolve_loop(loop)] + stmts[i + 1:]
    if not isinstance(stmt, ast.IfBlock):
        return None
    # IF (c) GO TO L, backward: a loop tested at its end
    if (len(stmt.branches) == 1 and stmt.else_body is None
            and len(stmt.branches[0][1]) == 1 and isinstance(stmt.branches[0][1][0], ast.Goto)):
        label = stmt.branches[0][1][0].target
        j = labels.get(label)
        if j is not None and j <= i:
            body = stmts[j:i]
            loop = ast.WhileLoop(stmts[j].loc, stmt.branches[0][0], body, stmt.loc.line,
                                 test_at_end=True, label=stmts[j].label)
            return stmts[:j] + [_resolve_loop(loop)] + stmts[i + 1:]
    # a branch ending in GO TO L (forward): the skipped statements join the other branches
    for label, j in labels.items():
        if j <= i:
            continue
        lists = _children(stmt)
        if not any(_ends_with_goto(b, label) for b in lists):
            continue
        skipped = stmts[i + 1:j]
        new_branches = []
        for cond, body, loc in stmt.branches:
            new_branches.append((cond, body[:-1] if _ends_with_goto(body, label) else body + skipped, loc))
        if stmt.else_body is None:
            else_body = list(skipped)
        elif _ends_with_goto(stmt.else_body, label):
            else_body = stmt.else_body[:-1]
        else:
            else_body = stmt.else_body + skipped
        block = ast.IfBlock(stmt.loc, new_branches, else_body or None, stmt.end_line,
                            else_loc=stmt.else_loc, label=stmt.label)
        block.branches = [(c, _resolve_gotos(b), loc) for c, b, loc in block.branches]
        if block.else_body:
            block.else_body = _resolve_gotos(block.else_body)
        return stmts[:i] + [block] + stmts[j:]
    return None


def _resolve_loop(loop: ast.WhileLoop) -> ast.WhileLoop:
    loop.body = _resolve_gotos(loop.body)
    _mark_exits(loop.body)
    return loop


def _mark_exits(body: list[ast.Stmt]) -> bool:
    """Turn GO TOs that leave a loop body into Exit markers; True if any jump leaves it."""
    inside = {s.label for s in _walk(body) if s.label is not None}
    found = False

    def visit(stmts: list[ast.Stmt]) -> None:
        nonlocal found
        for idx, stmt in enumerate(stmts):
            if isinstance(stmt, ast.Goto) and stmt.target not in inside:
                stmts[idx] = ast.Exit(stmt.loc, stmt.target, label=stmt.label)
                found = True
            elif isinstance(stmt, ast.Exit) and stmt.target not in inside:
                found = True
            for child in _children(stmt):
                visit(child)

    visit(body)
    return found


def _walk(stmts: list[ast.Stmt]):
    for s in stmts:
        yield s
        for child in _children(s):
            yield from _walk(child)


def _reject_leftover_gotos(body: list[ast.Stmt]) -> None:
    labels = {s.label for s in _walk(body) if s.label is not None}
    for stmt in _walk(body):
        if isinstance(stmt, ast.Goto):
            where = "is not defined in this program unit" if stmt.target not in labels else (
                "jumps into or across a block in a way interp cannot structure")
            raise UnsupportedError(
                f"GO TO {stmt.target}: label {stmt.target} {where}",
                stmt.loc,
                hint="use structured IF/DO, or GO TO forward within the same block",
            )
        if isinstance(stmt, ast.Exit) and stmt.target not in labels:
            raise InterpError(f"GO TO {stmt.target}: label {stmt.target} is not defined in this "
                              "program unit", stmt.loc)
