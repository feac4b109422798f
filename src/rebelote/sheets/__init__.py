"""Printable sheets: the score sheet (*feuille de marque*) and the points table, as PDF bytes.

>>> from rebelote.sheets import points_table_pdf
>>> points_table_pdf("en").startswith(b"%PDF")
True
"""

from __future__ import annotations

from rebelote.sheets.points_table import points_table_pdf
from rebelote.sheets.score_sheet import MAX_ROWS, MIN_ROWS, score_sheet_pdf

__all__ = ["MAX_ROWS", "MIN_ROWS", "points_table_pdf", "score_sheet_pdf"]
