"""Python's cyclic garbage collector in a process whose objects live until it ends.

An interpretation keeps every rank's state until the end: the collector's full passes over
them grow with P (a quarter of a check at P = 16384), so it is off while one runs
(:func:`off`). An ``interp`` process goes further (:func:`for_process`; not a library
caller's process): its imports and inputs (SymPy's ~120,000 objects, the machine, the program)
make no garbage cycles to speak of and live until it ends, yet the collector walked them
again and again, and once more at exit, 0.3 s of CPU of a small predict (docs/scale.md,
issue 16). So it is paused until the first interpretation, which freezes what exists then
(``gc.freeze``: later passes skip it), and everything is frozen at exit.
"""

from __future__ import annotations

import atexit
import gc
from collections.abc import Iterator
from contextlib import contextmanager

THRESHOLDS = (100_000, 50, 100)  # objects allocated between young passes, …

_paused = False  # an interp process before its first interpretation (for_process)


@contextmanager
def off() -> Iterator[None]:
    """No collection within the block (an interpretation makes next to no cyclic garbage: the
    same peak RSS without the collector at P = 1024 and 16,384, and its passes walked the live
    ranks, a tenth of the time at P = 65,536); the collector's state is restored after. In an
    ``interp`` process the first such block freezes what was made before and resumes the
    collector for good after it."""
    global _paused
    promote = False
    if _paused:
        _paused = False
        gc.freeze()
        enabled = True
    else:
        enabled = gc.isenabled()
        promote = enabled and gc.get_freeze_count() == 0  # (nothing of the caller's frozen)
    gc.disable()
    try:
        yield
    finally:
        if promote:  # the block's survivors (every rank) straight to the oldest generation,
            gc.freeze()  # as surviving passes would put them, without the young pass over
            gc.unfreeze()  # them all that the next allocation would start (3% at P = 16,384)
        if enabled:
            gc.enable()


def for_process() -> None:
    """The collector of an ``interp`` process: paused until the first interpretation, rare
    young passes, everything frozen at exit (before the interpreter's own collections)."""
    global _paused
    _paused = True
    gc.disable()
    gc.set_threshold(*THRESHOLDS)
    atexit.unregister(gc.freeze)  # (once, however often it is called)
    atexit.register(gc.freeze)
