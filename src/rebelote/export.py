"""A game as CSV, for spreadsheets, and back (:func:`match_to_csv`, :func:`match_from_csv`).

The file opens with a few lines about the game (game, rule set, options, target, teams, start),
then a blank line, then a header row and one row per deal: its number, taker, trump, contract
and coinche, each team's trick points, declarations and belotes, capot, générale, the litige
reserve brought in, then what the engine makes of it: outcome, marks and running totals.
Headers and words follow ``lang`` (French by default, or English); the reader takes either, and
commas or semicolons.

Reading a file back scores the deals again: the outcome, mark and total columns are written
for people and are not read, except the outcome words of a void deal (*donne nulle*, *void*)
and of an adjustment line (*ajustement*, *adjustment*, whose points columns hold the points
it marks). A mistake is an :class:`~rebelote.errors.InputError` naming the row (counted from 1,
as a spreadsheet does) and the column.

>>> from rebelote.match import Match
>>> from rebelote.rules import Rules
>>> from rebelote.summary import DealSummary
>>> game = Match(Rules.preset("official", "belote")).add(
...     DealSummary(game="belote", taker="NS", points=(98, 64), belote=(1, 0)))
>>> text = match_to_csv(game, lang="en")
>>> text.splitlines()[-1]
'1,NS,hearts,,,98,64,0,0,1,0,,,0,made,118,64,118,64'
>>> match_from_csv(text) == game
True
"""

from __future__ import annotations

import csv
import io
import json
import re
from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any, Final

from rebelote.cards import TEAMS
from rebelote.errors import InputError
from rebelote.match import Match
from rebelote.numbers import number_or_text
from rebelote.rules import GAMES, PRESET_NAMES
from rebelote.sheets.labels import LABELS, check_lang
from rebelote.sheets.labels import text as label
from rebelote.sheets.words import outcome_word, trump_long
from rebelote.summary import DealSummary

__all__ = [
    "COLUMNS",
    "FORMULA_STARTS",
    "META",
    "columns",
    "match_from_csv",
    "match_to_csv",
    "text_cell",
    "text_of_cell",
]


# Column keys, in file order, with their headers in each language (labels ``csv.col.<key>``
# of the one translation system).
COLUMNS: Final[tuple[tuple[str, str, str], ...]] = tuple(
    (key, label("fr", f"csv.col.{key}"), label("en", f"csv.col.{key}")) for key in (
        "deal", "taker", "trump", "contract", "coinche", "points.NS", "points.EW",
        "declarations.NS", "declarations.EW", "belote.NS", "belote.EW", "capot", "generale",
        "held_over", "outcome", "marks.NS", "marks.EW", "totals.NS", "totals.EW",
    ))
# The lines about the game, before the deals (labels ``csv.meta.<key>``).
META: Final[tuple[tuple[str, str, str], ...]] = tuple(
    (key, label("fr", f"csv.meta.{key}"), label("en", f"csv.meta.{key}"))
    for key in ("game", "rules", "options", "target", "teams", "start"))
_LANG_INDEX: Final = {"fr": 1, "en": 2}
_YES: Final = frozenset({"oui", "yes", "true", "1", "x", "o", "y"})
_NO: Final = frozenset({"", "non", "no", "false", "0"})


def _header(key: str, lang: str) -> str:
    return next(c[_LANG_INDEX[lang]] for c in COLUMNS if c[0] == key)


def _norm(value: str) -> str:
    """A header or word as compared: lower case, no accents on e, single spaces."""
    out = value.strip().lower().replace("é", "e").replace("è", "e").replace("ç", "c")
    return re.sub(r"\s+", " ", out)


_COLUMN_OF: Final = {_norm(c[i]): c[0] for c in COLUMNS for i in (0, 1, 2)}
_META_OF: Final = {_norm(m[i]): m[0] for m in META for i in (0, 1, 2)}
_KINDS: Final = {
    _norm(LABELS[lang][f"outcome.{kind}"]): kind
    for lang in LABELS for kind in ("void", "adjust")
} | {"void": "void", "adjust": "adjust", "nulle": "void", "donne nulle": "void",
     "ajustement": "adjust", "adjustment": "adjust", "correction": "adjust", "passe": "void",
     "passed": "void"}  # and the words of earlier files
_GAMES: Final = {_norm(LABELS[lang][f"game.{g}"]): g for lang in LABELS
                  for g in GAMES} | {g: g for g in GAMES} | {"contree": "contree"}
_RULE_SETS: Final = {_norm(LABELS[lang][f"rules.{r}"]): r for lang in LABELS
                     for r in PRESET_NAMES} | {r: r for r in PRESET_NAMES} | {
    "official": "official", "house": "house", "officiel": "official", "officielles": "official",
    "maison": "house",
}
_COINCHES: Final = {
    _norm(LABELS[lang][f"coinche.{m}"]): word
    for lang in LABELS for m, word in ((2, "coinche"), (4, "surcoinche"))
} | {"": "none", "none": "none", "coinche": "coinche", "surcoinche": "surcoinche", "x2": "coinche",
     "×2": "coinche", "x4": "surcoinche", "×4": "surcoinche", "2": "coinche", "4": "surcoinche"}


# -- text cells: never a formula ----------------------------------------------------------------
FORMULA_STARTS: Final = ("=", "+", "-", "@", "\t", "\r", "'")


def text_cell(text: str) -> str:
    """A free text (a team name) as a cell no spreadsheet runs as a formula: one beginning
    with ``= + - @``, a tab or a carriage return (or the quote itself) gets a leading ``'``,
    which :func:`text_of_cell` removes.

    >>> print(text_cell('=HYPERLINK("http://x")'), text_cell("Nous"), text_cell("'a"))
    '=HYPERLINK("http://x") Nous ''a
    >>> all(text_of_cell(text_cell(t)) == t for t in ("=1+1", "'", "''x", "-3", "Eux"))
    True
    """
    return f"'{text}" if text.startswith(FORMULA_STARTS) else text


def text_of_cell(cell: str) -> str:
    """The text written by :func:`text_cell`."""
    return cell[1:] if cell.startswith("'") else cell


# -- writing ------------------------------------------------------------------------------------
def match_to_csv(match: Match, lang: str = "fr") -> str:
    """The game as CSV text: the game's lines, a blank line, a header row, a row per deal."""
    lang = check_lang(lang)
    i = _LANG_INDEX[lang]
    out = io.StringIO()
    writer = csv.writer(out)  # RFC 4180: CRLF lines, fields with CR or LF quoted
    meta = {m[0]: m[i] for m in META}
    writer.writerow([meta["game"], match.rules.game])
    writer.writerow([meta["rules"], match.rules.name])
    options = match.rules.changed_options()
    options.pop("target", None)
    if options:
        writer.writerow([meta["options"], json.dumps(options, sort_keys=True)])
    writer.writerow([meta["target"], match.target])
    writer.writerow([meta["teams"], *(text_cell(t) for t in match.teams)])
    writer.writerow([meta["start"], *match.start])
    writer.writerow([])
    writer.writerow([c[i] for c in COLUMNS])
    result = match.result()
    carried = 0  # the litige reserve a deal receives from the deals before it
    for n, (deal, score, running) in enumerate(
            zip(match.deals, result.deals, result.running, strict=True), start=1):
        row = _deal_cells(deal, lang)
        if deal.kind == "deal":
            row["held_over"] = str(carried or deal.held_over)
        carried = score.held_over
        row.update({
            "deal": str(n), "outcome": outcome_word(lang, score.outcome),
            "marks.NS": str(score.score[0]), "marks.EW": str(score.score[1]),
            "totals.NS": str(running[0]), "totals.EW": str(running[1]),
        })
        writer.writerow([row.get(c[0], "") for c in COLUMNS])
    return out.getvalue()


def _deal_cells(deal: DealSummary, lang: str) -> dict[str, str]:
    """The input cells of one deal, by column key."""
    if deal.kind == "void":
        return {"held_over": str(deal.held_over) if deal.held_over else ""}
    if deal.kind == "adjust":
        return {"points.NS": str(deal.adjust[0]), "points.EW": str(deal.adjust[1])}
    cells = {
        "taker": deal.taker or "",
        "trump": trump_long(lang, deal.trump),
        "points.NS": str(deal.points[0]), "points.EW": str(deal.points[1]),
        "declarations.NS": str(deal.declarations[0]),
        "declarations.EW": str(deal.declarations[1]),
        "belote.NS": str(deal.belote[0]), "belote.EW": str(deal.belote[1]),
        "capot": deal.capot or "",
        "generale": label(lang, "yes") if deal.generale else "",
        "held_over": str(deal.held_over),
    }
    if deal.contract is not None:
        cells["contract"] = (label(lang, f"contract.{deal.contract}")
                             if isinstance(deal.contract, str) else str(deal.contract))
        cells["coinche"] = label(lang, f"coinche.{deal.coinche}") if deal.coinche > 1 else ""
    return cells


# -- reading ------------------------------------------------------------------------------------
class _Sheet:
    """The rows of a CSV text, with where each deal and game line came from."""

    def __init__(self, text: str) -> None:
        if not isinstance(text, str):
            raise InputError("csv", "a CSV text is a string")
        text = text.removeprefix("\ufeff")
        first = next((line for line in text.splitlines() if line.strip()), "")
        delimiter = ";" if first.count(";") > first.count(",") else ","
        try:
            self.rows = list(csv.reader(io.StringIO(text, newline=""), delimiter=delimiter,
                                         strict=True))
        except csv.Error as e:
            raise InputError("csv", f"not CSV: {e}") from None
        self.meta: dict[str, tuple[int, list[str]]] = {}
        self.columns: dict[str, int] = {}
        self.header_row = 0
        self.deals: list[tuple[int, dict[str, str]]] = []
        self._split()

    def _split(self) -> None:
        for r, row in enumerate(self.rows, start=1):
            cells = [c.strip() for c in row]
            if not any(cells):
                continue
            key = _norm(cells[0])
            if not self.header_row:
                if _COLUMN_OF.get(key) == "deal":
                    self._read_header(r, cells)
                elif key in _META_OF:
                    if _META_OF[key] in self.meta:
                        raise InputError(f"row {r}", f"{cells[0]!r} is given twice")
                    self.meta[_META_OF[key]] = (r, cells[1:])
                else:
                    raise InputError(f"row {r}, column 1", f"{cells[0]!r} is neither a line "
                                     "about the game (" + ", ".join(m[1] for m in META) + ") "
                                     "nor the header row (starting with Donne or Deal)")
                continue
            self.deals.append((r, self._cells(r, cells)))
        if not self.header_row:
            raise InputError("csv", "no header row: the deals' table starts with a row "
                                    "naming its columns, Donne (or Deal) first")

    def _read_header(self, r: int, cells: list[str]) -> None:
        self.header_row = r
        for c, name in enumerate(cells, start=1):
            if not name:
                continue
            key = _COLUMN_OF.get(_norm(name))
            if key is None:
                known = ", ".join(col[1] for col in COLUMNS)
                raise InputError(f"row {r}, column {c}", f"{name!r} is not a column ({known})")
            if key in self.columns:
                raise InputError(f"row {r}, column {c}", f"{name!r} is given twice")
            self.columns[key] = c - 1

    def _cells(self, r: int, cells: list[str]) -> dict[str, str]:
        extra = [c for c in range(len(cells)) if cells[c] and c not in self.columns.values()]
        if extra:
            raise InputError(f"row {r}, column {extra[0] + 1}",
                             f"{cells[extra[0]]!r} is under no header")
        return {key: cells[c] if c < len(cells) else "" for key, c in self.columns.items()}

    def column_name(self, key: str) -> str:
        """How the file names the column of ``key`` (its header, or the French one)."""
        if key in self.columns:
            header = self.rows[self.header_row - 1][self.columns[key]].strip()
            return header or _header(key, "fr")
        return _header(key, "fr")


def match_from_csv(text: str) -> Match:
    """Read back a game written by :func:`match_to_csv` (either language, ``,`` or ``;``).

    Errors are :class:`InputError` naming the row and the column.
    """
    sheet = _Sheet(text)
    game = _game_json(sheet)
    deals: list[dict[str, Any]] = []
    for r, cells in sheet.deals:
        deals.append(_deal_json(sheet, r, cells, game.get("game")))
    game["deals"] = deals
    try:
        match = Match.from_json(game)
        result = match.result()  # the litige reserve brought in must agree with the game's
    except InputError as e:
        raise _locate(sheet, e) from None
    # The reserve written on the deal that received it is the game's own, not an input: the
    # game read back is the game written.
    deals_read = list(match.deals)
    for n in range(1, len(deals_read)):
        carried = result.deals[n - 1].held_over
        if deals_read[n].kind == "deal" and carried and deals_read[n].held_over == carried:
            deals_read[n] = replace(deals_read[n], held_over=0)
    return replace(match, deals=tuple(deals_read))


def _game_json(sheet: _Sheet) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, (r, values) in sheet.meta.items():
        where = f"row {r}, column 2"
        first = values[0] if values else ""
        if key == "game":
            out["game"] = _GAMES.get(_norm(first), first)
        elif key == "rules":
            out["rules"] = _RULE_SETS.get(_norm(first), first)
        elif key == "options":
            if first:
                try:
                    out["options"] = json.loads(first)
                except json.JSONDecodeError as e:
                    raise InputError(where, f"options are a JSON object: {e.msg}") from None
        elif key == "target":
            out["target"] = _whole(where, first)
        elif key == "teams":
            if len(values) < 2 or not values[0] or not values[1]:
                raise InputError(f"row {r}", "two team names, NS then EW, in columns 2 and 3")
            out["teams"] = {"NS": text_of_cell(values[0]), "EW": text_of_cell(values[1])}
        elif key == "start":
            if len(values) < 2:
                raise InputError(f"row {r}", "two totals, NS then EW, in columns 2 and 3")
            out["start"] = {"NS": _whole(where, values[0]),
                            "EW": _whole(f"row {r}, column 3", values[1])}
    if "game" not in out:
        raise InputError("csv", "no game line: write 'Partie,belote' (or 'Game,coinche') "
                                "before the deals")
    return out


def _whole(where: str, value: str, *, allow_empty: bool = False) -> int:
    if allow_empty and not value:
        return 0
    try:
        return int(value)
    except ValueError:
        raise InputError(where, f"{value!r} is not a whole number") from None


def _deal_json(sheet: _Sheet, r: int, cells: Mapping[str, str], game: object
               ) -> dict[str, Any]:
    """The JSON deal summary of one row; numbers are checked here, the rules by the engine."""

    def where(key: str) -> str:
        return f"row {r}, column {sheet.column_name(key)}"

    def number(key: str) -> int:
        return _whole(where(key), cells.get(key, ""), allow_empty=True)

    def pair(key: str) -> dict[str, int]:
        return {t: number(f"{key}.{t}") for t in TEAMS if number(f"{key}.{t}")}

    kind = _KINDS.get(_norm(cells.get("outcome", "")), "deal")
    if kind == "void":
        out: dict[str, Any] = {"void": True}
        if number("held_over"):
            out["held_over"] = number("held_over")
        return out
    if kind == "adjust":
        return {"adjust": {t: number(f"points.{t}") for t in TEAMS}}
    out = {"taker": cells.get("taker") or None, "trump": cells.get("trump") or None,
           "points": {t: number(f"points.{t}") for t in TEAMS}}
    if cells.get("contract"):
        contract = cells["contract"]
        out["contract"] = number_or_text(contract)
    coinche = _norm(cells.get("coinche", ""))
    if coinche not in _COINCHES:
        raise InputError(where("coinche"), f"{cells['coinche']!r} is not a coinche: leave it "
                                           "empty, or coinché (×2), surcoinché (×4)")
    if _COINCHES[coinche] != "none" or game == "coinche":
        out["coinche"] = _COINCHES[coinche]
    out["capot"] = cells.get("capot") or None
    generale = _norm(cells.get("generale", ""))
    if generale not in _YES | _NO:
        raise InputError(where("generale"), f"{cells['generale']!r}: write oui (yes) or leave "
                                            "it empty")
    if generale in _YES:
        out["generale"] = True
    for key in ("declarations", "belote"):
        values = pair(key)
        if values:
            out[key] = values
    if number("held_over"):
        out["held_over"] = number("held_over")
    return out


def _locate(sheet: _Sheet, error: InputError) -> InputError:
    """An engine error about ``deals[n].field`` (or a game field) as a row and a column."""
    found = re.fullmatch(r"deals\[(\d+)\](?:\.(.*))?", error.field)
    if found is None:
        meta_key = error.field.split(".")[0]
        if meta_key in sheet.meta:
            return InputError(f"row {sheet.meta[meta_key][0]}", error.reason)
        return error
    r = sheet.deals[int(found.group(1)) - 1][0]
    field = found.group(2) or ""
    key = {"adjust.NS": "points.NS", "adjust.EW": "points.EW", "adjust": "points.NS",
           "points": "points.NS", "declarations": "declarations.NS",
           "belote": "belote.NS", "void": "outcome"}.get(field, field)
    if key in {c[0] for c in COLUMNS}:
        name = sheet.column_name(key)
        if field in ("points", "declarations", "belote"):
            name = f"{name} / {sheet.column_name(key.replace('.NS', '.EW'))}"
        return InputError(f"row {r}, column {name}", error.reason)
    return InputError(f"row {r}", error.reason)


def columns(lang: str = "fr") -> Sequence[str]:
    """The header row of a CSV game in ``lang``."""
    return [c[_LANG_INDEX[check_lang(lang)]] for c in COLUMNS]
