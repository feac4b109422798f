"""``rebelote solve``: double-dummy values of deal positions (docs/solver.md)."""

from __future__ import annotations

from typing import Annotated

import typer

from rebelote.commands._lines import answer_lines, closing_input
from rebelote.solver.answer import answer_solve


def register(app: typer.Typer) -> None:
    """Add ``solve`` to the command line."""

    @app.command()
    def solve(
        file: Annotated[str | None, typer.Argument(
            help="Positions, one JSON object a line; '-' or nothing for standard input.")]
        = None,
    ) -> None:
        """Each legal card's value with every hand visible: the final card points of the
        player-to-move's team under perfect play (one JSON answer a line)."""
        with closing_input(file) as stream:
            code = answer_lines(stream, answer_solve, what="position")
        raise typer.Exit(code)
