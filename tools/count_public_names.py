"""Count the public names of the ofc_fast package.

    python tools/count_public_names.py            # the totals
    python tools/count_public_names.py --list     # every module with its names

Definition.  Every module of the package is imported (``pkgutil.walk_packages``; a
module whose optional dependency is missing is skipped and named on stderr).  A
module's *public names* are the entries of its ``__all__``; a module without
``__all__`` contributes its attributes whose name does not start with ``_``, minus
imported modules.  Private modules (a part of the dotted name starting with ``_``,
such as ``ofc_fast._native`` or ``ofc_fast.search._checks``) are not the public face
and are left out unless ``--private`` is given.  Three totals are printed:

* ``entries``: the sum over modules of their public names (a name re-exported by a
  package ``__init__`` counts once per module that lists it);
* ``distinct objects``: the public names counted once per object (a re-export of
  the same function or class counts once; a constant of a plain value -- a number, a
  string, a tuple -- counts once per module that lists it);
* ``modules``: the modules counted.
"""

from __future__ import annotations

import argparse
import importlib
import pkgutil
import sys
import types


def public_names(module: types.ModuleType) -> list[str]:
    """The module's ``__all__``, else its non-underscore attributes that are not modules."""
    names = getattr(module, "__all__", None)
    if names is not None:
        return list(names)
    return sorted(
        n
        for n, v in vars(module).items()
        if not n.startswith("_") and not isinstance(v, types.ModuleType)
    )


def main(argv: list[str] | None = None) -> int:
    """Print the counts (``--list``: module by module)."""
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--list", action="store_true", help="list every module's names")
    p.add_argument(
        "--private",
        action="store_true",
        help="count private modules too (a dotted name with a part starting with _)",
    )
    args = p.parse_args(argv)
    import ofc_fast

    modules = [ofc_fast]
    for info in pkgutil.walk_packages(ofc_fast.__path__, "ofc_fast."):
        if info.name.endswith("__main__"):
            continue
        if not args.private and any(part.startswith("_") for part in info.name.split(".")):
            continue  # not the public face: a private module or a package's private part
        try:
            modules.append(importlib.import_module(info.name))
        except ImportError as e:  # an optional extra is not installed
            print(f"skipped {info.name}: {e}", file=sys.stderr)
    entries = 0
    seen: set[object] = set()
    for m in sorted(modules, key=lambda m: m.__name__):
        names = public_names(m)
        entries += len(names)
        for n in names:
            obj = getattr(m, n, None)
            plain = isinstance(obj, (int, float, str, bytes, tuple, frozenset))
            seen.add((m.__name__, n) if plain or obj is None else id(obj))
        if args.list:
            print(f"{m.__name__} ({len(names)}): {', '.join(names)}")
    print(f"entries: {entries}")
    print(f"distinct objects: {len(seen)}")
    print(f"modules: {len(modules)}")
    return 0


if __name__ == "__main__":
    from ofc_fast.cli import run_command  # (a reader gone: no BrokenPipeError)

    sys.exit(run_command(main, "count_public_names.py"))
