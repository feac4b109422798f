"""The page every sheet is printed on: A4 portrait, the shipped DejaVu font, a header and footer.

:class:`SheetDocument` is an :class:`fpdf.FPDF` with the house look: a title line with a
subtitle under it, a thin rule, and a footer naming the sheet and the page. Its output is the
same bytes for the same content (the creation date is fixed), so a sheet can be cached or
compared. The fonts ship in ``rebelote/sheets/fonts`` with their licence: no system font is
needed.
"""

from __future__ import annotations

import datetime
from collections.abc import Sequence
from importlib import resources
from typing import Final, Literal

from fpdf import FPDF
from fpdf.enums import XPos, YPos

from rebelote.sheets.labels import text

FONT: Final = "DejaVu"
MARGIN: Final = 14.0
# A fixed creation date keeps the bytes of a sheet a function of its content (no clock).
_EPOCH: Final = datetime.datetime(2026, 1, 1, tzinfo=datetime.UTC)

INK: Final = (33, 37, 41)
MUTED: Final = (108, 117, 125)
RULE: Final = (52, 58, 64)
GRID: Final = (173, 181, 189)
HEAD_FILL: Final = (222, 235, 247)
BAND_FILL: Final = (244, 247, 250)
ACCENT: Final = (25, 84, 138)
TRUMP_RED: Final = (192, 32, 40)

Align = Literal["L", "C", "R"]


def _font_path(name: str) -> str:
    return str(resources.files("rebelote.sheets") / "fonts" / name)


class SheetDocument(FPDF):
    """An A4 portrait page with the DejaVu fonts, a header and a footer with page numbers."""

    def __init__(self, lang: str, title: str, subtitle: str = "") -> None:
        super().__init__(orientation="portrait", unit="mm", format="A4")
        self.lang = lang
        self.sheet_title = title
        self.sheet_subtitle = subtitle
        self.add_font(FONT, "", _font_path("DejaVuSans.ttf"))
        self.add_font(FONT, "B", _font_path("DejaVuSans-Bold.ttf"))
        self.set_margins(MARGIN, MARGIN, MARGIN)
        self.set_auto_page_break(False)
        self.set_creation_date(_EPOCH)
        self.set_title(title)
        self.set_creator("rebelote")
        self.set_producer("rebelote")
        self.set_lang(lang)
        self.alias_nb_pages("{nb}")
        self.set_text_color(*INK)
        self.set_draw_color(*GRID)

    # -- header and footer ---------------------------------------------------------------------
    def header(self) -> None:
        self.set_xy(MARGIN, MARGIN)
        self.set_font(FONT, "B", 18)
        self.set_text_color(*ACCENT)
        self.cell(0, 9, self.sheet_title, new_x=XPos.LMARGIN, new_y=YPos.NEXT)
        if self.sheet_subtitle:
            self.set_font(FONT, "", 10)
            self.set_text_color(*MUTED)
            self.cell(0, 6, self.sheet_subtitle, new_x=XPos.LMARGIN, new_y=YPos.NEXT)
        self.set_draw_color(*RULE)
        self.set_line_width(0.5)
        y = self.get_y() + 1.5
        self.line(MARGIN, y, self.w - MARGIN, y)
        self.set_line_width(0.2)
        self.set_draw_color(*GRID)
        self.set_text_color(*INK)
        self.set_y(y + 4)

    def footer(self) -> None:
        y = self.h - MARGIN + 2
        self.set_draw_color(*GRID)
        self.line(MARGIN, y - 2, self.w - MARGIN, y - 2)
        self.set_xy(MARGIN, y)
        self.set_font(FONT, "", 8)
        self.set_text_color(*MUTED)
        half = (self.w - 2 * MARGIN) / 2
        self.cell(half, 5, text(self.lang, "footer", title=self.sheet_title))
        self.cell(half, 5, text(self.lang, "page", page=self.page_no(), pages="{nb}"),
                  align="R")
        self.set_text_color(*INK)

    @property
    def bottom(self) -> float:
        """The lowest y the body may use, above the footer."""
        return self.h - MARGIN - 2

    @property
    def body_width(self) -> float:
        return self.w - 2 * MARGIN

    # -- drawing helpers -----------------------------------------------------------------------
    def fitted(self, value: str, width: float, size: float, style: str = "",
               smallest: float = 6.0) -> None:
        """Set the font so that ``value`` fits in ``width`` mm: smaller, down to ``smallest`` pt.

        A text still too long is then cut by :meth:`clip`.
        """
        self.set_font(FONT, style, size)
        while size > smallest and self.get_string_width(value) > width - 2:
            size -= 0.5
            self.set_font(FONT, style, size)

    def clip(self, value: str, width: float) -> str:
        """``value`` cut with an ellipsis so that it fits in ``width`` mm at the current font."""
        if self.get_string_width(value) <= width - 2:
            return value
        while value and self.get_string_width(value + "…") > width - 2:
            value = value[:-1]
        return value + "…"

    def grid_row(
        self,
        widths: Sequence[float],
        cells: Sequence[str],
        height: float,
        *,
        size: float = 10,
        style: str = "",
        fill: tuple[int, int, int] | None = None,
        aligns: Sequence[Align] | None = None,
        colors: Sequence[tuple[int, int, int] | None] | None = None,
    ) -> None:
        """One row of bordered cells from the left margin; the cursor moves to the next row.
        A cell's text on two lines (split on a newline) is set smaller, its second line
        muted (a deal's outcome over its capot and belote)."""
        self.set_x(MARGIN)
        if fill is not None:
            self.set_fill_color(*fill)
        for i, (w, value) in enumerate(zip(widths, cells, strict=True)):
            color = colors[i] if colors is not None else None
            align = aligns[i] if aligns is not None else "C"
            if "\n" in value:
                self._two_lines(w, height, value, size, style, align, fill, color)
                continue
            self.fitted(value, w, size, style, smallest=7.5)
            self.set_text_color(*(color or INK))
            self.cell(w, height, self.clip(value, w), border=1, align=align,
                      fill=fill is not None)
        self.set_text_color(*INK)
        self.ln(height)

    def _two_lines(self, w: float, height: float, value: str, size: float, style: str,
                   align: Align, fill: tuple[int, int, int] | None,
                   color: tuple[int, int, int] | None) -> None:
        """A bordered cell of :meth:`grid_row` holding two lines; the cursor moves past it."""
        x, y = self.get_x(), self.get_y()
        self.cell(w, height, "", border=1, fill=fill is not None)
        first, second = value.split("\n", 1)
        small = min(size, 8.5)
        line_h = min(height / 2, small * 0.42)
        top = y + (height - 2 * line_h) / 2
        for j, (line, tint) in enumerate(((first, color or INK), (second, MUTED))):
            self.set_xy(x, top + j * line_h)
            self.fitted(line, w, small if j == 0 else small - 1, style, smallest=6.0)
            self.set_text_color(*tint)
            self.cell(w, line_h, self.clip(line, w), align=align)
        self.set_xy(x + w, y)

    def head_row(
        self,
        widths: Sequence[float],
        cells: Sequence[str],
        height: float,
        *,
        size: float = 8.5,
        aligns: Sequence[Align] | None = None,
        fill: tuple[int, int, int] = HEAD_FILL,
        x: float = MARGIN,
    ) -> None:
        """A heading row from ``x``: bold, filled, cells on one or more lines (split on newlines).

        The cursor goes to the left margin under the row.
        """
        y = self.get_y()
        self.set_fill_color(*fill)
        for i, (w, value) in enumerate(zip(widths, cells, strict=True)):
            self.rect(x, y, w, height, style="DF")
            lines = value.split("\n")
            line_h = size * 0.45
            top = y + (height - line_h * len(lines)) / 2
            for j, line in enumerate(lines):
                self.set_xy(x, top + j * line_h)
                self.fitted(line, w, size, "B")
                self.cell(w, line_h, self.clip(line, w),
                          align=aligns[i] if aligns is not None else "C")
            x += w
        self.set_xy(MARGIN, y + height)

    def section(self, title: str) -> None:
        """A section heading in the accent colour."""
        self.set_x(MARGIN)
        self.set_font(FONT, "B", 12)
        self.set_text_color(*ACCENT)
        self.cell(0, 7, title, new_x=XPos.LMARGIN, new_y=YPos.NEXT)
        self.set_text_color(*INK)

    def paragraph(self, value: str, size: float = 8.5, color: tuple[int, int, int] = MUTED
                  ) -> None:
        """Wrapped small text across the body width."""
        self.set_x(MARGIN)
        self.set_font(FONT, "", size)
        self.set_text_color(*color)
        self.multi_cell(self.body_width, size * 0.45, value, align="L",
                        new_x=XPos.LMARGIN, new_y=YPos.NEXT)
        self.set_text_color(*INK)

    def pdf_bytes(self) -> bytes:
        return bytes(self.output())
