"""The settings of a training run, checked before any step runs, and the nets a rule
set's model holds.  Private to :mod:`ofc_fast.learned.train`."""

from __future__ import annotations

import os
from numbers import Real

from .._native import lib
from ..errors import ModelError, OfcError, quote, whole_count
from ..rules import RuleSet
from ..rules.model import GameKind
from ..table import as_int, check_fantasyland, check_seed
from .model import FEATURES

__all__ = ["MAX_ROUNDS", "MAX_SAMPLES", "POSITION_BYTES", "check_settings", "sizes"]

MAX_SAMPLES = 1_000_000  # draws of one label (ofc_value_expect, csrc/include/ofc_value.h)
MAX_ROUNDS = 100
"""The most ``rounds`` of one run: each is a whole pass of play, labels and fits (some
ten minutes on 2 cores for the README's run); a run names its steps' files before any
step, and ``rounds=3_000_000`` spent 40 s and 4.7 GB on the names alone."""
POSITION_BYTES = 38
"""The bytes of one decision in a run's positions (board 13, dealt 5, n and k 1
each, dead 8, played 2, deal 8): a deal makes one a seat a street, all held in
memory at once (the steps' arrays)."""
CGROUP = "/sys/fs/cgroup"
"""Where a container's memory limit is read (cgroup v2 ``memory.max``, v1
``memory/memory.limit_in_bytes``): in Docker, Kubernetes or a CI runner that limit, not
the machine's memory, is what ends a run that holds too much."""
PROC_CGROUP = "/proc/self/cgroup"
"""Where this process's own cgroup is named (v2: the line ``0::/PATH``; v1: the line of
the ``memory`` controller, ``N:memory:/PATH``): a limit set on it or on a cgroup
between it and :data:`CGROUP` (systemd's ``MemoryMax``, a sub-cgroup without a cgroup
namespace) ends a run as surely as the root's."""


def sizes(rules: RuleSet) -> list[int]:
    """Cards on the board after each decision but the last (the nets to fit)."""
    if rules.game is GameKind.PINEAPPLE:
        return [5, 7, 9, 11]
    return list(range(5, 13))


def check_settings(
    rules: RuleSet,
    players: int,
    *,
    seed: int,
    epsilon: float,
    hidden: tuple[int, ...],
    **counts: int,
) -> None:
    """ModelError for settings no run can finish with, before any step runs (each
    once failed deep inside a step, or only after the labels and fits, as a
    traceback or a message that did not name the setting)."""
    if rules.game is GameKind.CLASSIC:
        raise ModelError(
            f"rules: value models are for OFC and Pineapple rule sets; {rules.name} sets "
            "its thirteen cards at once"
        )
    if as_int(players) is None or not 2 <= players <= rules.max_players:
        raise ModelError(f"players must be 2..{rules.max_players}, got {quote(players)}")
    try:  # (a max_players past one deck's deal failed at the first position)
        check_fantasyland(None, players, rules)  # names players itself
    except OfcError as exc:
        raise ModelError(str(exc)) from None
    check_seed(seed, "seed", ModelError)  # (the one reader of a seed, its wording)
    floor = {"others": 0}  # the rest: at least 1
    ceiling = {"samples": MAX_SAMPLES, "eval_samples": MAX_SAMPLES}  # (C's draws)
    ceiling["rounds"] = MAX_ROUNDS
    why = {"rounds": "each a whole pass of play, labels and fits"}
    for name, value in counts.items():  # ints: 1.5 samples failed after the positions
        whole_count(value, name, floor.get(name, 1), ModelError)  # (the one wording)
        if name in ceiling and value > ceiling[name]:  # (failed at the first label)
            raise ModelError(
                f"{name} must be at most {ceiling[name]:,} "
                f"({why.get(name, 'draws')}), got {quote(value)}"
            )
    _check_memory(rules, players, counts)
    if not (isinstance(epsilon, Real) and not isinstance(epsilon, bool)) or not (
        0.0 <= epsilon <= 1.0
    ):
        raise ModelError(f"epsilon must be a probability, 0..1, got {quote(epsilon)}")
    width, layers = int(lib.OFC_VM_MAX_WIDTH), int(lib.OFC_VM_MAX_LAYERS)
    try:  # a tuple, a list, a NumPy array (whose truth value is no test of widths)
        widths = [] if isinstance(hidden, str) else list(hidden)
    except TypeError:  # (hidden=64: no len())
        widths = []
    if not (
        0 < len(widths) < layers
        and all(as_int(h) is not None and 1 <= h <= width for h in widths)
    ):
        raise ModelError(
            f"hidden: 1..{layers - 1} layer widths, each 1..{width} (a model file's "
            f"nets have at most {layers} layers), got {quote(widths or hidden)}"
        )
    shape = [FEATURES, *widths, 1]  # each layer: weights and biases, every net alike
    params = len(sizes(rules)) * sum((a + 1) * b for a, b in zip(shape, shape[1:]))
    if params > int(lib.OFC_VM_MAX_PARAMS):  # (the file failed after every fit)
        raise ModelError(
            f"hidden: {params:,} weights and biases in the {len(sizes(rules))} nets of "
            f"{rules.name} ({quote(list(hidden))} wide); a model file holds at most "
            f"{int(lib.OFC_VM_MAX_PARAMS):,}: narrower or fewer layers"
        )


def memory_limit() -> tuple[int, str] | None:
    """The bytes this process may hold and whose they are (``"machine"`` or
    ``"container"``): the smallest of the machine's memory and the limits of the
    cgroups from this process's own (:data:`PROC_CGROUP`) up to the root under
    :data:`CGROUP` (v2 ``memory.max``, ``max`` for none; v1
    ``memory/PATH/memory.limit_in_bytes``, a number past the machine's for none); None
    where neither is known."""
    limits: list[tuple[int, str]] = []
    try:
        limits.append((os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES"), "machine"))
    except (AttributeError, ValueError, OSError):  # (no sysconf: Windows)
        pass
    for path in _cgroup_limit_files():
        try:
            with open(path, encoding="ascii") as f:
                text = f.read(64).strip()
        except (OSError, ValueError):  # (no such file: no cgroup, or not this version)
            continue
        if text.isdigit():  # ("max": no limit)
            limits.append((int(text), "container"))
    return min(limits, key=lambda limit: limit[0]) if limits else None


def _cgroup_limit_files() -> list[str]:
    """The memory limit files of this process's cgroups (:data:`PROC_CGROUP`), v2's
    then v1's, each from its own cgroup up to the root under :data:`CGROUP` (the root
    alone where the process's cgroup is not known, or not mounted there: a cgroup
    namespace shows ``/``)."""
    paths = {"v2": "/", "v1": "/"}
    try:
        with open(PROC_CGROUP, encoding="utf-8", errors="replace") as f:
            lines = f.read(1 << 16).splitlines()
    except OSError:  # (no /proc: not Linux)
        lines = []
    for line in lines:  # HIERARCHY:CONTROLLERS:PATH
        hierarchy, _, rest = line.partition(":")
        controllers, _, path = rest.partition(":")
        if hierarchy == "0" and not controllers:
            paths["v2"] = path
        elif "memory" in controllers.split(","):
            paths["v1"] = path
    files = []
    for version, base, name in (
        ("v2", CGROUP, "memory.max"),
        ("v1", os.path.join(CGROUP, "memory"), "memory.limit_in_bytes"),
    ):
        parts = [p for p in paths[version].split("/") if p not in ("", ".", "..")]
        for depth in range(len(parts), -1, -1):  # its own cgroup first, the root last
            files.append(os.path.join(base, *parts[:depth], name))
    return files


def _check_memory(rules: RuleSet, players: int, counts: dict[str, int]) -> None:
    """ModelError when the positions of the deals (every round's with the held-out
    ones, twice: joined for the fits; or the opponent deals') would not fit in this
    machine's memory, or its container's limit (:func:`memory_limit`): ``--deals
    1000000000000`` built its task list for minutes and ended in a MemoryError.  No
    limit where the memory is not known."""
    known = memory_limit()
    if known is None:
        return
    memory, where = known
    per_deal = players * (len(sizes(rules)) + 1) * POSITION_BYTES
    played = 2 * counts.get("deals", 0) * counts.get("rounds", 1)
    held_out = counts.get("eval_deals", 0)  # (played: each round's, joined again)
    peaks = [
        ("eval_deals" if held_out > played else "deals", played + held_out),
        ("opponent_deals", counts.get("opponent_deals", 0)),
    ]
    for name, held in peaks:
        if name in counts and held * per_deal > memory:
            raise ModelError(
                f"{name}: {counts[name]:,} is too many for this {where}'s memory "
                f"({memory / 1e9:,.0f} GB): a deal's positions take {per_deal} bytes "
                f"({POSITION_BYTES} a decision, {players} seats), held at once, "
                f"{held * per_deal / 1e9:,.0f} GB here; fewer deals"
            )
