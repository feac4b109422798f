"""The words of a concours's pages and printables: the gettext domain ``concours``
(``rebelote/locale/*/LC_MESSAGES/concours.po``), with the project's ``rebelote`` catalog behind
it. Apart from :mod:`rebelote.sheets.concours` so that the web pages read them without
importing fpdf2 (a fifth of a server's start)."""

from __future__ import annotations

from typing import Final

from rebelote.catalogs import gettext as base_gettext
from rebelote.catalogs import translations

__all__ = ["DOMAIN", "ntr", "tr"]

DOMAIN: Final = "concours"


def tr(lang: str, message: str) -> str:
    """``message`` (English) in ``lang``: the concours's catalog, else the project's."""
    found = translations(lang, DOMAIN).gettext(message)
    return found if found != message else base_gettext(lang, message)


def ntr(lang: str, singular: str, plural: str, n: int) -> str:
    """The form of ``singular``/``plural`` (English) that the count ``n`` takes in ``lang``:
    the concours's catalog, else the project's ("1 partie", "2 parties")."""
    found = translations(lang, DOMAIN).ngettext(singular, plural, n)
    if found not in (singular, plural) or lang == "en":
        return found
    return translations(lang).ngettext(singular, plural, n)
