"""``python -m ofc_fast`` and the ``ofc-fast`` console script: the command line of
:mod:`ofc_fast.cli`, with Ctrl-C handled from the start.

``import ofc_fast`` loads no name of the package until it is used, nor does this
module.  A Ctrl-C while :func:`main` then loads the command line (NumPy, the C
library, every subcommand's parser: the first few tenths of a second of any
command) is held until the loading ends (cut, NumPy's C code made it an ImportError,
"PyCapsule_Import could not import module"), then ends the command as one while it
runs does: ``ofc-fast: interrupted``, exit status 130, not a traceback.  One before
that, while Python itself starts (its site packages, finding the package: the first
hundredths of a second), is Python's own: the process ends by the signal, or with
Python's own error.
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Sequence

__all__ = ["launch", "main"]


def main(argv: Sequence[str] | None = None) -> int:
    """Run the ``ofc-fast`` command line (:func:`ofc_fast.cli.main`, which it loads
    first); returns the exit status."""
    return launch("ofc_fast.cli", argv, "ofc-fast")


def launch(module: str, argv: Sequence[str] | None, prog: str) -> int:
    """Run ``module.main(argv)``, a command line whose module loads heavy ones (this
    one's, ``python -m ofc_fast.learned.train``'s), the module loaded first with
    SIGINT held (``sigint_deferred``); returns its exit status, or 130 after a
    Ctrl-C that came while it loaded (``PROG: interrupted``)."""
    try:
        from .arena import sigint_deferred

        with sigint_deferred():
            run = importlib.import_module(module).main
    except KeyboardInterrupt:  # (held to the loading's end; or before: it ends now)
        from .cli import run_command

        return run_command(_interrupted, prog)
    status: int = run(argv)
    return status


def _interrupted() -> None:
    """A command stopped by the Ctrl-C that came while its module loaded."""
    raise KeyboardInterrupt


if __name__ == "__main__":
    sys.exit(main())
