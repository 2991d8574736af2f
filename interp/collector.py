"""Python's cyclic garbage collector in a process whose objects live until it ends.

An interpretation keeps every rank's state until the end: the collector's full passes over
them grow with P (a quarter of a check at P = 16384), so its young passes are made rare
(:func:`rare`). And at exit the interpreter's last collections walk every object SymPy and
the command made, 0.15-0.2 s of CPU after a small predict (docs/scale.md, issue 16):
:func:`freeze_at_exit` moves them out of the collector's reach first (``gc.freeze``), which
loses nothing, the process ending anyway.
"""

from __future__ import annotations

import atexit
import gc
from collections.abc import Iterator
from contextlib import contextmanager

THRESHOLDS = (100_000, 50, 100)  # objects allocated between young passes, …


@contextmanager
def rare() -> Iterator[None]:
    """Young collections made rare within the block (the previous thresholds restored)."""
    previous = gc.get_threshold()
    gc.set_threshold(*THRESHOLDS)
    try:
        yield
    finally:
        gc.set_threshold(*previous)


def freeze_at_exit() -> None:
    """Freeze every object when the interpreter exits, before its own collections (registered
    once however often it is called: a test process runs many commands)."""
    atexit.unregister(gc.freeze)
    atexit.register(gc.freeze)
