"""French and English: gettext catalogs (Babel), the language of a request, translated
result-card lines and outcome names.

The catalogs are ``rebelote/locale/{fr,en}/LC_MESSAGES/rebelote.po``; the compiled ``.mo`` files
are shipped beside them, and a ``.po`` newer than its ``.mo`` (or without one) is compiled in
memory at start, so a fresh install always speaks both languages. French is the default; the
choice is remembered in a cookie.
"""

from __future__ import annotations

import io
from collections.abc import Mapping
from functools import cache
from importlib.resources import as_file, files
from pathlib import Path
from typing import Final

from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from babel.numbers import format_decimal
from babel.support import Translations
from starlette.requests import Request

from rebelote.cards import TEAMS
from rebelote.scoring import DealSummary, ResultLine

LANGS: Final = ("fr", "en")
DEFAULT_LANG: Final = "fr"
COOKIE: Final = "rebelote_lang"
DOMAIN: Final = "rebelote"


def _catalog_paths(lang: str) -> tuple[Path, Path]:
    with as_file(files("rebelote") / "locale" / lang / "LC_MESSAGES") as folder:
        return Path(folder) / f"{DOMAIN}.po", Path(folder) / f"{DOMAIN}.mo"


@cache
def translations(lang: str) -> Translations:
    """The gettext catalog of ``lang`` (``fr`` or ``en``)."""
    po, mo = _catalog_paths(lang)
    if mo.exists() and (not po.exists() or mo.stat().st_mtime >= po.stat().st_mtime):
        with mo.open("rb") as fp:
            return Translations(fp, domain=DOMAIN)
    if po.exists():
        with po.open("rb") as fp:
            catalog = read_po(fp, locale=lang, domain=DOMAIN)
        buffer = io.BytesIO()
        write_mo(buffer, catalog)
        buffer.seek(0)
        return Translations(buffer, domain=DOMAIN)
    return Translations(None, domain=DOMAIN)


def gettext(lang: str, message: str) -> str:
    """``message`` (English) in ``lang``."""
    return translations(lang).gettext(message)


def check_lang(value: object) -> str | None:
    """``value`` if it is a language of the app, else ``None``."""
    return value if isinstance(value, str) and value in LANGS else None


def request_lang(request: Request) -> str:
    """The language of a request: ``?lang=``, else the cookie, else French."""
    return (check_lang(request.query_params.get("lang"))
            or check_lang(request.cookies.get(COOKIE)) or DEFAULT_LANG)


def number(value: int, lang: str) -> str:
    """A mark as the language writes it (``1 030`` in French, ``1,030`` in English)."""
    return format_decimal(value, locale=lang)


# -- outcomes and result-card lines ------------------------------------------------------------
def _(message: str) -> str:
    """Marks a message for extraction; translated later by :func:`gettext`."""
    return message


OUTCOMES: Final[Mapping[str, str]] = {
    "made": _("made"),
    "failed": _("failed"),
    "litige": _("litige"),
    "void": _("passed"),
    "adjust": _("adjustment"),
}

TRUMPS: Final[tuple[str, ...]] = (
    _("spades"), _("hearts"), _("diamonds"), _("clubs"), _("no-trump"), _("all-trump"),
)

# No-trump and all-trump on a button: SA and TA in French.
TRUMP_SHORT: Final = (_("NT"), _("AT"))

CONTRACT_WORDS: Final[Mapping[str, str]] = {"capot": _("capot"), "generale": _("générale")}
COINCHE_WORDS: Final[Mapping[int, str]] = {1: "", 2: _("coinched ×2"), 4: _("surcoinched ×4")}

# Sentences by key (and case): %(NS)s and %(EW)s are the team names, %(taker)s and %(defense)s
# the names of the deal's takers and defense, other names are the line's arguments.
LINES: Final[Mapping[str, str]] = {
    "void": _("Deal voided by passes: nothing is marked."),
    "held_over": _("The litige reserve of %(reserve)s waits for the next played deal."),
    "held_over.team": _("The litige reserve of %(reserve)s goes to %(team)s."),
    "adjust": _("Adjustment (renonce or correction): the points it names are marked."),
    "capot": _("%(team)s won all eight tricks (capot): the last trick is worth 100."),
    "tricks": _("Trick points, with the dix de der."),
    "declarations": _("Declarations: %(team)s showed the strongest and scores all of its own."),
    "belote": _("Belote-rebelote, kept whatever happens."),
    "total": _("Totals: points, declarations and belote."),
    "contract.made": _("Contract %(contract)s by %(taker)s: made."),
    "contract.failed": _("Contract %(contract)s by %(taker)s: failed."),
    "mark.capot": _("%(taker)s capot: they mark the capot total, their belote and all the "
                    "declarations; %(defense)s keeps its belote."),
    "mark.failed.belote": _("%(taker)s dedans: %(defense)s marks the whole deal, all the "
                            "declarations and its belote; %(taker)s keeps its belote."),
    "mark.made.belote": _("Made: each team marks its total."),
    "mark.litige": _("Litige: %(defense)s marks its total; the %(reserve)s points of "
                     "%(taker)s are held over for the winner of the next deal."),
    "mark.litige_defense": _("Litige: %(defense)s takes the whole deal, all the declarations "
                             "and its belote."),
    "mark.made.coinche": _("Made: %(taker)s marks its total and the contract; %(defense)s "
                           "marks its total."),
    "mark.made_multiplied": _("Made, ×%(multiplier)s: %(taker)s marks the deal, all the "
                              "declarations, its belote and the contract, all × "
                              "%(multiplier)s; %(defense)s keeps only its belote."),
    "mark.failed.coinche": _("Failed: %(defense)s marks the deal, the contract, all the "
                             "declarations and its belote (× %(multiplier)s); %(taker)s keeps "
                             "its belote."),
    "rounding": _("Rounded to the nearest ten (5 up)."),
    "score": _("Marks of the deal."),
}


def _line_key(line: ResultLine, args: Mapping[str, object], deal: DealSummary) -> str:
    if line.key == "held_over" and "team" in args:
        return "held_over.team"
    if line.key == "contract":
        return "contract.made" if args.get("made") else "contract.failed"
    if line.key == "mark":
        case = str(args.get("case", ""))
        if case == "made" and deal.capot is not None and deal.capot == deal.taker:
            return "mark.capot"
        if case in ("made", "failed"):
            return f"mark.{case}.{deal.game}"
        return f"mark.{case}"
    return line.key


def line_text(line: ResultLine, lang: str, deal: DealSummary, teams: tuple[str, str]) -> str:
    """A result-card line in ``lang``, with the team names; the core's sentence if the line is
    of a kind this page does not know."""
    args: dict[str, object] = dict(line.args)
    key = _line_key(line, args, deal)
    template = LINES.get(key)
    if template is None:
        return line.text
    names: dict[str, str] = dict(zip(TEAMS, teams, strict=True))
    values: dict[str, object] = {**args, "NS": teams[0], "EW": teams[1]}
    for name in ("team", "taker"):
        if isinstance(args.get(name), str) and args[name] in names:
            values[name] = names[str(args[name])]
    if deal.taker is not None:
        values["taker"] = names[deal.taker]
        values["defense"] = names["EW" if deal.taker == "NS" else "NS"]
    if key.startswith("contract."):
        raw = deal.contract
        values["contract"] = (gettext(lang, CONTRACT_WORDS[raw]) if isinstance(raw, str)
                              and raw in CONTRACT_WORDS else str(raw))
    try:
        return gettext(lang, template) % values
    except (KeyError, TypeError, ValueError):
        return line.text
