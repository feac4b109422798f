"""The project's one translation system: the gettext catalogs ``rebelote/locale/{fr,en}``.

The pages, the PDF sheets and the CSV headers all read their words here: the pages by English
message (``gettext``), the sheets and files by key (``pgettext``, the key being the message's
context, since one English word may have two French ones). The compiled ``.mo`` files are
shipped beside the ``.po`` ones, and a ``.po`` newer than its ``.mo`` (or without one) is
compiled in memory at start, so a fresh install always speaks both languages.

>>> gettext("fr", "Deal %(n)s") % {"n": 3}
'Donne 3'
>>> pgettext("fr", "outcome.void", "passed"), pgettext("en", "outcome.void", "passed")
('passe', 'passed')
"""

from __future__ import annotations

import io
from functools import cache
from importlib.resources import as_file, files
from pathlib import Path
from typing import Final

from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from babel.numbers import format_decimal
from babel.support import Translations

LANGS: Final = ("fr", "en")
DOMAIN: Final = "rebelote"


def _catalog_paths(lang: str, domain: str) -> tuple[Path, Path]:
    with as_file(files("rebelote") / "locale" / lang / "LC_MESSAGES") as folder:
        return Path(folder) / f"{domain}.po", Path(folder) / f"{domain}.mo"


@cache
def translations(lang: str, domain: str = DOMAIN) -> Translations:
    """The gettext catalog of ``lang`` (``fr`` or ``en``) in ``domain`` (the project's, or a
    product's own, such as the concours's)."""
    po, mo = _catalog_paths(lang, domain)
    if mo.exists() and (not po.exists() or mo.stat().st_mtime >= po.stat().st_mtime):
        with mo.open("rb") as fp:
            return Translations(fp, domain=domain)
    if po.exists():
        with po.open("rb") as fp:
            catalog = read_po(fp, locale=lang, domain=domain)
        buffer = io.BytesIO()
        write_mo(buffer, catalog)
        buffer.seek(0)
        return Translations(buffer, domain=domain)
    return Translations(None, domain=domain)


def gettext(lang: str, message: str) -> str:
    """``message`` (English) in ``lang``."""
    return translations(lang).gettext(message)


def ngettext(lang: str, singular: str, plural: str, n: int) -> str:
    """The form of ``singular``/``plural`` (English) that the count ``n`` takes in ``lang``
    (French: 0 and 1 singular, "1 donne", "0 donne", "2 donnes")."""
    return translations(lang).ngettext(singular, plural, n)


def pgettext(lang: str, context: str, message: str) -> str:
    """``message`` (English) in ``lang``, as meant by ``context`` (a label's key)."""
    return str(translations(lang).pgettext(context, message))


def npgettext(lang: str, context: str, singular: str, plural: str, n: int) -> str:
    """:func:`ngettext` of a label (``context`` is its key)."""
    return str(translations(lang).npgettext(context, singular, plural, n))


#: French typography: the non-breaking space (U+00A0) before ``: ; ! ?`` and inside « », so that
#: a colon never starts a line ("Contrat 90 de l'équipe adverse / : réussi").
NBSP: Final = "\u00a0"


def colon(lang: str) -> str:
    """A colon as ``lang`` writes it after a word: ``"\u00a0:"`` in French, ``":"`` in English.

    >>> "Donneur" + colon("fr") + " Ouest", "Dealer" + colon("en") + " West"
    ('Donneur\xa0: Ouest', 'Dealer: West')
    """
    return NBSP + ":" if lang == "fr" else ":"


def number(value: int, lang: str) -> str:
    """A whole number as the language writes it (``1 030`` in French, ``1,030`` in English), a
    negative one with the minus sign (U+2212) rather than a hyphen. The pages, the sheets and
    the result cards all print their marks and totals through it.

    >>> number(-1030, "fr"), number(1030, "en"), number(-20, "en")
    ('−1\u202f030', '1,030', '−20')
    """
    text = format_decimal(abs(value), locale=lang)
    return "−" + text if value < 0 else text


def signed(value: int, lang: str) -> str:
    """A number with its sign (``+1 120``, ``−20``, ``+0``), as :func:`number` writes it.

    >>> signed(1120, "fr"), signed(-20, "en")
    ('+1\u202f120', '−20')
    """
    return number(value, lang) if value < 0 else "+" + number(value, lang)


__all__ = ["DOMAIN", "LANGS", "NBSP", "colon", "gettext", "ngettext", "npgettext", "number",
           "pgettext", "signed", "translations"]
