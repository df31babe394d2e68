"""The options that several ``ofc-fast`` subcommands share, read the same way by each:
``--rules``, ``--stacks``, ``--json``, ``--bots``, ``--seed``, ``--players``,
``--hands``, ``--quiet`` (the builders ``add_*_option``) and their readers
(:func:`load_rules`, :func:`parse_stacks`).  ``ofc_fast.arena.cli``,
``ofc_fast.parallel.cli`` and ``ofc_fast.serve.cli`` build their options here too.
:class:`Parser` keeps each option by the Python keyword it sets, and
:func:`name_option` puts the option in an error of the Python API that names the
keyword: ``ofc-fast`` and ``python -m ofc_fast.learned.train`` print their errors so.

>>> import argparse
>>> p = argparse.ArgumentParser()
>>> add_rules_option(p, "OFC")
>>> load_rules(p.parse_args([]).rules).name
'OFC'
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import os
import re
import shutil
import signal
import sys
import tempfile
import threading
from collections.abc import Callable, Iterator, Sequence
from typing import Any, NoReturn, TypeVar

from .. import rules as rules_mod
from ..errors import (
    GameError,
    OfcError,
    RulesError,
    count_problem,
    quote,
    quote_path,
    shown_path,
)
from ..files import (
    FIFO_WAIT,
    atomic_text,
    atomic_write,
    check_writable,
    open_input,
    output_key,
    temporary_file,
)
from ._columns import display_width, pad, padded
from ._stdin import StandardInputError, input_file
from ._values import (
    HANDS_WHY,
    MAX_HANDS,
    check_count,
    one_of,
    parse_stacks,
    split_list,
    typed_text,
)

__all__ = [
    "HANDS_WHY",
    "MAX_HANDS",
    "Parser",
    "SpooledList",
    "StandardInputError",
    "StopOnSigint",
    "add_bots_option",
    "add_json_option",
    "add_rules_option",
    "add_stacks_option",
    "atomic_text",
    "check_count",
    "check_folder",
    "check_output",
    "count_problem",
    "dash_refused",
    "display_width",
    "input_file",
    "is_rules_file",
    "load_rules",
    "name_option",
    "one_of",
    "output_problem",
    "pad",
    "padded",
    "parse_stacks",
    "plus_minus",
    "split_list",
    "typed_text",
    "write_json",
    "write_whole",
    "writing",
]

_T = TypeVar("_T")


def named(option: str, fn: Callable[..., _T], *args: Any, **kwargs: Any) -> _T:
    """``fn(*args, **kwargs)``, with an error message prefixed by the option (or
    argument) it came from, so messages name what the user typed."""
    try:
        return fn(*args, **kwargs)
    except OfcError as exc:
        raise type(exc)(f"{option}: {exc}") from None


_NEGATIVE_VALUE = re.compile(r"-(?:\.?\d|\s*[/|])")
"""A command-line word that is a value, not an option: ``-5``, ``-5,3``, ``-.5``; a
board whose front row is written ``-`` (``-/-/-``, ``-|9s 9h|As Ks``)."""


_ActionT = TypeVar("_ActionT", bound=argparse.Action)
"""An action's own class (:meth:`Parser._add_action` gives it back)."""


def _file_like(word: str) -> bool:
    """Whether ``word``, read as an unknown option, may be a file's name: it has a
    ``.`` or ``/`` past its dashes (``-x.jsonl``) or names a file there is; a
    mistyped option (``--json``, ``--verbose``) gets no hint to write it as a file.

    >>> _file_like("-x.jsonl"), _file_like("--json"), _file_like("-d/h")
    (True, False, True)
    """
    name = word.lstrip("-")
    return "." in name or "/" in name or os.path.exists(word)


class Parser(argparse.ArgumentParser):
    """An argument parser that keeps its subcommands' parsers (:attr:`commands`),
    its options by the keyword the Python API calls them (:attr:`options`:
    ``progress_every``: ``--progress-every``) and its positional arguments' names
    (:attr:`arguments`: ``report``: ``REPORT``), to name in an error what the user
    typed.

    >>> p = Parser(prog="demo")
    >>> _ = p.add_argument("--progress-every", type=int)
    >>> p.options["progress_every"]
    '--progress-every'
    >>> _ = p.add_argument("--stacks", nargs="+")
    >>> p.parse_args(["--stacks", "200", "-5,3"]).stacks
    ['200', '-5,3']
    """

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        self.commands: dict[str, Parser] = {}
        self.options: dict[str, str] = {}  # (before the parser adds its --help)
        self.arguments: dict[str, str] = {}  # positional ones: keyword -> REPORT
        self.took: dict[str, str] = {}  # OptionalPath's PATH, TakenWords' 2nd word
        self.words: list[str] = []  # the words parsed last (parse_known_args)
        # an option is written whole, as bench's: an abbreviation (--hand) that a new
        # option (--handicap) makes ambiguous would break the scripts that use it
        kwargs.setdefault("allow_abbrev", False)
        super().__init__(*args, **kwargs)
        # a word that starts with "-" and a digit is a value, as argparse takes "-5":
        # "--stacks -5,3" ("-5,3" was taken for an unknown option); no option of
        # ofc-fast's starts with a digit
        self._negative_number_matcher = _NEGATIVE_VALUE

    def add_subparsers(self, **kwargs: Any) -> Any:
        """The subparsers action; its parsers are :attr:`commands`."""
        action = super().add_subparsers(**kwargs)
        self.commands = action.choices
        return action

    def error(self, message: str) -> NoReturn:
        """The parser's error (usage, then the message; exit status 2); an argument
        missing after an option that takes an optional PATH (``eval --json CARDS``)
        says what that option took."""
        required = "the following arguments are required: "
        missing = message[len(required) :].split(", ")
        if message.startswith(required) and self.took and not missing[0].startswith("-"):
            option, value = next(iter(self.took.items()))
            what = self._option_string_actions[option].metavar  # (PATH, CHIPS)
            message += (
                f" ({option} took {value!r} for its {what}: put {option} after the "
                f"arguments, or write {option}={what})"
            )
        taken = [w for w in self.unknown_options() if _file_like(w)]
        if message.startswith(required) and taken and missing[-1][:1] != "-":
            word = quote(taken[0])[1:-1]  # (a file named -x.jsonl: replay -x.jsonl)
            message += (
                f" ({quote(taken[0])} was read as an option: write -- {word}, or "
                f"./{word} for a file so named)"
            )
        super().error(message)

    def _print_message(self, message: str, file: Any = None) -> None:
        """argparse's, but a write to standard output that fails (``--help >
        /dev/full`` unbuffered) raises its OSError, as any other output of a command
        does, rather than being dropped (exit status 0, nothing written)."""
        if file is sys.stdout and message:
            file.write(message)
        else:  # (standard error: the usage of an error, which exits 2 anyway)
            super()._print_message(message, file)

    def unknown_options(self) -> list[str]:
        """The words of the last parse before its ``--`` that look like an option
        which this parser does not have (an argument that starts with ``-``).

        >>> p = Parser(prog="demo")
        >>> _ = p.add_argument("--deal"); _ = p.parse_known_args(["-x", "--deal=1", "-5"])
        >>> p.unknown_options()
        ['-x']
        """
        end = self.words.index("--") if "--" in self.words else len(self.words)
        return [
            w
            for w in self.words[:end]
            if w[:1] == "-"
            and w != "-"
            and w.split("=", 1)[0] not in self._option_string_actions
            and not self._negative_number_matcher.match(w)
        ]

    def unrecognized(self, words: Sequence[str]) -> NoReturn:
        """The parser's error for the ``words`` it did not take, with the options that
        one of them begins (an abbreviation, refused: options are written whole).

        >>> p = Parser(prog="demo")
        >>> _ = p.add_argument("--hands")
        >>> p.unrecognized(["--hand=2"])
        Traceback (most recent call last):
        ...
        SystemExit: 2
        """
        meant = sorted({o for w in words for o in self.begun(w)})
        whole = f" (options are written whole: {', '.join(meant)})" if meant else ""
        self.error(f"unrecognized arguments: {' '.join(words)}{whole}")

    def begun(self, word: str) -> list[str]:
        """The options that ``word`` (``--hand``, ``--hand=2``) is an abbreviation of:
        those its name strictly begins (``--version=1`` begins none).

        >>> p = Parser(prog="demo")
        >>> _ = p.add_argument("--hands"); _ = p.add_argument("--handicap")
        >>> p.begun("--hand=2"), p.begun("--hands=2"), p.begun("-")
        (['--hands', '--handicap'], [], [])
        """
        head = word.split("=", 1)[0]
        if not head.startswith("--") or head == "--":
            return []
        return [o for o in self.options.values() if o.startswith(head) and o != head]

    def parse_known_args(self, args: Any = None, namespace: Any = None) -> Any:
        """argparse's, the words kept (:attr:`words`) for :class:`OptionalPath`; a
        ``--`` that no argument follows (``play --hands 1 --``) ends the options, as
        one before the arguments does, rather than being a word left over.

        >>> Parser(prog="demo").parse_known_args(["--"])
        (Namespace(), [])
        """
        self.words = list(sys.argv[1:] if args is None else args)
        namespace, extras = super().parse_known_args(args, namespace)
        if "--" in extras and extras.count("--") == self.words.count("--"):
            extras.remove("--")  # (argparse drops it only before an argument's words)
        return namespace, extras

    def _add_action(self, action: _ActionT) -> _ActionT:
        """An action; an option's keyword and longest name go to :attr:`options`,
        added by :meth:`add_argument` or by a mutually exclusive group (serve's
        ``--api-key``)."""
        action = super()._add_action(action)
        if action.option_strings:
            self.options[action.dest] = max(action.option_strings, key=len)
        else:  # (as errors call it: rules' name is NAME)
            self.arguments[action.dest] = str(action.metavar or action.dest).upper()
        return action


_API_KEYWORD = re.compile(r"(?:(--[a-z0-9-]+): )?([a-z][a-z0-9_]*)(?::| (?=must\b))")
"""An error message that starts with an API keyword (``hands must be ...``), or with
an option and then its keyword (``--seed: seed must be ...``)."""


def name_option(message: str, options: dict[str, str]) -> str:
    """``message`` of an error of the Python API that starts with its keyword
    (``hands must be at least 1``) with the option the user typed instead
    (``--hands: must be at least 1``), once where the option is named already
    (``--seed: seed must be ...``); any other message as it is.

    >>> name_option("progress_every must be at least 1, got 0",
    ...              {"progress_every": "--progress-every"})
    '--progress-every: must be at least 1, got 0'
    >>> name_option("--seed: seed must be 0 or more", {"seed": "--seed"})
    '--seed: must be 0 or more'
    """
    m = _API_KEYWORD.match(message)
    option = options.get(m.group(2)) if m is not None else None
    if m is None or option is None or m.group(1) not in (None, option):
        return message
    return f"{option}: {message[m.end() :].lstrip()}"


def is_rules_file(value: str) -> bool:
    """Whether ``--rules VALUE`` names a rules JSON file rather than a preset or a
    game id: it ends in ``.json`` or has a path separator (it looks like a path), or
    it is a file whose name is no preset and no game id (the preset wins: ``--rules
    ofc`` is the OFC preset, a file named ``ofc`` in the folder or not; ``./ofc`` is
    the file), or ``-``: standard input (:func:`input_file`).

    >>> is_rules_file("thursday.json"), is_rules_file("ofc-pineapple")
    (True, False)
    """
    if (
        value == "-"
        or value.lower().endswith(".json")
        or any(sep and sep in value for sep in (os.path.sep, os.path.altsep))
    ):
        return True
    if not os.path.isfile(value):
        return False
    try:
        rules_mod.get(value)  # (one table of preset names and game ids)
    except RulesError:
        return True
    return False


MAX_RULES_FILE_CHARS = 1 << 20
"""The longest rules JSON file ``--rules`` reads (``RuleSet.to_json()`` writes about
2,000 characters): a longer one, or a device with no end, is refused."""

RULES_FIFO_WAIT = FIFO_WAIT
"""Seconds ``--rules FIFO`` waits for a process to open the FIFO and write to it
(``mkfifo p; ofc-fast play --rules ./p & gen > p``): one that no process opened for
writing by then is refused as empty; one opened in time is read to its end (the other
files a command reads wait :data:`ofc_fast.files.FIFO_WAIT`, the same 10 s)."""


def load_rules(value: str, option: str = "--rules") -> rules_mod.RuleSet:
    """``--rules``: a preset name, or the path of a rules JSON file
    (:meth:`RuleSet.to_json`; UTF-8, with or without a byte-order mark; a FIFO waits
    up to :data:`RULES_FIFO_WAIT` seconds for a writer).  Errors name ``option``
    (``ofc-fast rules NAME``: ``NAME``).

    >>> load_rules("pineapple").name
    'PINEAPPLE'
    """
    if is_rules_file(value):
        text = _rules_text(value, option, RULES_FIFO_WAIT)
        return named(f"{option} {shown_path(value)}", rules_mod.RuleSet.from_json, text)
    return named(option, rules_mod.get, value)


def _rules_text(value: str, option: str, wait: float) -> str:
    """The text of the rules file ``value`` (a FIFO: once a writer wrote or came and
    went, or after ``wait`` seconds); RulesError naming ``option`` and the file for
    one that cannot be read, is not UTF-8, is too long or is empty."""
    try:
        source = input_file(value)  # (a path, or standard input: closed when read)
        opened = source if not isinstance(source, str) else open_input(value, wait)
        # (a FIFO that nothing writes to: empty after the wait; a BOM: as saved on
        # Windows)
        with io.TextIOWrapper(opened, encoding="utf-8-sig") as f:
            text = f.read(MAX_RULES_FILE_CHARS + 1)  # not all of /dev/zero
    except OfcError as exc:  # standard input closed, or a read of it failed
        raise RulesError(f"{option}: {exc}") from None
    except OSError as exc:
        raise RulesError(
            f"{option}: cannot read {quote_path(value)}: {exc.strerror}"
        ) from None
    except UnicodeDecodeError as exc:
        raise RulesError(
            f"{option}: cannot read {quote_path(value)}: not UTF-8 (byte "
            f"{exc.object[exc.start]:#04x} at offset {exc.start})"
        ) from None
    return _rules_checked(text, value, option)


def _rules_checked(text: str, value: str, option: str) -> str:
    """``text`` of the rules file ``value``; RulesError naming them if long or empty."""
    if len(text) > MAX_RULES_FILE_CHARS:
        raise RulesError(
            f"{option}: {quote_path(value)} is longer than {MAX_RULES_FILE_CHARS} characters: "
            "not a rules file"
        )
    if not text.strip():
        raise RulesError(
            f"{option}: {quote_path(value)} is empty (or a FIFO that nothing wrote to): "
            "no rules JSON in it"
        )
    return text


def check_output(option: str, path: str | None, standard_output: bool = False) -> None:
    """Refuse, before any work, an output file that cannot be written where it is
    asked for: a folder, an existing file that takes no writing (read-only, not the
    user's), or a new file in a folder that does not exist or takes no new file
    (``/proc``, a read-only one; a long run found that out only when it wrote its
    result, ``report`` named its deals file).  ``None`` passes, and ``-`` where the
    option writes ``standard_output`` (``--json``); elsewhere ``-`` is refused rather
    than written as a file named ``-``.  Errors name ``option``.

    >>> check_output("--json", "/no/such/folder/out.json")
    Traceback (most recent call last):
    ...
    ofc_fast.errors.OfcError: --json: cannot write '/no/such/folder/out.json': no folder '/no/such/folder'
    """  # noqa: E501 - the error message as the user sees it
    problem = output_problem(path, standard_output)
    if problem:
        raise OfcError(f"{option}: {problem}")


def output_problem(path: str | None, standard_output: bool = True) -> str | None:
    """Why the output file ``path`` cannot be written where it is asked for (see
    :func:`check_output`; ``-``: standard output, where the option writes there), or
    ``None``.

    >>> output_problem("/")
    "cannot write '/': it is a folder"
    >>> output_problem("-", standard_output=False)
    "'-' (standard output) is not written here: name a file (./- for one named -)"
    >>> output_problem("")
    'a file is needed, got an empty name'
    """
    if path == "-" and not standard_output:
        return dash_refused("file")
    if path is None or path == "-":
        return None
    if not path.strip():  # (an unset shell variable: no output at all, silently)
        return "a file is needed, got an empty name"
    if os.path.isdir(path):
        return f"cannot write {quote_path(path)}: it is a folder"
    folder = os.path.dirname(os.path.abspath(path))
    if not os.path.isdir(folder):
        return f"cannot write {quote_path(path)}: no folder {quote_path(folder)}"
    try:
        check_writable(path)  # (what the writer meets: a file, a folder's new file)
    except OSError as exc:
        return f"cannot write {quote_path(path)}: {exc.strerror}"
    return None


def check_folder(option: str, path: str, error: type[OfcError] = GameError) -> None:
    """Refuse, before any work, an output folder that names none (``selfplay --out``,
    ``python -m ofc_fast.learned.train --out``): an empty name (an unset shell
    variable: not the current folder), ``-`` (as every output option: not a folder
    named ``-``) or a file.  Errors name ``option``.

    >>> check_folder("--out", "-")
    Traceback (most recent call last):
    ...
    ofc_fast.errors.GameError: --out: '-' (standard output) is not written here: name a folder (./- for one named -)
    """  # noqa: E501 - the error message as the user sees it
    if not path.strip():
        raise error(f"{option}: a folder is needed, got an empty name")
    if path == "-":
        raise error(f"{option}: {dash_refused('folder')}")
    if os.path.exists(path) and not os.path.isdir(path):
        raise error(f"{option}: {quote_path(path)} is a file, not a folder")


def dash_refused(what: str) -> str:
    """Why ``-`` is refused where an option writes no standard output: it names
    ``what`` (a file, a folder) instead.

    >>> dash_refused("folder")
    "'-' (standard output) is not written here: name a folder (./- for one named -)"
    """
    return f"'-' (standard output) is not written here: name a {what} (./- for one named -)"


@contextlib.contextmanager
def writing(option: str, path: str, error: type[OfcError] = OfcError) -> Iterator[None]:
    """Open, write or close the output file ``path`` of ``option`` (``--json``,
    ``--history``) inside: an OSError (a disk full half-way through a match) is an
    ``error`` naming them, but for a BrokenPipeError of standard output's pipe
    (``--history /dev/stdout | head -1``), raised as it is.

    >>> with writing("--history", "/dev/full"):
    ...     raise OSError(28, "No space left on device")
    Traceback (most recent call last):
    ...
    ofc_fast.errors.OfcError: --history: cannot write '/dev/full': No space left on device
    """
    try:
        yield
    except OSError as exc:
        if isinstance(exc, BrokenPipeError) and is_standard_output(path):
            raise  # (/dev/stdout | head -1: its reader gone, run_command's quiet exit)
        raise error(f"{option}: cannot write {quote_path(path)}: {exc.strerror}") from None


def is_standard_output(path: str) -> bool:
    """Whether the output ``path`` is standard output's file, pipe or terminal
    (``/dev/stdout``, ``/dev/fd/1``, the file of ``> out.txt`` by its name).

    >>> is_standard_output("no-such-file.jsonl")
    False
    """
    try:
        out = sys.stdout.fileno()
    except (ValueError, AttributeError, io.UnsupportedOperation):
        return False  # (no file under standard output: a capture)
    key = output_key(path)
    return key is not None and key == output_key(out)


def write_whole(
    option: str, path: str, text: str, error: type[OfcError] = OfcError
) -> None:
    """The output file ``path`` of ``option`` (``--json PATH``) written whole or not at
    all (:func:`ofc_fast.files.atomic_write`: a disk full half-way leaves the file that
    was there), a failure an ``error`` naming them (:func:`writing`).

    >>> write_whole("--json", "/no/such/folder/out.json", "{}")
    Traceback (most recent call last):
    ...
    ofc_fast.errors.OfcError: --json: cannot write '/no/such/folder/out.json': No such file or directory
    """  # noqa: E501 - the error message as the user sees it
    with writing(option, path, error):
        atomic_write(path, text.encode("utf-8"))


class SpooledList:
    """A JSON list written item by item into a temporary file as its items come (a
    long ``play``'s deals), not kept in memory: :func:`emit_json` copies it out as
    the last value of its document, the bytes ``json.dumps`` writes for the list.

    >>> items = SpooledList()
    >>> items.append({"deal": 1}); items.append([2])
    >>> emit_json(argparse.Namespace(json="-"), {"n": 2}, ("items", items))
    {"n": 2, "items": [{"deal": 1}, [2]]}
    """

    def __init__(self, option: str = "--json") -> None:
        self.option = option  # the output it is for, named in an error
        with self._spooling():
            # closed by close() or at the end of a ``with`` block
            self._file = temporary_file()
        self.count = 0

    def append(self, item: Any) -> None:
        """Write ``item`` after the others."""
        with self._spooling():
            self._file.write((", " if self.count else "") + json.dumps(item))
        self.count += 1

    @contextlib.contextmanager
    def _spooling(self) -> Iterator[None]:
        """An OSError of the temporary file (no such folder, a full disk) is an
        OfcError naming :attr:`option` and the folder (``TMPDIR``)."""
        try:
            yield
        except OSError as exc:
            raise OfcError(
                f"{self.option}: cannot write a temporary file in "
                f"{tempfile.gettempdir()!r} (TMPDIR): {exc.strerror}"
            ) from None

    def write_to(self, out: Any) -> None:
        """Write the list (``[...]``) to the text file ``out``."""
        self._file.flush()
        self._file.seek(0)
        out.write("[")
        shutil.copyfileobj(self._file, out, 1 << 14)  # (16K characters at a time)
        out.write("]")

    def close(self) -> None:
        """Drop the temporary file.  An error of writing out what it still buffers
        (a full disk, a file size limit) is ignored: the items are not read again,
        and the error of the output they were for (``--json: cannot write ...``),
        raised first, is the one to report."""
        with contextlib.suppress(OSError):  # (the file is closed all the same)
            self._file.close()

    def __enter__(self) -> SpooledList:
        return self

    def __exit__(self, *exc: object) -> None:
        """The temporary file dropped however the block ends (a match that raised)."""
        self.close()


def emit_json(
    args: argparse.Namespace,
    doc: Any,
    last: tuple[str, SpooledList] | None = None,
) -> None:
    """``--json``: alone on standard output (no PATH), or into the file PATH.
    ``last``: a key and its :class:`SpooledList`, written after the keys of the
    dict ``doc`` as ``json.dumps({**doc, key: list})`` would write them."""
    if args.json == "-":
        write_json(sys.stdout, doc, last)
        sys.stdout.write("\n")
        return
    with writing("--json", args.json), atomic_text(args.json) as text:
        write_json(text, doc, last)


def write_json(out: Any, doc: Any, last: tuple[str, SpooledList] | None = None) -> None:
    """Write ``doc`` as JSON to the text file ``out`` (``last``: as
    :func:`emit_json`'s).

    >>> import io
    >>> out = io.StringIO()
    >>> write_json(out, {"a": 1}, ("b", SpooledList()))
    >>> out.getvalue()
    '{"a": 1, "b": []}'
    """
    text = json.dumps(doc)
    if last is None:
        out.write(text)
        return
    key, items = last
    out.write(text[:-1] + (", " if doc else "") + json.dumps(key) + ": ")
    items.write_to(out)
    out.write("}")


def json_only(args: argparse.Namespace) -> bool:
    """True when the JSON goes to standard output: nothing else is printed."""
    return getattr(args, "json", None) == "-"


def plus_minus() -> str:
    r"""The sign of a confidence interval in a table: ``±``, or ``+/-`` where standard
    output's encoding lacks it (a C locale, ``PYTHONIOENCODING=ascii``: not ``\xb1``).

    >>> plus_minus() in ("±", "+/-")
    True
    """
    try:
        "±".encode(getattr(sys.stdout, "encoding", None) or "ascii")
    except (UnicodeEncodeError, LookupError):
        return "+/-"
    return "±"


RULES_HELP = (
    "a preset name (see `ofc-fast rules`), an arena game id (ofc-pineapple, ofc-27, "
    "...) or the path of a rules JSON file (-: standard input)"
)

STACKS_HELP = (
    "chips per seat for table stakes (R-STAKES-*): 200 for every seat, or "
    "200,200,150 one per seat"
)


class OptionalPath(argparse.Action):
    """An option with an optional PATH (``--json [PATH]``): the value, which a
    :class:`Parser` keeps (:attr:`Parser.took`) to name in the error of an argument
    that the option took for its PATH."""

    def __call__(
        self,
        parser: argparse.ArgumentParser,
        namespace: argparse.Namespace,
        values: Any,
        option_string: str | None = None,
    ) -> None:
        setattr(namespace, self.dest, values)
        if (
            isinstance(parser, Parser)
            and option_string
            and values != self.const
            and f"{option_string}={values}" not in parser.words  # (--json=PATH: meant)
        ):
            parser.took[option_string] = values


def add_json_option(parser: argparse.ArgumentParser, help: str | None = None) -> None:
    """The same ``--json [PATH]`` in every subcommand (read by :func:`emit_json`).

    >>> p = Parser(prog="demo")
    >>> add_json_option(p)
    >>> p.parse_args(["--json"]).json, p.parse_args([]).json
    ('-', None)
    """
    parser.add_argument(
        "--json",
        action=OptionalPath,
        nargs="?",
        const="-",
        default=None,
        metavar="PATH",
        help=help
        or "the result as JSON: written to PATH, or alone on standard output without PATH",
    )


def add_rules_option(
    parser: argparse.ArgumentParser, default: str, help: str | None = None
) -> None:
    """``--rules`` (read by :func:`load_rules`), ``default`` when not given.

    >>> p = Parser(prog="demo")
    >>> add_rules_option(p, "PINEAPPLE")
    >>> load_rules(p.parse_args([]).rules).name
    'PINEAPPLE'
    """
    parser.add_argument(
        "--rules", default=default, help=help or f"{RULES_HELP} (default {default})"
    )


def add_stacks_option(parser: argparse.ArgumentParser) -> None:
    """``--stacks CHIPS...`` (read by :func:`parse_stacks`).

    >>> p = Parser(prog="demo")
    >>> add_stacks_option(p)
    >>> p.parse_args(["--stacks", "200", "150"]).stacks
    ['200', '150']
    """
    parser.add_argument(
        "--stacks", action=TakenWords, nargs="+", metavar="CHIPS", help=STACKS_HELP
    )


class TakenWords(argparse.Action):
    """``--stacks CHIPS...``: its first word that is no chip count, kept for the error
    of the arguments it took (:attr:`Parser.took`; ``score --stacks 200 B B``: a B)."""

    def __call__(
        self, parser: Any, namespace: Any, values: Any, option: Any = None
    ) -> None:
        setattr(namespace, self.dest, values)
        words = [v for v in values[1:] if not set(v) <= set("0123456789,")]
        if isinstance(parser, Parser) and option and words:
            parser.took[option] = words[0]


def add_bots_option(parser: argparse.ArgumentParser, names: Sequence[str]) -> None:
    """``--bots``: a comma-separated bot per seat (``names``: the registry's).

    >>> p = Parser(prog="demo")
    >>> add_bots_option(p, ["random", "heuristic"])
    >>> p.parse_args(["--bots", "random,heuristic"]).bots, p.parse_args([]).bots
    ('random,heuristic', 'heuristic')
    """
    from ..bots.registry import SPECS

    parser.add_argument(
        "--bots",
        default="heuristic",
        help="comma-separated bot per seat, or one for all"
        + (f": {', '.join(names)}" if names else "")
        + f"; or a spec: {SPECS} (default heuristic)",
    )


class StopOnSigint:
    """While active (main thread only), the first Ctrl-C only asks to stop (so the
    deal in progress finishes and the records stay consistent; ``on_stop``, when
    given, is called to pass the request on: :meth:`ofc_fast.arena.Arena.stop`); a
    second one raises KeyboardInterrupt as usual.

    >>> with StopOnSigint(on_stop=lambda: print("stopping")) as stop:
    ...     stop.requested
    False
    >>> stop.requested  # no Ctrl-C came; the previous handler is back
    False
    """

    def __init__(self, on_stop: Callable[[], None] | None = None) -> None:
        self.requested = False
        self._on_stop = on_stop
        self._previous: Any = None

    def _handle(self, signum: int, frame: Any) -> None:
        if self.requested:
            raise KeyboardInterrupt
        self.requested = True
        if self._on_stop is not None:
            self._on_stop()

    def __enter__(self) -> StopOnSigint:
        if threading.current_thread() is threading.main_thread() and (
            signal.getsignal(signal.SIGINT) is not signal.SIG_IGN  # (nohup, a shell's &)
        ):
            self._previous = signal.signal(signal.SIGINT, self._handle)
        return self

    def __exit__(self, *exc: object) -> None:
        if self._previous is not None:
            signal.signal(signal.SIGINT, self._previous)
