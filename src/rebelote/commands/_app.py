"""The ``rebelote`` command line's Typer application: JSON lines in, JSON lines out
(docs/interfaces.md). The program starts in :mod:`rebelote.cli`, which imports this module
(Typer, pydantic and every command) only when the command needs it.

``score`` and ``legal`` live here; the other commands are in the modules of
:mod:`rebelote.commands` listed in :data:`COMMAND_MODULES` (each named after the commands it
holds, each defining ``register(app)``).
"""

from __future__ import annotations

import importlib
from typing import Annotated, Final

import typer

from rebelote import __version__
from rebelote.commands._lines import answer_lines, closing_input
from rebelote.jsonio import answer_legal, answer_score

app = typer.Typer(
    name="rebelote",
    help="Belote, Coinche and Contrée: exact scoring, legal cards, deals, bots, a point counter "
         "and a play table.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    # plain help (click's): each paragraph wrapped as one sentence to the terminal's width
    # (Rich kept the docstrings' line breaks mid-sentence) and no "<bool>" after a flag
    rich_markup_mode=None,
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
    """Belote, Coinche and Contrée: exact scoring, legal cards, deals, bots, a point counter
    and a play table."""


@app.command()
def score(
    file: Annotated[str | None, typer.Argument(help=INPUT_HELP)] = None,
    explain: Annotated[bool, typer.Option("--explain", help="Add the result card's lines.")]
    = False,
) -> None:
    """Score deal summaries and games: one JSON answer per line (docs/interfaces.md)."""
    with closing_input(file) as stream:
        code = answer_lines(stream, lambda obj: answer_score(obj, explain))
    raise typer.Exit(code)


@app.command()
def legal(file: Annotated[str | None, typer.Argument(help=INPUT_HELP)] = None) -> None:
    """The cards a player may play; a full trick's winner and points."""
    with closing_input(file) as stream:
        code = answer_lines(stream, answer_legal)
    raise typer.Exit(code)


#: The command modules of :mod:`rebelote.commands` and the commands each one registers, listed:
#: a module that fails to import is an error of the program, not a missing command.
COMMAND_MODULES: Final = {
    "arena": ("arena",),
    "backup": ("backup", "restore"),
    "concours": ("tirage",),
    "explain": ("explain",),
    "play_verify": ("play", "prune-tables", "verify"),
    "problems": ("problems",),
    "replay_deal": ("deal", "replay"),
    "serve": ("serve",),
    "sheet": ("export", "import", "points-table", "sheet"),
    "solve": ("solve",),
}


def _register_commands() -> None:
    for name in COMMAND_MODULES:
        importlib.import_module(f"rebelote.commands.{name}").register(app)


_register_commands()
