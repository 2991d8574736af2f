"""The message-passing catalog (``data/catalog.yaml``): NX/2 and MPI calls, mpif.h, intrinsics."""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from interp import cache

_CATALOG = Path(__file__).with_name("data") / "catalog.yaml"


@dataclass(frozen=True)
class LibraryCall:
    """One catalog entry: how a message-passing call becomes an AAU."""

    name: str
    library: str  # nx2 | mpi
    aau: str  # Comm | Sync | SyncSeq | Spawn | Seq
    op: str
    args: tuple[str, ...]
    sync: bool = True
    returns: str | None = None
    cost: str | None = None
    reduce: str | None = None
    elem_bytes: int | None = None
    # (role, the argument that plays it): MPI_SENDRECV_REPLACE's one buffer is also its recvbuf
    aliases: tuple[tuple[str, str], ...] = ()

    def role_index(self, role: str) -> int | None:
        """Position of the argument with this role (``out_`` prefixes ignored)."""
        i = _role_index(self.args, role)
        if i is None and self.aliases:
            other = dict(self.aliases).get(role)
            return _role_index(self.args, other) if other else None
        return i


@dataclass(frozen=True)
class Intrinsic:
    name: str
    type: str  # a type name, or "arg": the type of the first argument
    cost: str


@lru_cache(maxsize=None)
def _role_index(args: tuple[str, ...], role: str) -> int | None:
    # asked for every argument of every message of every rank: worked out once per call
    for i, r in enumerate(args):
        if r == role or r == f"out_{role}":
            return i
    return None


@lru_cache(maxsize=1)
def _data() -> dict:
    # every command reads the catalog (mpif.h's constants at import): from the user cache it
    # costs neither YAML's import nor its parse (~40 ms of a small predict)
    text = _CATALOG.read_bytes()
    return cache.cached("catalog", cache.key(text, cache.code_version(["application/catalog.py"])),
                        lambda: _parse(text))


def _parse(text: bytes) -> dict:
    import yaml

    return yaml.load(text, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))


@lru_cache(maxsize=1)
def library_calls() -> dict[str, LibraryCall]:
    out = {}
    for lib in ("nx2", "mpi"):
        for name, entry in _data()[lib].items():
            fields = dict(entry)
            fields["args"] = tuple(fields.get("args", ()))
            fields["aliases"] = tuple(sorted(fields.get("aliases", {}).items()))
            out[name] = LibraryCall(name=name, library=lib, **fields)
    return out


@lru_cache(maxsize=1)
def intrinsics() -> dict[str, Intrinsic]:
    return {n: Intrinsic(n, e["type"], e["cost"]) for n, e in _data()["intrinsics"].items()}


@lru_cache(maxsize=1)
def mpi_constants() -> dict[str, int]:
    """Every integer constant INCLUDE 'mpif.h' defines (datatype handles too)."""
    consts = dict(_data()["mpi_constants"])
    consts.update({n: d["code"] for n, d in _data()["mpi_datatypes"].items()})
    return consts


@lru_cache(maxsize=1)
def mpi_datatype_names() -> frozenset[str]:
    return frozenset(_data()["mpi_datatypes"])


@lru_cache(maxsize=1)
def mpi_datatype_bytes() -> dict[int, int]:
    """Datatype handle → element size in bytes."""
    return {d["code"]: d["bytes"] for d in _data()["mpi_datatypes"].values()}


def lookup(name: str) -> LibraryCall | None:
    return library_calls().get(name.upper())
