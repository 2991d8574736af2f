"""MPI communicators: which processes a communicator holds, and their ranks in it.

A communicator is its members' world ranks (process ids) in rank order. MPI_COMM_WORLD holds
every process; MPI_COMM_SPLIT and MPI_COMM_DUP make new ones (a collective over the parent,
served by the scheduler). A handle is the integer the program's variable holds; interp gives
each new communicator a handle of its own, the same on every member (MPI handles are
process-local, so this is one admissible choice).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property, lru_cache

from interp.application.catalog import mpi_constants
from interp.errors import InterpError, SourceLocation

WORLD = mpi_constants()["MPI_COMM_WORLD"]
SELF = mpi_constants()["MPI_COMM_SELF"]
NULL = mpi_constants()["MPI_COMM_NULL"]
UNDEFINED = mpi_constants()["MPI_UNDEFINED"]
FIRST_HANDLE = 1 << 20
"""Handles of new communicators count up from here, clear of mpif.h's constants."""


@dataclass(frozen=True)
class Communicator:
    handle: int
    members: tuple[int, ...]  # world ranks, in rank order

    @cached_property  # (asked at every member's message: its partner's range)
    def size(self) -> int:
        return len(self.members)

    def rank(self, pid: int) -> int:
        """``pid``'s rank in this communicator."""
        try:
            return self._ranks[pid]
        except KeyError:
            raise ValueError(f"{pid} is not a member") from None

    @cached_property
    def _ranks(self) -> dict[int, int]:
        # members.index was P steps a call, P² over the ranks of MPI_COMM_WORLD
        return {pid: r for r, pid in enumerate(self.members)}

    def pid(self, rank: int, what: str, loc: SourceLocation) -> int:
        """The world rank of ``rank`` (a destination, source or root) in this communicator."""
        if not 0 <= rank < self.size:
            raise InterpError(
                f"{what} is rank {rank}, which does not exist in a communicator of "
                f"{self.size} ranks", loc,
                hint="check the rank expression (ranks in a communicator made by "
                     "MPI_COMM_SPLIT count from 0 within it), or run with more processes")
        return self.members[rank]


@lru_cache(maxsize=8)
def world(nprocs: int) -> Communicator:
    """One MPI_COMM_WORLD shared by every process (a copy each was P² memory)."""
    return Communicator(WORLD, tuple(range(nprocs)))


def split(members: tuple[int, ...], color: dict[int, int],
          key: dict[int, int]) -> dict[int, tuple[int, ...]]:
    """MPI_COMM_SPLIT: one group per color (MPI_UNDEFINED: none), ranked by key, then by the
    rank in the parent (MPI 3.1 §6.4.2)."""
    groups: dict[int, list[int]] = {}
    for pid in members:
        if color[pid] != UNDEFINED:
            groups.setdefault(color[pid], []).append(pid)
    order = {pid: r for r, pid in enumerate(members)}
    return {c: tuple(sorted(g, key=lambda pid: (key[pid], order[pid]))) for c, g in groups.items()}
