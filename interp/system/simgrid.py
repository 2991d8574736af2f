"""Export a SAG as a SimGrid platform for SMPI (design principle 6: checked against SimGrid).

``export_simgrid(sag, P)`` gives a SimGrid platform (XML version 4.1) and the ``smpirun``
options that carry what a platform file cannot say, so that SMPI runs the *same MPI source*
on a machine that means what the spec means:

* **Hosts**: one per physical node the ranks' routes visit (``node0`` …), speed = the node's
  clock (one flop per clock); the spec's host SAU, when it has one, as ``host`` with its own
  overheads as host properties (``smpi/os``, ``smpi/or``, ``smpi/ois``).
* **Links**: one per neighbour pair of the topology (hypercube, ring, 2-D mesh), full duplex
  (``SPLITDUPLEX``: the two directions do not share bandwidth), latency = the dynamic
  ``per_hop``, bandwidth = 1 / dynamic ``per_byte``. A ``full`` topology is a crossbar: a
  ``<cluster>`` whose private links carry the bandwidth and whose backbone the per-hop time.
  A ``fat_tree`` is SimGrid's own ``FAT_TREE`` cluster (same k-ary n-tree, same
  destination-mod-k routes), every link with the per-hop latency and the bandwidth.
* **Routes** (Full routing): every ordered pair of ranks, hop by hop along
  :func:`interp.system.route` (e-cube on the hypercube), not symmetrical.
* **Loopback** (a message a rank sends to itself): interp prices it as any message with 0
  hops, ``startup + per_byte·size`` and no link to share (docs/validation.md, "Messages to
  self"); SimGrid's default loopback (10 GB/s, no latency) would make it nearly free. So every
  rank's host gets its own loopback link, bandwidth 1/dynamic ``per_byte``, latency 0,
  ``FATPIPE`` (its flows do not share), and a route from itself to itself through it (the
  crossbar: the ``<cluster>``'s ``loopback_bw``/``loopback_lat``).
* **Options** (``smpirun --cfg=…``, see :func:`smpirun_options`): the per-message overheads
  ``smpi/os``/``smpi/ois``/``smpi/or`` piecewise at the static-buffer threshold; the static
  class's per-hop and per-byte times as ``smpi/lat-factor``/``smpi/bw-factor`` relative to the
  dynamic link values; the network model ``SMPI`` (CM02 max-min sharing plus those piecewise
  factors; plain ``CM02`` ignores ``smpi/*-factor``) without TCP window (``TCP-gamma:0``),
  RTT weighting (``weight-S:0``) or cross traffic; the ``send-is-detached`` and
  ``async-small`` thresholds at the spec's ``cs.spec.eager_threshold`` (above it, SMPI's send
  waits for the matching receive, as interp's rendezvous does), or above any size when the
  spec has none (every message eager).

SimGrid has no send queue: CM02 shares a link max-min among all the flows crossing it, those
of one sender included (a burst leaves together and ends together). That is the spec's
``cs.spec.channel: fair``; a spec's ``fifo`` cannot be exported, so ``interp validate``
predicts with :func:`simgrid_channel` (the same machine with ``channel: fair``).

Two SMPI facts shape the numbers (measured in ``validation/p2p_residual.py``):

* SMPI sends ``size + 16`` bytes (its MPI envelope). ``smpi/bw-factor`` is set per size so
  that those bytes take the spec's ``per_byte·size`` (see :func:`bandwidth_factors`): a
  message's arrival is the spec's ``startup + per_byte·size + per_hop·hops``, and the
  sender's ``smpi/os`` is the spec's startup, both to the nanosecond.
* The network factors are looked up with that payload size, the overheads with the message
  size: the factor threshold is ``static_buffer_size + 16``.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from pathlib import Path

from interp.errors import InterpError
from interp.system.fattree import FatTree
from interp.system.filter import (
    any_source, channel, comm_split, eager_threshold, fat_tree, rendezvous_cost, route,
    self_sendrecv,
)
from interp.system.mapping import HOST, check_nprocs
from interp.system.model import SAG, SAU, Bound, Parameter
from interp.system.units import TEXT

ENVELOPE = 16
"""Bytes SMPI adds to every message on the wire (tag, source, communicator)."""

SIMGRID_CHANNEL = "fair"
"""How SimGrid shares a link among one sender's flows (``cs.spec.channel``): max-min (CM02)."""
SIMGRID_SPLIT = "gather_send"
"""How SMPI's MPI_Comm_split learns the groups (``cs.spec.comm_split``): a gather to rank 0,
then rank 0's messages to each other member."""

SIMGRID_ANY_SOURCE = "posted"
"""Which message SMPI's MPI_ANY_SOURCE receive takes (``cs.spec.any_source``): the first send
posted to the receiver's mailbox."""
SIMGRID_SELF_SENDRECV = "copy"
"""SMPI's MPI_Sendrecv to and from the calling rank (``cs.spec.self_sendrecv``): a copy, no
message."""
SIMGRID_RENDEZVOUS = "transfer"
"""What SMPI charges a message above its detached threshold (``cs.spec.rendezvous_cost``): no
``smpi/or``, and no ``smpi/os`` for a blocking send; only its route and bytes."""

EAGER_LIMIT = 1 << 30
"""``smpi/send-is-detached-thresh`` and ``smpi/async-small-thresh``: every message eager."""

MODELS = ("mpi", "paper")
NO_BANDWIDTH_TERM = 1e9
"""``smpi/bw-factor`` of the ``paper`` model: the links' bandwidth term becomes negligible
(a 64 KiB message: 0.02 ns on the iPSC/860) because the sender's overhead already pays it."""

# SMPI's collectives, chosen to be the algorithms interp.system.collectives prices.
COLLECTIVE_ALGORITHMS = {
    "bcast": "binomial_tree",  # binomial tree (SMPI: farthest child first)
    "reduce": "binomial",  # binomial tree towards the root, lowest dimension first
    "allreduce": "rdb",  # recursive doubling, fold/unfold for P not a power of two
    "barrier": "mvapich2_pair",  # pairwise exchange k XOR 2^d, as the exchange rounds
    "alltoall": "ring",  # P - 1 rounds: k sends to (k + i) mod P
    "alltoallv": "ring",
    "scatter": "ompi_basic_linear",  # the root sends each rank its share in turn
    "gather": "ompi_basic_linear",  # each rank sends its share; the root receives in rank order
    "allgather": "ring",  # P - 1 rounds: k sends to k + 1 mod P
}


@dataclass(frozen=True)
class MessageClass:
    """One row of the C/S component (static or dynamic), in seconds."""

    startup: float
    per_byte: float
    per_hop: float
    receive: float


@dataclass
class SimGridExport:
    """A platform and the options that complete it."""

    machine: str
    nprocs: int
    xml: str
    options: list[str]  # "name:value", without the leading --cfg=
    hosts: list[str]  # rank k runs on hosts[k]
    notes: list[str] = field(default_factory=list)

    def cfg_args(self) -> list[str]:
        return [f"--cfg={o}" for o in self.options]

    def command(self, platform: str, hostfile: str, program: str = "./a.out") -> str:
        opts = " ".join(_shell_quote(a) for a in self.cfg_args())
        return f"smpirun -np {self.nprocs} -platform {platform} -hostfile {hostfile} {opts} {program}"

    def write(self, xml_path: str | Path) -> dict[str, Path]:
        """Write ``X.xml``, ``X.hosts`` (the hostfile) and ``X.smpirun`` (one option per line,
        and the whole command as a comment) beside each other."""
        xml_path = Path(xml_path)
        hostfile = xml_path.with_suffix(".hosts")
        cfg = xml_path.with_suffix(".smpirun")
        xml_path.write_text(self.xml)
        hostfile.write_text("".join(h + "\n" for h in self.hosts))
        lines = [f"# {self.command(xml_path.name, hostfile.name)}"]
        lines += [f"# {n}" for n in self.notes]
        lines += self.cfg_args()
        cfg.write_text("\n".join(lines) + "\n")
        return {"platform": xml_path, "hostfile": hostfile, "options": cfg}


def _shell_quote(arg: str) -> str:
    return f"'{arg}'" if any(c in arg for c in ";*? ") else arg


# --- values from the SAG ---------------------------------------------------------------------


def _seconds(sag: SAG, path: str, bound: Bound) -> float:
    return float(sag.seconds(path, bound))


def message_class(sag: SAG, sau: str, cls: str, bound: Bound = "mid") -> MessageClass:
    def t(name: str) -> float:
        path = f"{sau}.cs.{cls}.{name}"
        return _seconds(sag, path, bound) if sag.has(path) else 0.0

    return MessageClass(t("startup"), t("per_byte"), t("per_hop"), t("receive"))


def static_threshold(sag: SAG, sau: str | None = None) -> int | None:
    """The largest static-buffer message in bytes, or None when the C/S has no static class."""
    sau = sau or sag.nodes
    path = f"{sau}.cs.spec.static_buffer_size"
    return int(sag.value(path)) if sag.has(path) else None


def _sync_overhead(sag: SAG, bound: Bound) -> float | None:
    path = f"{sag.nodes}.cs.sync.overhead"
    return _seconds(sag, path, bound) if sag.has(path) else None


# --- options ---------------------------------------------------------------------------------


def _num(x: float) -> str:
    return f"{x:.12g}"


def _overhead(static: MessageClass | None, dynamic: MessageClass, threshold: int | None,
              attr: str, model: str | None) -> str:
    """An ``smpi/os``-style piecewise ``size:offset:per_byte`` list (SMPI: a segment applies
    to sizes above its bound, the first one also to sizes at or below it). ``paper``: the
    sender also pays per_byte * size."""

    def value(c: MessageClass) -> str:
        v = getattr(c, attr)
        if model == "paper":
            return f"{_num(v)}:{_num(c.per_byte)}"
        return f"{_num(v)}:0"

    if static is None or threshold is None:
        return f"0:{value(dynamic)}"
    return f"0:{value(static)};{threshold}:{value(dynamic)}"


def smpirun_options(sag: SAG, bound: Bound = "mid", model: str = "mpi",
                    sizes: Iterable[int] = ()) -> tuple[list[str], list[str]]:
    """The ``--cfg`` options (without the prefix) and notes on what they cannot carry.
    ``sizes``: message sizes (bytes) whose ``smpi/bw-factor`` must be exact although they lie
    above :data:`EXACT_UP_TO` (:func:`bandwidth_factors`).

    ``model``: ``mpi`` -- MPI's eager protocol: a send returns after its startup overhead
    (``smpi/os``) and the bytes travel on the links (bandwidth 1/per_byte, shared when routes
    meet); ``paper`` -- the paper's Figure 11 as far as SMPI can say it: the sender is busy for
    startup + per_byte * size (``smpi/os`` grows with the size) and the links add only their
    per-hop latency (``smpi/bw-factor`` makes their bandwidth term vanish), so only the sender's
    per_hop * hops is left out (SMPI's overheads cannot depend on the destination).
    """
    if model not in MODELS:
        raise InterpError(f"unknown SimGrid export model {model!r}", hint="choose " + " or ".join(MODELS))
    sau = sag.nodes
    dynamic = message_class(sag, sau, "dynamic", bound)
    threshold = static_threshold(sag, sau)
    static = message_class(sag, sau, "static", bound) if threshold is not None else None
    notes: list[str] = []
    sync = _sync_overhead(sag, bound)
    # 0-byte messages are synchronization (MPI_Barrier): the spec's sync overhead. A segment
    # bound 0 before another bound 0 holds size 0 only (SMPI keeps equal bounds in order).
    sync_first = f"0:{_num(sync)}:0;" if sync is not None else ""
    eager = eager_threshold(sag)
    # SMPI detaches (sends eagerly) sizes below the threshold; interp's eager includes it
    detached = EAGER_LIMIT if eager is None else int(eager) + 1
    opts = [
        "network/model:SMPI",
        "network/TCP-gamma:0",
        "network/weight-S:0",
        "network/crosstraffic:0",
        f"smpi/send-is-detached-thresh:{detached}",
        f"smpi/async-small-thresh:{detached}",
        f"smpi/os:{sync_first}{_overhead(static, dynamic, threshold, 'startup', model)}",
        f"smpi/ois:{sync_first}{_overhead(static, dynamic, threshold, 'startup', model)}",
        f"smpi/or:{'0:0:0;' if sync is not None else ''}"
        f"{_overhead(static, dynamic, threshold, 'receive', None)}",
    ]
    if static is not None and threshold is not None:
        lat = static.per_hop / dynamic.per_hop if dynamic.per_hop else 1.0
        bound_bytes = threshold + ENVELOPE
        opts.append(f"smpi/lat-factor:0:{_num(lat)};{bound_bytes}:1")
        if model == "paper":
            opts.append(f"smpi/bw-factor:0:{_num(NO_BANDWIDTH_TERM)}")
        else:
            opts.append(f"smpi/bw-factor:{bandwidth_factors(static, dynamic, threshold, sizes)}")
        if dynamic.per_hop == 0 and static.per_hop:
            notes.append("the dynamic per_hop is 0, so the static per_hop cannot be a factor of it")
        use = sag.text(f"{sau}.cs.spec.static_buffer_use", "all")
        if use == "synchronous":
            notes.append(f"smpi/ois follows smpi/os: SMPI's collectives send with MPI_Isend, which "
                         f"interp prices as synchronous messages; a program's own MPI_ISEND of at "
                         f"most {threshold} B is dynamic in the spec but static here")
    else:
        opts.append("smpi/lat-factor:0:1")
        opts.append(f"smpi/bw-factor:0:{_num(NO_BANDWIDTH_TERM)}" if model == "paper" else
                    f"smpi/bw-factor:{bandwidth_factors(None, dynamic, None, sizes)}")
    if sync is not None:
        notes.append(f"0-byte messages (SMPI's barrier) pay the sync overhead {sync * 1e6:.4g} us, "
                     "as interp's barrier rounds; a program's own 0-byte send does too")
    opts += [f"smpi/{op}:{algo}" for op, algo in COLLECTIVE_ALGORITHMS.items()]
    if channel(sag) != SIMGRID_CHANNEL:
        notes.append(f"cs.spec.channel is {channel(sag)}, but SimGrid shares a link max-min among "
                     f"one sender's messages too ({SIMGRID_CHANNEL}): interp validate predicts with "
                     f"channel: {SIMGRID_CHANNEL}")
    return opts, notes


EXACT_UP_TO = 1024
"""Message sizes (bytes) up to which ``smpi/bw-factor`` has one segment per size."""
BUCKETS_PER_OCTAVE = 8


def bandwidth_factors(static: MessageClass | None, dynamic: MessageClass,
                      threshold: int | None, sizes: Iterable[int] = ()) -> str:
    """``smpi/bw-factor`` that makes a message of ``n`` bytes take ``per_byte * n`` on the links
    although SMPI sends ``n + 16`` (its envelope), with the static class's per_byte below the
    threshold. Keyed by the payload ``s = n + 16`` (a segment applies to sizes above its bound):
    exact for every size up to :data:`EXACT_UP_TO` bytes, at the threshold and at every size in
    ``sizes``; within 2^(1/16) of the envelope's time (about 0.25 us on the iPSC/860) above.
    The sizes a program sends matter: a bucket's 0.1 us a message is enough to move a case
    whose time depends on which of two messages reaches a link first (NPB SP, class S, P = 16:
    +1.9% bucketed, +0.005% exact; docs/validation.md)."""

    def factor(n: float) -> float:
        cls = static if static is not None and threshold is not None and n <= threshold else dynamic
        if n <= 0:
            return NO_BANDWIDTH_TERM
        return (n + ENVELOPE) * dynamic.per_byte / (n * cls.per_byte)

    bounds = list(range(ENVELOPE - 1, ENVELOPE + EXACT_UP_TO))  # segment (b, b+1]: n = b+1-16
    segments = [(b, factor(b + 1 - ENVELOPE)) for b in bounds]
    low = ENVELOPE + EXACT_UP_TO
    edges = sorted({int(low * 2 ** (k / BUCKETS_PER_OCTAVE)) for k in range(1, 21 * BUCKETS_PER_OCTAVE + 1)}
                   | ({threshold + ENVELOPE} if threshold and threshold > EXACT_UP_TO else set()))
    edges = [e for e in edges if e > low]
    exact = sorted({int(n) + ENVELOPE for n in sizes if EXACT_UP_TO < int(n)
                    and int(n) + ENVELOPE <= edges[-1]})
    previous = low
    for edge in edges:  # segment (previous, edge]: the factor of its geometric middle
        # (the threshold is an edge, so a segment never holds both classes)
        middle = factor(math.sqrt((previous + 1) * edge) - ENVELOPE)
        segments.append((previous, middle))
        for s in (s for s in exact if previous < s <= edge):  # (s-1, s]: that size alone
            if s - 1 > segments[-1][0]:
                segments.append((s - 1, factor(s - ENVELOPE)))
            else:  # s - 1 is the bucket's bound or the size before s: (s-1, s] is that segment
                segments[-1] = (segments[-1][0], factor(s - ENVELOPE))
            if s < edge:
                segments.append((s, middle))
        previous = edge
    return ";".join(f"{b}:{_num(f)}" for b, f in segments)


# --- the platform ----------------------------------------------------------------------------


def _host_name(node: int) -> str:
    return "host" if node == HOST else f"node{node}"


def _link_name(a: int, b: int) -> str:
    lo, hi = sorted((a, b))
    return f"{_host_name(lo)}-{_host_name(hi)}"


def rank_routes(sag: SAG, nprocs: int) -> dict[tuple[int, int], list[int]]:
    """The physical route of every ordered pair of distinct ranks (and the host, if any)."""
    ends = list(range(nprocs)) + ([HOST] if sag.host else [])
    return {(a, b): route(sag, a, b, nprocs) for a in ends for b in ends if a != b}


def _topology(sag: SAG) -> str:
    return sag.param(f"{sag.nodes}.cs.spec.topology").text


def export_simgrid(sag: SAG, nprocs: int, bound: Bound = "mid", model: str = "mpi",
                   sizes: Iterable[int] = ()) -> SimGridExport:
    """The SimGrid platform and smpirun options for ``nprocs`` ranks of ``sag`` (``model``,
    ``sizes``: see :func:`smpirun_options`)."""
    check_nprocs(sag, nprocs)
    options, notes = smpirun_options(sag, bound, model, sizes)
    clock = float(sag.value(f"{sag.nodes}.p.general.clock"))
    dynamic = message_class(sag, sag.nodes, "dynamic", bound)
    if dynamic.per_byte <= 0:
        raise InterpError(f"{sag.name}: {sag.nodes}.cs.dynamic.per_byte is 0; SimGrid needs a "
                          "finite bandwidth")
    bandwidth = 1.0 / dynamic.per_byte
    out = ['<?xml version="1.0"?>',
           '<!DOCTYPE platform SYSTEM "https://simgrid.org/simgrid.dtd">',
           f"<!-- {sag.title} ({sag.name}), {nprocs} ranks: exported by `interp export simgrid`."
           " Latency = dynamic per_hop, bandwidth = 1/dynamic per_byte; the static class and"
           " the per-message overheads are in the smpirun options. -->",
           '<platform version="4.1">',
           f'  <zone id="{sag.name}" routing="Full">']
    if _topology(sag) == "full":
        out += _crossbar(nprocs, clock, bandwidth, dynamic.per_hop)
        notes.append("full topology exported as a crossbar (<cluster>): private links carry the "
                     "bandwidth, the backbone the per-hop latency")
    elif _topology(sag) == "fat_tree":
        tree = fat_tree(sag)
        levels = FatTree(tree.radix, nprocs).levels
        out += _fat_tree(tree, levels, clock, bandwidth, dynamic.per_hop)
        notes.append(f"fat tree exported as SimGrid's FAT_TREE cluster cut to the {levels} levels that "
                     f"hold {nprocs} ranks (routes of ranks below k^{levels} never climb higher): "
                     "destination-mod-k routes as interp's, every link has the bandwidth and the "
                     "per-hop latency")
    else:
        out += _explicit(sag, nprocs, clock, bandwidth, dynamic.per_hop, bound)
    out += ["  </zone>", "</platform>", ""]
    hosts = [_host_name(k) for k in range(nprocs)]
    return SimGridExport(sag.name, nprocs, "\n".join(out), options, hosts, notes)


def _host_line(name: str, speed: float, props: dict[str, str] | None = None) -> list[str]:
    if not props:
        return [f'    <host id="{name}" speed="{_num(speed)}f"/>']
    from xml.sax.saxutils import quoteattr  # with urllib and ssl: 30 ms a predict does not need

    lines = [f'    <host id="{name}" speed="{_num(speed)}f">']
    lines += [f"      <prop id={quoteattr(k)} value={quoteattr(v)}/>" for k, v in props.items()]
    return lines + ["    </host>"]


def _link_line(name: str, bandwidth: float, latency: float, policy: str = "SPLITDUPLEX") -> str:
    return (f'    <link id="{name}" bandwidth="{_num(bandwidth)}Bps" latency="{_num(latency)}s" '
            f'sharing_policy="{policy}"/>')


def _loopback_name(node: int) -> str:
    return f"{_host_name(node)}-loopback"


def _loopbacks(nprocs: int, bandwidth: float) -> tuple[list[str], list[str]]:
    """A message to self as interp prices it (0 hops, per_byte·size, unshared): one
    ``FATPIPE`` link of bandwidth 1/per_byte and no latency per rank, and its route."""
    links = [_link_line(_loopback_name(n), bandwidth, 0.0, "FATPIPE") for n in range(nprocs)]
    routes = []
    for n in range(nprocs):
        routes += [f'    <route src="{_host_name(n)}" dst="{_host_name(n)}" symmetrical="NO">',
                   f'      <link_ctn id="{_loopback_name(n)}"/>',
                   "    </route>"]
    return links, routes


def _explicit(sag: SAG, nprocs: int, clock: float, bandwidth: float, per_hop: float,
              bound: Bound) -> list[str]:
    routes = rank_routes(sag, nprocs)
    nodes = sorted({n for path in routes.values() for n in path if n != HOST} | set(range(nprocs)))
    lines = [_host_line(_host_name(n), clock)[0] for n in nodes]
    links: dict[str, tuple[float, float]] = {}
    for path in routes.values():
        for a, b in zip(path, path[1:]):
            links.setdefault(_link_name(a, b), (bandwidth, per_hop))
    if sag.host and any(HOST in k for k in routes):
        lines += _host_side(sag, links, bound)
    lines += [_link_line(name, bw, lat) for name, (bw, lat) in sorted(links.items(), key=_link_key)]
    loop_links, loop_routes = _loopbacks(nprocs, bandwidth)
    lines += loop_links
    for (a, b), path in sorted(routes.items(), key=lambda kv: (_order(kv[0][0]), _order(kv[0][1]))):
        lines.append(f'    <route src="{_host_name(a)}" dst="{_host_name(b)}" symmetrical="NO">')
        for u, v in zip(path, path[1:]):
            direction = "UP" if _order(u) < _order(v) else "DOWN"
            lines.append(f'      <link_ctn id="{_link_name(u, v)}" direction="{direction}"/>')
        lines.append("    </route>")
    return lines + loop_routes


def _order(node: int) -> float:
    return math.inf if node == HOST else node  # the host sorts after the nodes


def _link_key(item):
    return [int(p[4:]) if p.startswith("node") else math.inf for p in item[0].split("-")]


def _host_side(sag: SAG, links: dict, bound: Bound) -> list[str]:
    """The host SAU: its clock, its link's bandwidth and latency, its overheads as properties."""
    link = message_class(sag, sag.host_link, "dynamic", bound)
    host_clock = f"{sag.host}.p.general.clock"
    speed = float(sag.value(host_clock)) if sag.has(host_clock) else 1e9
    for name in list(links):
        if name.endswith("-host"):
            links[name] = (1.0 / link.per_byte if link.per_byte else 1e12, link.per_hop)
    startup = link.startup
    props = {"smpi/os": f"0:{_num(startup)}:0", "smpi/ois": f"0:{_num(startup)}:0",
             "smpi/or": f"0:{_num(link.receive)}:0"}
    return _host_line("host", speed, props)


def _crossbar(nprocs: int, clock: float, bandwidth: float, per_hop: float) -> list[str]:
    return [f'    <cluster id="crossbar" prefix="node" suffix="" radical="0-{nprocs - 1}" '
            f'speed="{_num(clock)}f" bw="{_num(bandwidth)}Bps" lat="0s" '
            f'bb_bw="{_num(bandwidth * nprocs)}Bps" bb_lat="{_num(per_hop)}s" '
            f'loopback_bw="{_num(bandwidth)}Bps" loopback_lat="0s" '
            'sharing_policy="SPLITDUPLEX" bb_sharing_policy="FATPIPE"/>']


def _fat_tree(tree: FatTree, levels: int, clock: float, bandwidth: float, per_hop: float) -> list[str]:
    """SimGrid's native fat tree (FatTreeZone: destination-mod-k routing, as
    :meth:`FatTree.route`): every link, a leaf's to its switch included, has the bandwidth and
    one per_hop of latency, so a route over 2L links costs 2L per_hop as interp prices it."""
    leaves = tree.k ** levels
    return [f'    <cluster id="fat_tree" prefix="node" suffix="" radical="0-{leaves - 1}" '
            f'speed="{_num(clock)}f" bw="{_num(bandwidth)}Bps" lat="{_num(per_hop)}s" '
            f'topology="FAT_TREE" topo_parameters="{tree.simgrid_parameters(levels)}" '
            f'loopback_bw="{_num(bandwidth)}Bps" loopback_lat="0s" sharing_policy="SPLITDUPLEX"/>']


def simgrid_channel(sag: SAG) -> SAG:
    """The same machine with ``cs.spec.channel`` as SimGrid implements it (``fair``), so that a
    prediction compared with SMPI shares links as SMPI does."""
    return _with_spec_text(sag, "channel", SIMGRID_CHANNEL, "as SimGrid shares links")


def _with_spec_text(sag: SAG, name: str, text: str, why: str) -> SAG:
    """The same machine with the choice ``cs.spec.<name>`` set to ``text`` (added, marked as a
    what-if, when the spec leaves it out)."""
    path = f"{sag.nodes}.cs.spec.{name}"
    if sag.has(path):
        return sag.with_values({path: text})
    param = Parameter(path, TEXT, text=text, note=f"what-if; {why} (interp validate)")

    def add(sau: SAU) -> SAU:
        children = tuple(add(ch) for ch in sau.children)
        if sau.name != sag.nodes:
            return replace(sau, children=children)
        return replace(sau, cs=replace(sau.cs, parameters=sau.cs.parameters + (param,)),
                       children=children)

    return replace(sag, root=add(sag.root))


def simgrid_semantics(sag: SAG) -> tuple[SAG, list[str]]:
    """The same machine with SMPI's semantics where the spec chooses otherwise, so that a
    prediction compared with SMPI is of like with like: links shared max-min among one sender's
    messages too (``channel: fair``), no overlap of a call's overhead (SMPI's ``smpi/os``,
    ``or`` and ``ois`` are paid whole by the calling rank: E5 in docs/validation.md),
    MPI_COMM_SPLIT as SMPI implements it (``comm_split: gather_send``: a gather to rank 0 and
    its sends, docs/mpi.md), a message above the eager threshold as SMPI prices it
    (``rendezvous_cost: transfer``: no receive overhead, no startup for a blocking send),
    and every message of at most the static buffer size in the
    static class (``static_buffer_use: all``: the export's ``smpi/ois`` is ``smpi/os``, so
    SMPI prices a program's own small MPI_ISEND as a small MPI_SEND). Returns that machine
    and one line per value it changed."""
    changes = []
    if channel(sag) != SIMGRID_CHANNEL:
        changes.append(f"cs.spec.channel: {SIMGRID_CHANNEL} (the spec says {channel(sag)})")
    if comm_split(sag) != SIMGRID_SPLIT:
        changes.append(f"cs.spec.comm_split: {SIMGRID_SPLIT} (the spec says {comm_split(sag)})")
    same = _with_spec_text(simgrid_channel(sag), "comm_split", SIMGRID_SPLIT,
                           "as SMPI splits a communicator")
    if eager_threshold(sag) is not None and rendezvous_cost(sag) != SIMGRID_RENDEZVOUS:
        changes.append(f"cs.spec.rendezvous_cost: {SIMGRID_RENDEZVOUS} (the spec says "
                       f"{rendezvous_cost(sag)})")
        same = _with_spec_text(same, "rendezvous_cost", SIMGRID_RENDEZVOUS,
                               "as SMPI prices a message above its detached threshold")
    if any_source(sag) != SIMGRID_ANY_SOURCE:
        changes.append(f"cs.spec.any_source: {SIMGRID_ANY_SOURCE} (the spec says "
                       f"{any_source(sag)})")
        same = _with_spec_text(same, "any_source", SIMGRID_ANY_SOURCE,
                               "as SMPI's mailbox matches an MPI_ANY_SOURCE receive")
    if self_sendrecv(sag) != SIMGRID_SELF_SENDRECV:
        changes.append(f"cs.spec.self_sendrecv: {SIMGRID_SELF_SENDRECV} (the spec says "
                       f"{self_sendrecv(sag)})")
        same = _with_spec_text(same, "self_sendrecv", SIMGRID_SELF_SENDRECV,
                               "as SMPI's MPI_Sendrecv copies to the rank itself")
    buffers = sag.text(f"{sag.nodes}.cs.spec.static_buffer_use", "all")
    if buffers != "all":  # the export prices every message by its size (smpi/ois = smpi/os)
        changes.append(f"cs.spec.static_buffer_use: all (the spec says {buffers})")
        same = _with_spec_text(same, "static_buffer_use", "all",
                               "SMPI prices a small MPI_ISEND as a small MPI_SEND")
    overlaps = {p.path: 0 for p in sag.parameters() if ".cs.overlap." in p.path
                and not p.is_text and (sag.value(p.path, "min") != 0 or sag.value(p.path, "max") != 0)}
    changes += [f"{path}: 0 (the spec says {float(sag.value(path)):g})" for path in overlaps]
    return same.scaled(overlaps), changes


def zero_computation(sag: SAG) -> SAG:
    """The same machine with every processing and memory-access cost at 0 (validation runs
    SMPI with ``smpi/simulate-computation:no``): what is left is communication."""
    groups = ("ops", "loop", "cond", "call", "library", "nx")
    saus = [s for s in (sag.nodes, sag.host) if s]
    factors = {}
    for p in sag.parameters():
        parts = p.path.split(".")
        if parts[0] in saus and not p.is_text and (
                (parts[1] == "p" and parts[2] in groups) or (parts[1] == "m" and parts[2] == "access")):
            factors[p.path] = 0
    return sag.scaled(factors)
