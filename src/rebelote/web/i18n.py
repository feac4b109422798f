"""French and English on the pages: the language of a request, translated result-card lines
and errors.

The words come from the project's one translation system, :mod:`rebelote.catalogs` (the
gettext catalogs ``rebelote/locale/{fr,en}``), which the PDF sheets and the CSV headers read
too. French is the default; the choice is remembered in a cookie.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final

from starlette.requests import Request

from rebelote.cards import TEAMS
from rebelote.catalogs import colon, number
from rebelote.catalogs import gettext as gettext
from rebelote.catalogs import signed as signed
from rebelote.match import DEFAULT_TEAMS
from rebelote.numbers import is_digits
from rebelote.scoring import LineKey, MarkCase, ResultLine
from rebelote.summary import DealSummary

LANGS: Final = ("fr", "en")
DEFAULT_LANG: Final = "fr"
COOKIE: Final = "rebelote_lang"


def check_lang(value: object) -> str | None:
    """``value`` if it is a language of the app, else ``None``."""
    return value if isinstance(value, str) and value in LANGS else None


def request_lang(request: Request) -> str:
    """The language of a request: ``?lang=``, else the cookie, else French."""
    return (check_lang(request.query_params.get("lang"))
            or check_lang(request.cookies.get(COOKIE)) or DEFAULT_LANG)


# -- outcomes and result-card lines ------------------------------------------------------------
def _(message: str) -> str:
    """Marks a message for extraction; translated later by :func:`gettext`."""
    return message


TRUMPS: Final[tuple[str, ...]] = (
    _("spades"), _("hearts"), _("diamonds"), _("clubs"), _("no-trump"), _("all-trump"),
)

# No-trump and all-trump on a button: SA and TA in French.
TRUMP_SHORT: Final = (_("NT"), _("AT"))

CONTRACT_WORDS: Final[Mapping[str, str]] = {"capot": _("capot"), "generale": _("générale")}

# Result-card sentences, keyed by the core's LineKey (and the mark line by its MarkCase).
# %(NS)s and %(EW)s are the team names, %(taker)s and %(defense)s the names of the deal's takers
# and defense, %(team)s a team named by the line; other names are the line's arguments.
LINES: Final[Mapping[LineKey, str]] = {
    LineKey.VOID: _("Deal voided by passes: nothing is marked."),
    LineKey.HELD_OVER: _("The litige reserve of %(reserve)s waits for the next played deal."),
    LineKey.ADJUST: _("Correction: the points it names are marked."),
    LineKey.CAPOT: _("%(team)s won all eight tricks (capot): the last trick is worth 100."),
    LineKey.TRICKS: _("Trick points, with the dix de der."),
    LineKey.DECLARATIONS: _("Declarations: %(team)s showed the strongest and scores all of "
                            "its own."),
    LineKey.BELOTE: _("Belote-rebelote, kept whatever happens."),
    LineKey.TOTAL: _("Totals: points, declarations and belote."),
    LineKey.CONTRACT: _("Contract %(contract)s by %(taker)s: %(result)s."),
    LineKey.MARK: _("Marks of the deal."),
    LineKey.ROUNDING: _("Rounded to the nearest ten (5 up)."),
    LineKey.SCORE: _("Marks of the deal."),
    LineKey.LAST_DEAL_EXACT: _("The last deal of the game is counted exactly (no rounding)."),
}
HELD_OVER_TO_TEAM: Final = _("The litige reserve of %(reserve)s goes to %(team)s.")
CONTRACT_RESULTS: Final = (_("failed"), _("made"))
MARKS: Final[Mapping[MarkCase, str]] = {
    MarkCase.MADE: _("Made: each team marks its total (%(taker)s %(taker_mark)s, %(defense)s "
                     "%(defense_mark)s)."),
    MarkCase.FAILED: _("%(taker)s dedans: %(defense)s marks %(total)s + declarations %(decl)s "
                       "+ its belote %(belote)s = %(defense_mark)s; %(taker)s keeps its "
                       "belote."),
    MarkCase.CAPOT: _("%(taker)s capot: %(points)s + belote %(belote)s + declarations "
                      "%(decl)s = %(taker_mark)s; %(defense)s keeps its belote."),
    MarkCase.LITIGE: _("Litige: %(defense)s marks its total; the reserve of %(taker)s "
                       "(%(reserve)s) is held over for the winner of the next deal."),
    MarkCase.LITIGE_DEFENSE: _("Litige: %(defense)s takes the whole deal, %(total)s + "
                               "declarations %(decl)s + its belote %(belote)s = "
                               "%(defense_mark)s."),
    MarkCase.MADE_MULTIPLIED: _("Made, coinched: %(taker)s marks (%(base)s + declarations "
                                "%(decl)s + contract %(contract)s) × %(multiplier)s"
                                "%(plus_belote)s = %(taker_mark)s; %(defense)s keeps only its "
                                "belote."),
    MarkCase.CAPOT_MULTIPLIED: _("Capot, coinched: %(taker)s marks (capot %(base)s + "
                                 "declarations %(decl)s + contract %(contract)s) × "
                                 "%(multiplier)s%(plus_belote)s = %(taker_mark)s; "
                                 "%(defense)s keeps only its belote."),
    MarkCase.BID_MADE: _("Made, contract points: %(taker)s marks the contract "
                         "%(taker_mark)s; %(defense)s marks nothing."),
    MarkCase.BID_FAILED: _("Failed, contract points: %(defense)s marks %(defense_mark)s "
                           "(%(fall)s and the contract %(contract)s)."),
    MarkCase.CAPOT_PRIME: _("Capot bid and made: %(taker)s marks the capot bonus %(prime)s "
                            "with the declarations and its belote: %(taker_mark)s."),
}
# A made contract in coinche marks the contract too; the sum is shown.
MADE_WITH_CONTRACT: Final = _("Made: %(taker)s marks its total %(total)s + the contract "
                              "%(contract)s = %(taker_mark)s; %(defense)s marks its total "
                              "%(defense_mark)s.")
CAPOT_WITH_CONTRACT: Final = _("%(taker)s capot: %(capot)s + belote %(belote)s + "
                               "declarations %(decl)s + contract %(contract_name)s "
                               "%(contract)s = %(taker_mark)s; %(defense)s keeps its belote.")
GENERALE_WITH_CONTRACT: Final = _("%(taker)s made the générale (every trick by one player): "
                                  "%(capot)s + belote %(belote)s + declarations %(decl)s + "
                                  "contract générale %(contract)s = %(taker_mark)s; "
                                  "%(defense)s keeps its belote.")
FAILED_WITH_CONTRACT: Final = _("Failed: %(defense)s marks %(fall)s + contract %(contract)s "
                                "+ declarations %(decl)s%(plus_belote)s = %(defense_mark)s; "
                                "%(taker)s keeps its belote.")
FAILED_MULTIPLIED: Final = _("Failed, coinched: %(defense)s marks (%(fall)s + contract "
                             "%(contract)s + declarations %(decl)s) × %(multiplier)s"
                             "%(plus_belote)s = %(defense_mark)s; %(taker)s keeps its belote.")
UNEVEN: Final = _("%(taker)s marks %(taker_mark)s, %(defense)s marks %(defense_mark)s "
                  "(coinche counted on some parts only).")


def _template(line: ResultLine, args: Mapping[str, object]) -> str:
    """The sentence (English, to translate) of a line."""
    if line.key == LineKey.HELD_OVER and "team" in args:
        return HELD_OVER_TO_TEAM
    if line.key != LineKey.MARK:
        return LINES[line.key]
    case = MarkCase(str(args.get("case", MarkCase.MADE)))
    if args.get("even") is False:
        return UNEVEN
    if case == MarkCase.MADE and args.get("contract"):
        return MADE_WITH_CONTRACT
    if case == MarkCase.CAPOT and "contract" in args:
        return CAPOT_WITH_CONTRACT
    if case == MarkCase.FAILED and "fall" in args:
        return FAILED_MULTIPLIED if args.get("multiplier", 1) != 1 else FAILED_WITH_CONTRACT
    return MARKS[case]


#: The teams as the result card's sentences name them when they keep their default names: "Nous"
#: and "Eux" are pronouns, which sentences written in the third person do not fit ("Nous
#: marque", "Eux a montré").
SAID_TEAMS: Final = (_("our team"), _("the other team"))
#: Any other team name, as the subject or object of a sentence: "Les As marque" and "va à Les
#: As" are wrong whatever the verb, "l’équipe « Les As » marque" and "va à l’équipe « Les As »"
#: are right whatever the name.
SAID_TEAM: Final = _("the team “%(team)s”")


def said_teams(teams: tuple[str, str], lang: str) -> tuple[str, str]:
    """The names the result card's sentences give the teams, which agree with any verb and
    follow any preposition: for the default "Nous" and "Eux", "notre équipe" and "l’équipe
    adverse"; any other name as "l’équipe « Les As »" (in ``lang``).

    >>> said_teams(("Nous", "Eux"), "fr")
    ('notre équipe', 'l’équipe adverse')
    >>> said_teams(("Les As", "Eux"), "fr")
    ('l’équipe\xa0«\xa0Les As\xa0»', 'l’équipe\xa0«\xa0Eux\xa0»')
    """
    if tuple(teams) == DEFAULT_TEAMS:
        return gettext(lang, SAID_TEAMS[0]), gettext(lang, SAID_TEAMS[1])
    return (gettext(lang, SAID_TEAM) % {"team": teams[0]},
            gettext(lang, SAID_TEAM) % {"team": teams[1]})


def sentence(text: str) -> str:
    """A line of text starting with a capital ("L’équipe adverse dedans : ...")."""
    return text[:1].upper() + text[1:]


def line_text(line: ResultLine, lang: str, deal: DealSummary, teams: tuple[str, str]) -> str:
    """A result-card line in ``lang``, with the team names; the core's sentence if the line is
    of a kind this page does not know."""
    args: dict[str, object] = dict(line.args)
    try:
        template = _template(line, args)
    except (KeyError, ValueError):
        return line.text
    names: dict[str, str] = dict(zip(TEAMS, teams, strict=True))
    values: dict[str, object] = {**args, "NS": teams[0], "EW": teams[1]}
    for name in ("team", "taker"):
        if isinstance(args.get(name), str) and args[name] in names:
            values[name] = names[str(args[name])]
    if deal.taker is not None:
        values["taker"] = names[deal.taker]
        values["defense"] = names["EW" if deal.taker == "NS" else "NS"]
    raw = deal.contract
    name = (gettext(lang, CONTRACT_WORDS[raw]) if isinstance(raw, str)
            and raw in CONTRACT_WORDS else str(raw))
    if line.key == LineKey.CONTRACT:
        values["contract"] = f"{name} ({args['value']})" if isinstance(raw, str) else name
        values["result"] = gettext(lang, CONTRACT_RESULTS[bool(args.get("made"))])
    values["contract_name"] = name if isinstance(raw, str) else ""
    belote = args.get("belote")
    times = args.get("belote_times", 1)
    # a coinched belote is written with its multiplier ("+ belote 20 × 2"): "+ belote 40" reads
    # as a belote worth 40
    values["plus_belote"] = ("" if not isinstance(belote, int) or not belote
                             else f" + belote {belote // times} × {times}"
                             if isinstance(times, int) and times > 1 and belote % times == 0
                             else f" + belote {belote}")
    # the générale's sentence for a générale contract only: a 160 made by one player alone is
    # a capot of a 160 (its mark counts the capot), not a "contract générale 160"
    if template == CAPOT_WITH_CONTRACT and deal.generale and raw == "generale":
        template = GENERALE_WITH_CONTRACT
    try:
        text = gettext(lang, template) % values
    except (KeyError, TypeError, ValueError):
        return line.text
    return text.replace("  ", " ")  # "contract %(contract_name)s %(contract)s" of a number


# -- errors of the deal form, in the page's language -------------------------------------------
FIELD_NAMES: Final[Mapping[str, str]] = {
    "kind": _("Kind of line"), "taker": _("Taker"), "trump": _("Trump"),
    "contract": _("Contract"), "coinche": _("Coinche"), "capot": _("Capot"),
    "generale": _("Générale"), "points": _("Points"), "declarations": _("Declarations"),
    "belote": _("Belote-rebelote"), "adjust": _("Correction"), "deals": _("Game"),
    "target": _("Target"), "teams": _("Team name"), "If-Match": _("Game"),
    "dealer": _("First dealer"), "players": _("Players"),
}
# The badge of a deal with a belote (the others are contract and coinche words).
BELOTE_BADGE: Final = _("belote")
# (field pattern, reason pattern, sentence): the first match gives the sentence, formatted with
# the reason's named groups; %(field)s is the field's name.
ERRORS: Final[tuple[tuple[str, str, str], ...]] = (
    (r"points(\.\w+)?", r"(?P<v>-?\d+) is more than the (?P<n>\d+) of a deal.*",
     _("%(field)s: %(v)s is more than the %(n)s points of a deal.")),
    (r"points", r"(?P<a>\d+) \+ (?P<b>\d+) = (?P<v>\d+), a deal has (?P<n>\d+)",
     _("%(field)s: %(a)s + %(b)s = %(v)s, but a deal has %(n)s points.")),
    (r"points(\.\w+)?", r"missing.*",
     _("%(field)s: give the takers' trick points, dix de der included.")),
    (r"[\w.]+", r"'(?P<v>[^']*)' is not a whole number",
     _("%(field)s: “%(v)s” is not a whole number.")),
    (r"taker", r"(missing|choose).*", _("%(field)s: choose the team that took.")),
    (r"trump", r"missing.*", _("%(field)s: choose the trump.")),
    (r"contract", r"missing.*", _("%(field)s: choose a contract: 80 to 160, capot or "
                                  "générale.")),
    (r"generale", r"a générale is a contract.*",
     _("%(field)s: a générale is a contract: choose générale as the contract.")),
    (r"capot", r"a générale is won.*",
     _("%(field)s: a générale is won by the takers' capot: choose capot by the takers.")),
    (r"declarations(\.\w+)?", r"(?P<v>\d+) is not a sum of declarations.*",
     _("%(field)s: %(v)s is not a sum of declarations (20, 50, 100, 150, 200…).")),
    (r"(deals\[\d+\]\.)?adjust\.\w+", r"(?P<v>-?\d+) is beyond a correction's ±(?P<n>\d+).*",
     _("%(field)s: %(v)s is more than a correction can mark (±%(n)s points).")),
    (r"adjust", r"give the points.*", _("%(field)s: give the points of at least one team.")),
    (r"deals", r"the game is over.*", _("%(field)s: the game is over; start a new game, or "
                                        "edit or undo a deal.")),
    (r"deals", r"the concours closed partie (?P<k>\d+).*",
     _("%(field)s: the concours has closed partie %(k)s; this table's result stays as the "
       "concours has it. Ask the organiser to correct it.")),
    (r"deals", r"the organiser entered the result of table (?P<t>\d+).*",
     _("%(field)s: the organiser has entered the result of table %(t)s; ask the organiser to "
       "correct it.")),
    (r"target", r"a concours table plays to the concours's target.*",
     _("%(field)s: a concours table plays to the concours's target; it does not change on "
       "the phone.")),
    (r"deals", r"(?P<v>\d+) deals is more than.*",
     _("%(field)s: a game holds at most 500 deals (a real game has a few dozen); start a new "
       "game.")),
    (r"belote", r"there is no belote in no-trump",
     _("%(field)s: there is no belote in no-trump.")),
    (r"rate", r"too many tables started from your address: try again in (?P<s>\d+) s",
     _("Too many tables started from your address: try again in %(s)s s.")),
)


def error_text(field: str, reason: str, lang: str) -> str:
    """An input error of the core (``field``, ``reason``, in English) as a sentence in
    ``lang`` naming the field as the page does.

    >>> error_text("points.EW", "170 is more than the 162 of a deal", "fr")
    'Points\\xa0: 170 dépasse les 162 points d’une donne.'
    >>> error_text("taker", "missing: the team that took, NS or EW", "en")
    'Taker: choose the team that took.'
    """
    import re

    root = re.split(r"[.\[]", field, maxsplit=1)[0] if field else ""
    if field.startswith("deals[") and ".adjust." in field:
        root = "adjust"
    known = FIELD_NAMES.get(root, FIELD_NAMES.get(field, ""))
    name = gettext(lang, known) if known else field  # gettext("") is the catalog's header
    for field_re, reason_re, sentence in ERRORS:
        found = re.fullmatch(reason_re, reason)
        if found and re.fullmatch(field_re, field):
            values = {k: number(int(v), lang) if is_digits((v or "").removeprefix("-")) else v
                      for k, v in found.groupdict().items()}
            return gettext(lang, sentence) % {**values, "field": name}
    return f"{name}{colon(lang)} {reason}"
