"""A concours's printables (PDF, fpdf2): the draw of a *partie*, the "où suis-je ?" list by
team, the *feuilles de table* (two per A4) and the ranking with its prizes.

Their words come from the gettext domain ``concours`` (``rebelote/locale/*/LC_MESSAGES/
concours.po``), with the project's ``rebelote`` catalog behind it.
"""

from __future__ import annotations

from collections.abc import Callable

from fpdf.enums import XPos, YPos

from rebelote.catalogs import number
from rebelote.concours import Concours
from rebelote.sheets.concours_words import DOMAIN, ntr, tr
from rebelote.sheets.document import (
    ACCENT,
    BAND_FILL,
    FONT,
    HEAD_FILL,
    INK,
    MARGIN,
    MUTED,
    RULE,
    SheetDocument,
)

__all__ = ["DOMAIN", "draw_pdf", "ntr", "ranking_pdf", "sheets_pdf", "tr", "where_pdf"]


def _(message: str) -> str:
    return message


class _Doc(SheetDocument):
    def __init__(self, lang: str, title: str, subtitle: str) -> None:
        super().__init__(lang, title, subtitle)

    def footer(self) -> None:
        y = self.h - MARGIN + 2
        self.line(MARGIN, y - 2, self.w - MARGIN, y - 2)
        self.set_xy(MARGIN, y)
        self.set_font(FONT, "", 8)
        self.set_text_color(*MUTED)
        half = self.body_width / 2
        self.cell(half, 5, self.clip(self.sheet_title, half))
        self.cell(half, 5, f"{self.page_no()} / {{nb}}", align="R")
        self.set_text_color(*INK)


def _subtitle(c: Concours, lang: str, k: int | None = None, seed: bool = True) -> str:
    s = c.settings
    parts = [s.name]
    if k is not None:
        parts.append(tr(lang, "partie %(k)s of %(n)s") % {"k": k, "n": s.parties})
    if seed:
        parts.append(tr(lang, "seed %(seed)s") % {"seed": s.seed})
    return " · ".join(parts)


def _side(c: Concours, side: tuple[int, ...]) -> str:
    return " / ".join(f"{n}. {c.entry(n).name}" for n in side)


def _rows(doc: _Doc, widths: list[float], head: list[str], rows: list[list[str]],
          aligns: list[str], height: float = 8.0, size: float = 11) -> None:
    doc.head_row(widths, head, height, size=9)
    for i, row in enumerate(rows):
        if doc.get_y() + height > doc.bottom - 6:
            doc.add_page()
            doc.head_row(widths, head, height, size=9)
        doc.grid_row(widths, row, height, size=size, fill=BAND_FILL if i % 2 else None,
                     aligns=aligns)  # type: ignore[arg-type]


def draw_pdf(c: Concours, k: int, lang: str) -> bytes:
    """The draw of *partie* ``k``: each table's two teams, then the *exempt*."""
    partie = c.partie(k)
    doc = _Doc(lang, tr(lang, "Draw of partie %(k)s") % {"k": k}, _subtitle(c, lang, k))
    doc.add_page()
    w = doc.body_width
    widths = [18.0, (w - 30) / 2, 12.0, (w - 30) / 2]
    rows = [[str(t.number), _side(c, t.sides[0]), tr(lang, "vs"), _side(c, t.sides[1])]
            for t in partie.tables]
    _rows(doc, widths, [tr(lang, "Table"), tr(lang, "Team"), "", tr(lang, "Team")], rows,
          ["C", "L", "C", "L"], 9, 12)
    if partie.exempt:
        doc.ln(4)
        doc.set_font(FONT, "B", 12)
        doc.set_x(MARGIN)
        names = ", ".join(_side(c, (n,)) for n in partie.exempt)
        doc.multi_cell(w, 6, tr(lang, "Exempt: %(teams)s") % {"teams": names},
                       new_x=XPos.LMARGIN, new_y=YPos.NEXT)
    return doc.pdf_bytes()


def where_pdf(c: Concours, k: int, lang: str) -> bytes:
    """"Où suis-je ?": every team of *partie* ``k`` by number, its table and its opponents."""
    partie = c.partie(k)
    doc = _Doc(lang, tr(lang, "Where do I sit? Partie %(k)s") % {"k": k},
               _subtitle(c, lang, k))
    doc.add_page()
    seat: dict[int, tuple[str, str]] = {}
    for t in partie.tables:
        for i, side in enumerate(t.sides):
            for n in side:
                against = _side(c, t.sides[1 - i])
                partner = [m for m in side if m != n]
                if partner:  # à la mêlée: the partner drawn, then the opponents
                    against = (tr(lang, "with %(who)s") % {"who": _side(c, tuple(partner))}
                               + " · " + against)
                seat[n] = (str(t.number), against)
    for n in partie.exempt:
        seat[n] = (tr(lang, "exempt"), "")
    w = doc.body_width
    share = 0.35 if c.settings.mode == "melee" else 0.5  # à la mêlée: partner and opponents
    widths = [16.0, (w - 42) * share, 26.0, (w - 42) * (1 - share)]
    rows = [[str(n), c.entry(n).name, seat[n][0], seat[n][1]] for n in sorted(seat)]
    who = tr(lang, "Player") if c.settings.mode == "melee" else tr(lang, "Team")
    _rows(doc, widths, [tr(lang, "No."), who, tr(lang, "Table"),
                        tr(lang, "Opponents")], rows, ["C", "L", "C", "L"], 8, 11)
    return doc.pdf_bytes()


class _Sheets(_Doc):
    def header(self) -> None:
        pass


def _one_sheet(doc: _Sheets, c: Concours, k: int, t: int, top: float, lang: str) -> None:
    s = c.settings
    table = c.partie(k).table(t)
    w = doc.body_width
    doc.set_xy(MARGIN, top)
    doc.set_font(FONT, "B", 16)
    doc.set_text_color(*ACCENT)
    doc.cell(w * 0.4, 8, tr(lang, "Table %(t)s") % {"t": t})
    doc.set_font(FONT, "", 10)
    doc.set_text_color(*MUTED)
    doc.cell(w * 0.6, 8, doc.clip(_subtitle(c, lang, k, seed=False), w * 0.6), align="R",
             new_x=XPos.LMARGIN, new_y=YPos.NEXT)
    doc.set_text_color(*INK)
    doc.set_draw_color(*RULE)
    doc.line(MARGIN, doc.get_y() + 1, MARGIN + w, doc.get_y() + 1)
    doc.set_y(doc.get_y() + 3)
    deals = s.deals or 16
    row_h = min(6.0, (112 - 8) / (deals + 4))
    widths = [24.0, (w - 24) / 2, (w - 24) / 2]
    doc.head_row(widths, [tr(lang, "Deal"), _side(c, table.sides[0]),
                          _side(c, table.sides[1])], 9, size=10)
    for i in range(1, deals + 1):
        doc.grid_row(widths, [str(i), "", ""], row_h, size=9,
                     fill=BAND_FILL if i % 2 == 0 else None)
    for label in (tr(lang, "Belotes"), tr(lang, "Capots")):
        doc.grid_row(widths, [label, "", ""], row_h, size=9, fill=HEAD_FILL)
    doc.grid_row(widths, [tr(lang, "TOTAL"), "", ""], row_h + 2, size=10, style="B",
                 fill=HEAD_FILL)
    note = []
    if s.deals:
        note.append(ntr(lang, "%(n)s deal", "%(n)s deals", s.deals) % {"n": s.deals})
    if s.target:
        note.append(tr(lang, "to %(target)s") % {"target": number(s.target, lang)})
    note.append(tr(lang, "litige on the last deal: its points to the team that did not take")
                if s.reserve_at_end == "defence"
                else tr(lang, "litige on the last deal: its points to nobody"))
    note.append(tr(lang, "Signatures:"))
    doc.set_font(FONT, "", 8.5)
    doc.set_text_color(*MUTED)
    doc.set_x(MARGIN)
    doc.cell(w, 6, " · ".join(note))
    doc.set_text_color(*INK)


def sheets_pdf(c: Concours, k: int, lang: str) -> bytes:
    """One *feuille de table* per table of *partie* ``k``, two per A4 page."""
    partie = c.partie(k)
    doc = _Sheets(lang, tr(lang, "Table sheets, partie %(k)s") % {"k": k}, "")
    half = (doc.h - 2 * MARGIN) / 2
    for i, table in enumerate(partie.tables):
        if i % 2 == 0:
            doc.add_page()
        else:
            doc.set_draw_color(*MUTED)
            doc.dashed_line(MARGIN, MARGIN + half - 2, doc.w - MARGIN, MARGIN + half - 2)
        _one_sheet(doc, c, k, table.number, MARGIN + (i % 2) * half, lang)
    if not partie.tables:
        doc.add_page()
    return doc.pdf_bytes()


def ranking_pdf(c: Concours, lang: str, label: Callable[[int], str] | None = None) -> bytes:
    """The ranking, with the prize the organiser typed for each rank."""
    title = tr(lang, "Final ranking") if c.over else tr(lang, "Ranking")
    done = sum(p.complete for p in c.parties)
    after = ntr(lang, "after %(k)s of %(n)s parties", "after %(k)s of %(n)s parties", done)
    sub = _subtitle(c, lang) + " · " + after % {"k": done, "n": c.settings.parties}
    doc = _Doc(lang, title, sub)
    doc.add_page()
    w = doc.body_width
    prize_w = 40.0 if c.prizes else 0.0
    fixed = [12.0, 10.0, 0.0, 18.0, 16.0, 18.0, 16.0]
    fixed[2] = w - sum(fixed) - prize_w
    head = [tr(lang, "Rank"), tr(lang, "No."), tr(lang, "Team"), tr(lang, "Points"),
            tr(lang, "Won"), tr(lang, "Against"), tr(lang, "Diff.")]
    aligns = ["C", "C", "L", "R", "C", "R", "R"]
    widths = list(fixed)
    if c.prizes:
        widths.append(prize_w)
        head.append(tr(lang, "Prize"))
        aligns.append("L")
    rows = []
    for line in c.standings():
        name = line.name + (f" ({tr(lang, 'withdrawn')})" if line.withdrawn else "")
        row = [str(line.rank) if c.ranked else "–", str(line.entry), name,
               number(line.points, lang),
               str(line.wins), number(line.against, lang), number(line.difference, lang)]
        if c.prizes:
            row.append(c.prizes[line.rank - 1] if line.rank <= len(c.prizes) else "")
        rows.append(row)
    _rows(doc, widths, head, rows, aligns, 7.5, 10.5)
    return doc.pdf_bytes()
