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


def curl_requests(text: str) -> list[tuple[str, str, dict[str, str], object]]:
    r"""Each ``curl`` of a Markdown text's ```bash blocks, as the request it sends to
    ``localhost:8000``: (method, path, headers, JSON body or None).  A command goes on
    over the lines its quotes span; a ``# comment`` after it is no part of it.

    >>> block = "```bash\ncurl -s localhost:8000/v1/x -H 'K: 1' -d '{\"a\":\n 1}'  # one\n```"
    >>> curl_requests(block)
    [('POST', '/v1/x', {'K': '1'}, {'a': 1})]
    >>> curl_requests("```bash\ncurl -s -X POST localhost:8000/v1/y\n```")
    [('POST', '/v1/y', {}, None)]
    """
    requests = []
    for block in fenced_blocks(text, "bash"):
        pending = ""
        for line in block.splitlines():
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
            requests.append((method, url[len("localhost:8000") :], headers, body))
    return requests
