"""Code blocks of the project's Markdown pages (README.md, docs/*.md), for the tests
that run them."""

from __future__ import annotations

import ast
import json
import re
import shlex


def fenced_blocks(text: str, lang: str) -> list[str]:
    r"""The fenced ```lang blocks of a Markdown text, in order.

    >>> fenced_blocks("a\n```py\nx = 1\n```\n```c\nint y;\n```", "py")
    ['x = 1']
    """
    blocks: list[str] = []
    inside, current = False, []
    for line in text.splitlines():
        if line.strip() == "```" + lang:
            inside, current = True, []
        elif inside and line.strip() == "```":
            inside = False
            blocks.append("\n".join(current))
        elif inside:
            current.append(line)
    return blocks


def run_block(block: str, filename: str) -> None:
    r"""Run a ```python block statement by statement as the main script; an expression
    statement whose line ends in a ``# literal`` comment must give that value (a
    comment in words is no claim).

    >>> run_block("x = 2\nx + 1  # 3", "page.md")
    >>> run_block("x = 2\nx + 1  # 4", "page.md")
    Traceback (most recent call last):
    ...
    AssertionError: ('page.md', 'x + 1', 3, 4)
    """
    namespace: dict[str, object] = {"__name__": "__main__"}
    lines = block.splitlines()
    for node in ast.parse(block).body:
        last = lines[(node.end_lineno or node.lineno) - 1]
        claim = re.search(r"#\s*([^:#]+)", last)
        if isinstance(node, ast.Expr) and claim:
            value = eval(compile(ast.Expression(node.value), filename, "eval"), namespace)
            try:
                expected = ast.literal_eval(claim.group(1).strip())
            except (ValueError, SyntaxError):
                continue  # a comment in words
            assert value == expected, (filename, ast.unparse(node), value, expected)
        else:
            exec(compile(ast.Module([node], []), filename, "exec"), namespace)


def quoted_commands(
    text: str, command: re.Pattern[str]
) -> list[tuple[str, list[str], bool]]:
    r"""Each run of a command that a Markdown text quotes, in a code span (which may
    wrap) or a line of a code block: (the command, group 1 of ``command``; its
    arguments, up to a comment, a pipe or the next command; whether a code block holds
    it, where a line is a whole command rather than a fragment of prose).

    >>> run = re.compile(r"\b(tool)\b")
    >>> quoted_commands("Run `tool --n 2 | head`.\n```sh\ntool -v  # verbose\n```", run)
    [('tool', ['-v'], True), ('tool', ['--n', '2'], False)]
    """
    blocks = re.findall(r"^```[^\n]*\n(.*?)^```", text, re.S | re.M)
    spans = [(line, True) for b in blocks for line in b.replace("\\\n", " ").splitlines()]
    prose = re.sub(r"^```[^\n]*\n.*?^```", "", text, flags=re.S | re.M)
    spans += [(span, False) for span in re.findall(r"``?([^`]+)``?", prose)]
    commands = []
    for span, in_block in spans:
        span = " ".join(span.split())
        for m in command.finditer(span):
            tail = re.split(r"\s(?:#|&&|\||>|;)(?:\s|$)", " " + span[m.end() :])[0]
            words = shlex.split(tail)
            ends = [i for i, w in enumerate(words) if command.search(w) or w == "python"]
            commands.append((m.group(1), words[: ends[0]] if ends else words, in_block))
    return commands


def curl_requests(text: str) -> list[tuple[str, str, dict[str, str], object, str | None]]:
    r"""Each ``curl`` of a Markdown text's ```bash blocks, as the request it sends to
    ``localhost:8000``: (method, path, headers, JSON body or None, the answer the page
    shows or None).  A command goes on over the lines its quotes span; a ``# comment``
    after it is no part of it.  The answer shown is a comment that starts with ``{``
    on the lines after the command (as many as its brackets span), or a ```json block
    right after the ```bash block, for the block's last command.

    >>> block = "```bash\ncurl -s localhost:8000/v1/x -H 'K: 1' -d '{\"a\":\n 1}'  # one\n```"
    >>> curl_requests(block)
    [('POST', '/v1/x', {'K': '1'}, {'a': 1}, None)]
    >>> curl_requests("```bash\ncurl -s -X POST localhost:8000/v1/y\n# {\"b\":\n#  2}\n```")
    [('POST', '/v1/y', {}, None, '{"b": 2}')]
    >>> curl_requests("```bash\ncurl -s localhost:8000/v1/z\n```\n```json\n[1]\n```")
    [('GET', '/v1/z', {}, None, '[1]')]
    """
    requests: list[tuple[str, str, dict[str, str], object, str | None]] = []
    blocks = r"^```bash\n(.*?)^```[ \t]*$(?:\s*^```json\n(.*?)^```)?"
    for block, answer in re.findall(blocks, text, re.S | re.M):
        pending, shown, first = "", "", len(requests)  # (this block's first)
        for line in block.splitlines():
            comment = line.strip()[1:].strip() if line.strip().startswith("#") else ""
            after = len(requests) > first and not pending  # a command of this block
            if shown or (after and comment.startswith("{")):
                shown += " " + comment  # the answer shown, until its brackets close
                if _open_brackets(shown) == 0:
                    requests[-1] = (*requests[-1][:4], shown.strip())
                    shown = ""
                continue
            if not (pending or line.startswith("curl ")):
                continue
            pending += line + "\n"
            try:
                words = shlex.split(pending, comments=True)
            except ValueError:  # a quote still open: the command goes on
                continue
            pending = ""
            url = next(w for w in words if w.startswith("localhost:8000"))
            options = dict(zip(words, words[1:]))
            headers = dict(
                tuple(v.strip() for v in h.split(":", 1))
                for o, h in zip(words, words[1:])
                if o == "-H"
            )
            body = json.loads(options["-d"]) if "-d" in options else None
            method = options.get("-X", "POST" if body is not None else "GET")
            requests.append((method, url[len("localhost:8000") :], headers, body, None))
        if answer and len(requests) > first:
            requests[-1] = (*requests[-1][:4], " ".join(answer.split()))
    return requests


def _open_brackets(text: str) -> int:
    """How many brackets of ``text`` are open, its strings aside."""
    bare = re.sub(r'"(?:[^"\\]|\\.)*"', "", text)
    return sum(bare.count(c) for c in "{[") - sum(bare.count(c) for c in "}]")


MORE = "\0more"  # the "..." that ends an object or a list the page shows in part
ANY = "\0any"  # a "{...}" or "[...]" the page shows for any value


def check_shown_answer(shown: str, answer: object, *, values: bool = True) -> None:
    r"""The answer a page shows (JSON, where ``{...}`` or ``[...]`` stands for any value,
    a last item ``...`` for more items or keys, and ``...`` in a string for any text)
    is ``answer``: the same keys (those shown, at least those with ``...``), list
    lengths and values; with ``values`` False, or under a key ``seconds`` (a time),
    values of the same kinds.

    >>> check_shown_answer('{"a": [1, ...], "b": "x...z", "c": {...}, ...}',
    ...                    {"a": [1, 2], "b": "xyz", "c": 3, "d": 4})
    >>> check_shown_answer('{"a": 1}', {"a": 2, "b": 3})
    Traceback (most recent call last):
    ...
    AssertionError: ('answer', 'keys not shown', ['b'])
    >>> check_shown_answer('{"a": 1}', {"a": 2})
    Traceback (most recent call last):
    ...
    AssertionError: ('answer.a', 2, 'shown as', 1)
    >>> check_shown_answer('{"a": 1}', {"a": 2}, values=False)
    """
    any_value, more = json.dumps(ANY), json.dumps(MORE)
    text = re.sub(r"\{\.\.\.[^{}]*\}|\[\.\.\.\]", lambda _: any_value, shown)
    text = re.sub(r",\s*\.\.\.\s*(?=\})", lambda _: f", {more}: 0", text)
    text = re.sub(r",\s*\.\.\.\s*(?=\])", lambda _: f", {more}", text)
    _check_shown(json.loads(text), answer, values, "answer")


def _check_shown(shown: object, got: object, values: bool, where: str) -> None:
    """:func:`check_shown_answer` at ``where``, a path in the answer."""
    if shown == ANY:
        return
    if isinstance(shown, dict):
        assert isinstance(got, dict), (where, got)
        keys = set(shown) - {MORE}
        assert not keys - set(got), (where, "keys not answered", sorted(keys - set(got)))
        unshown = sorted(set(got) - keys)
        assert MORE in shown or not unshown, (where, "keys not shown", unshown)
        for key in keys:
            inner = values and key != "seconds"
            _check_shown(shown[key], got[key], inner, f"{where}.{key}")
    elif isinstance(shown, list):
        items = [x for x in shown if x != MORE]
        assert isinstance(got, list), (where, got)
        many = len(got) >= len(items) if MORE in shown else len(got) == len(items)
        assert many, (where, got)
        for i, (s, g) in enumerate(zip(items, got)):
            _check_shown(s, g, values, f"{where}[{i}]")
    elif isinstance(shown, str) and "..." in shown:
        pattern = ".*".join(map(re.escape, shown.split("...")))
        assert isinstance(got, str) and re.fullmatch(pattern, got, re.S), (where, got)
    else:
        same = _kind(shown) == _kind(got) and (shown == got or not values)
        assert same, (where, got, "shown as", shown)


def _kind(value: object) -> str:
    """A JSON value's kind: ``number`` for an int or a float alike."""
    if value is None or isinstance(value, bool):
        return "null" if value is None else "bool"
    return "number" if isinstance(value, (int, float)) else type(value).__name__
