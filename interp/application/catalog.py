"""The message-passing catalog (``data/catalog.yaml``): NX/2 and MPI calls, mpif.h, intrinsics."""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from interp import cache
from interp.errors import UnsupportedError

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

    def role_index(self, role: str) -> int | None:
        """Position of the argument with this role (``out_`` prefixes ignored)."""
        return _role_index(self.args, role)


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
            out[name] = LibraryCall(name=name, library=lib, **fields)
    return out


@lru_cache(maxsize=1)
def nx2_not_modelled() -> frozenset[str]:
    """NX/2 routines interp does not model (an error where a program uses one)."""
    return frozenset(_data()["nx2_not_modelled"])


def not_modelled(name: str, loc) -> UnsupportedError | None:
    """The error for a message-passing routine interp does not model (an MPI_ name outside
    the catalog, an NX/2 routine of ``nx2_not_modelled``), to raise at its call or
    reference; None for any other name. Priced as plain computation, it would hide its
    communication."""
    if name in library_calls():
        return None
    if name.startswith("MPI_"):
        library, lib = "MPI", "mpi"
    elif name in nx2_not_modelled():
        library, lib = "NX/2", "nx2"
    else:
        return None
    known = sorted(n for n, c in library_calls().items() if c.library == lib)
    return UnsupportedError(f"{name} is an {library} routine interp does not model", loc,
                            hint="interp knows " + ", ".join(known) + "; priced as plain "
                                 "computation it would hide its communication")


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
