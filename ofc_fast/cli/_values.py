"""The readers of command-line values that several ``ofc-fast`` commands share
(:mod:`ofc_fast.cli.options` gives them out): counts (:func:`check_count`),
comma-separated lists (:func:`split_list`, :func:`parse_stacks`), words typed in
another locale (:func:`typed_text`) and choices written in any case
(:func:`one_of`)."""

from __future__ import annotations

import argparse
import os
import re
from collections.abc import Callable, Sequence
from typing import Any

from ..errors import GameError, OfcError, count_problem, match_choice, quote
from ..table import check_stacks

MAX_HANDS = 10_000_000
"""The most ``--hands`` one run plays (``play``, ``arena``, ``selfplay``, sequential or
parallel): a longer run is a mistyped count, not a match anyone waits for."""
HANDS_WHY = "the most hands one run plays"
"""What :data:`MAX_HANDS` is, in a ``--hands`` error."""


def check_count(
    option: str,
    value: int,
    minimum: int = 1,
    maximum: int | None = None,
    error: type[OfcError] = GameError,
    why: str = "",
) -> int:
    """A count option's value (``--hands``, ``--workers``): a whole number from
    ``minimum`` to ``maximum`` (no limit: None), as :func:`ofc_fast.timing.at_least`
    reads one; else ``error`` naming the option (and ``why``, for a value above
    ``maximum``).

    >>> check_count("--workers", 9, maximum=8)
    Traceback (most recent call last):
    ...
    ofc_fast.errors.GameError: --workers: must be at most 8, got 9
    """
    problem = count_problem(value, minimum, maximum)
    if problem:
        above = maximum is not None and value > maximum and why
        raise error(f"{option}: {problem}" + (f" ({why})" if above else ""))
    return value


def split_list(
    option: str,
    text: str,
    what: str,
    error: type[OfcError] = GameError,
    spaces: bool = False,
) -> list[str]:
    """The items of a comma-separated option value (``--bots heuristic,random``),
    stripped (``spaces``: spaces between items work too, ``200 150``); an empty item
    (``heuristic,``, ``a,,b``, ``""``) is refused, ``error`` naming ``option`` and
    ``what`` an item is, rather than dropped.

    >>> split_list("--bots", " heuristic , random", "bot name")
    ['heuristic', 'random']
    >>> split_list("--bots", "heuristic,", "bot name")
    Traceback (most recent call last):
    ...
    ofc_fast.errors.GameError: --bots: an empty bot name in 'heuristic,' (one comma between two)
    """
    items = re.split(r"\s*,\s*|\s+" if spaces else ",", text.strip())
    if not all(item.strip() for item in items):
        raise error(f"{option}: an empty {what} in {quote(text)} (one comma between two)")
    return [item.strip() for item in items]


def parse_stacks(values: Sequence[str] | None, seats: int) -> list[int] | None:
    """``--stacks``: ``200`` (every seat) or ``200,200,150`` (one per seat; spaces
    between the numbers work too).  Errors name ``--stacks``.

    >>> parse_stacks(["200"], 3), parse_stacks(["200,150"], 2)
    ([200, 200, 200], [200, 150])
    """
    if values is None:
        return None
    text = " ".join(values)
    items = split_list("--stacks", text, "chip count", spaces=True)
    try:
        chips = [int(v) for v in items]
    except ValueError:
        raise GameError(
            f"--stacks: expected chip counts such as 200 or 200,200,150, got {quote(text)}"
        ) from None
    if len(chips) not in (1, seats):
        raise GameError(
            f"--stacks: {seats} seats need 1 or {seats} chip counts, got {len(chips)}"
        )
    return list(
        check_stacks(chips[0] if len(chips) == 1 else chips, seats, "--stacks") or ()
    )


def typed_text(word: str) -> str:
    r"""A command-line word as the UTF-8 typed, which Python read in another locale's
    encoding (``LC_ALL=C``: ``"A♠"`` as ``'A\udce2\udc99\udca0'``, a bad card):
    argparse's ``type`` of the cards and boards; a word not UTF-8 stays as read.

    >>> typed_text("A\udce2\udc99\udca0 Ks")
    'A♠ Ks'
    """
    try:
        return os.fsencode(word).decode("utf-8")
    except UnicodeError:
        return word


def one_of(*options: str) -> dict[str, Any]:
    """The ``choices`` and ``type`` of an option that takes one of ``options``
    (``add_argument("--log-level", **one_of("debug", "info"))``): the word in any
    case, read as the library reads a choice (:func:`ofc_fast.errors.match_choice`),
    is the option's value as ``options`` spell it; ``--help`` lists them.

    >>> p = argparse.ArgumentParser()
    >>> _ = p.add_argument("--exact", **one_of("auto", "yes", "no"))
    >>> p.parse_args(["--exact", "YES"]).exact
    'yes'
    """
    return {"choices": options, "type": _choice_of(options)}


def _choice_of(options: Sequence[str]) -> Callable[[str], str]:
    """The ``type`` of :func:`one_of`'s option: the one of ``options`` a word names;
    else the parser's error listing them, the word quoted short."""

    def choice(word: str) -> str:
        found = match_choice(word, options)
        if found is None:
            raise argparse.ArgumentTypeError(
                f"must be one of {', '.join(options)}, got {quote(word)}"
            )
        return found

    return choice
