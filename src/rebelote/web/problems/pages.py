"""The problems' pages (*Exercices*): ``/exercices`` (the problem of the day, the problems by
difficulty) and ``/exercices/{id}`` (a position: the player picks a card among the legal ones,
then reads whether it was the best, each card's mark over the worlds it could imagine, what the
search knew and why; the real deal's double-dummy marks beside).

Read-only and public: every page is read from the set in memory (no search, no store), each
input bounded (an id's pattern, a card among the problem's legal ones, a difficulty among
three, a page number); a wrong one is a 404 or a 422 page that says which and why, never a
500. No page holds a card its reader could not see before picking: the hidden hands are not
in the set at all, and the answer's figures appear only once a card is picked. Words come
from the ``problems`` gettext domain, the project's catalog behind it.
"""

from __future__ import annotations

import datetime
import re
from collections import OrderedDict
from collections.abc import Mapping
from typing import Any, Final

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse
from jinja2 import Environment

from rebelote.bots.explain import Explanation
from rebelote.bots.problems import LEVELS
from rebelote.cards import RANKS, SEATS, SUITS, parse_card
from rebelote.catalogs import gettext as base_gettext
from rebelote.catalogs import translations
from rebelote.rules import TRUMP_NAMES, Rules, seat_step, trick_winner
from rebelote.web.i18n import request_lang
from rebelote.web.problems.service import ProblemSet, shipped
from rebelote.web.render import Templates
from rebelote.web.security import bearer

__all__ = ["DOMAIN", "PER_PAGE", "router", "tr"]

#: The pages' own gettext domain (``rebelote/locale/*/LC_MESSAGES/problems.po``).
DOMAIN: Final = "problems"
#: Problems listed on a page of one difficulty.
PER_PAGE: Final = 40
#: Problems of each difficulty on the first page.
FIRST: Final = 8
_MOST_PAGES: Final = 1000


def tr(lang: str, message: str) -> str:
    """``message`` (English) in ``lang``: the problems' catalog, else the project's."""
    found = translations(lang, DOMAIN).gettext(message)
    return found if found != message else base_gettext(lang, message)


def ntr(lang: str, singular: str, plural: str, n: float) -> str:
    """The form of ``singular``/``plural`` (English) that the count ``n`` takes in ``lang``
    (a mark of 1.5 points is "1,5 point" in French: the form of its whole part)."""
    count = int(abs(n))
    found = translations(lang, DOMAIN).ngettext(singular, plural, count)
    if found not in (singular, plural) or lang == "en":
        return found
    return translations(lang).ngettext(singular, plural, count)


def _(message: str) -> str:
    return message


LEVEL_WORDS: Final[Mapping[str, str]] = {"facile": _("Easy"), "moyen": _("Medium"),
                                         "difficile": _("Hard")}
SEAT_WORDS: Final = (_("North"), _("East"), _("South"), _("West"))
_SUIT_SYMBOL: Final = dict(zip(SUITS, ("♠", "♥", "♦", "♣"), strict=True))
_TRUMP_SHOWN: Final = {"spades": "♠", "hearts": "♥", "diamonds": "♦", "clubs": "♣",
                       "no-trump": "SA", "all-trump": "TA"}
_TRUMP_SHOWN_EN: Final = {**_TRUMP_SHOWN, "no-trump": "NT", "all-trump": "AT"}
_RANK_SHOWN: Final = {"fr": dict(zip(RANKS, ("7", "8", "9", "10", "V", "D", "R", "A"),
                                     strict=True)),
                      "en": dict(zip(RANKS, ("7", "8", "9", "10", "J", "Q", "K", "A"),
                                     strict=True))}
_RANK_WORDS: Final = {"fr": dict(zip(RANKS, ("sept", "huit", "neuf", "dix", "valet", "dame",
                                             "roi", "as"), strict=True)),
                      "en": dict(zip(RANKS, ("seven", "eight", "nine", "ten", "jack", "queen",
                                             "king", "ace"), strict=True))}
_SUIT_WORDS: Final = {"fr": dict(zip(SUITS, ("pique", "cœur", "carreau", "trèfle"),
                                     strict=True)),
                      "en": dict(zip(SUITS, ("spades", "hearts", "diamonds", "clubs"),
                                     strict=True))}
_CALL_WORDS: Final = {"pass": _("pass"), "coinche": _("coinche"),
                      "surcoinche": _("surcoinche"), "take": _("take"), "capot": _("capot"),
                      "generale": _("générale")}


def card_face(card: str, lang: str) -> str:
    """A card as printed on it: ``V♥``, ``10♠`` (``J♥`` in English)."""
    return _RANK_SHOWN[_lang(lang)][card[0]] + _SUIT_SYMBOL[card[1]]


def card_words(card: str, lang: str) -> str:
    """A card as a screen reader says it: ``valet de cœur``, ``jack of hearts``."""
    lang = _lang(lang)
    rank, suit = _RANK_WORDS[lang][card[0]], _SUIT_WORDS[lang][card[1]]
    return f"{rank} de {suit}" if lang == "fr" else f"{rank} of {suit}"


def call_text(call: str, lang: str) -> str:
    """A call as the page writes it: ``90 ♦``, ``passe``, ``capot ♠``."""
    shown = _TRUMP_SHOWN if _lang(lang) == "fr" else _TRUMP_SHOWN_EN
    words = []
    for word in call.split():
        if word in shown:
            words.append(shown[word])
        elif word in _CALL_WORDS:
            words.append(tr(lang, _CALL_WORDS[word]))
        else:
            words.append(word)
    return " ".join(words)


def mark_text(value: float, lang: str, sign: bool = True) -> str:
    """A mark to the tenth, signed, with a decimal comma in French and a true minus."""
    text = f"{abs(value):.1f}".removesuffix(".0")
    if _lang(lang) == "fr":
        text = text.replace(".", ",")
    if value < 0:
        return "−" + text
    return ("+" if sign and value > 0 else "") + text


def _lang(lang: str) -> str:
    return "en" if lang == "en" else "fr"


def _helpers(env: Environment, lang: str) -> None:
    env.install_gettext_callables(  # type: ignore[attr-defined]
        gettext=lambda m: tr(lang, m),
        ngettext=lambda s, p, n: ntr(lang, s, p, n), newstyle=True)
    env.globals.update(
        LEVELS=LEVELS, LEVEL_WORDS=LEVEL_WORDS,
        card_face=lambda c: card_face(c, lang), card_words=lambda c: card_words(c, lang),
        call_text=lambda c: call_text(c, lang),
        mark=lambda v, sign=True: mark_text(v, lang, sign),
        seat_name=lambda s: tr(lang, SEAT_WORDS[SEATS.index(s)]),
        is_red=lambda c: c[1] in ("H", "D"))


#: The pages of the problems: read-only; a browser may keep one five minutes (the language
#: is the cookie's, so no shared cache keeps them).
templates = Templates(_helpers, headers={"Cache-Control": "private, max-age=300"})
router = APIRouter(include_in_schema=False)


def _number(problems: ProblemSet, pid: str) -> int:
    return next(i for i, p in enumerate(problems.problems, 1) if p["id"] == pid)


def _listed(problems: ProblemSet) -> dict[str, list[tuple[int, Mapping[str, Any]]]]:
    out: dict[str, list[tuple[int, Mapping[str, Any]]]] = {level: [] for level in LEVELS}
    for i, p in enumerate(problems.problems, 1):
        out.setdefault(p["level"], []).append((i, p))
    return out


@router.get("/exercices", response_class=HTMLResponse)
async def index(request: Request, niveau: str | None = None, page: str | None = None
                ) -> HTMLResponse:
    """The problem of the day and the problems by difficulty; ``?niveau=`` one difficulty's
    problems, :data:`PER_PAGE` a page (``&page=``)."""
    problems = shipped()
    lang = request_lang(request)
    listed = _listed(problems)
    today = datetime.date.today()
    day = problems.of_day(today)
    if niveau is None and page is None:
        return templates.render(request, "problems/index.html", listed=listed, level=None,
                                day=day, day_number=_number(problems, day["id"]) if day
                                else 0, total=len(problems.problems), first=FIRST)
    if niveau not in LEVELS:
        error = tr(lang, "Difficulty: one of easy, medium, hard (facile, moyen, difficile).")
        return templates.render(request, "problems/missing.html", 422, error=error)
    items = listed[niveau]
    pages = max(1, -(-len(items) // PER_PAGE))
    number = page or "1"
    if not re.fullmatch(r"[0-9]{1,4}", number) or not 1 <= int(number) <= min(pages,
                                                                               _MOST_PAGES):
        error = tr(lang, "Page: a whole number from 1 to %(n)s.") % {"n": pages}
        return templates.render(request, "problems/missing.html", 422, error=error)
    k = int(number)
    return templates.render(request, "problems/level.html", level=niveau, page=k, pages=pages,
                            items=items[(k - 1) * PER_PAGE:k * PER_PAGE])


def _step(position: Mapping[str, Any]) -> int:
    try:
        return seat_step(Rules.preset(position.get("rules"), position["game"]))
    except (ValueError, KeyError):
        return 1


def _tricks(position: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The finished tricks, each card by its seat, the leader and the winner named."""
    trump = TRUMP_NAMES.index(position["trump"])
    step = _step(position)
    out = []
    for n, trick in enumerate(position["tricks"], 1):
        lead = SEATS.index(trick[0])
        cards = trick[1:]
        win = trick_winner([parse_card(c) for c in cards], trump)
        out.append({"n": n, "lead": trick[0],
                    "by_seat": {SEATS[(lead + i * step) % 4]: c for i, c in enumerate(cards)},
                    "winner": SEATS[(lead + win * step) % 4]})
    return out


def _current(position: Mapping[str, Any]) -> list[tuple[str, str]]:
    """The trick being played: (seat, card) in the order played."""
    lead, *cards = position["trick"]
    step = _step(position)
    first = SEATS.index(lead)
    return [(SEATS[(first + i * step) % 4], c) for i, c in enumerate(cards)]


def _missing(request: Request) -> HTMLResponse:
    return templates.render(request, "problems/missing.html", 404, error=None)


@router.get("/exercices/{pid}", response_class=HTMLResponse)
async def problem(request: Request, pid: str, carte: str | None = None) -> HTMLResponse:
    """A problem; with ``?carte=`` (one of its legal cards) its answer and explanation."""
    problems = shipped()
    got = problems.get(pid)
    if got is None:
        return _missing(request)
    lang = request_lang(request)
    position = got["position"]
    legal = list(position["legal"])
    picked, error = _picked(got, carte, lang)
    context: dict[str, Any] = {
        "p": got, "pos": position, "number": _number(problems, got["id"]), "legal": legal,
        "base": f"/exercices/{got['id']}",
        "tricks": _tricks(position), "current": _current(position), "picked": picked,
        "error": error, "partner": SEATS[(SEATS.index(position["seat"]) + 2) % 4],
    }
    _answer(context, got, picked, lang)
    if picked is not None:
        nxt = _next(problems, got)
        context["next"] = None if nxt is None else f"/exercices/{nxt['id']}"
    return templates.render(request, "problems/problem.html", 422 if error else 200,
                            **context)


def _picked(got: Mapping[str, Any], carte: str | None, lang: str) -> tuple[str | None,
                                                                           str | None]:
    """The card picked (one of the position's legal ones) or the error that says why not."""
    if carte is None:
        return None, None
    legal = list(got["position"]["legal"])
    wanted = carte.strip().upper()[:4]
    if wanted in legal:
        return wanted, None
    return None, tr(lang, "Card: pick one of the cards you may play (%(cards)s).") % {
        "cards": ", ".join(card_face(c, lang) for c in legal)}


def _answer(context: dict[str, Any], got: Mapping[str, Any], picked: str | None,
            lang: str) -> None:
    if picked is not None:
        why = Explanation.from_record(got["explanation"])
        marks = {c["card"]: c["mark"] for c in got["cards"]}
        # a card of the best mark is right (a costly card's problem may have ties)
        right = marks.get(picked, float("-inf")) >= max(marks.values()) - 1e-9
        context.update(right=right, why=why.why_text(lang),
                       knew=why.knew(lang), cards=got["cards"])


# -- vos cartes coûteuses: the costly cards of a seat's finished deal at the play table ----
#: The problems of (table, deal, seat) found already (each is one search of a few seconds in
#: the bots' pool; the least recently asked forgotten past :data:`KEPT`).
_COSTLY: OrderedDict[tuple[str, int, int], list[dict[str, Any]]] = OrderedDict()
KEPT: Final = 256
_TABLE_ID: Final = re.compile(r"[A-Za-z0-9_-]{1,64}")


async def _costly(request: Request, table_id: str, n: int
                  ) -> tuple[list[dict[str, Any]] | None, str | None]:
    """The costly cards of the seat whose secret the request presents, in finished deal
    ``n`` of table ``table_id``, as problems; ``(None, None)`` for no such table, deal or
    seat (a 404, the same for all three); ``([], why)`` when the game has none to offer."""
    from rebelote.bots.problems import costly_problems
    from rebelote.store.play_tables import TableNotFoundError
    from rebelote.tableserver import SeatForbiddenError, TableService

    if not _TABLE_ID.fullmatch(table_id) or not 1 <= n <= 10_000:
        return None, None
    tables: TableService = request.app.state.tables
    try:
        loaded = await tables.repo.load(table_id)
        seat = tables.seat_of(loaded, bearer(request, table_id))
    except (TableNotFoundError, SeatForbiddenError):
        return None, None
    finished = loaded.table.replay.finished
    if not 1 <= n <= len(finished):
        return None, None
    key = (table_id, n, seat)
    got = _COSTLY.get(key)
    if got is None:
        final = finished[n - 1]
        if final.rules.game == "belote" or final.taker < 0:
            return [], tr(request_lang(request), "Only the coinche and contrée deals played "
                                                 "to the end are offered again.")
        got = await tables.bots.run(costly_problems, final, seat, n)
        _COSTLY[key] = got
        while len(_COSTLY) > KEPT:
            _COSTLY.popitem(last=False)
    _COSTLY.move_to_end(key)
    return got, None


@router.get("/exercices/table/{table_id}/{n}", response_class=HTMLResponse)
async def costly_list(request: Request, table_id: str, n: int) -> HTMLResponse:
    """*Vos cartes coûteuses*: the cards a seat played in finished deal ``n`` that cost marks
    and that what it could see would not have played, to replay; the seat's secret only."""
    got, why = await _costly(request, table_id, n)
    if got is None:
        return _missing(request)
    return templates.render(request, "problems/costly.html", items=list(enumerate(got, 1)),
                            why=why, table_id=table_id, n=n)


@router.get("/exercices/table/{table_id}/{n}/{k}", response_class=HTMLResponse)
async def costly_problem(request: Request, table_id: str, n: int, k: int,
                         carte: str | None = None) -> HTMLResponse:
    """One of them, played as a problem."""
    got, _why = await _costly(request, table_id, n)
    if not got or not 1 <= k <= len(got):
        return _missing(request)
    lang = request_lang(request)
    p = got[k - 1]
    picked, error = _picked(p, carte, lang)
    position = p["position"]
    base = f"/exercices/table/{table_id}/{n}"
    context: dict[str, Any] = {
        "p": p, "pos": position, "number": k, "legal": list(position["legal"]),
        "base": f"{base}/{k}", "tricks": _tricks(position), "current": _current(position),
        "picked": picked, "error": error, "own": True,
        "partner": SEATS[(SEATS.index(position["seat"]) + 2) % 4],
        "next": f"{base}/{k + 1}" if k < len(got) else None,
    }
    _answer(context, p, picked, lang)
    return templates.render(request, "problems/problem.html", 422 if error else 200,
                            **context)


def _next(problems: ProblemSet, current: Mapping[str, Any]) -> Mapping[str, Any] | None:
    """The next problem of the same difficulty (the first after the last)."""
    same = [p for p in problems.problems if p["level"] == current["level"]]
    if len(same) < 2:
        return None
    i = next(k for k, p in enumerate(same) if p["id"] == current["id"])
    return same[(i + 1) % len(same)]
