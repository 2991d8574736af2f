"""Collective operations as rounds of point-to-point messages (level 3 parse).

On the iPSC/860, broadcasts and global operations use logarithmic algorithms (Sec. 3.3, 3.4.2);
the filter replaces a collective call by the messages below. Nine algorithms:

* **broadcast** (NX/2 ``csend`` to -1, binomial tree, dimensions lowest first): in round d
  every process that has the data sends it to the process 2^d further on; ceil(log2 P) rounds.
  Ranks relative to the root are ``k XOR root`` when P is a power of two (so every message
  crosses one hypercube link), ``(k - root) mod P`` otherwise.
* **bcast** (MPI_Bcast, SMPI's ``bcast__binomial_tree``): relative rank r = (k - root) mod P;
  a process receives from r - 2^j, 2^j the lowest set bit of r, then sends to r + 2^i for
  i = j-1, ..., 0 (the root: from 2^(ceil(log2 P)-1) down), skipping r + 2^i >= P: farthest
  child first. As rounds: in round i (i = 0, 1, ...) with m = 2^(ceil(log2 P)-1-i), every r
  that is a multiple of 2m sends to r + m when r + m < P; ceil(log2 P) rounds.
* **reduce** (MPI_Reduce, SMPI's ``reduce__binomial``; binomial tree towards the root,
  dimensions lowest first): relative rank r = (k - root) mod P; in round d every process whose
  r has lowest set bit d sends its partial result to r - 2^d, after receiving from r + 2^i
  (i < d, r + 2^i < P) in increasing i; ceil(log2 P) rounds.
* **exchange** (recursive doubling, for global ops whose result every node gets: gdsum, gsync,
  MPI_Barrier, ...): in round d every process k swaps with k XOR 2^d; log2 P rounds.
* **rdb** (MPI_Allreduce, SMPI's ``allreduce__rdb``, MPICH's recursive doubling): the same
  exchange when P is a power of two; otherwise it folds differently (below).

* **scatter**, **gather** (MPI_Scatter, MPI_Gather; SMPI's ``scatter__ompi_basic_linear``,
  ``gather__ompi_basic_linear``): the root sends each other rank its share, ranks in order,
  one round each; or receives them so. Every message carries one rank's share, as the call's
  count names.
* **ring** (MPI_Alltoall, SMPI's ``alltoall__ring``; MPI_Allgather, SMPI's ``allgather__ring``,
  whose round i sends the rank's own share to k + i, not the share received before to k + 1;
  the pairwise exchange of Thakur, Rabenseifner & Gropp 2005): in round i = 1, ..., P-1 every
  process k sends its block for (k + i) mod P to that process (and receives the block of
  (k - i) mod P); P - 1 rounds, every message carrying one block, for every P. Each pair of
  ranks exchanges directly, so no block is forwarded (a tree would move log2 P times less
  latency but P/2 times more bytes per message: for the large blocks of an FFT transpose the
  pairwise exchange is what MPI libraries choose).
* **pairwise** (MPI_Alltoallv, SMPI's ``alltoallv__ring``): the ring's rounds, except that when
  P is a power of two round i pairs k with k XOR i.

``bcast`` and ``reduce`` use ``(k - root) mod P`` for every P, as SMPI does, so with a root
other than 0 on a hypercube some of their messages cross more than one link.

Non-power-of-two P for exchange: with p2 the largest power of two below P, the P - p2 extra
processes first fold their data into processes 0..P-p2-1 (one round), the p2 processes exchange
(log2 p2 rounds), and the results unfold back (one round): floor(log2 P) + 2 rounds.
SMPI's barrier (``barrier__mvapich2_pair``) folds the same way; its ``allreduce__rdb`` instead
folds each even rank 2i < 2(P - p2) into the odd rank 2i + 1, exchanges among the odd ones and
the ranks from 2(P - p2) on (exchange rank n is rank 2n + 1 for n < P - p2, n + P - p2 above),
and unfolds 2i + 1 -> 2i: as many rounds, other partners, which matters once the ranks arrive
at different times (after an MPI_REDUCE to rank 0, rank 0 is the last to arrive).
"""

from __future__ import annotations

from interp.system.units import suggest

Round = list[tuple[int, int]]

_ALGORITHM_OF = {
    "broadcast": ("broadcast",),  # NX/2 csend to -1
    "bcast": ("bcast", "mpi_bcast"),
    "reduce": ("reduce", "mpi_reduce"),
    "scatter": ("scatter", "mpi_scatter"),
    "gather": ("gather", "mpi_gather"),
    "exchange": (
        "barrier", "mpi_barrier", "comm_split",
        # NX/2 global operations: every node gets the result.
        "gsync", "gdsum", "gisum", "gssum", "gdprod", "giprod", "gsprod",
        "gdhigh", "gihigh", "gshigh", "gdlow", "gilow", "gslow",
        "giand", "gior", "gixor", "gland", "glor", "gcol", "gcolx", "gopf",
    ),
    "rdb": ("allreduce", "mpi_allreduce"),
    "linear_scan": ("scan", "mpi_scan", "exscan", "mpi_exscan"),
    "ring": ("alltoall", "mpi_alltoall", "allgather", "mpi_allgather"),
    "pairwise": ("alltoallv", "mpi_alltoallv"),
}  # fmt: skip
COLLECTIVES: dict[str, str] = {kind: algo for algo, kinds in _ALGORITHM_OF.items() for kind in kinds}
"""Collective kind (NX/2 or MPI name, lower case) -> algorithm."""


def _is_power_of_two(n: int) -> bool:
    return n & (n - 1) == 0


def _ceil_log2(n: int) -> int:
    return (n - 1).bit_length()


def _relative(nprocs: int, root: int, xor: bool = True):
    """Relative rank -> rank: ``r XOR root`` (P a power of two and ``xor``), else
    ``(r + root) mod P``."""
    if xor and _is_power_of_two(nprocs):
        return lambda r: r ^ root
    return lambda r: (r + root) % nprocs


def _broadcast(nprocs: int, root: int) -> list[Round]:
    real = _relative(nprocs, root)
    return [
        [(real(r), real(r + (1 << d))) for r in range(1 << d) if r + (1 << d) < nprocs]
        for d in range(_ceil_log2(nprocs))
    ]


def _bcast(nprocs: int, root: int) -> list[Round]:
    """SMPI's bcast__binomial_tree: farthest child first, ranks (k - root) mod P."""
    real = _relative(nprocs, root, xor=False)
    top = _ceil_log2(nprocs)
    return [
        [(real(r), real(r + m)) for r in range(0, nprocs, 2 * m) if r + m < nprocs]
        for m in (1 << (top - 1 - i) for i in range(top))
    ]


def _reduce(nprocs: int, root: int) -> list[Round]:
    """SMPI's reduce__binomial (commutative op): lowest dimension first, ranks
    (k - root) mod P."""
    real = _relative(nprocs, root, xor=False)
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


def _rdb(nprocs: int) -> list[Round]:
    """SMPI's allreduce__rdb: even ranks below 2·rem fold into the next odd rank."""
    p2 = 1 << (nprocs.bit_length() - 1)
    rem = nprocs - p2
    real = [2 * n + 1 if n < rem else n + rem for n in range(p2)]
    rounds = [[(real[n], real[n ^ (1 << d)]) for n in range(p2)]
              for d in range(p2.bit_length() - 1)]
    if not rem:
        return rounds
    return [[(2 * i, 2 * i + 1) for i in range(rem)], *rounds,
            [(2 * i + 1, 2 * i) for i in range(rem)]]


def _ring(nprocs: int) -> list[Round]:
    return [[(k, (k + i) % nprocs) for k in range(nprocs)] for i in range(1, nprocs)]


def _pairwise(nprocs: int) -> list[Round]:
    """SMPI's alltoallv__ring: the ring's rounds, but when P is a power of two round i pairs
    k with k XOR i (each pair exchanges both ways) instead of sending to k + i."""
    if not _is_power_of_two(nprocs):
        return _ring(nprocs)
    return [[(k, k ^ i) for k in range(nprocs)] for i in range(1, nprocs)]


def _scatter(nprocs: int, root: int) -> list[Round]:
    """SMPI's scatter__ompi_basic_linear: the root sends rank 0, 1, … its share, one
    blocking send after another (itself skipped)."""
    return [[(root, k)] for k in range(nprocs) if k != root]


def _gather(nprocs: int, root: int) -> list[Round]:
    """SMPI's gather__ompi_basic_linear: every rank sends its share to the root at once; the
    root receives them from rank 0, 1, … in turn."""
    return [[(k, root)] for k in range(nprocs) if k != root]


def _scan(nprocs: int) -> list[Round]:
    """SMPI's scan and exscan: one round in which every rank k sends its operand to k + 1,
    k + 2, … in turn (one send after another) and receives from every lower rank."""
    return [[(k, j) for k in range(nprocs) for j in range(k + 1, nprocs)]] if nprocs > 1 else []


def collective_rounds(kind: str, nprocs: int, root: int = 0) -> list[Round]:
    """The messages of collective ``kind`` as rounds of ``(src, dst)`` rank pairs.

    Messages in one round are concurrent; a round starts when its senders have finished the
    previous one. ``root`` matters for the rooted ones (broadcast, bcast, reduce, scatter,
    gather) only.
    """
    algorithm = COLLECTIVES.get(kind.lower())
    if algorithm is None:
        guess = suggest(kind.lower(), COLLECTIVES)
        raise ValueError(f"unknown collective '{kind}'" + (f"; did you mean '{guess}'?" if guess else ""))
    if nprocs < 1 or not 0 <= root < nprocs:
        raise ValueError(f"need nprocs >= 1 and 0 <= root < nprocs, got nprocs={nprocs}, root={root}")
    if algorithm == "broadcast":
        return _broadcast(nprocs, root)
    if algorithm == "bcast":
        return _bcast(nprocs, root)
    if algorithm == "reduce":
        return _reduce(nprocs, root)
    if algorithm == "ring":
        return _ring(nprocs)
    if algorithm == "pairwise":
        return _pairwise(nprocs)
    if algorithm == "scatter":
        return _scatter(nprocs, root)
    if algorithm == "gather":
        return _gather(nprocs, root)
    if algorithm == "rdb":
        return _rdb(nprocs)
    if algorithm == "linear_scan":
        return _scan(nprocs)
    return _exchange(nprocs)


def collective_steps(nprocs: int, kind: str = "broadcast") -> int:
    """Rounds of a collective: ceil(log2 P) for a tree (P > 1; 0 for P = 1), log2 P for an
    exchange when P is a power of two, floor(log2 P) + 2 otherwise, P - 1 for the rings and
    the linear scatter and gather."""
    return len(collective_rounds(kind, nprocs))
