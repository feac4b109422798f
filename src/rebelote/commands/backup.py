"""``rebelote backup`` and ``rebelote restore``: a copy of the store taken while the server
runs, and that copy put into a new database (docs/ops-backups.md).

The copy is one SQLite file whatever the database (:mod:`rebelote.store.backup`): SQLite's
online backup, or PostgreSQL's tables read in one repeatable-read transaction.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

DB_HELP = ("SQLAlchemy URL of the database (default: the SQLite file `rebelote serve` uses, or "
           "$REBELOTE_DB).")


def register(app: typer.Typer) -> None:
    """Add ``backup`` and ``restore`` to the command line."""

    @app.command()
    def backup(
        file: Annotated[Path, typer.Argument(
            help="The backup file to write (an SQLite file), new unless --force.")],
        db: Annotated[str | None, typer.Option(help=DB_HELP)] = None,
        force: Annotated[bool, typer.Option("--force", help="Replace FILE if it exists.")]
        = False,
    ) -> None:
        """Copy the games, tables and concours into FILE while the server runs: the copy is
        the database at one moment."""
        from rebelote.store import backup as store_backup
        from rebelote.store.db import default_db_url

        url = db or default_db_url()
        try:
            copied = store_backup.backup(url, file, force=force)
        except store_backup.BackupError as e:
            typer.echo(f"rebelote backup: {e}", err=True)
            raise typer.Exit(2) from None
        typer.echo(f"rebelote backup: {file} ({copied.describe()})", err=True)

    @app.command()
    def restore(
        file: Annotated[Path, typer.Argument(help="A file written by `rebelote backup`.")],
        db: Annotated[str | None, typer.Option(help=DB_HELP)] = None,
        force: Annotated[bool, typer.Option(
            "--force", help="Restore even over a database that holds games, tables or "
                            "concours: they are dropped first.")] = False,
    ) -> None:
        """Put the backup FILE into a new database (refused over one that holds data unless
        --force), migrated for this version: then `rebelote serve --db` it."""
        from rebelote.store import backup as store_backup
        from rebelote.store.db import default_db_url

        url = db or default_db_url()
        try:
            copied = store_backup.restore(file, url, force=force)
        except store_backup.BackupError as e:
            typer.echo(f"rebelote restore: {e}", err=True)
            raise typer.Exit(2) from None
        typer.echo(f"rebelote restore: {file} into {store_backup.shown(url)} "
                   f"({copied.describe()})", err=True)
