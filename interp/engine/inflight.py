"""The messages in flight (sent, not yet received), indexed by destination.

A receive looks only at the messages sent to its own process: with every message of a run in
one list, each receive scanned them all, and a halo exchange over P ranks cost P² (docs/scale.md).
Iteration keeps the order the messages were sent in, as the list did. ``indexed=False`` is
the exact mode's reference: every lookup scans all messages, as before the index.
"""

from __future__ import annotations

from typing import Iterator

from interp.engine.messages import Message


class InFlight:
    def __init__(self, indexed: bool = True) -> None:
        self.indexed = indexed
        self._all: dict[int, Message] = {}  # by id, in the order sent
        self._to: dict[int, dict[int, Message]] = {}  # destination → its messages, in order
        self.posted = 0  # how many were ever appended (``since``)
        self._seq: dict[int, int] = {}

    def append(self, m: Message) -> None:
        self._all[m.id] = m
        self._to.setdefault(m.dst, {})[m.id] = m
        self._seq[m.id] = self.posted
        self.posted += 1

    def remove(self, m: Message) -> None:
        del self._all[m.id]
        to = self._to[m.dst]
        del to[m.id]
        if not to:
            del self._to[m.dst]
        del self._seq[m.id]

    def clear(self) -> None:
        self._all.clear()
        self._to.clear()
        self._seq.clear()

    def to(self, dst: int) -> Iterator[Message]:
        """The messages to ``dst``, in the order sent."""
        if not self.indexed:
            return iter([m for m in self._all.values() if m.dst == dst])
        return iter(list(self._to.get(dst, {}).values()))

    def destinations(self) -> list[int]:
        """The processes a message in flight goes to."""
        return list(self._to)

    def since(self, count: int) -> list[Message]:
        """The messages still in flight among those appended after ``posted`` was ``count``."""
        out = []
        for m in reversed(self._all.values()):
            if self._seq[m.id] < count:
                break
            out.append(m)
        return out[::-1]

    @property
    def last(self) -> Message:
        return next(reversed(self._all.values()))

    def __iter__(self) -> Iterator[Message]:
        return iter(list(self._all.values()))

    def __len__(self) -> int:
        return len(self._all)
