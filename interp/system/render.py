"""Showing SAGs to people (``interp machine show``): a rich tree or JSON.

Every value is shown as written in the spec, with its time in seconds where it is a time, its
range, and whether it is an assumption (with the note saying why).
"""

from __future__ import annotations

import json

import sympy
from rich.console import Console
from rich.markup import escape
from rich.tree import Tree

from interp.errors import InterpError
from interp.system import units
from interp.system.loader import list_machines, load_machine
from interp.system.model import SAG, SAU, Component, Parameter
from interp.output.console import make_console

_BASE_UNIT = {"time": "s", "bytes": "B", "frequency": "Hz", "count": "", "fraction": ""}


def format_seconds(value: sympy.Expr) -> str:
    x = float(value)
    for scale, unit in ((1.0, "s"), (1e-3, "ms"), (1e-6, "µs"), (1e-9, "ns")):
        if abs(x) >= scale:
            return f"{x / scale:.4g} {unit}"
    return "0 s" if x == 0 else f"{x:.4g} s"


def _at_defaults(sag: SAG, p: Parameter, bound: str) -> sympy.Expr:
    return p.value(bound).subs(sag.runtime_values())


def _value_text(sag: SAG, p: Parameter) -> str:
    if p.is_text:
        return escape(p.text)

    def one(bound: str) -> str:
        q = getattr(p, bound)
        shown = escape(q.text)
        if p.kind == "time" and (q.dim != units.TIME or q.expr.free_symbols):
            shown += f" [dim]= {format_seconds(_at_defaults(sag, p, bound))}[/dim]"
        elif q.expr.free_symbols:  # a count of run-time parameters (max_procs: procs)
            shown += f" [dim]= {_at_defaults(sag, p, bound)}[/dim]"
        return shown

    text = f"max {one('max')} · min {one('min')}" if p.is_range else one("max")
    if p.runtime_symbols:  # only the run-time parameters it depends on
        text += " [dim](at " + ", ".join(f"{r.name} = {r.default}" for r in sag.runtime
                                         if r.symbol in p.runtime_symbols) + ")[/dim]"
    return text


def _param_label(sag: SAG, p: Parameter) -> str:
    label = f"[bold]{p.name}[/bold] {_value_text(sag, p)}"
    if p.assumption:
        label += f"  [yellow]\\[assumption][/yellow] [dim]{escape(p.note)}[/dim]"
    elif p.note:
        label += f"  [dim]{escape(p.note)}[/dim]"
    return label


def _component_branch(sag: SAG, tree: Tree, c: Component, has_children: bool) -> None:
    label = f"[cyan]{c.role}[/cyan]: {c.type}"
    if c.type == "compound" and not c.parameters:
        label += " [dim](refined by the sub-units)[/dim]" if has_children else " [dim](not characterized)[/dim]"
    if c.note:
        label += f"  [dim]{escape(c.note)}[/dim]"
    branch = tree.add(label)
    for group, params in c.groups().items():
        leaf = branch.add(f"[magenta]{group}[/magenta]")
        for p in params:
            leaf.add(_param_label(sag, p))


def _sau_tree(sag: SAG, sau: SAU, tree: Tree) -> None:
    for c in sau.components:
        _component_branch(sag, tree, c, bool(sau.children))
    for child in sau.children:
        _sau_tree(sag, child, tree.add(_sau_label(child)))


def _sau_label(sau: SAU) -> str:
    return f"[bold green]{sau.name}[/bold green] ({sau.kind} SAU) [dim]{escape(sau.description)}[/dim]"


def sag_tree(sag: SAG) -> Tree:
    tree = Tree(f"[bold]{escape(sag.title)}[/bold] [dim]{escape(sag.file)}[/dim]")
    if sag.runtime:
        rt = tree.add("[cyan]run-time parameters[/cyan]")
        for r in sag.runtime:
            rt.add(f"[bold]{r.name}[/bold] default {r.default} in [{r.min}, {r.max}] [dim]{escape(r.note)}[/dim]")
    _sau_tree(sag, sag.root, tree.add(_sau_label(sag.root)))
    return tree


def _param_json(sag: SAG, p: Parameter) -> dict:
    out: dict = {"kind": p.kind, "assumption": p.assumption, "note": p.note, "location": str(p.location)}
    if p.is_text:
        return {**out, "value": p.text}
    out |= {"max": p.max.text, "min": p.min.text, "unit": _BASE_UNIT[p.kind]}
    out |= {f"{b}_value": float(_at_defaults(sag, p, b)) for b in ("max", "min")}
    if p.runtime_symbols:
        out["depends_on"] = sorted(str(s) for s in p.runtime_symbols)
    return out


def _sau_json(sag: SAG, sau: SAU) -> dict:
    components = {
        c.role: {
            "type": c.type,
            "note": c.note,
            "parameters": {g: {p.name: _param_json(sag, p) for p in ps} for g, ps in c.groups().items()},
        }
        for c in sau.components
    }
    return {
        "name": sau.name,
        "kind": sau.kind,
        "description": sau.description,
        "components": components,
        "children": [_sau_json(sag, ch) for ch in sau.children],
    }


def sag_json(sag: SAG) -> dict:
    return {
        "name": sag.name,
        "title": sag.title,
        "source": sag.source,
        "file": sag.file,
        "nodes": sag.nodes,
        "host": sag.host,
        "host_link": sag.host_link,
        "runtime": {
            r.name: {"default": float(r.default), "min": float(r.min), "max": float(r.max), "note": r.note}
            for r in sag.runtime
        },
        "assumptions": [p.path for p in sag.assumptions()],
        "sag": _sau_json(sag, sag.root),
    }


def _console() -> Console:
    # Piped output is not cropped to 80 columns: notes matter more than layout there.
    return make_console(240)


def show(sag: SAG, fmt: str = "tree") -> None:
    if fmt == "json":
        print(json.dumps(sag_json(sag), indent=2))  # plain: no wrapping, no markup
        return
    console = _console()
    console.print(sag_tree(sag))
    console.print(
        f"{len(sag.assumptions())} of {len(sag.parameters())} values are assumptions "
        "(marked [yellow]\\[assumption][/yellow]); the others are from the source: " + escape(sag.source)
    )


def show_list() -> None:
    console = _console()
    for name in list_machines():
        try:
            sag = load_machine(name)
            console.print(
                f"[bold]{name}[/bold]  {escape(sag.title)}  [dim]{len(sag.parameters())} values, "
                f"{len(sag.assumptions())} assumptions[/dim]"
            )
        except InterpError as err:
            console.print(f"[bold]{name}[/bold]  [red]invalid:[/red] {escape(err.message)}")


def validate(path: str) -> None:
    sag = load_machine(path)
    _console().print(
        f"ok: {escape(sag.file)}: {escape(sag.title)}, {len(sag.saus())} SAUs, "
        f"{len(sag.parameters())} values, {len(sag.assumptions())} assumptions"
    )
