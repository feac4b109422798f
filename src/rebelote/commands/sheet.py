"""``rebelote sheet`` and ``rebelote points-table`` (printable PDFs), ``rebelote export`` and
``rebelote import`` (a game as CSV and back).

A game file is the game input of ``rebelote score`` (a JSON object with ``deals``), or a CSV
file written by ``rebelote export --csv`` (read by its ``.csv`` name). Bad input is one sentence
on standard error naming the field (or the CSV row and column) and exit status 1; a file that
cannot be read or written, or an unusable option (``--rows 30``, ``--lang de``), exit status 2.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Annotated, Any

import typer

from rebelote.errors import InputError, RulesError
from rebelote.export import match_from_csv, match_to_csv
from rebelote.match import Match
from rebelote.sheets import MAX_ROWS, MIN_ROWS
from rebelote.sheets.labels import check_lang
from rebelote.sheets.labels import text as label

OUTPUT_HELP = "The PDF file to write ('-' for standard output)."
LANG_HELP = "Language of the sheet: fr (default) or en."


def _fail(message: str, code: int = 1) -> typer.Exit:
    typer.echo(f"rebelote: {message}", err=True)
    return typer.Exit(code)


def _read(path: str) -> str:
    """The text of ``path`` (``-``: standard input); exit 2 if it cannot be read."""
    if path == "-":
        return sys.stdin.read()
    try:
        return Path(path).read_text(encoding="utf-8-sig")
    except (OSError, UnicodeDecodeError) as e:
        reason = e.strerror if isinstance(e, OSError) else "not UTF-8 text"
        raise _fail(f"cannot read {path}: {reason}", 2) from None


def _write(path: str, data: bytes) -> None:
    """Write ``data`` to ``path`` (``-``: standard output); exit 2 if it cannot be written."""
    if path == "-":
        sys.stdout.buffer.write(data)
        sys.stdout.flush()
        return
    try:
        Path(path).write_bytes(data)
    except OSError as e:
        raise _fail(f"cannot write {path}: {e.strerror}", 2) from None


def load_game(path: str) -> Match:
    """The game in ``path``: JSON game input, or CSV when the name ends in ``.csv``.

    Raises :class:`InputError` naming what is wrong.
    """
    text = _read(path)
    if path.lower().endswith(".csv"):
        return match_from_csv(text)
    try:
        obj: Any = json.loads(text)
    except json.JSONDecodeError as e:
        raise InputError(path, f"not JSON: {e.msg} at line {e.lineno} column {e.colno}"
                         ) from None
    if not isinstance(obj, dict) or "deals" not in obj:
        raise InputError(path, "a game is a JSON object with deals (the game input of "
                               "rebelote score)")
    return Match.from_json(obj)


def sheet(
    output: Annotated[str, typer.Option("-o", "--output", help=OUTPUT_HELP)],
    game: Annotated[str | None, typer.Option(
        "--game", help="belote or coinche (default: the saved game's, else belote).")] = None,
    rows: Annotated[int, typer.Option(
        "--rows", help=f"Deal lines on a page, {MIN_ROWS} to {MAX_ROWS}.")] = 18,
    ns: Annotated[str | None, typer.Option("--ns", help="Name of team NS (default Nous).")]
    = None,
    ew: Annotated[str | None, typer.Option("--ew", help="Name of team EW (default Eux).")]
    = None,
    lang: Annotated[str, typer.Option("--lang", help=LANG_HELP)] = "fr",
    target: Annotated[int | None, typer.Option(
        "--target", help="Target printed on the sheet (default: the saved game's).")] = None,
    source: Annotated[str | None, typer.Option(
        "--from", help="Fill the sheet from a saved game (JSON game input, or .csv).")]
    = None,
) -> None:
    """Print a score sheet (feuille de marque) as a PDF: blank, or filled from a saved game."""
    from rebelote.sheets import score_sheet_pdf

    try:
        match = load_game(source) if source is not None else None
    except InputError as e:
        raise _fail(str(e)) from None
    try:
        if game is None:
            game = match.rules.game if match is not None else "belote"
        teams: tuple[str, str] | None = None
        if ns is not None or ew is not None or match is None:
            base = match.teams if match is not None else (
                label(lang, "team.default.0"), label(lang, "team.default.1"))
            teams = (ns if ns is not None else base[0], ew if ew is not None else base[1])
        pdf = score_sheet_pdf(game, teams, rows=rows, match=match, lang=lang, target=target)
    except InputError as e:
        raise _fail(str(e), 2) from None
    _write(output, pdf)


def points_table(
    output: Annotated[str, typer.Option("-o", "--output", help=OUTPUT_HELP)],
    lang: Annotated[str, typer.Option("--lang", help=LANG_HELP)] = "fr",
    rules: Annotated[str | None, typer.Option(
        "--rules", help="A rule set's text form (contree:cannes-2016,surcoinche=4): the table "
                        "opens with its ways of counting and the worked example under them."
    )] = None,
) -> None:
    """Print the points table (card values, declarations, scoring cases) as a PDF."""
    from rebelote.rules import parse_rules
    from rebelote.sheets import points_table_pdf

    try:
        chosen = parse_rules(rules) if rules is not None else None
    except RulesError as e:
        raise _fail(str(e), 2) from None
    try:
        pdf = points_table_pdf(lang, chosen)
    except InputError as e:
        raise _fail(str(e), 2) from None
    _write(output, pdf)


def export(
    game_file: Annotated[str, typer.Argument(
        metavar="GAME", help="A saved game: JSON game input ('-' for standard input).")],
    csv: Annotated[bool, typer.Option("--csv", help="Write CSV (default: JSON).")] = False,
    lang: Annotated[str, typer.Option("--lang", help="Language of the CSV: fr or en.")] = "fr",
    output: Annotated[str, typer.Option(
        "-o", "--output", help="The file to write ('-', the default: standard output).")]
    = "-",
) -> None:
    """Export a saved game as CSV (one row per deal), or as its JSON game input."""
    try:
        check_lang(lang)
    except InputError as e:
        raise _fail(str(e), 2) from None
    try:
        match = load_game(game_file)
    except InputError as e:
        raise _fail(str(e)) from None
    text = (match_to_csv(match, lang) if csv
            else json.dumps(match.to_json(), ensure_ascii=False) + "\n")
    _write(output, text.encode("utf-8"))


def import_(
    csv_file: Annotated[str, typer.Argument(
        metavar="GAME.csv", help="A CSV game written by 'rebelote export --csv' ('-': stdin).")],
) -> None:
    """Read a CSV game and print its JSON game input (the input of rebelote score)."""
    try:
        match = match_from_csv(_read(csv_file))
    except InputError as e:
        raise _fail(str(e)) from None
    _write("-", (json.dumps(match.to_json(), ensure_ascii=False) + "\n").encode("utf-8"))


def register(app: typer.Typer) -> None:
    """Add ``sheet``, ``points-table``, ``export`` and ``import`` to the command line."""
    app.command("sheet")(sheet)
    app.command("points-table")(points_table)
    app.command("export")(export)
    app.command("import")(import_)
