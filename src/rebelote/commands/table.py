"""``rebelote verify`` (a table's deal records: commitment, shuffle, moves) and
``rebelote play`` (the table in the terminal)."""

from __future__ import annotations

import sys
from typing import Annotated

import typer

from rebelote.commands._lines import answer_lines, closing_input


def register(app: typer.Typer) -> None:
    """Add ``verify`` to the command line."""

    @app.command()
    def verify(
        file: Annotated[str, typer.Argument(help="A table's deal records (downloaded from "
                                                 "/api/tables/ID/deals/N.json), one per "
                                                 "line; '-' for standard input.")] = "-",
    ) -> None:
        """Check a table's deal records: the commitment is the SHA-256 of the revealed seed and
        salt, the seed's shuffle dealt the recorded hands, every move is legal and the result
        is right. One JSON answer a line: {"verified": true, ...} or {"error": ...}."""
        from rebelote.table.shuffle import verify_record

        with closing_input(file) as stream:
            code = answer_lines(stream, verify_record, sys.stdout, what="record")
        raise typer.Exit(code)
