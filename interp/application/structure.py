"""Level-1 parse, second half: flat statements → a structured program unit.

Nests DO ... CONTINUE (shared terminal labels too), DO/END DO, DO WHILE and block IFs, then
structures the GO TOs. Arithmetic IF and computed GO TO arrive from the parser as block IFs of
GO TOs; an assigned GO TO is lowered here (its labels: its list, or every ASSIGN to its
variable). Fortran 77 forbids jumping into a DO loop or an IF block, so every GO TO goes to a
label of its own statement list or of an enclosing one; each list is structured on its own
control-flow graph (networkx), innermost lists first:

* a forward GO TO that ends an IF's arm (``IF (c) GO TO L`` too): the statements it skips
  join the arms that fall through, i.e. the paper's conditional (CondtD);
* a back edge (a GO TO to a statement that dominates it) closes a natural loop:
  ``L ... IF (c) GO TO L`` is a loop tested at its end, ``L IF (c) THEN ... GO TO L END IF`` a
  while loop, any other a GO TO loop (``ast.GotoLoop``) that runs again whenever a GO TO reaches
  its head; all are IterND (interpreted by unrolling, or given a count with --iterations);
* a GO TO out of a DO loop: the loop may end early, so its trip count is not known (IterND).

A GO TO with no structured form (a cycle with two entries, a jump from deep in nested IFs) is
kept: the engine follows it, resuming at the AAU that carries its label (no closed form). Only a
jump into a block, or to a label the unit does not define, is an error.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from interp.application import ast
from interp.application.cards import Card
from interp.errors import InterpError, SourceLocation, UnsupportedError

if TYPE_CHECKING:
    import networkx as nx

# Blocks inside one another: real programs nest a few tens deep; every pass recurses once a
# level, on the deep stack the CLI runs them on (interp/deepstack.py), and 512 takes ~30 s
MAX_NESTING = 512

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
    body = _lower_assigned_gotos(_nest(executable, end_card))
    body = _resolve_gotos(body)
    _check_jumps(body)
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
        if len(stack) - 1 > MAX_NESTING:
            raise _err(stack[-1].card, f"blocks nested {len(stack) - 1} deep (IF, DO and DO WHILE "
                                       f"inside one another): interp follows at most {MAX_NESTING}",
                       hint="move the inner blocks into a subroutine")
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
#
# Fortran 77 forbids a jump into a DO loop or an IF block, so every GO TO goes to a label of its
# own statement list or of an enclosing one. Each list is structured on its own control-flow
# graph (_cfg), innermost lists first: forward jumps become conditionals (_rewrite_at), and the
# natural loop of each back edge becomes a loop (_natural_loop). A GO TO left over is kept: the
# engine follows it (the list that holds its label resumes there), without a closed form.


def _children(stmt: ast.Stmt) -> list[list[ast.Stmt]]:
    if isinstance(stmt, (ast.DoLoop, ast.WhileLoop, ast.GotoLoop)):
        return [stmt.body]
    if isinstance(stmt, ast.IfBlock):
        lists = [b for _, b, _ in stmt.branches]
        return lists + ([stmt.else_body] if stmt.else_body is not None else [])
    return []


def _walk(stmts: list[ast.Stmt]):
    for s in stmts:
        yield s
        for child in _children(s):
            yield from _walk(child)


def _jumps(stmts: list[ast.Stmt]):
    return (s for s in _walk(stmts) if isinstance(s, (ast.Goto, ast.Exit)))


def _targets(stmts: list[ast.Stmt]) -> set[int]:
    """Every label some GO TO of the unit goes to."""
    return {j.target for j in _jumps(stmts)}


def _lower_assigned_gotos(body: list[ast.Stmt]) -> list[ast.Stmt]:
    """``GO TO K (L1, L2)`` → ``IF (K .EQ. L1) GO TO L1 ELSE IF ...``: K holds a label that an
    ASSIGN gave it. Without the list, the labels are those ASSIGNed to K in the unit."""
    assigned: dict[str, list[int]] = {}
    for s in _walk(body):
        if isinstance(s, ast.AssignLabel):
            assigned.setdefault(s.target.name, []).append(s.value.value)

    def lower(stmts: list[ast.Stmt]) -> list[ast.Stmt]:
        out = []
        for s in stmts:
            for child in _children(s):
                child[:] = lower(child)
            if isinstance(s, ast.AssignedGoto):
                labels = s.labels or sorted(set(assigned.get(s.var.name, [])))
                if not labels:
                    raise UnsupportedError(
                        f"GO TO {s.var.name}: no ASSIGN statement gives {s.var.name} a label",
                        s.loc, hint=f"ASSIGN a label to {s.var.name} before this GO TO, or list "
                                    f"the labels: GO TO {s.var.name} (10, 20)")
                arms = [(ast.BinOp("EQ", s.var, ast.Num(label, "INTEGER", s.loc), s.loc),
                         [ast.Goto(s.loc, label)], s.loc) for label in labels]
                s = ast.IfBlock(s.loc, arms, None, s.loc.end_line or s.loc.line, label=s.label)
            out.append(s)
        return out

    return lower(body)


def _ends_with_goto(body: list[ast.Stmt], label: int) -> bool:
    return bool(body) and isinstance(body[-1], ast.Goto) and body[-1].target == label


def _resolve_gotos(stmts: list[ast.Stmt]) -> list[ast.Stmt]:
    """Rewrite GO TOs whose target is in ``stmts`` into structure, innermost lists first."""
    for stmt in stmts:
        if isinstance(stmt, ast.DoLoop):
            stmt.body = _resolve_gotos(stmt.body)
            stmt.exits = _mark_exits(stmt.body)
        elif isinstance(stmt, (ast.WhileLoop, ast.GotoLoop)):
            stmt.body = _resolve_gotos(stmt.body)
            _mark_exits(stmt.body)
        elif isinstance(stmt, ast.IfBlock):
            stmt.branches = [(c, _resolve_gotos(b), loc) for c, b, loc in stmt.branches]
            if stmt.else_body is not None:
                stmt.else_body = _resolve_gotos(stmt.else_body)
    while True:
        labels = _labels(stmts)
        # Last jump first: a later forward skip or a loop's closing GO TO is structured before
        # an earlier jump whose region contains it.
        new = next((n for i in reversed(range(len(stmts)))
                    if (n := _rewrite_at(stmts, i, labels)) is not None), None)
        if new is None:
            new = _natural_loop(stmts)
        if new is None:
            return stmts
        stmts = new


def _labels(stmts: list[ast.Stmt]) -> dict[int, int]:
    return {s.label: i for i, s in enumerate(stmts) if s.label is not None}


def _reached(stmts: list[ast.Stmt], i: int, j: int, since: int | None = None) -> bool:
    """Whether a GO TO from outside ``stmts[since:j]`` (``since`` defaults to ``i``) goes to a
    label among ``stmts[i:j]`` (so they cannot be moved, dropped or made a loop's middle).
    Only the list itself can hold such a GO TO: none comes from outside it."""
    since = i if since is None else since
    targets = _targets(stmts[:since] + stmts[j:])
    return any(s.label in targets for s in _walk(stmts[i:j]))


def _another_jump(stmts: list[ast.Stmt], i: int, label: int) -> bool:
    """Whether a GO TO other than ``stmts[i]`` goes to ``label``."""
    return label in _targets(stmts[:i] + stmts[i + 1:])


def _rewrite_at(stmts: list[ast.Stmt], i: int, labels: dict[int, int]) -> list[ast.Stmt] | None:
    stmt = stmts[i]
    if isinstance(stmt, ast.Goto) and stmt.target in labels:
        j = labels[stmt.target]
        if j > i:  # forward and unconditional: what lies between is never reached
            return None if _reached(stmts, i + 1, j) else stmts[:i] + stmts[j:]
        if _another_jump(stmts, i, stmt.target) or _reached(stmts, j + 1, i + 1, j):
            return None  # another GO TO closes or enters the same loop: left to _natural_loop
        return _with_loop(stmts, j, i, ast.Logical(True, stmt.loc))
    if not isinstance(stmt, ast.IfBlock):
        return None
    # IF (c) GO TO L, backward: a loop tested at its end
    if (len(stmt.branches) == 1 and stmt.else_body is None
            and len(stmt.branches[0][1]) == 1 and isinstance(stmt.branches[0][1][0], ast.Goto)):
        j = labels.get(stmt.branches[0][1][0].target)
        if j is not None and j <= i and not _another_jump(stmts, i, stmts[j].label) \
                and not _reached(stmts, j + 1, i + 1, j):
            return _with_loop(stmts, j, i, stmt.branches[0][0])
    # an arm ending in GO TO L (forward), maybe in a nested IF: the skipped statements join the
    # arms that fall through
    for label, j in labels.items():
        if j <= i or not any(_tail_goto(b, label) for b in _children(stmt)):
            continue
        if _reached(stmts, i + 1, j):
            continue  # a GO TO elsewhere goes into them: they stay where they are
        return stmts[:i] + _resolve_gotos(_join([stmt], label, stmts[i + 1:j])) + stmts[j:]
    return None


def _tail_goto(arm: list[ast.Stmt], label: int) -> bool:
    """Whether the arm ends in GO TO label, directly or at the end of an IF it ends with."""
    if _ends_with_goto(arm, label):
        return True
    return bool(arm) and isinstance(arm[-1], ast.IfBlock) and any(
        _tail_goto(b, label) for b in _children(arm[-1]))


def _join(arm: list[ast.Stmt], label: int, skipped: list[ast.Stmt]) -> list[ast.Stmt]:
    """An arm once the statements before ``label`` are skipped: its GO TO label goes, and where
    it falls through it runs (a copy of) the skipped statements; where it ends in another jump
    it does not. An IF it ends with is joined arm by arm."""
    if _ends_with_goto(arm, label):
        return arm[:-1]
    if _tail_goto(arm, label):
        last = arm[-1]
        block = ast.IfBlock(last.loc, [(c, _join(b, label, skipped), loc)
                                       for c, b, loc in last.branches],
                            _join(last.else_body or [], label, skipped) or None, last.end_line,
                            else_loc=last.else_loc, label=last.label)
        return arm[:-1] + [block]
    return arm if arm and _ends_in_jump(arm[-1]) else arm + copy.deepcopy(skipped)


def _with_loop(stmts: list[ast.Stmt], j: int, i: int, cond: ast.Expr) -> list[ast.Stmt]:
    """``stmts[j:i]`` and the GO TO at ``i`` replaced by a loop tested at its end
    (``L ... IF (c) GO TO L``; c true for an unconditional GO TO), or, when an unconditional
    one closes ``L IF (c) GO TO M`` / ... / ``GO TO L`` / ``M ...``, tested at its head while
    .NOT. c: a DO WHILE, whose induction variable may count it (engine/induction.py)."""
    head = stmts[j]
    if (isinstance(cond, ast.Logical) and cond.value and i + 1 < len(stmts)
            and isinstance(head, ast.IfBlock) and len(head.branches) == 1
            and head.else_body is None and len(head.branches[0][1]) == 1
            and isinstance(head.branches[0][1][0], ast.Goto)
            and head.branches[0][1][0].target == stmts[i + 1].label is not None):
        loop = ast.WhileLoop(head.loc, _negation(head.branches[0][0]), stmts[j + 1:i],
                             stmts[i].loc.line, goto=True, label=head.label)
        loop.body = _resolve_gotos(loop.body)
        _mark_exits(loop.body)
        return stmts[:j] + [loop] + stmts[i + 1:]
    loop = ast.WhileLoop(stmts[j].loc, cond, stmts[j:i], stmts[i].loc.line, test_at_end=True,
                         label=stmts[j].label)
    loop.body = _resolve_gotos(loop.body)
    _mark_exits(loop.body)
    return stmts[:j] + [loop] + stmts[i + 1:]


_NEGATED = {"LT": "GE", "LE": "GT", "GT": "LE", "GE": "LT", "EQ": "NE", "NE": "EQ"}


def _negation(test: ast.Expr) -> ast.Expr:
    """.NOT. test, a comparison inverted (the one compare a compiler makes: no NOT priced)."""
    if isinstance(test, ast.BinOp) and test.op in _NEGATED:
        return ast.BinOp(_NEGATED[test.op], test.left, test.right, test.loc)
    return ast.UnOp("NOT", test, test.loc)


# ---- the control-flow graph of a statement list -----------------------------------------------


def _cfg(stmts: list[ast.Stmt]) -> nx.DiGraph:
    """Nodes: the statements' indices, and ``len(stmts)`` for falling off the end. Edges: falling
    through, and every GO TO (however deeply nested in a statement) to a label of the list."""
    import networkx as nx  # 0.1 s to import: only for statement lists with jumps

    labels = _labels(stmts)
    g = nx.DiGraph()
    g.add_nodes_from(range(len(stmts) + 1))
    for k, s in enumerate(stmts):
        if not _ends_in_jump(s):
            g.add_edge(k, k + 1)
        inside = {t.label for t in _walk([s]) if t.label is not None}
        if not _cycles(s):  # a GO TO its own label from inside it is a loop to structure
            inside.discard(s.label)
        for target in {j.target for j in _jumps([s])} - inside:
            if target in labels:
                g.add_edge(k, labels[target])
    return g


def _cycles(s: ast.Stmt) -> bool:
    """A loop whose head is labelled: a GO TO that label from its body is its next iteration."""
    return isinstance(s, (ast.WhileLoop, ast.GotoLoop)) and s.label is not None


def _ends_in_jump(s: ast.Stmt) -> bool:
    if isinstance(s, (ast.Goto, ast.Exit, ast.Return, ast.Stop)):
        return True
    if isinstance(s, ast.IfBlock) and s.else_body is not None:
        return all(b and _ends_in_jump(b[-1]) for b in _children(s))
    return False


def _dominates(idom: dict[int, int], a: int, b: int) -> bool:
    while b != a and idom.get(b, b) != b:  # the entry is its own (or, in networkx ≥ 3.5, no) idom
        b = idom[b]
    return b == a


def _natural_loop(stmts: list[ast.Stmt]) -> list[ast.Stmt] | None:
    """The last loop header of the list whose natural loop is a run of statements, made a loop.

    A back edge is a jump to a statement that dominates it; its natural loop is the header and
    every statement that reaches the jump without passing the header. A loop that is not a run
    of statements, or a cycle with no dominating header (irreducible), is left to the engine."""
    if next(_jumps(stmts), None) is None:  # falling through only goes forward: no loop
        return None
    import networkx as nx  # 0.1 s to import: only for statement lists with jumps

    g = _cfg(stmts)
    idom = nx.immediate_dominators(g, 0)
    reachable = set(idom) | {0}
    back = [(u, v) for u, v in g.edges if u in reachable and _dominates(idom, v, u)]
    for head in sorted({v for _, v in back}, reverse=True):
        latches = [u for u, v in back if v == head]
        rest = g.subgraph(n for n in g if n != head)
        region = {head, *latches}.union(*(nx.ancestors(rest, u) for u in latches if u != head))
        region &= reachable  # code no path reaches is not in the loop
        last = max(region)
        if region != set(range(head, last + 1)) or any(
                u not in region for k in range(head + 1, last + 1) for u in g.predecessors(k)):
            continue  # not one run of statements entered at its head
        return stmts[:head] + [_goto_loop(stmts[head:last + 1])] + stmts[last + 1:]
    return None


def _goto_loop(body: list[ast.Stmt]) -> ast.Stmt:
    """The loop of a natural loop's statements. ``L IF (c) THEN ... GO TO L END IF`` is a
    while loop; anything else runs again whenever a GO TO reaches L (GotoLoop)."""
    first = body[0]
    label = first.label
    first.label = None
    if (len(body) == 1 and isinstance(first, ast.IfBlock) and len(first.branches) == 1
            and first.else_body is None and _ends_with_goto(first.branches[0][1], label)):
        cond, arm, _ = first.branches[0]
        loop = ast.WhileLoop(first.loc, cond, arm[:-1], first.end_line, goto=True, label=label)
    else:
        if isinstance(first, ast.Continue):
            body = body[1:]
        loop = ast.GotoLoop(first.loc, body, _end_line(body[-1] if body else first), label=label)
    loop.body = _resolve_gotos(loop.body)
    _mark_exits(loop.body, label)
    return loop


def _end_line(s: ast.Stmt) -> int:
    return getattr(s, "end_line", None) or s.loc.end_line or s.loc.line


def _mark_exits(body: list[ast.Stmt], head: int | None = None) -> bool:
    """Turn GO TOs that leave a loop body into Exit markers; True if any jump leaves it. A GO TO
    the loop's ``head`` label is its next iteration, not an exit."""
    inside = {s.label for s in _walk(body) if s.label is not None} | {head}
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


def _check_jumps(body: list[ast.Stmt]) -> None:
    """Every GO TO left must go to a label of its own list or of an enclosing one (or to the
    head of a loop it is in): the engine resumes there. Anything else is an error."""
    defined = {s.label for s in _walk(body) if s.label is not None}

    def visit(stmts: list[ast.Stmt], visible: set[int]) -> None:
        visible = visible | set(_labels(stmts))
        for s in stmts:
            if isinstance(s, (ast.Goto, ast.Exit)) and s.target not in visible:
                where = "is not defined in this program unit" if s.target not in defined else (
                    "jumps into or across a block in a way interp cannot structure")
                raise UnsupportedError(
                    f"GO TO {s.target}: label {s.target} {where}", s.loc,
                    hint="Fortran 77 allows a GO TO to a label of its own block or of an "
                         "enclosing one, never into a DO loop or IF block")
            inner = visible | ({s.label} if isinstance(s, (ast.WhileLoop, ast.GotoLoop))
                               and s.label is not None else set())
            for child in _children(s):
                visit(child, inner)

    visit(body, set())
