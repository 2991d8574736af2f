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
PROC_NULL = mpi_constants()["MPI_PROC_NULL"]
FIRST_HANDLE = 1 << 20
"""Handles of new communicators count up from here, clear of mpif.h's constants."""


@dataclass(frozen=True)
class Communicator:
    handle: int
    members: tuple[int, ...]  # world ranks, in rank order
    dims: tuple[int, ...] = ()  # MPI_CART_CREATE: the grid's extents (row-major ranks)
    periods: tuple[bool, ...] = ()

    def coords(self, rank: int) -> list[int]:
        """A rank's coordinates in the Cartesian grid (the last dimension varies fastest)."""
        out = []
        for d in reversed(self.dims):
            out.append(rank % d)
            rank //= d
        return out[::-1]

    def cart_rank(self, coords: list[int]) -> int:
        """The rank at ``coords``; a periodic dimension wraps, MPI_PROC_NULL off the edge of
        another."""
        rank = 0
        for c, d, periodic in zip(coords, self.dims, self.periods):
            if not 0 <= c < d:
                if not periodic:
                    return PROC_NULL
                c %= d
            rank = rank * d + c
        return rank

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


def dims_create(nnodes: int, dims: list[int]) -> list[int] | None:
    """MPI_DIMS_CREATE: the zeros of ``dims`` filled so the grid holds ``nnodes`` ranks, as
    balanced as can be (the prime factors of what is left, largest first, each to the
    smallest dimension so far; those dimensions in decreasing order: Open MPI's and SMPI's
    rule); None when the fixed dimensions do not divide ``nnodes``."""
    fixed = 1
    for d in dims:
        if d < 0 or (d > 0 and nnodes % d):
            return None
        fixed *= d or 1
    free = [i for i, d in enumerate(dims) if d == 0]
    left, factors, f = nnodes // fixed, [], 2
    while left > 1 and f * f <= left:
        while left % f == 0:
            factors.append(f)
            left //= f
        f += 1
    if left > 1:
        factors.append(left)
    if not free:
        return list(dims) if not factors else None
    bins = [1] * len(free)
    for f in sorted(factors, reverse=True):
        bins[bins.index(min(bins))] *= f
    out = list(dims)
    for i, b in zip(free, sorted(bins, reverse=True)):
        out[i] = b
    return out


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
