"""The mapping μ for processes: which SAU instance each process runs on (level 3 parse).

Node rank k runs on physical node k of the node SAU unless a user mapping file says otherwise;
the host process (:data:`HOST`) runs on the host SAU. A mapping file is a YAML mapping from rank
to physical node, ``{0: 3, 1: 2}``; ranks it does not list keep their own number, and the result
must put at most one rank on each node.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from interp.errors import InterpError
from interp.system.model import SAG
from interp.system.yamldoc import load_doc

HOST = -1
"""The process id of the host program (the paper's SRM process)."""


@dataclass(frozen=True)
class Placement:
    """An SAU instance: ``("node", 3)`` is physical node 3; the host is ``("host", 0)``."""

    sau: str
    instance: int


@dataclass(frozen=True)
class Mapping:
    nprocs: int
    nodes: Sequence[int]  # physical node of rank k (a range for the default: O(1) at any P)
    node_sau: str
    host_sau: str | None = None

    def physical(self, pid: int) -> int:
        """The physical node of process ``pid``; the host stays :data:`HOST`."""
        if pid == HOST:
            if self.host_sau is None:
                raise InterpError("this machine has no host SAU (machine.host), so there is no host process")
            return HOST
        if not 0 <= pid < self.nprocs:
            raise InterpError(f"process {pid} does not exist: ranks are 0..{self.nprocs - 1} (or HOST)")
        return self.nodes[pid]

    def __call__(self, pid: int) -> Placement:
        """μ(pid): the SAU instance the process runs on."""
        node = self.physical(pid)
        return Placement(self.host_sau, 0) if node == HOST else Placement(self.node_sau, node)


def max_procs(sag: SAG) -> int:
    return int(sag.value(f"{sag.nodes}.p.general.max_procs"))


def size_parameter(sag: SAG) -> str | None:
    """The run-time parameter that is the machine's size (the cluster's ``procs``), if any."""
    size = sorted(s.name for s in sag.param(f"{sag.nodes}.p.general.max_procs").runtime_symbols)
    return size[0] if size else None


def grown(sag: SAG, nprocs: int) -> tuple[SAG, str | None]:
    """The machine grown to hold ``nprocs`` processes where its size is a run-time parameter
    (the same machine, its fabric grown: what ``--what-if 'procs = N'`` makes), and the note
    that says so; unchanged where it holds them already or cannot grow."""
    name = size_parameter(sag)
    if nprocs <= max_procs(sag) or name is None or nprocs > sag.runtime_parameter(name).max:
        return sag, None
    return sag.with_runtime({name: nprocs}), (
        f"the machine grown to {name} = {nprocs} to hold P = {nprocs} (as --what-if "
        f"'{name} = {nprocs}'; the fabric grows with it, a rank's routes to its neighbours "
        "stay as they were)")


def check_nprocs(sag: SAG, nprocs: int) -> int:
    limit = max_procs(sag)
    if not 1 <= nprocs <= limit:
        size = size_parameter(sag)
        if size:  # the machine's size is a run-time parameter: a what-if grows it
            r = sag.runtime_parameter(size)
            raise InterpError(
                f"{nprocs} processes do not fit {sag.title}: it has {size} = {limit} "
                f"({sag.nodes}.p.general.max_procs)",
                hint=f"use 1 to {limit} processes, or grow the machine: --what-if '{size} = {nprocs}' "
                     f"(at most {r.max})",
            )
        raise InterpError(
            f"{nprocs} processes do not fit {sag.title}: it has at most {limit} ({sag.nodes}.p.general.max_procs)",
            hint=f"use 1 to {limit} processes, or a machine spec with more nodes",
        )
    return nprocs


def subcube_note(sag: SAG, nprocs: int) -> str | None:
    """What P nodes of a hypercube that are not a power of two mean: a real iPSC/860 allocates
    whole subcubes of 2^d nodes, so P = 3 runs on nodes 0..2 of a 4-node subcube (routes by
    e-cube within it; the fourth node idle)."""
    if sag.param(f"{sag.nodes}.cs.spec.topology").text != "hypercube" or nprocs & (nprocs - 1) == 0:
        return None
    cube = 1 << (nprocs - 1).bit_length()
    return (f"P = {nprocs} is not a power of two: the hypercube allocates a {cube}-node subcube; "
            f"nodes 0..{nprocs - 1} of it run the program (e-cube routes), "
            f"{cube - nprocs} of it idle")


def default_mapping(sag: SAG, nprocs: int) -> Mapping:
    """Rank k on physical node k."""
    check_nprocs(sag, nprocs)
    return Mapping(nprocs, range(nprocs), sag.nodes, sag.host)


def load_mapping(path: str | Path, sag: SAG, nprocs: int) -> Mapping:
    """A user mapping file ``{rank: node}`` over the default mapping, checked against the SAG."""
    base = default_mapping(sag, nprocs)
    doc = load_doc(Path(path))
    if not isinstance(doc.data, dict):
        raise doc.error("a mapping file maps ranks to nodes, e.g. '0: 3'", doc.where(()))
    nodes = list(base.nodes)
    limit = max_procs(sag)
    for rank, node in doc.data.items():
        if not isinstance(rank, int) or not 0 <= rank < nprocs:
            raise doc.error(f"rank {rank!r} is not one of 0..{nprocs - 1}", doc.where_key((rank,)))
        if not isinstance(node, int) or isinstance(node, bool) or not 0 <= node < limit:
            raise doc.error(f"node {node!r} is not one of the machine's nodes 0..{limit - 1}", doc.where((rank,)))
        nodes[rank] = node
    for rank, node in doc.data.items():
        holders = [r for r, n in enumerate(nodes) if n == node]
        if len(holders) > 1:
            other = next(r for r in holders if r != rank)
            raise doc.error(
                f"node {node} would run both rank {rank} and rank {other}",
                doc.where((rank,)),
                "map each rank to its own node",
            )
    return Mapping(nprocs, tuple(nodes), sag.nodes, sag.host)
