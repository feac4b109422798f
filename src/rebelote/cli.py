"""The ``rebelote`` command line (Typer): JSON lines in, JSON lines out (INTERFACES.md).

``score`` and ``legal`` live here; other commands are plugins in :mod:`rebelote.commands`, each
module defining ``register(app)``.
"""

from __future__ import annotations

import importlib
import json
import pkgutil
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Annotated, Any, TextIO

import typer

from rebelote import __version__
from rebelote.errors import InputError
from rebelote.jsonio import answer_legal, answer_score

app = typer.Typer(
    name="rebelote",
    help="Belote and Coinche: exact scoring, legal cards, deals, a point counter and a table.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)

INPUT_HELP = "A file of JSON objects, one per line; '-' or nothing for standard input."


def _version(value: bool) -> None:
    if value:
        typer.echo(f"rebelote {__version__}")
        raise typer.Exit()


@app.callback()
def _root(
    version: Annotated[bool, typer.Option("--version", callback=_version, is_eager=True,
                                          help="Print the version and exit.")] = False,
) -> None:
    """Belote and Coinche: exact scoring, legal cards, deals, a point counter and a table."""


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


def answer_lines(stream: TextIO, answer: Callable[[Any], dict[str, Any]]) -> int:
    """Answer each JSON line in order; 0 if every line was answered without error, else 1."""
    failed = False
    for _, obj in json_lines(stream):
        try:
            if isinstance(obj, InputError):
                raise obj
            out = answer(obj)
        except InputError as e:
            out, failed = {"error": str(e)}, True
        except (ValueError, TypeError, KeyError) as e:  # never a traceback
            out, failed = {"error": f"cannot answer this line: {e}"}, True
        sys.stdout.write(json.dumps(out, ensure_ascii=False) + "\n")
        sys.stdout.flush()
    return 1 if failed else 0


@app.command()
def score(
    file: Annotated[str | None, typer.Argument(help=INPUT_HELP)] = None,
    explain: Annotated[bool, typer.Option("--explain", help="Add the result card's lines.")]
    = False,
) -> None:
    """Score deal summaries and games: one JSON answer per line (INTERFACES.md)."""
    with _maybe_close(open_input(file)) as stream:
        code = answer_lines(stream, lambda obj: answer_score(obj, explain))
    raise typer.Exit(code)


@app.command()
def legal(file: Annotated[str | None, typer.Argument(help=INPUT_HELP)] = None) -> None:
    """The cards a player may play; a full trick's winner and points."""
    with _maybe_close(open_input(file)) as stream:
        code = answer_lines(stream, answer_legal)
    raise typer.Exit(code)


class _maybe_close:  # a small context manager named like a function
    def __init__(self, stream: TextIO) -> None:
        self.stream = stream

    def __enter__(self) -> TextIO:
        return self.stream

    def __exit__(self, *exc: object) -> None:
        if self.stream is not sys.stdin:
            self.stream.close()


def _load_plugins() -> None:
    import rebelote.commands as commands

    for info in sorted(pkgutil.iter_modules(commands.__path__), key=lambda m: m.name):
        try:
            module = importlib.import_module(f"rebelote.commands.{info.name}")
        except Exception as e:  # one broken plugin must not take the other commands down
            print(f"rebelote: the {info.name} commands are unavailable: {e}", file=sys.stderr)
            continue
        register = getattr(module, "register", None)
        if callable(register):
            register(app)


_load_plugins()


def main() -> None:
    """The console entry point."""
    try:
        app()
    except KeyboardInterrupt:
        sys.exit(130)


if __name__ == "__main__":
    main()
