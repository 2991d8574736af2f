"""A fat tree: the k-ary n-tree of Petrini and Vanneschi, grown to the machine's size.

Every switch has ``radix`` ports, ``k = radix / 2`` down and ``k`` up; node (leaf) ``p`` hangs
on a level-1 switch with ``k`` others, and the tree has as many levels as it takes to hold
``procs`` leaves: ``n = ceil(log_k procs)``, ``k^n >= procs``. Each level has ``k^(n-1)``
switches. A level-``l`` switch is ``(l, a, b)``: ``a = p div k^l`` names the subtree of
``k^l`` leaves it serves, ``b`` (``0 <= b < k^(l-1)``) which of that subtree's ``k^(l-1)``
switches of level ``l`` it is. Switch ``(l, a, b)`` links up to the ``k`` switches
``(l+1, a div k, b + j·k^(l-1))``, ``j = 0..k-1``.

Routes go up to the nearest common ancestor level ``L`` (the least ``l`` with
``src div k^l = dst div k^l``) and down again. Going up, level ``l`` picks its up-port by the
destination's digit ``l-1`` (destination-mod-k, as InfiniBand's fat-tree routing and SimGrid's
FAT_TREE zone do), so the up path visits ``(l, src div k^l, dst mod k^(l-1))`` and the down path
``(l, dst div k^l, dst mod k^(l-1))`` -- the two meet at level ``L``. A route crosses ``2L``
links (its hops): 2 between leaves of one switch, 4 within a level-2 subtree (a pod of a
three-level tree), 6 across the core of three levels. Routes are computed on demand, never
tabulated: a tree of a million leaves is a few integers.
"""

from __future__ import annotations

from dataclasses import dataclass

from interp.errors import InterpError

Switch = tuple[str, int, int, int]  # ("sw", level, subtree, replica)


@dataclass(frozen=True)
class FatTree:
    radix: int  # ports per switch
    procs: int  # leaves the tree must hold

    def __post_init__(self) -> None:  # a what-if may change either after the spec was checked
        problem = radix_problem(self.radix)
        if problem:
            raise InterpError(problem, hint="a 64-port switch (InfiniBand NDR) is switch_radix: 64")
        if self.procs < 1:
            raise InterpError(f"a fat tree holds at least 1 node, not {self.procs}")

    @property
    def k(self) -> int:
        """Down (and up) ports per switch."""
        return self.radix // 2

    @property
    def levels(self) -> int:
        """``n``: the fewest levels whose ``k^n`` leaves hold ``procs``."""
        n, size = 1, self.k
        while size < self.procs:
            n, size = n + 1, size * self.k
        return n

    @property
    def leaves(self) -> int:
        return self.k ** self.levels

    @property
    def switches(self) -> int:
        return self.levels * self.k ** (self.levels - 1)

    def nca_level(self, src: int, dst: int) -> int:
        """The level of the nearest common ancestor of two leaves (0 for a leaf and itself)."""
        level, a, b = 0, src, dst
        while a != b:
            level, a, b = level + 1, a // self.k, b // self.k
        return level

    def hops(self, src: int, dst: int) -> int:
        return 2 * self.nca_level(src, dst)

    def route(self, src: int, dst: int) -> list:
        """The leaves and switches a message visits, source first (``2L + 1`` of them)."""
        top = self.nca_level(src, dst)
        if top == 0:
            return [src]
        k = self.k
        up = [("sw", l, src // k**l, dst % k ** (l - 1)) for l in range(1, top + 1)]
        down = [("sw", l, dst // k**l, dst % k ** (l - 1)) for l in range(top - 1, 0, -1)]
        return [src, *up, *down, dst]

    def describe(self) -> str:
        return (f"a {self.levels}-level fat tree of {self.radix}-port switches ({self.k} down, "
                f"{self.k} up): {self.leaves} leaves for {self.procs}, {self.switches} switches")

    def simgrid_parameters(self, levels: int | None = None) -> str:
        """SimGrid's FAT_TREE ``topo_parameters`` of this tree cut to ``levels``:
        ``levels; children per switch of each level; parents of each level's members;
        parallel links``."""
        n = levels or self.levels
        down = ",".join([str(self.k)] * n)
        up = ",".join(["1"] + [str(self.k)] * (n - 1))
        return f"{n};{down};{up};" + ",".join(["1"] * n)


def radix_problem(radix: object) -> str | None:
    """What is wrong with a switch radix, or None."""
    if not isinstance(radix, int) or radix < 4 or radix % 2:
        return (f"a fat tree's switch_radix must be an even whole number of at least 4 (half the "
                f"ports down, half up), not {radix}")
    return None
