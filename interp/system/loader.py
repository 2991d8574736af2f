"""Machine specs (YAML) to SAGs: schema check, then the semantic checks a schema cannot do.

Order of checks: YAML syntax, the JSON Schema (keys, required fields, types), each value's
expression and unit, then values (negative times, min > max, fractions) and the structure of the
tree (unique SAU names, no all-void SAU, the node/host/link SAUs have what the filter needs).
Every failure is a :class:`SpecError` at the offending YAML node.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

import sympy

from interp import cache
from interp.errors import InterpError, SourceLocation
from interp.resources import MACHINE_SPECS
from interp.system import schema, units
from interp.system.expr import CLK, ExprError, Quantity, parse_value
from interp.system.model import (
    ROLES,
    SAG,
    SAU,
    Component,
    Parameter,
    RuntimeParameter,
    bind_clocks,
    parameter_problem,
)
from interp.system.fattree import radix_problem
from interp.system.schema import ROUTING_FOR, VOCABULARY, Field
from interp.system.units import TEXT
from interp.system.yamldoc import MAX_BYTES, DataPath, Doc, doc_get, load_doc, raw_text




def list_machines() -> list[str]:
    """Names of the machine specs shipped in ``machine_specs/``."""
    return sorted(p.stem for p in MACHINE_SPECS.glob("*.yaml"))


def spec_path(name_or_path: str) -> Path:
    """``ipsc860`` -> ``machine_specs/ipsc860.yaml``; anything that looks like a path is a path."""
    path = Path(name_or_path)
    if path.suffix in (".yaml", ".yml") or len(path.parts) > 1:
        if not path.is_file():
            raise InterpError(f"no such machine spec file: {name_or_path}")
        return path
    candidate = MACHINE_SPECS / f"{name_or_path}.yaml"
    if not candidate.is_file():
        known = list_machines()
        guess = units.suggest(name_or_path, known)
        hint = (f"did you mean '{guess}'? " if guess else "") + "known machines: " + ", ".join(known)
        raise InterpError(f"unknown machine '{name_or_path}'", hint=hint)
    return candidate


def load_machine(name_or_path: str) -> SAG:
    """The SAG of a machine spec, by name (``ipsc860``) or by file path."""
    path = spec_path(name_or_path)
    return _load_cached(path.resolve(), path.stat().st_mtime_ns, str(path))


@lru_cache(maxsize=32)
def _load_cached(path: Path, mtime_ns: int, shown: str) -> SAG:
    # SAGs are immutable, so one load per file version can be shared by every caller; across
    # processes the user cache keeps them, keyed on the file's bytes and the code that reads it.
    if path.stat().st_size > MAX_BYTES:  # load_doc says why it is refused
        return build_sag(load_doc(path, shown))
    text = path.read_bytes()
    digest = cache.key(text, shown, cache.code_version(BUILDER_MODULES))
    return cache.cached("sag", digest, lambda: build_sag(load_doc(path, shown)))


# the modules whose code makes a SAG from a spec: an edit to any of them is a new cache key
BUILDER_MODULES = tuple(f"system/{m}.py" for m in (
    "loader", "model", "schema", "units", "expr", "yamldoc", "collectives", "filter", "mapping"))


def build_sag(doc: Doc) -> SAG:
    schema.validate(doc)
    return _Builder(doc).build()


@dataclass
class _Builder:
    doc: Doc
    runtime: tuple[RuntimeParameter, ...] = ()
    sau_paths: dict[str, DataPath] = field(default_factory=dict)
    bound_paths: dict[str, dict[str, DataPath]] = field(default_factory=dict)

    def build(self) -> SAG:
        machine = self.doc.data["machine"]
        self.runtime = self._runtime()
        root = bind_clocks(self._sau(("sag",)))
        sag = SAG(
            name=machine["name"],
            title=machine["title"],
            root=root,
            nodes=machine["nodes"],
            host=machine.get("host"),
            host_link=machine.get("host_link"),
            runtime=self.runtime,
            file=self.doc.file,
            source=machine.get("source", ""),
        )
        self._check_values(sag)
        self._check_roles(sag)
        return sag

    # --- run-time parameters ---------------------------------------------------------------------

    def _runtime(self) -> tuple[RuntimeParameter, ...]:
        out = []
        for name, entry in self.doc.data.get("runtime", {}).items():
            base = ("runtime", name)
            default, low, high = (self._number((*base, k)) for k in ("default", "min", "max"))
            if not low <= default <= high:
                raise self.doc.error(
                    f"run-time parameter '{name}': default {default} is outside [min {low}, max {high}]",
                    self.doc.where((*base, "default")),
                )
            out.append(RuntimeParameter(name, default, low, high, entry.get("note", ""), self.doc.where_key(base)))
        return tuple(out)

    def _number(self, path: DataPath) -> sympy.Expr:
        return self._quantity(path, "count", names={}).expr

    # --- the tree --------------------------------------------------------------------------------

    def _sau(self, path: DataPath) -> SAU:
        data = doc_get(self.doc.data, path)
        name = data["name"]
        if name in self.sau_paths:
            first = self.doc.where((*self.sau_paths[name], "name"))
            raise self.doc.error(
                f"SAU name '{name}' is already used at line {first.line}",
                self.doc.where((*path, "name")),
                "parameter paths start with the SAU name, so names must be unique",
            )
        self.sau_paths[name] = path
        comps = {role: self._component(path, role, name) for role in ROLES}
        children = tuple(self._sau((*path, "children", i)) for i in range(len(data.get("children", []))))
        sau = SAU(
            name, **comps, children=children, description=data.get("description", ""), location=self.doc.where(path)
        )
        self._check_sau(sau, path)
        return sau

    def _component(self, sau_path: DataPath, role: str, sau_name: str) -> Component:
        path = (*sau_path, role)
        data = doc_get(self.doc.data, sau_path).get(role, "void")
        location = self.doc.where_key(path) if role in doc_get(self.doc.data, sau_path) else None
        if isinstance(data, str):
            return Component(role, data, location=location)
        params = [
            self._parameter(
                (*path, group, name), f"{sau_name}.{role}.{group}.{name}", VOCABULARY[role][group].field_for(name)
            )
            for group, entries in data.items()
            if group not in ("type", "note")
            for name in entries
        ]
        comp = Component(role, data.get("type", "simple"), tuple(params), data.get("note", ""), location)
        if comp.type == "simple" and not params:
            raise self.doc.error(
                f"the simple component '{role}' of SAU '{sau_name}' exports no parameters",
                location,
                "a simple component exports parameters; make it 'void' or 'compound'",
            )
        return comp

    def _parameter(self, path: DataPath, ppath: str, f: Field) -> Parameter:
        raw = doc_get(self.doc.data, path)
        extra = {"assumption": False, "note": ""}
        if isinstance(raw, dict):
            extra = {"assumption": raw.get("assumption", False), "note": raw.get("note", "")}
            bounds = self._bound_paths(path, raw)
        else:
            bounds = {"min": path, "max": path}
        self.bound_paths[ppath] = bounds
        location = self.doc.where_key(path)
        if f.kind == TEXT:
            if bounds["min"] != bounds["max"]:
                raise self.doc.error(
                    f"{ppath} is a choice, not a range", self.doc.where_key(path), "write 'value: ...'"
                )
            return Parameter(ppath, TEXT, text=str(doc_get(self.doc.data, bounds["min"])), location=location, **extra)
        names = {r.name: r.symbol for r in self.runtime}
        lo, hi = (self._quantity(bounds[b], f.kind, names) for b in ("min", "max"))
        return Parameter(ppath, f.kind, lo, hi, location=location, **extra)

    def _bound_paths(self, path: DataPath, raw: dict) -> dict[str, DataPath]:
        if "value" in raw and not ("min" in raw or "max" in raw):
            return {"min": (*path, "value"), "max": (*path, "value")}
        if "min" in raw and "max" in raw and "value" not in raw:
            return {"min": (*path, "min"), "max": (*path, "max")}
        raise self.doc.error(
            "a parameter mapping needs either 'value' or both 'min' and 'max'",
            self.doc.where_key(path),
            "write 'value: 70e-6 s', or 'max: 3 clk' and 'min: 2 clk'",
        )

    def _quantity(self, path: DataPath, kind: str, names) -> Quantity:
        try:
            return parse_value(raw_text(self.doc, path), kind, names)
        except ExprError as err:
            what = schema.friendly(self.doc, path)
            raise self.doc.error(f"{what}: {err.message}", self.doc.where(path, err.offset), err.hint) from None

    # --- semantic checks -------------------------------------------------------------------------

    def _check_sau(self, sau: SAU, path: DataPath) -> None:
        where = self.doc.where((*path, "name"))
        if all(c.type == "void" for c in sau.components):
            raise self.doc.error(
                f"SAU '{sau.name}' has only void components",
                where,
                "every SAU has at least one component that is not void (Sec. 3.2.1)",
            )
        if sau.children and sau.kind != "compound":
            raise self.doc.error(
                f"SAU '{sau.name}' has sub-units but no compound component",
                where,
                "mark the component its children refine as 'compound' (e.g. p: compound)",
            )
        clock_path = f"{sau.name}.p.general.clock"
        clock = next((p for p in sau.p.parameters if p.path == clock_path), None)
        if clock is not None and (clock.runtime_symbols or CLK in clock.max.expr.free_symbols or clock.is_range):
            raise self.doc.error("the clock must be a single number with its unit", self._at(clock_path, "max"))
        counted = next((p for c in sau.components for p in c.parameters if _uses_clock(p)), None)
        if clock is None and counted is not None:
            raise self.doc.error(
                f"'{counted.max.text}' is counted in clocks, but SAU '{sau.name}' has no clock",
                self._at(counted.path, "max"),
                "give the SAU a processing component with general.clock, or write the value in seconds",
            )

    def _check_values(self, sag: SAG) -> None:
        for p in sag.parameters():
            problem = parameter_problem(p, sag.runtime)
            if problem:
                bound, message = problem
                raise self.doc.error(f"{p.path}: {message}", self._at(p.path, bound))

    def _check_roles(self, sag: SAG) -> None:
        for role in ("nodes", "host", "host_link"):
            name = getattr(sag, role)
            if name is not None and name not in self.sau_paths:
                guess = units.suggest(name, self.sau_paths)
                raise self.doc.error(
                    f"machine.{role} names SAU '{name}', which the SAG does not have",
                    self.doc.where(("machine", role)),
                    f"did you mean '{guess}'?" if guess else "SAUs: " + ", ".join(self.sau_paths),
                )
        node_needs = ["p.general.clock", "p.general.max_procs", "cs.sync.overhead"]
        node_needs += [f"cs.overlap.{k}" for k in schema.OVERLAP_KINDS]
        self._check_network(sag, sag.nodes, node_needs, "runs the node processes (machine.nodes)")
        if sag.host:
            self._require(sag, sag.host, ["p.general.clock"], "runs the host program (machine.host)")
        if sag.host_link:
            self._check_network(sag, sag.host_link, ["cs.spec.entry_node"], "links host and nodes (machine.host_link)")
            entry = sag.param(f"{sag.host_link}.cs.spec.entry_node")
            limit = sag.value(f"{sag.nodes}.p.general.max_procs")
            if entry.value() >= limit:
                raise self.doc.error(
                    f"entry node {entry.value()} is not one of the {limit} nodes", self._at(entry.path, "max")
                )

    def _check_network(self, sag: SAG, name: str, extra: list[str], why: str) -> None:
        self._require(
            sag,
            name,
            ["cs.spec.topology", "cs.spec.routing", *extra] + [f"cs.dynamic.{t}" for t in schema.COMM_TIMES],
            why,
        )
        if sag.has(f"{name}.cs.spec.static_buffer_size"):
            self._require(sag, name, [f"cs.static.{t}" for t in schema.COMM_TIMES], "has static buffers")
        topology = sag.param(f"{name}.cs.spec.topology").text
        routing = sag.param(f"{name}.cs.spec.routing")
        if routing.text != ROUTING_FOR[topology]:
            raise self.doc.error(
                f"routing '{routing.text}' does not fit topology '{topology}'",
                self._at(routing.path, "max"),
                f"a {topology} routes with '{ROUTING_FOR[topology]}'",
            )
        if topology == "mesh2d":
            self._require(sag, name, ["cs.spec.mesh_columns"], "is a 2-D mesh")
        if topology == "fat_tree":
            self._require(sag, name, ["cs.spec.switch_radix"], "is a fat tree")
            radix = sag.param(f"{name}.cs.spec.switch_radix")
            problem = radix_problem(int(radix.value()) if radix.value().is_integer else radix.value())
            if problem:
                raise self.doc.error(problem, self._at(radix.path, "max"),
                                     "a 64-port switch (InfiniBand NDR) is switch_radix: 64")

    def _require(self, sag: SAG, name: str, rel_paths: list[str], why: str) -> None:
        for rel in rel_paths:
            if not sag.has(f"{name}.{rel}"):
                role, group, param = rel.split(".")
                raise self.doc.error(
                    f"SAU '{name}' {why}, so it needs {role}.{group}.{param}",
                    self.doc.where_key((*self.sau_paths[name], role, group, param)),
                )

    def _at(self, ppath: str, bound: str) -> SourceLocation:
        return self.doc.where(self.bound_paths[ppath][bound])


def _uses_clock(p: Parameter) -> bool:
    return p.kind == "time" and any(q.dim == units.CLOCKS or CLK in q.expr.free_symbols for q in (p.min, p.max))
