"""The score sheet (*feuille de marque*): a printable grid of deals, blank or filled from a game.

A sheet has one line per deal: its number, the taker, the trump, the contract (coinche only),
then each team's mark and running total, and the outcome. A blank sheet is for a game played
with pencil and paper; a filled one prints a saved :class:`~rebelote.match.Match`, scored by
the engine (``match.result()``), with the winner at the bottom. A game longer than the sheet's
lines goes on over more pages, each starting with the totals brought forward.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from rebelote.catalogs import number
from rebelote.errors import InputError
from rebelote.match import Match
from rebelote.rules import GAMES, Rules
from rebelote.scoring import DealScore
from rebelote.sheets import MAX_ROWS, MIN_ROWS
from rebelote.sheets.document import (
    ACCENT,
    BAND_FILL,
    FONT,
    HEAD_FILL,
    INK,
    MARGIN,
    MUTED,
    TRUMP_RED,
    Align,
    SheetDocument,
)
from rebelote.sheets.labels import check_lang, text
from rebelote.sheets.rule_words import rules_name
from rebelote.sheets.words import RED_SUITS, contract_short, outcome_word, trump_short
from rebelote.summary import DealSummary

MAX_NAME: Final = 40
_HEAD_H: Final = 7.5
_MAX_ROW_H: Final = 11.0
_NOTES_H: Final = 22.0  # the hint, the winner line and the reserve, under the grid

Color = tuple[int, int, int] | None


@dataclass(frozen=True, slots=True)
class _Columns:
    """The grid's columns: widths, alignments and which index holds what."""

    widths: tuple[float, ...]
    aligns: tuple[Align, ...]
    coinche: bool

    @classmethod
    def of(cls, game: str) -> _Columns:
        if game != "belote":
            # deal, taker, trump, contract, NS mark, NS total, EW mark, EW total, outcome
            return cls((12, 24, 13, 22, 21, 22, 21, 22, 25), ("C",) * 9, True)
        return cls((13, 31, 15, 24, 25, 24, 25, 25), ("C",) * 8, False)

    @property
    def marks_at(self) -> int:
        """Index of the first team's mark column."""
        return 4 if self.coinche else 3


@dataclass(frozen=True, slots=True)
class _Line:
    """One printed line of the grid: its cells and how to show them."""

    cells: tuple[str, ...]
    bold: bool = False
    fill: tuple[int, int, int] | None = None
    colors: tuple[Color, ...] | None = None


def _check_rows(rows: object) -> int:
    if isinstance(rows, bool) or not isinstance(rows, int) or not MIN_ROWS <= rows <= MAX_ROWS:
        raise InputError("rows", f"a sheet has {MIN_ROWS} to {MAX_ROWS} lines, not {rows!r}")
    return rows


def _check_teams(teams: object) -> tuple[str, str]:
    if not isinstance(teams, tuple | list) or len(teams) != 2:
        raise InputError("teams", f"two team names, NS first, not {teams!r}")
    names: list[str] = []
    for team, name in zip(("NS", "EW"), teams, strict=True):
        if not isinstance(name, str) or not name.strip() or len(name.strip()) > MAX_NAME:
            raise InputError(f"teams.{team}", f"a team name has 1 to {MAX_NAME} characters, "
                                              f"not {name!r}")
        names.append(name.strip())
    return names[0], names[1]


def _check_target(target: object) -> int | None:
    if target is None:
        return None
    if isinstance(target, bool) or not isinstance(target, int) or target <= 0:
        raise InputError("target", f"must be a positive whole number, not {target!r}")
    return target


def _deal_line(lang: str, cols: _Columns, n: int, deal: DealSummary, score: DealScore,
               running: tuple[int, int], teams: tuple[str, str], multiplier: int = 1) -> _Line:
    """The printed line of deal ``n``."""
    taker = "—"
    trump = ""
    contract = ""
    trump_color: Color = None
    if deal.kind == "deal" and deal.taker is not None:
        taker = teams[0 if deal.taker == "NS" else 1]
        trump = trump_short(lang, deal.trump)
        trump_color = TRUMP_RED if deal.trump in RED_SUITS else None
        contract = contract_short(lang, deal, multiplier)
    outcome = outcome_word(lang, score.outcome)
    if score.outcome == "litige" and score.held_over:
        outcome += f" ({number(score.held_over, lang)})"
    marked = [word for word in deal_marks(lang, deal) if word != contract]
    if marked:  # under the outcome, as the page's badges: "capot · belote"
        outcome += "\n" + " · ".join(marked)
    (mark_a, mark_b), (total_a, total_b) = _pair(lang, score.score), _pair(lang, running)
    marks = (mark_a, total_a, mark_b, total_b)
    head = [str(n), taker, trump] + ([contract] if cols.coinche else [])
    colors: list[Color] = [None, None, trump_color] + ([None] if cols.coinche else [])
    colors += [None, ACCENT, None, ACCENT, MUTED]
    return _Line((*head, *marks, outcome), colors=tuple(colors))


def deal_marks(lang: str, deal: DealSummary) -> list[str]:
    """What a deal had beside its outcome, as the counter's page marks it: its capot (or
    générale) and its belote.

    >>> rules = Rules.preset("official", "belote")
    >>> deal_marks("fr", DealSummary.from_json({"taker": "NS", "points": {"NS": 252},
    ...     "capot": "NS", "belote": "EW"}, rules))
    ['capot', 'belote']
    """
    if deal.kind != "deal":
        return []
    out = []
    if deal.generale:
        out.append(text(lang, "contract.generale"))
    elif deal.capot is not None:
        out.append(text(lang, "word.capot"))
    if any(deal.belote):
        out.append(text(lang, "word.belote"))
    return out


def _pair(lang: str, values: tuple[int, int]) -> tuple[str, str]:
    """Two teams' marks or totals as the language writes numbers (``1 030``, ``1,030``)."""
    return number(values[0], lang), number(values[1], lang)


def _label_line(cols: _Columns, label: str, totals: tuple[str, str], fill: tuple[int, int, int]
                ) -> _Line:
    """A line with a label across the first columns and the two totals: start, report, totals."""
    lead = [label] + [""] * (cols.marks_at - 1)
    return _Line((*lead, "", totals[0], "", totals[1], ""), bold=True, fill=fill)


def _blank_lines(cols: _Columns, first: int, count: int) -> list[_Line]:
    """``count`` empty lines to be filled by hand, numbered from ``first``."""
    empty = ("",) * (len(cols.widths) - 1)
    muted: tuple[Color, ...] = (MUTED, *(None for _ in empty))
    return [_Line((str(n), *empty), colors=muted) for n in range(first, first + count)]


def _pages(lang: str, cols: _Columns, rows: int, match: Match | None,
           teams: tuple[str, str]) -> list[list[_Line]]:
    """The lines of each page: the deal lines, blank lines to fill a page, and totals."""
    if match is None:
        return [[*_blank_lines(cols, 1, rows),
                 _label_line(cols, text(lang, "sheet.totals"), ("", ""), HEAD_FILL)]]
    result = match.result()
    deal_lines = [
        _deal_line(lang, cols, n, deal, score, running, teams,
                   match.rules.coinche_multiplier(deal.coinche))
        for n, (deal, score, running) in enumerate(
            zip(match.deals, result.deals, result.running, strict=True), start=1)
    ]
    carried = match.start
    pages: list[list[_Line]] = []
    chunks = [deal_lines[i:i + rows] for i in range(0, len(deal_lines), rows)] or [[]]
    for p, chunk in enumerate(chunks):
        lines: list[_Line] = []
        if p > 0:
            lines.append(_label_line(cols, text(lang, "sheet.carried"),
                                     _pair(lang, carried), BAND_FILL))
        elif match.start != (0, 0):
            lines.append(_label_line(cols, text(lang, "sheet.start"),
                                     _pair(lang, carried), BAND_FILL))
        lines.extend(chunk)
        last = p * rows + len(chunk)
        lines.extend(_blank_lines(cols, last + 1, rows - len(chunk)))
        if last:
            carried = result.running[last - 1]
        lines.append(_label_line(cols, text(lang, "sheet.totals"),
                                 _pair(lang, carried), HEAD_FILL))
        pages.append(lines)
    return pages


def _draw_heading(pdf: SheetDocument, cols: _Columns, teams: tuple[str, str]) -> None:
    """Two heading rows: the team names over their columns, then the column names."""
    lang = pdf.lang
    x0, y0 = MARGIN, pdf.get_y()
    widths = cols.widths
    at = cols.marks_at
    lead_w = sum(widths[:at])
    pdf.set_fill_color(*HEAD_FILL)
    pdf.set_draw_color(*INK)
    pdf.rect(x0, y0, lead_w, 2 * _HEAD_H, style="D")
    x = x0 + lead_w
    for name in teams:
        w = widths[at] + widths[at + 1]
        pdf.set_xy(x, y0)
        pdf.fitted(name, w, 12, "B", smallest=8)
        pdf.set_text_color(*ACCENT)
        pdf.cell(w, _HEAD_H, pdf.clip(name, w), border=1, align="C", fill=True)
        x += w
    pdf.set_text_color(*INK)
    pdf.set_xy(x0, y0 + _HEAD_H)
    names = [text(lang, "sheet.col.deal"), text(lang, "sheet.col.taker"),
             text(lang, "sheet.col.trump")]
    if cols.coinche:
        names.append(text(lang, "sheet.col.contract"))
    names += [text(lang, "sheet.col.marks"), text(lang, "sheet.col.total")] * 2
    names.append(text(lang, "sheet.col.outcome"))
    # the lead columns' names span both heading rows
    pdf.set_xy(x0, y0)
    pdf.head_row(widths[:at], names[:at], 2 * _HEAD_H)
    pdf.set_xy(x0 + lead_w, y0 + _HEAD_H)
    for w, name in zip(widths[at:-1], names[at:-1], strict=True):
        pdf.fitted(name, w, 8.5, "B")
        pdf.cell(w, _HEAD_H, name, border=1, align="C", fill=True)
    pdf.set_y(y0)
    pdf.head_row(widths[-1:], names[-1:], 2 * _HEAD_H, x=x0 + sum(widths[:-1]))
    pdf.set_draw_color(*INK)
    pdf.set_xy(x0, y0 + 2 * _HEAD_H)


def _draw_lines(pdf: SheetDocument, cols: _Columns, lines: Sequence[_Line], height: float
                ) -> None:
    top = pdf.get_y()
    at = cols.marks_at
    for i, line in enumerate(lines):
        fill = line.fill if line.fill is not None else (BAND_FILL if i % 2 else None)
        if line.bold:  # a label line: the label spans the lead columns
            widths = (sum(cols.widths[:at]), *cols.widths[at:])
            cells = (line.cells[0], *line.cells[at:])
            aligns: tuple[Align, ...] = ("R", *cols.aligns[at:])
            pdf.grid_row(widths, cells, height, size=10.5, style="B", fill=fill, aligns=aligns)
            continue
        pdf.grid_row(cols.widths, line.cells, height, size=10.5, fill=fill, aligns=cols.aligns,
                     colors=line.colors)
    # strong rules between the teams and around the grid
    bottom = pdf.get_y()
    pdf.set_draw_color(*INK)
    pdf.set_line_width(0.45)
    x = MARGIN + sum(cols.widths[:cols.marks_at])
    pdf.line(x, top - 2 * _HEAD_H, x, bottom)
    x += cols.widths[cols.marks_at] + cols.widths[cols.marks_at + 1]
    pdf.line(x, top - 2 * _HEAD_H, x, bottom)
    x += cols.widths[cols.marks_at + 2] + cols.widths[cols.marks_at + 3]
    pdf.line(x, top - 2 * _HEAD_H, x, bottom)
    pdf.rect(MARGIN, top - 2 * _HEAD_H, sum(cols.widths), bottom - top + 2 * _HEAD_H)
    pdf.set_line_width(0.2)
    pdf.set_draw_color(*INK)


def _subtitle(lang: str, game: str, rules: Rules | None, target: int | None,
              teams: tuple[str, str]) -> str:
    parts = [text(lang, f"game.{game}")]
    if rules is not None:
        parts.append(rules_name(lang, rules))
    parts.append(text(lang, "target", target=target) if target is not None
                 else text(lang, "target.blank"))
    parts.append(text(lang, "versus", a=teams[0], b=teams[1]))
    return " · ".join(parts)


def _draw_notes(pdf: SheetDocument, game: str, match: Match | None,
                teams: tuple[str, str]) -> None:
    lang = pdf.lang
    pdf.ln(2)
    if match is not None:
        result = match.result()
        pdf.set_x(MARGIN)
        pdf.set_font(FONT, "B", 12)
        pdf.set_text_color(*ACCENT)
        if result.winner is not None and result.won_after_deal is not None:
            name = teams[0 if result.winner == "NS" else 1]
            pdf.cell(0, 7, text(lang, "winner", team=name, deal=result.won_after_deal))
        else:
            pdf.set_text_color(*MUTED)
            pdf.set_font(FONT, "", 10)
            pdf.cell(0, 7, text(lang, "sheet.no_winner"))
        pdf.ln(7)
        if result.reserve:
            pdf.paragraph(text(lang, "sheet.reserve.waiting",
                               points=number(result.reserve, lang)), size=9)
    pdf.paragraph(text(lang, f"sheet.hint.{game}"))
    pdf.set_text_color(*INK)


def score_sheet_pdf(
    game: str,
    teams: tuple[str, str] | None = None,
    rows: int = 18,
    match: Match | None = None,
    lang: str = "fr",
    target: int | None = None,
) -> bytes:
    """The score sheet of ``game`` (``belote``, ``coinche`` or ``contree``) as a PDF, A4
    portrait; a filled sheet names its rule set (the preset and the options it changes).

    ``teams`` are the NS and EW names (default: the match's, else *Nous* / *Eux*, *Us* / *Them*
    in English); ``rows`` the deal lines of a page, 12 to 24. With ``match``, the sheet is
    filled from that saved game (its game must be ``game``) and the target defaults to its
    target; without, it is blank. Bad arguments raise :class:`InputError` naming them.

    >>> score_sheet_pdf("coinche", ("Alice et Bob", "Eux"), rows=12)[:5]
    b'%PDF-'
    """
    lang = check_lang(lang)
    if game not in GAMES:
        raise InputError("game", f"{game!r} is not a game ({', '.join(GAMES)})")
    rows = _check_rows(rows)
    target = _check_target(target)
    if match is not None:
        if not isinstance(match, Match):
            raise InputError("match", "must be a saved game (a Match)")
        if match.rules.game != game:
            raise InputError("game", f"the saved game is {match.rules.game}, not {game}")
        if teams is None:
            teams = match.teams
        if target is None:
            target = match.target
    if teams is None:
        teams = (text(lang, "team.default.0"), text(lang, "team.default.1"))
    names = _check_teams(teams)
    cols = _Columns.of(game)
    rules = match.rules if match is not None else None
    pdf = SheetDocument(lang, text(lang, "sheet.title"),
                        _subtitle(lang, game, rules, target, names))
    pages = _pages(lang, cols, rows, match, names)
    for p, lines in enumerate(pages):
        pdf.add_page()
        space = pdf.bottom - pdf.get_y() - 2 * _HEAD_H - _NOTES_H
        height = min(_MAX_ROW_H, space / (rows + 2))
        _draw_heading(pdf, cols, names)
        _draw_lines(pdf, cols, lines, height)
        if p == len(pages) - 1:
            _draw_notes(pdf, game, match, names)
    return pdf.pdf_bytes()

