"""Views of the AAG: the stable JSON contract, a rich tree, and Graphviz dot."""

from __future__ import annotations


from rich.markup import escape
from rich.tree import Tree

from interp.application import aau as A
from interp.application.aag import AAG
from interp.application.ast import expr_text
from interp.output import jsontext


def children_ids(a: A.AAU) -> list[int]:
    if isinstance(a, A.Call):
        return [c.id for c in a.callee_body]
    if isinstance(a, A.Condt):
        return [c.id for b in a.branches for c in b.body]
    return [c.id for c in a.children]


def aau_json(a: A.AAU) -> dict:
    return {
        "id": a.id,
        "type": a.type,
        "unit": a.unit,
        "file": a.loc.file,
        "line": a.loc.line,
        "column": a.loc.column,
        "end_line": a.end_line,
        "params": a.params(),
        "children": children_ids(a),
    }


def aag_json(aag: AAG) -> dict:
    """``interp graph --format json``: a stable contract (keys are only ever added)."""
    return {
        "files": aag.files,
        "granularity": aag.granularity,
        "units": [
            {
                "name": u.name,
                "kind": u.kind,
                "file": u.file,
                "line": u.unit.loc.line,
                "end_line": u.unit.end_line,
                "aaus": [a.id for a in u.aaus],
                "symbols": [s.to_json() for s in u.symbols.symbols.values()
                            if s.kind in ("variable", "array", "parameter")],
            }
            for u in aag.units.values()
        ],
        "aaus": [aau_json(a) for a in sorted(aag.all_aaus(), key=lambda a: a.id)],
        "critical_variables": [c.to_json() for c in aag.critical_variables],
        "external_inputs": [e.to_json() for e in aag.external_inputs],
    }


def render_json(aag: AAG) -> str:
    return jsontext.dumps(aag_json(aag), indent=2)


def _summary(a: A.AAU) -> str:
    lines = f"{a.loc.line}" if a.end_line == a.loc.line else f"{a.loc.line}-{a.end_line}"
    head = f"[bold]{a.type}[/] #{a.id} [dim]line {lines}[/]"
    if isinstance(a, A.Seq):
        ops = a.ops.to_json()
        shown = ", ".join(f"{k}={v}" for k, v in ops.items() if not isinstance(v, (dict, list)))
        return f"{head}  {len(a.stmts)} stmt(s)  {shown}"
    if isinstance(a, A.Iter):
        if a.var:
            step = f", {expr_text(a.step)}" if a.step is not None else ""
            text = f"DO {a.var} = {expr_text(a.start)}, {expr_text(a.stop)}{step}"
        elif a.limit_type == "goto":
            text = f"GO TO {a.head_label} loop"
        else:
            text = f"WHILE {expr_text(a.cond)}"
        extra = f"  iterations: {a.num_iters}" if a.num_iters is not None else ""
        nd = f"  [yellow]({a.nd_reason})[/]" if a.nd_reason else ""
        return f"{head}  {text}{extra}{nd}"
    if isinstance(a, A.Condt):
        conds = " | ".join(expr_text(b.cond) if b.cond is not None else "ELSE" for b in a.branches)
        return f"{head}  IF {conds}"
    if isinstance(a, (A.Comm, A.Sync, A.SyncSeq, A.Spawn)):
        args = ", ".join(expr_text(x) for x in a.args)
        result = f"{a.result} = " if a.result else ""
        return f"{head}  {result}{a.call.name}({args})"
    if isinstance(a, A.Call):
        return f"{head}  CALL {a.callee}({', '.join(expr_text(x) for x in a.args)})"
    if isinstance(a, A.End) and a.kind.startswith("exit:"):
        return f"{head}  GO TO {a.kind.removeprefix('exit:')}"
    if isinstance(a, A.End) and a.kind != "end":
        return f"{head}  {a.kind.upper()}"
    return head


def _add(node: Tree, a: A.AAU) -> None:
    branch = node.add(_summary(a))
    if isinstance(a, A.Condt):
        for b in a.branches:
            label = f"IF {expr_text(b.cond)}" if b.cond is not None else "ELSE"
            arm = branch.add(f"[cyan]{label}[/]")
            for c in b.body:
                _add(arm, c)
    else:
        for c in a.children:
            _add(branch, c)


def render_tree(aag: AAG) -> Tree:
    root = Tree(f"AAG of {', '.join(aag.files)} [dim](granularity: {aag.granularity})[/]")
    for u in aag.units.values():
        node = root.add(f"[bold magenta]{u.kind} {u.name}[/] [dim]{u.file}[/]")
        for a in u.aaus:
            _add(node, a)
    if aag.critical_variables:
        crit = root.add("[bold]critical variables[/]")
        for c in aag.critical_variables:
            tags = [t for t, on in (("external", c.external), ("node-dependent", c.node_dependent),
                                    ("from message", c.from_message)) if on]
            path = f" <- {', '.join(c.definition_path)}" if c.definition_path else ""
            crit.add(f"{c.unit}.{c.name} ({', '.join(sorted(set(c.roles)))}){path}"
                     + (f" [yellow]{escape('[' + ', '.join(tags) + ']')}[/]" if tags else ""))
    if aag.external_inputs:
        ext = root.add("[bold]external inputs[/]")
        for e in aag.external_inputs:
            where = f"{e.locations[0]}" if e.locations else ""
            ext.add(f"{e.unit}.{e.name} ({e.how}{', critical' if e.critical else ''}) {where}")
    return root


def _dot_id(a: A.AAU) -> str:
    return f"a{a.id}"


def render_dot(aag: AAG) -> str:
    out = ["digraph AAG {", "  rankdir=TB;", '  node [shape=box, fontname="Helvetica"];']
    for i, u in enumerate(aag.units.values()):
        out.append(f"  subgraph cluster_{i} {{")
        out.append(f'    label="{u.kind} {u.name}";')
        for a in u.walk():
            shape = "ellipse" if a.type in ("Start", "End") else (
                "box3d" if a.COMPOUND else "box")
            out.append(f'    {_dot_id(a)} [label="{a.type} #{a.id}\\nline {a.loc.line}", shape={shape}];')
        out.append("  }")
    for x, y, data in aag.graph.edges(data=True):
        style = {"next": "solid", "body": "dashed", "branch": "dashed", "call": "dotted"}[data["kind"]]
        out.append(f'  a{x} -> a{y} [style={style}, label="{data["kind"] if data["kind"] != "next" else ""}"];')
    out.append("}")
    return "\n".join(out)
