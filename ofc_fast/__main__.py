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

import sys
from collections.abc import Sequence

__all__ = ["main"]


def main(argv: Sequence[str] | None = None) -> int:
    """Run the ``ofc-fast`` command line (:func:`ofc_fast.cli.main`, which it loads
    first); returns the exit status."""
    try:
        from .arena import sigint_deferred

        with sigint_deferred():
            from .cli import main as run
    except KeyboardInterrupt:  # (held to the loading's end; or before: it ends now)
        from .cli import run_command

        return run_command(_interrupted)
    return run(argv)


def _interrupted() -> None:
    """A command stopped by the Ctrl-C that came while the command line loaded."""
    raise KeyboardInterrupt


if __name__ == "__main__":
    sys.exit(main())
