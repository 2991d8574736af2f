"""Collective operations as rounds of point-to-point messages (level 3 parse).

On the iPSC/860, broadcasts and global operations use logarithmic algorithms (Sec. 3.3, 3.4.2);
the filter replaces a collective call by the messages below. Dimensions are visited lowest
first. Three algorithms:

* **broadcast** (binomial tree): in round d every process that has the data sends it to the
  process 2^d further on; ceil(log2 P) rounds.
* **reduce** (binomial tree towards the root): in round d every process whose relative rank has
  lowest set bit d sends its partial result to relative rank - 2^d; ceil(log2 P) rounds.
* **exchange** (recursive doubling, for global ops whose result every node gets: gdsum, gsync,
  MPI_Allreduce, ...): in round d every process k swaps with k XOR 2^d; log2 P rounds.

Ranks are relative to the root: ``k XOR root`` when P is a power of two (so every message
crosses one hypercube link), ``(k - root) mod P`` otherwise.

Non-power-of-two P for exchange: with p2 the largest power of two below P, the P - p2 extra
processes first fold their data into processes 0..P-p2-1 (one round), the p2 processes exchange
(log2 p2 rounds), and the results unfold back (one round): floor(log2 P) + 2 rounds.
"""

from __future__ import annotations

from interp.system.units import suggest

Round = list[tuple[int, int]]

_ALGORITHM_OF = {
    "broadcast": ("broadcast", "bcast", "mpi_bcast", "scatter", "mpi_scatter"),
    "reduce": ("reduce", "mpi_reduce", "gather", "mpi_gather"),
    "exchange": (
        "allreduce", "mpi_allreduce", "barrier", "mpi_barrier", "allgather", "mpi_allgather",
        # NX/2 global operations: every node gets the result.
        "gsync", "gdsum", "gisum", "gssum", "gdprod", "giprod", "gsprod",
        "gdhigh", "gihigh", "gshigh", "gdlow", "gilow", "gslow",
        "giand", "gior", "gixor", "gland", "glor", "gcol", "gcolx", "gopf",
    ),
}  # fmt: skip
COLLECTIVES: dict[str, str] = {kind: algo for algo, kinds in _ALGORITHM_OF.items() for kind in kinds}
"""Collective kind (NX/2 or MPI name, lower case) -> algorithm."""


def _is_power_of_two(n: int) -> bool:
    return n & (n - 1) == 0


def _ceil_log2(n: int) -> int:
    return (n - 1).bit_length()


def _relative(nprocs: int, root: int):
    if _is_power_of_two(nprocs):
        return lambda r: r ^ root
    return lambda r: (r + root) % nprocs


def _broadcast(nprocs: int, root: int) -> list[Round]:
    real = _relative(nprocs, root)
    return [
        [(real(r), real(r + (1 << d))) for r in range(1 << d) if r + (1 << d) < nprocs]
        for d in range(_ceil_log2(nprocs))
    ]


def _reduce(nprocs: int, root: int) -> list[Round]:
    real = _relative(nprocs, root)
    return [
        [(real(r), real(r - (1 << d))) for r in range(nprocs) if r % (2 << d) == (1 << d)]
        for d in range(_ceil_log2(nprocs))
    ]


def _exchange(nprocs: int) -> list[Round]:
    p2 = 1 << (nprocs.bit_length() - 1)
    extra = range(nprocs - p2)
    rounds = [[(k, k ^ (1 << d)) for k in range(p2)] for d in range(p2.bit_length() - 1)]
    if not extra:
        return rounds
    return [[(p2 + i, i) for i in extra], *rounds, [(i, p2 + i) for i in extra]]


def collective_rounds(kind: str, nprocs: int, root: int = 0) -> list[Round]:
    """The messages of collective ``kind`` as rounds of ``(src, dst)`` rank pairs.

    Messages in one round are concurrent; a round starts when its senders have finished the
    previous one. ``root`` matters for broadcast/reduce only.
    """
    algorithm = COLLECTIVES.get(kind.lower())
    if algorithm is None:
        guess = suggest(kind.lower(), COLLECTIVES)
        raise ValueError(f"unknown collective '{kind}'" + (f"; did you mean '{guess}'?" if guess else ""))
    if nprocs < 1 or not 0 <= root < nprocs:
        raise ValueError(f"need nprocs >= 1 and 0 <= root < nprocs, got nprocs={nprocs}, root={root}")
    if algorithm == "broadcast":
        return _broadcast(nprocs, root)
    if algorithm == "reduce":
        return _reduce(nprocs, root)
    return _exchange(nprocs)


def collective_steps(nprocs: int, kind: str = "broadcast") -> int:
    """Rounds of a collective: ceil(log2 P) for a tree (P > 1; 0 for P = 1), log2 P for an
    exchange when P is a power of two, floor(log2 P) + 2 otherwise."""
    return len(collective_rounds(kind, nprocs))
