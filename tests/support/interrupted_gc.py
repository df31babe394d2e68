"""A stand-in for the :mod:`gc` module whose ``disable()`` is interrupted as it
returns (KeyboardInterrupt, as a Ctrl-C landing on the next bytecode raises it): for
the checks that a block run with the collector off turns it back on whatever
happens."""

from __future__ import annotations

import gc


class InterruptedGc:
    """:mod:`gc` (``isenabled``, ``enable``), whose ``disable()`` turns the collector
    off and raises KeyboardInterrupt."""

    isenabled = staticmethod(gc.isenabled)
    enable = staticmethod(gc.enable)
    collect = staticmethod(gc.collect)

    @staticmethod
    def disable() -> None:
        gc.disable()
        raise KeyboardInterrupt
