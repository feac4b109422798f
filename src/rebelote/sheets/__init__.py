"""Printable sheets: the score sheet (*feuille de marque*) and the points table, as PDF bytes.

The PDF functions load fpdf2 when first used, so that importing the package (the command line
does, for every command) stays cheap.

>>> from rebelote.sheets import points_table_pdf
>>> points_table_pdf("en").startswith(b"%PDF")
True
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Final

MIN_ROWS: Final = 12
"""The fewest deal lines a score sheet page has."""
MAX_ROWS: Final = 24
"""The most deal lines a score sheet page has."""

if TYPE_CHECKING:
    from rebelote.sheets.points_table import points_table_pdf
    from rebelote.sheets.score_sheet import score_sheet_pdf


def __getattr__(name: str) -> Any:
    """``score_sheet_pdf`` and ``points_table_pdf``, imported on first use (PEP 562)."""
    if name == "score_sheet_pdf":
        from rebelote.sheets.score_sheet import score_sheet_pdf

        return score_sheet_pdf
    if name == "points_table_pdf":
        from rebelote.sheets.points_table import points_table_pdf

        return points_table_pdf
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = ["MAX_ROWS", "MIN_ROWS", "points_table_pdf", "score_sheet_pdf"]
