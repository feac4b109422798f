"""JSON lines in, JSON lines out: the input and the answering loop every JSON command shares."""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, TextIO

import typer

from rebelote.errors import InputError, RebeloteError

#: Errors whose message is the answer: they name the field or the move and the rule.
STATED_ERRORS = (RebeloteError,)


def open_input(path: str | None) -> TextIO:
    """The input file, or standard input for ``None`` and ``-``; exit 2 if it cannot be read."""
    if path is None or path == "-":
        return sys.stdin
    try:
        return Path(path).open(encoding="utf-8")
    except OSError as e:
        typer.echo(f"rebelote: cannot read {path}: {e.strerror}", err=True)
        raise typer.Exit(2) from None


def json_lines(stream: TextIO) -> Iterator[tuple[int, Any]]:
    """(line number, parsed object or the InputError for that line) for each non-blank line."""
    for n, line in enumerate(stream, start=1):
        if not line.strip():
            continue
        try:
            yield n, json.loads(line)
        except json.JSONDecodeError as e:
            yield n, InputError(f"line {n}", f"not JSON: {e.msg} at column {e.colno}")
        except RecursionError:
            yield n, InputError(f"line {n}", "not JSON that can be read: nested too deeply")
        except ValueError as e:
            yield n, InputError(f"line {n}", f"not JSON: {e}")


def answer_lines(stream: TextIO, answer: Callable[[Any], dict[str, Any]],
                 out: TextIO | None = None, what: str = "line") -> int:
    """Answer each JSON line in order, one JSON line each; 0 if every line was answered
    without error, else 1. Never a traceback: an unforeseen error is that line's error."""
    out = out or sys.stdout
    failed = False
    for _, obj in json_lines(stream):
        try:
            if isinstance(obj, InputError):
                raise obj
            result = answer(obj)
        except STATED_ERRORS as e:
            result, failed = {"error": str(e)}, True
        except (ValueError, TypeError, KeyError, AttributeError, RecursionError) as e:
            result, failed = {"error": f"cannot answer this {what}: {e}"}, True
        out.write(json.dumps(result, ensure_ascii=False) + "\n")
        out.flush()
    return 1 if failed else 0


class closing_input:
    """The input of :func:`open_input`, closed afterwards unless it is standard input."""

    def __init__(self, path: str | None) -> None:
        self.stream = open_input(path)

    def __enter__(self) -> TextIO:
        return self.stream

    def __exit__(self, *exc: object) -> None:
        if self.stream is not sys.stdin:
            self.stream.close()
