"""The machine filter (level 3 parse, Sec. 3.3): routes, hops, buffer classes, message costs
and communication/computation overlap, all read from the SAG.

Routes are lists of physical node ids, source first; a fat tree's also name the switches
between (``("sw", level, subtree, replica)``, :mod:`interp.system.fattree`), so a route's hops
are its links and link sharing follows the tree. The host (:data:`HOST`) reaches the
cube through the host-link SAU, which attaches to physical node ``cs.spec.entry_node``:
host -> node k is ``[HOST, entry, ..., k]``, the link hop plus the node route from the entry
node, so ``hops(HOST, k) = 1 + hops(entry, k)``.

A message costs, after the paper's communication model (Sec. 3.4.2): a sender call overhead
(``startup``), a transmission time (``per_byte * size + per_hop * hops``) and a receiver
overhead (``receive``); the buffer class (static or dynamic) picks the row of Table 3 used.
"""

from __future__ import annotations

from dataclasses import dataclass, fields

import sympy

from interp.system.fattree import FatTree
from interp.system.mapping import HOST, Mapping, default_mapping
from interp.system.model import SAG, Bound

Size = int | sympy.Expr


# --- routes ------------------------------------------------------------------------------------


def ecube_route(src: int, dst: int) -> list[int]:
    """Hypercube e-cube routing: correct the differing address bits, lowest dimension first."""
    path, node, diff = [src], src, src ^ dst
    bit = 1
    while diff:
        if diff & bit:
            node ^= bit
            path.append(node)
            diff &= ~bit
        bit <<= 1
    return path


def ring_route(src: int, dst: int, size: int) -> list[int]:
    """The shorter way round a ring of ``size`` nodes; on a tie, upwards."""
    up = (dst - src) % size
    step = 1 if up <= size - up else -1
    return [(src + step * i) % size for i in range(min(up, size - up) + 1)]


def xy_route(src: int, dst: int, columns: int) -> list[int]:
    """2-D mesh XY routing (row-major numbering): along the row first, then the column."""
    (sr, sc), (dr, dc) = divmod(src, columns), divmod(dst, columns)
    step_c = 1 if dc >= sc else -1
    step_r = 1 if dr >= sr else -1
    along_row = [sr * columns + c for c in range(sc, dc + step_c, step_c)]
    along_col = [r * columns + dc for r in range(sr + step_r, dr + step_r, step_r)] if dr != sr else []
    return along_row + along_col


def fat_tree(sag: SAG, sau: str | None = None) -> FatTree:
    """The fat tree of a ``fat_tree`` topology, grown to hold ``max_procs`` leaves (a what-if on
    the run-time size ``procs`` regrows it)."""
    sau = sau or sag.nodes
    return FatTree(int(sag.value(f"{sau}.cs.spec.switch_radix")), int(sag.value(f"{sau}.p.general.max_procs")))


def crossbar(sag: SAG) -> bool:
    """A ``full`` topology: every node has a private port each way into one switch."""
    return sag.param(f"{sag.nodes}.cs.spec.topology").text == "full"


def contention(sag: SAG) -> bool:
    """Do messages that cross a link at the same time share it? ``cs.spec.contention``:
    ``links`` (the default) or ``none`` (the paper's Ω: every message has the network to
    itself)."""
    return sag.text(f"{sag.nodes}.cs.spec.contention", "links") != "none"


def channel(sag: SAG) -> str:
    """How messages in flight from one sender share the links, ``cs.spec.channel``: ``fifo``
    (the default: they leave one after another in the order sent, as from a network
    interface's queue) or ``fair`` (max-min shares, as SimGrid's CM02 gives them)."""
    return sag.text(f"{sag.nodes}.cs.spec.channel", "fifo")


def comm_split(sag: SAG) -> str:
    """How MPI_COMM_SPLIT learns the groups, ``cs.spec.comm_split``: ``allgather`` (the
    default: an MPI_ALLGATHER of every rank's (color, key), as MPICH and Open MPI) or
    ``gather_send`` (SMPI's: a gather to rank 0, which then sends each other member its group,
    one message after another)."""
    return sag.text(f"{sag.nodes}.cs.spec.comm_split", "allgather")


def self_sendrecv(sag: SAG) -> str:
    """What an MPI_SENDRECV to and from the calling rank itself costs,
    ``cs.spec.self_sendrecv``: ``message`` (the default: a message to self like any other,
    startup and bytes, as its MPI_SEND to self would) or ``copy`` (SMPI's: the send buffer is
    copied into the receive buffer, no message, no time)."""
    return sag.text(f"{sag.nodes}.cs.spec.self_sendrecv", "message")


def any_source(sag: SAG) -> str:
    """Which message an MPI_ANY_SOURCE receive takes when several are there,
    ``cs.spec.any_source``: ``arrival`` (the default: the first to arrive, as a library
    matches a message when it comes in) or ``posted`` (SMPI's: the first whose send was
    posted, SimGrid's mailbox order, whatever its route and size)."""
    return sag.text(f"{sag.nodes}.cs.spec.any_source", "arrival")


def rendezvous_cost(sag: SAG) -> str:
    """What a message above the eager threshold pays, ``cs.spec.rendezvous_cost``:
    ``overheads`` (the default: as any message, the sender's startup before its data leaves
    and the receiver's call overhead; the dynamic class prices the handshake) or ``transfer``
    (SMPI 3.32's: the data leaves when sender and receive are both there and pays only its
    route and bytes; a nonblocking or synchronous-mode send still pays its startup first)."""
    return sag.text(f"{sag.nodes}.cs.spec.rendezvous_cost", "overheads")


def eager_threshold(sag: SAG) -> float | None:
    """The largest MPI point-to-point message sent eagerly, ``cs.spec.eager_threshold`` in
    bytes; a larger one is sent by rendezvous (the sender waits for the matching receive).
    None: the spec has no rendezvous protocol, every MPI send is eager."""
    path = f"{sag.nodes}.cs.spec.eager_threshold"
    return float(sag.value(path)) if sag.has(path) else None


def _node_route(sag: SAG, sau: str, src: int, dst: int) -> list[int]:
    topology = sag.param(f"{sau}.cs.spec.topology").text
    if topology == "hypercube":
        return ecube_route(src, dst)
    if topology == "ring":
        return ring_route(src, dst, int(sag.value(f"{sau}.p.general.max_procs")))
    if topology == "mesh2d":
        return xy_route(src, dst, int(sag.value(f"{sau}.cs.spec.mesh_columns")))
    if topology == "fat_tree":
        return fat_tree(sag, sau).route(src, dst)
    return [src] if src == dst else [src, dst]


def _entry_node(sag: SAG) -> int:
    return int(sag.value(f"{sag.host_link}.cs.spec.entry_node"))


def route(sag: SAG, src: int, dst: int, nprocs: int, mapping: Mapping | None = None) -> list[int]:
    """The physical nodes a message from process ``src`` to ``dst`` visits (HOST = -1)."""
    mapping = mapping or default_mapping(sag, nprocs)
    a, b = mapping.physical(src), mapping.physical(dst)
    if a == HOST and b == HOST:
        return [HOST]
    if a == HOST:
        return [HOST, *_node_route(sag, sag.nodes, _entry_node(sag), b)]
    if b == HOST:
        return [*_node_route(sag, sag.nodes, a, _entry_node(sag)), HOST]
    return _node_route(sag, sag.nodes, a, b)


def hops(sag: SAG, src: int, dst: int, nprocs: int, mapping: Mapping | None = None) -> int:
    return len(route(sag, src, dst, nprocs, mapping)) - 1


# --- buffer classes and message costs ----------------------------------------------------------


def _expr(size: Size) -> sympy.Expr:
    if isinstance(size, sympy.Basic):
        return size
    if isinstance(size, int):
        return sympy.Integer(size)
    if isinstance(size, float):  # the engine's numeric fast path (e.g. a barrier's 0.0 bytes)
        return sympy.Integer(int(size)) if size.is_integer() else sympy.Float(size)
    raise TypeError(f"a message size is a number or a SymPy expression, not {size!r}")


def static_condition(sag: SAG, size_bytes: Size, synchronous: bool = True, sau: str | None = None) -> sympy.Basic:
    """When a message uses static buffers: ``size <= static_buffer_size`` (true/false if known).

    Only synchronous messages are auto-buffered when ``static_buffer_use`` is ``synchronous``
    (the iPSC/860, Sec. 3.3); a C/S without ``static_buffer_size`` has no static buffers.
    """
    sau = sau or sag.nodes
    if not sag.has(f"{sau}.cs.spec.static_buffer_size"):
        return sympy.false
    use = sag.text(f"{sau}.cs.spec.static_buffer_use", "all")
    if use == "synchronous" and not synchronous:
        return sympy.false
    return sympy.Le(_expr(size_bytes), sag.value(f"{sau}.cs.spec.static_buffer_size"))


def message_class(sag: SAG, size_bytes: Size, synchronous: bool = True, sau: str | None = None) -> str:
    """``"static"`` or ``"dynamic"``; for a symbolic size whose class is undecided use
    :func:`message_seconds`, whose fields are then Piecewise over the threshold."""
    condition = static_condition(sag, size_bytes, synchronous, sau)
    if condition not in (sympy.true, sympy.false):
        raise ValueError(f"the buffer class of a {size_bytes}-byte message depends on the size: {condition}")
    return "static" if condition == sympy.true else "dynamic"


@dataclass(frozen=True)
class MessageCost:
    """One message's time in seconds, split as in the paper's model (Figure 11)."""

    startup: sympy.Expr  # sender call overhead
    transmission: sympy.Expr  # per_byte * size + per_hop * hops
    receive: sympy.Expr  # receiver overhead
    total: sympy.Expr


def _priced(sag: SAG, sau: str, cls: str, size: sympy.Expr, n_hops: sympy.Expr, bound: Bound) -> MessageCost:
    def t(name: str) -> sympy.Expr:
        return sag.seconds(f"{sau}.cs.{cls}.{name}", bound)

    startup, receive = t("startup"), t("receive")
    transmission = t("per_byte") * size + t("per_hop") * n_hops
    return MessageCost(startup, transmission, receive, startup + transmission + receive)


def message_seconds(
    sag: SAG,
    size: Size,
    hops: Size,
    bound: Bound = "mid",
    *,
    synchronous: bool = True,
    sau: str | None = None,
) -> MessageCost:
    """The cost of a ``size``-byte message over ``hops`` links of ``sau``'s network (default:
    the node SAU). With a symbolic size each field is a Piecewise over the static threshold."""
    sau = sau or sag.nodes
    size_e, hops_e = _expr(size), _expr(hops)
    condition = static_condition(sag, size_e, synchronous, sau)
    dynamic = _priced(sag, sau, "dynamic", size_e, hops_e, bound)
    if condition == sympy.false:
        return dynamic
    static = _priced(sag, sau, "static", size_e, hops_e, bound)
    if condition == sympy.true:
        return static
    return MessageCost(
        *(
            sympy.Piecewise((getattr(static, f.name), condition), (getattr(dynamic, f.name), True))
            for f in fields(MessageCost)
        )
    )


def message_cost(
    sag: SAG,
    src: int,
    dst: int,
    nprocs: int,
    size: Size,
    bound: Bound = "mid",
    *,
    synchronous: bool = True,
    mapping: Mapping | None = None,
) -> MessageCost:
    """The cost of a message between two processes, the host included.

    Host messages are priced by the host-link SAU (its startup, per-byte, per-hop for the link
    hop and receive); each further hop inside the cube adds the node network's per-hop cost of
    the message's class. The cube is circuit switched, so bytes are not paid twice.
    """
    path = route(sag, src, dst, nprocs, mapping)
    if HOST not in path:
        return message_seconds(sag, size, len(path) - 1, bound, synchronous=synchronous)
    link = message_seconds(sag, size, 1 if len(path) > 1 else 0, bound, synchronous=synchronous, sau=sag.host_link)
    extra = _per_hop(sag, _expr(size), synchronous, bound) * max(len(path) - 2, 0)
    return MessageCost(link.startup, link.transmission + extra, link.receive, link.total + extra)


def _per_hop(sag: SAG, size: sympy.Expr, synchronous: bool, bound: Bound) -> sympy.Expr:
    """The node network's per-hop cost for a message of this size (Piecewise if undecided)."""
    condition = static_condition(sag, size, synchronous)
    dynamic = sag.seconds(f"{sag.nodes}.cs.dynamic.per_hop", bound)
    if condition == sympy.false:
        return dynamic
    static = sag.seconds(f"{sag.nodes}.cs.static.per_hop", bound)
    return static if condition == sympy.true else sympy.Piecewise((static, condition), (dynamic, True))


def overlap_fraction(sag: SAG, kind: str, sau: str | None = None, bound: Bound = "mid") -> sympy.Expr:
    """f_overlap for ``kind`` (sync_send, async_send, recv, collective): a Comm AAU costs
    (1 - f_overlap) * t_comm (Sec. 3.4.2)."""
    return sag.value(f"{sau or sag.nodes}.cs.overlap.{kind}", bound)
