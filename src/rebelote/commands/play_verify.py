"""``rebelote verify`` (a table's deal records: commitment, shuffle, moves),
``rebelote play`` (the table in the terminal) and ``rebelote prune-tables`` (the store's
housekeeping)."""

from __future__ import annotations

import sys
from typing import Annotated

import typer

from rebelote.commands._lines import answer_lines, closing_input


def register(app: typer.Typer) -> None:
    """Add ``verify``, ``play`` and ``prune-tables`` to the command line."""

    @app.command("prune-tables")
    def prune_tables(
        days: Annotated[int, typer.Option(help="Delete the tables nobody played for this "
                                               "many days.", min=1)] = 30,
        db: Annotated[str | None, typer.Option(help="The database URL (default: "
                                                    "$REBELOTE_DB, else the user's SQLite "
                                                    "file, as rebelote serve).")] = None,
        dry_run: Annotated[bool, typer.Option("--dry-run", help="Count them, delete "
                                                                "none.")] = False,
    ) -> None:
        """Delete the play tables nobody played for DAYS days (finished or not) from the
        server's store: a table is kept until then, whatever happens to its players. The
        counter's games are not touched."""
        from datetime import UTC, datetime, timedelta

        from rebelote.store import default_db_url, make_engine, migrate
        from rebelote.store.play_tables import TableStore

        engine = make_engine(db or default_db_url())
        migrate(engine)
        before = datetime.now(UTC) - timedelta(days=days)
        count = TableStore(engine).prune(before, dry_run=dry_run)
        engine.dispose()
        verb = "would delete" if dry_run else "deleted"
        typer.echo(f"rebelote prune-tables: {verb} {count} table{'s' * (count != 1)} not "
                   f"played since {before:%Y-%m-%d %H:%M} UTC")

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

    @app.command()
    def play(
        game: Annotated[str, typer.Option(help="belote, coinche or contree.")] = "coinche",
        rules: Annotated[str, typer.Option(help="official or house (contree: ffb, "
                                                "cannes-2016...).")] = "official",
        target: Annotated[int, typer.Option(help="The points the game is played to.")] = 1000,
        bots: Annotated[str | None, typer.Option(
            help="The bots' level for N, E and W (debutant, club, fort, expert) or a "
                 "registry spec (heuristic, pimc:fast, engine:...), or three of them N,E,W "
                 "(default: fort, as the web table).")] = None,
        seed: Annotated[int | None, typer.Option(help="Deal the same game again.")] = None,
        deals: Annotated[int, typer.Option(help="Stop after this many deals (0: the whole "
                                                "game).", min=0)] = 0,
        pace: Annotated[float, typer.Option(help="Seconds between two bots' moves.",
                                            min=0)] = 0.0,
        join: Annotated[str | None, typer.Option(
            help="Join a room instead: its code (with --server; a bot's seat, yours from the "
                 "next deal) or your invitation link (a seat kept for you).")] = None,
        server: Annotated[str, typer.Option(help="The server of the room to join.")]
        = "http://127.0.0.1:8000",
        name: Annotated[str | None, typer.Option(help="Your name in a room.")] = None,
        lang: Annotated[str, typer.Option(help="fr (the default, as the pages) or en.")]
        = "fr",
        records: Annotated[str | None, typer.Option(
            help="The file each finished deal's record is added to, for rebelote verify "
                 "(default: a new file in the user's data folder, or in $REBELOTE_RECORDS; "
                 "'-': none).")] = None,
    ) -> None:
        """Play at the table in the terminal: you sit South; type a number or an action."""
        from pathlib import Path

        from rich.console import Console

        from rebelote.bots import DEFAULT_LEVEL, is_engine_spec, make_bot
        from rebelote.commands._deal import seat_specs
        from rebelote.errors import IllegalActionError, RulesError
        from rebelote.rules import Rules
        from rebelote.scoring import ResultLine
        from rebelote.summary import DealSummary
        from rebelote.table.terminal import LocalTable, RemoteTable, default_records
        from rebelote.table.terminal import play as play_table
        from rebelote.web import i18n

        if lang not in ("fr", "en"):
            typer.echo(f"rebelote play: --lang: {lang!r}: fr or en", err=True)
            raise typer.Exit(2)
        kept = None if records == "-" else Path(records) if records else default_records()

        teams = i18n.said_teams(("Nous", "Eux"), lang)  # "notre équipe marque", not "Nous marque"

        def said(line: ResultLine, summary: DealSummary) -> str:  # the pages' sentence
            return i18n.sentence(i18n.line_text(line, lang, summary, teams))

        console = Console(highlight=False)
        if join:
            try:
                remote = RemoteTable(server, join, name)
            except (IllegalActionError, OSError) as e:
                typer.echo(f"rebelote play: --join: {e}", err=True)
                raise typer.Exit(2) from None
            raise typer.Exit(play_table(remote, console, deals=deals, lang=lang,
                                        records=kept))
        try:
            chosen = Rules.preset(rules, game)

            # as rebelote deal --bots reads them: a level for people, else a registry spec
            names = seat_specs(bots or DEFAULT_LEVEL, "N,E,W")
            for spec in names:
                if not is_engine_spec(spec):  # a known bot at a level it does not have
                    try:
                        make_bot(spec)
                    except ValueError as e:
                        raise ValueError(f"--bots: {e}") from None
            if target <= 0:
                raise ValueError("--target: must be a positive number of points")
        except (ValueError, RulesError) as e:
            typer.echo(f"rebelote play: {e}", err=True)
            raise typer.Exit(2) from None
        local = LocalTable(chosen, target, names, seed, pace)
        raise typer.Exit(play_table(local, console, deals=deals,
                                    table_of=lambda: local.table, lang=lang, records=kept,
                                    line_words=said if lang == "fr" else None))
