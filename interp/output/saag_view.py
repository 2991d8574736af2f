"""Views of the SAAG: problems found by ``interp check`` and the chains with their edges."""

from __future__ import annotations


from interp.application import aau as A
from interp.engine.saag import KIND_SYMBOL, SAAG
from interp.output import jsontext


def problems_json(saag: SAAG) -> dict:
    """``interp check --format json``: ``problems``, each with kind, message and locations."""
    return {"nprocs": saag.nprocs, "files": saag.aag.files,
            "problems": [p.to_json() for p in saag.problems]}


def problems_text(saag: SAAG) -> str:
    if not saag.problems:
        return (f"ok: {', '.join(saag.aag.files)} on P = {saag.nprocs}: every send has its "
                f"receive and every global operation all its nodes ({len(saag.edges)} "
                "communication edges)")
    out = []
    times: dict = {}  # one line per distinct problem: a send unmatched in every iteration once
    for p in saag.problems:
        key = (p.kind, p.message, tuple(p.locations))
        times[key] = times.get(key, 0) + 1
    for (kind, message, locations), n in times.items():
        first = locations[0] if locations else None
        where = f"{first.file}:{first.line}:{first.column}: " if first else ""
        out.append(f"{where}{kind}: {message}" + (f" ({n} times)" if n > 1 else ""))
        seen = {f"{first.file}:{first.line}:{first.column}"} if first else set()
        for loc in locations[1:]:  # each place once: 16 nodes at one CRECV are one line
            text = f"{loc.file}:{loc.line}:{loc.column}"
            if text not in seen:
                seen.add(text)
                out.append(f"    see {text}")
    repeats = f" ({len(saag.problems)} occurrences)" if len(times) < len(saag.problems) else ""
    out.append(f"{len(times)} problem(s) found on P = {saag.nprocs}{repeats}")
    return "\n".join(out)


def _chain(p) -> list[A.AAU]:
    return p.program.aaus


def saag_json(saag: SAAG) -> dict:
    tags = saag.tags()
    return {
        "nprocs": saag.nprocs,
        "files": saag.aag.files,
        "processes": [
            {"process": p.label, "pid": p.pid, "program": p.program.name,
             "chain": [a.id for a in _chain(p)]}
            for p in saag.processes
        ],
        "edges": [e.to_json() for e in saag.edges],
        "aau_sync_ids": {str(k): v for k, v in sorted(tags.items())},
        "problems": [p.to_json() for p in saag.problems],
    }


def render_json(saag: SAAG) -> str:
    return jsontext.dumps(saag_json(saag), indent=2)


def render_text(saag: SAAG) -> str:
    by_id = saag.aag.by_id()
    out = [f"SAAG of {', '.join(saag.aag.files)} on P = {saag.nprocs}"]
    for p in saag.processes:
        chain = " -> ".join(f"{a.type}#{a.id}" for a in _chain(p))
        out.append(f"  {p.label} ({p.program.name}): {chain}")
    out.append("communication and synchronization edges:")
    for e in saag.edges:
        src, dst = by_id.get(e.src_aau), by_id.get(e.dst_aau)
        tag = f", type/tag {e.tag}" if e.tag is not None else ""
        out.append(
            f"  [{e.id}] {e.src} {src.type}#{e.src_aau} (line {src.loc.line}) {KIND_SYMBOL[e.kind]} "
            f"{e.dst} {dst.type}#{e.dst_aau} (line {dst.loc.line})  {e.pattern}, {e.size} B"
            f"{tag}, x{e.count}")
    if saag.problems:
        out.append("problems:")
        out.extend(f"  {p.kind}: {p.message}" for p in saag.problems)
    return "\n".join(out)


def render_dot(saag: SAAG) -> str:
    out = ["digraph SAAG {", "  rankdir=TB;", '  node [shape=box, fontname="Helvetica"];']
    for i, p in enumerate(saag.processes):
        out.append(f"  subgraph cluster_{i} {{")
        out.append(f'    label="{p.label}";')
        chain = _chain(p)
        for a in chain:
            out.append(f'    p{i}_a{a.id} [label="{a.type} #{a.id}\\nline {a.loc.line}"];')
        for x, y in zip(chain, chain[1:]):
            out.append(f"    p{i}_a{x.id} -> p{i}_a{y.id};")
        out.append("  }")
    index = {p.label: i for i, p in enumerate(saag.processes)}
    top = {p.label: {a.id for a in _chain(p)} for p in saag.processes}
    for e in saag.edges:
        si, di = index.get(e.src.split(" (")[0]), index.get(e.dst)
        if si is None or di is None:
            continue
        src = _top_of(saag, saag.processes[si], e.src_aau, top)
        dst = _top_of(saag, saag.processes[di], e.dst_aau, top)
        style = {"sync": "bold", "async": "dashed", "collective": "dotted"}[e.kind]
        out.append(f'  p{si}_a{src} -> p{di}_a{dst} [style={style}, color=blue, '
                   f'label="{KIND_SYMBOL[e.kind]} {e.size}B", constraint=false];')
    out.append("}")
    return "\n".join(out)


def _top_of(saag: SAAG, p, aau_id: int, top: dict) -> int:
    """The top-level AAU of ``p``'s chain that contains ``aau_id`` (edges attach there)."""
    if aau_id in top[p.label]:
        return aau_id
    for a in _chain(p):
        if any(x.id == aau_id for x in a.walk()):
            return a.id
    return aau_id
