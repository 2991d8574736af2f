"""The machine-spec vocabulary, the JSON Schema built from it, and schema errors for people.

The vocabulary says which groups each component (P, M, C/S, I/O) may export and what each
parameter measures; it is the one source from which both the JSON Schema (structure, keys,
required fields) and the loader (units, kinds) take their knowledge. Groups ``library`` and
``nx`` are open: any function name may be added there.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING

from interp.errors import SourceLocation
from interp.system import units
from interp.system.units import TEXT
from interp.system.yamldoc import DataPath, Doc

if TYPE_CHECKING:
    from jsonschema.exceptions import ValidationError

NAME_PATTERN = r"^[A-Za-z_][A-Za-z0-9_]*$"


@dataclass(frozen=True)
class Field:
    kind: str  # a key of units.KINDS, or TEXT
    required: bool = True
    choices: tuple[str, ...] = ()  # allowed values of a TEXT field (empty: any text)


@dataclass(frozen=True)
class Group:
    fields: dict[str, Field]
    open_kind: str | None = None  # open groups accept any name of this kind
    required: tuple[str, ...] = ()  # required names of an open group

    def field_for(self, name: str) -> Field | None:
        if name in self.fields:
            return self.fields[name]
        return Field(self.open_kind) if self.open_kind else None


def _times(*names: str) -> dict[str, Field]:
    return {n: Field("time") for n in names}


TOPOLOGIES = ("hypercube", "full", "ring", "mesh2d", "fat_tree")
ROUTING_FOR = {"hypercube": "e-cube", "full": "direct", "ring": "shortest", "mesh2d": "xy", "fat_tree": "d-mod-k"}
COMM_TIMES = _times("startup", "per_byte", "per_hop", "receive")
OVERLAP_KINDS = ("sync_send", "async_send", "recv", "collective")

VOCABULARY: dict[str, dict[str, Group]] = {
    "p": {
        "general": Group(
            {
                "unit_name": Field(TEXT, required=False),
                "clock": Field("frequency"),
                "max_procs": Field("count", required=False),
            }
        ),
        "ops": Group(_times("add_sub", "mul", "int_div", "real_div", "int_to_real", "real_to_int")),
        "loop": Group(_times("nostep_fixed", "nostep_per_iter", "step_fixed", "step_per_iter")),
        "cond": Group(_times("condition", "branch_taken")),
        "call": Group(_times("overhead", "per_arg")),
        "library": Group({}, open_kind="time", required=("default",)),
        "nx": Group({}, open_kind="time"),
    },
    "m": {
        "cache": Group(
            {
                "size": Field("bytes"),
                "block": Field("bytes"),
                "assoc": Field("count"),
                "replacement": Field(TEXT, choices=("random", "lru", "fifo", "plru")),
                "write_policy": Field(TEXT, choices=("write-back", "write-through")),
            }
        ),
        "icache": Group({"size": Field("bytes"), "block": Field("bytes"), "assoc": Field("count")}),
        "main": Group({"size": Field("bytes"), "page": Field("bytes")}),
        "access": Group(
            _times(
                "fetch",
                "fetch_miss",
                "store",
                "store_miss",
                "mm_fetch_first",
                "mm_fetch_pipelined",
                "mm_store_first",
                "mm_store_pipelined",
            )
        ),
    },
    "cs": {
        "spec": Group(
            {
                "topology": Field(TEXT, choices=TOPOLOGIES),
                "routing": Field(TEXT, choices=tuple(ROUTING_FOR.values())),
                "switching": Field(TEXT, choices=("circuit", "packet", "wormhole", "store-and-forward")),
                "static_buffer_size": Field("bytes", required=False),
                "static_buffers": Field("count", required=False),
                "static_buffer_use": Field(TEXT, required=False, choices=("synchronous", "all")),
                # MPI sends of more bytes use the rendezvous protocol (absent: every MPI send
                # is eager); see docs/mpi.md
                "eager_threshold": Field("bytes", required=False),
                # what a rendezvous message pays (absent: overheads, the startup and receive
                # of its class; transfer: SMPI's, its bytes and route only); docs/mpi.md
                "rendezvous_cost": Field(TEXT, required=False, choices=("overheads", "transfer")),
                # which message an MPI_ANY_SOURCE receive takes first (absent: arrival; posted:
                # SMPI's, the first send posted); docs/mpi.md
                "any_source": Field(TEXT, required=False, choices=("arrival", "posted")),
                # an MPI_SENDRECV to and from itself (absent: message, priced as a message to
                # self; copy: SMPI's, free); docs/validation.md, "Messages to self"
                "self_sendrecv": Field(TEXT, required=False, choices=("message", "copy")),
                "mesh_columns": Field("count", required=False),
                # ports per switch of a fat tree (half down, half up); its levels grow with
                # max_procs (interp/system/fattree.py)
                "switch_radix": Field("count", required=False),
                "entry_node": Field("count", required=False),
                "contention": Field(TEXT, required=False, choices=("links", "none")),
                "channel": Field(TEXT, required=False, choices=("fifo", "fair")),
                # how MPI_COMM_SPLIT learns the groups (absent: allgather, as MPICH and Open
                # MPI; gather_send: SMPI's gather to rank 0 and its sends); see docs/mpi.md
                "comm_split": Field(TEXT, required=False, choices=("allgather", "gather_send")),
            }
        ),
        "static": Group(COMM_TIMES),
        "dynamic": Group(COMM_TIMES),
        "sync": Group(_times("overhead")),
        "overlap": Group({k: Field("fraction") for k in OVERLAP_KINDS}),
    },
    "io": {
        "file": Group(
            _times("open", "close", "position", "read_startup", "read_per_byte", "write_startup", "write_per_byte")
        ),
        "device": Group(_times("seek", "rotational_latency", "transfer_per_byte")),
    },
}

ROLE_NAMES = {"p": "processing", "m": "memory", "cs": "communication/synchronization", "io": "input/output"}


def _expected(f: Field) -> str:
    if f.kind == TEXT:
        return "one of: " + ", ".join(f.choices) if f.choices else "a text"
    return units.KINDS[f.kind].expected


def _value_schema(f: Field) -> dict:
    scalar: dict = {"description": _expected(f)}
    if f.kind == TEXT:
        scalar |= {"type": "string", **({"enum": list(f.choices)} if f.choices else {})}
    else:
        scalar |= {"type": ["number", "string"]}
    entry = {
        "type": "object",
        "description": _expected(f),
        "properties": {
            "value": scalar,
            "min": scalar,
            "max": scalar,
            "assumption": {"type": "boolean", "description": "true or false"},
            "note": {"type": "string", "description": "a text"},
        },
        "additionalProperties": False,
    }
    return {"description": _expected(f), "if": {"type": "object"}, "then": entry, "else": scalar}


def _group_schema(g: Group) -> dict:
    required = [n for n, f in g.fields.items() if f.required] + list(g.required)
    schema: dict = {
        "type": "object",
        "description": "a mapping of parameters",
        "properties": {n: _value_schema(f) for n, f in g.fields.items()},
        "required": required,
    }
    if g.open_kind:
        schema |= {
            "propertyNames": {"pattern": NAME_PATTERN},
            "additionalProperties": _value_schema(Field(g.open_kind)),
        }
    else:
        schema["additionalProperties"] = False
    return schema


def _component_schema(role: str) -> dict:
    groups = {name: _group_schema(g) for name, g in VOCABULARY[role].items()}
    described = f"'void', 'compound' or a mapping of {ROLE_NAMES[role]} parameter groups"
    return {
        "description": described,
        "if": {"type": "string"},
        "then": {"enum": ["compound", "void"], "description": described},
        "else": {
            "type": "object",
            "description": described,
            "properties": {
                "type": {"enum": ["simple", "compound"], "description": "simple or compound"},
                "note": {"type": "string", "description": "a text"},
                **groups,
            },
            "additionalProperties": False,
        },
    }


def _build_schema() -> dict:
    text = {"type": "string", "description": "a text"}
    name = {"type": "string", "pattern": NAME_PATTERN, "description": "a name (letters, digits, '_')"}
    number = {"type": "number", "description": "a number"}
    sau = {
        "type": "object",
        "description": "an SAU: a mapping with name, p, m, cs, io and children",
        "properties": {
            "name": name,
            "description": text,
            **{role: _component_schema(role) for role in VOCABULARY},
            "children": {"type": "array", "items": {"$ref": "#/$defs/sau"}, "description": "a list of SAUs"},
        },
        "required": ["name"],
        "additionalProperties": False,
    }
    runtime = {
        "type": "object",
        "description": "a run-time parameter: default, min, max and note",
        "properties": {"default": number, "min": number, "max": number, "note": text},
        "required": ["default", "min", "max"],
        "additionalProperties": False,
    }
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": "interp machine spec (a SAG of SAUs, Parashar et al. 1993, Sec. 3.2)",
        "type": "object",
        "description": "a mapping with keys machine, runtime and sag",
        "properties": {
            "machine": {
                "type": "object",
                "description": "the machine's name, title, source, nodes, host and host_link",
                "properties": {
                    "name": name,
                    "title": text,
                    "source": text,
                    "nodes": {**name, "description": "the name of the SAU node processes run on"},
                    "host": {**name, "description": "the name of the SAU the host program runs on"},
                    "host_link": {**name, "description": "the name of the SAU linking host and nodes"},
                },
                "required": ["name", "title", "nodes"],
                "additionalProperties": False,
            },
            "runtime": {
                "type": "object",
                "description": "a mapping of run-time parameters",
                "propertyNames": {"pattern": NAME_PATTERN},
                "additionalProperties": runtime,
            },
            "sag": {"$ref": "#/$defs/sau"},
        },
        "required": ["machine", "sag"],
        "additionalProperties": False,
        "$defs": {"sau": sau},
    }


SCHEMA: dict = _build_schema()


@lru_cache(maxsize=1)
def _validator():
    # jsonschema (0.07 s to import) only when a spec is read, not from the user cache
    from jsonschema import Draft202012Validator

    return Draft202012Validator(SCHEMA)


def validate(doc: Doc) -> None:
    """Raise a SpecError for the first schema violation in reading order."""
    problems = [p for p in (_explain(doc, err) for err in _validator().iter_errors(doc.data)) if p]
    if problems:
        loc, message, hint = min(problems, key=lambda p: (p[0].line, p[0].column))
        raise doc.error(message, loc, hint)


def friendly(doc: Doc, path: DataPath) -> str:
    """``('sag', 'children', 2, 'p', 'ops')`` -> ``cube.p.ops`` (SAU names instead of indices)."""
    data, parts = doc.data, []
    for key in path:
        data = data[key] if isinstance(data, (dict, list)) else None
        if isinstance(key, int) or key == "sag":
            parts = [data.get("name", f"#{key}") if isinstance(data, dict) else f"#{key}"]
        elif key != "children":
            parts.append(str(key))
    return ".".join(str(p) for p in parts) or "the spec"


_YAML_TYPES = {dict: "a mapping", list: "a list", str: "a text", bool: "true/false", type(None): "empty"}


def _type_name(value: object) -> str:
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return f"the number {value}"
    return _YAML_TYPES.get(type(value), type(value).__name__)


def _unknown_keys(err: ValidationError) -> list:
    if err.schema.get("additionalProperties") is not False or not isinstance(err.instance, dict):
        return []
    return [k for k in err.instance if k not in err.schema.get("properties", {})]


def _explain(doc: Doc, err: ValidationError) -> tuple[SourceLocation, str, str | None] | None:
    path = tuple(err.absolute_path)
    where = friendly(doc, path)
    if err.validator == "additionalProperties":
        known = list(err.schema.get("properties", {}))
        key = _unknown_keys(err)[0]
        guess = units.suggest(str(key), known)
        hint = f"did you mean '{guess}'?" if guess else "expected one of: " + ", ".join(known)
        return doc.where_key((*path, key)), f"unknown key '{key}' in {where}", hint
    if err.validator == "required":
        if _unknown_keys(err):
            return None  # a misspelt key is reported as unknown, with a did-you-mean
        missing = next(r for r in err.validator_value if r not in err.instance)
        described = err.schema.get("properties", {}).get(missing, {}).get("description")
        return (
            doc.where_key(path),
            f"missing field '{missing}' in {where}",
            f"expected {described}" if described else None,
        )
    if err.validator == "enum":
        guess = units.suggest(str(err.instance), [str(c) for c in err.validator_value])
        hint = f"did you mean '{guess}'? " if guess else ""
        hint += "expected one of: " + ", ".join(str(c) for c in err.validator_value)
        return doc.where(path), f"'{err.instance}' is not allowed for {where}", hint
    if err.validator == "pattern":
        hint = "a name is letters, digits and '_', not starting with a digit"
        if "propertyNames" in err.absolute_schema_path:
            return doc.where_key((*path, err.instance)), f"'{err.instance}' is not a valid name in {where}", hint
        return doc.where(path), f"'{err.instance}' is not a valid name for {where}", hint
    if err.validator == "type":
        expected = err.schema.get("description", " or ".join(err.validator_value))
        return doc.where(path), f"{where} must be {expected}, not {_type_name(err.instance)}", None
    return doc.where(path), f"{where}: {err.message}", None
