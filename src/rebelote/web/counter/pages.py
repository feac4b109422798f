"""The counter's pages (htmx): new game, the sheet, deal entry and editing, saved games.

Forms post to HTML routes beside the JSON API; each calls the same :class:`CounterService`
(the core scores, the store keeps). An htmx request gets the game's fragment back, a plain form
post a redirect, so the pages work without JavaScript too. Every write carries the version the
page showed: a game changed meanwhile on another phone is shown again, not overwritten.
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import Callable, Mapping
from typing import Any, Final
from urllib.parse import urlsplit

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from jinja2 import Environment
from starlette.concurrency import run_in_threadpool

from rebelote.cards import SEATS, TEAMS
from rebelote.errors import InputError, RulesError
from rebelote.match import DEFAULT_TEAMS, TARGETS
from rebelote.numbers import is_digits, optional_number
from rebelote.rules import (
    AUCTION_GAMES,
    BOOL_OPTIONS,
    CONTRACTS,
    OPTION_CHOICES,
    PRESETS,
    TRUMP_NAMES,
    Rules,
    option_from_text,
    parse_rules,
    parse_trump,
)
from rebelote.sheets.labels import text as label_text
from rebelote.sheets.rule_words import option_label, option_value, rules_name
from rebelote.sheets.words import outcome_word
from rebelote.store import GameConflictError, GameNotFoundError
from rebelote.web import i18n
from rebelote.web.counter.chances import chances
from rebelote.web.counter.deps import CounterDep, GameSecretDep
from rebelote.web.counter.forms import deal_from_form, form_from_deal
from rebelote.web.counter.printables import import_match
from rebelote.web.counter.service import CounterService, GameView
from rebelote.web.counter.stats import statistics
from rebelote.web.errors import DealNotFoundError, ForbiddenError, GameBusyError
from rebelote.web.render import Templates
from rebelote.web.security import KeyRing, is_https, parse_json
from rebelote.web.share import rules_from_query

GAME_COOKIE: Final = "rebelote_game"
#: The browser's choice to see the chances of winning (``on``; off by default).
CHANCES_COOKIE: Final = "rebelote_chances"
YEAR: Final = 365 * 24 * 3600
TRUMP_SYMBOLS: Final = ("♠", "♥", "♦", "♣", i18n.TRUMP_SHORT[0], i18n.TRUMP_SHORT[1])


def _helpers(env: Environment, lang: str) -> None:
    """What the counter's templates call: the game's lists, the rule sets' words, numbers."""
    env.globals.update(
        TEAMS=TEAMS, TARGETS=TARGETS, CONTRACTS=CONTRACTS, TRUMP_NAMES=TRUMP_NAMES,
        TRUMP_SYMBOLS=TRUMP_SYMBOLS, PRESETS=PRESETS, OPTION_GROUPS=OPTION_GROUPS,
        label=lambda key, **kw: label_text(lang, key, **kw),
        option_label=lambda key: option_label(lang, key),
        option_choices=lambda key: option_choices(lang, key),
        rules_name=lambda rules: rules_name(lang, rules),
        percent=lambda share: percent(float(share), lang),
    )
    env.filters["signed"] = lambda value: i18n.signed(int(value), lang)


#: The counter's templates (the base page and the counter's own), with its helpers.
templates = Templates(_helpers)


def is_htmx(request: Request) -> bool:
    """The request comes from htmx (it wants a fragment)."""
    return request.headers.get("HX-Request") == "true"


def _safe_next(value: str | None) -> str:
    """A local path to go back to (never another site)."""
    if not value:
        return "/"
    parts = urlsplit(value)
    if parts.scheme or parts.netloc or not value.startswith("/") or value.startswith("//"):
        return "/"
    return value


def _deal_label(view: GameView, n: int, lang: str) -> str:
    """What a sheet row says of deal ``n``: taker, contract, coinche, trump."""
    deal = view.match.deals[n - 1]
    if deal.kind != "deal" or deal.taker is None:
        return ""
    words = [view.match.teams[TEAMS.index(deal.taker)]]
    if deal.contract is not None:
        raw = deal.contract
        words.append(i18n.gettext(lang, i18n.CONTRACT_WORDS[raw])
                     if isinstance(raw, str) and raw in i18n.CONTRACT_WORDS else str(raw))
    words.append(i18n.gettext(lang, TRUMP_SYMBOLS[deal.trump]))
    if deal.coinche > 1:
        words.append(f"×{deal.coinche}")
    return " ".join(words)


SEAT_LABELS: Final = {"N": i18n._("North"), "E": i18n._("East"), "S": i18n._("South"),
                     "W": i18n._("West")}


def seat_label(view: GameView, seat: str, lang: str) -> str:
    """A seat as the page names it: the player's name if given, else North, East..."""
    return view.players.get(seat) or i18n.gettext(lang, SEAT_LABELS[seat])


def deal_badges(deal: Any, lang: str) -> list[str]:
    """The badges of a sheet row: capot, générale, belote, coinche or surcoinche."""
    if deal.kind != "deal":
        return []
    out = []
    if deal.generale:
        out.append(i18n.gettext(lang, i18n.CONTRACT_WORDS["generale"]))
    elif deal.capot is not None:
        out.append(i18n.gettext(lang, i18n.CONTRACT_WORDS["capot"]))
    if any(deal.belote):
        out.append(i18n.gettext(lang, i18n.BELOTE_BADGE))
    if deal.coinche > 1:
        word = "coinche" if deal.coinche == 2 else "surcoinche"  # both in the catalogs
        out.append(i18n.gettext(lang, word))
    return out


def sheet_rows(view: GameView, lang: str) -> list[dict[str, Any]]:
    """The sheet's rows: each deal's outcome, marks, running totals and result card."""
    rows = []
    dealers = view.dealers
    said = i18n.said_teams(view.match.teams, lang)  # "notre équipe", not "Nous marque"
    for n, (deal, score, running) in enumerate(
        zip(view.match.deals, view.result.deals, view.result.running, strict=True), start=1
    ):
        rows.append({
            "badges": deal_badges(deal, lang),
            "dealer": (seat_label(view, dealers[n - 1], lang)
                       if dealers and deal.kind != "adjust" else None),
            "n": n,
            "kind": deal.kind,
            "label": _deal_label(view, n, lang),
            "outcome": score.outcome,
            "outcome_text": outcome_word(lang, score.outcome),
            "score": score.score,
            "running": running,
            "held_over": score.held_over,
            "lines": [
                {"text": i18n.sentence(i18n.line_text(line, lang, deal, said)),
                 "ns": line.ns, "ew": line.ew, "key": line.key}
                for line in score.lines
            ],
        })
    return rows


def new_deal_form(view: GameView) -> dict[str, str]:
    """The deal form of the next deal: the trump of the last played deal remembered (never a
    silent default: the first deal asks for it)."""
    played = [d for d in view.match.deals if d.kind == "deal"]
    return {"trump": TRUMP_NAMES[played[-1].trump]} if played else {}


# Where the deal form shows an error, by the field it names.
_ERROR_PLACES: Final = {
    "kind": "kind", "taker": "taker", "trump": "trump", "contract": "contract",
    "coinche": "contract", "capot": "capot", "generale": "capot", "points": "points",
    "cards": "points", "last_trick": "points", "declarations": "decl", "belote": "belote",
    "adjust": "adjust", "held_over": "kind",
}


def _error_place(field: str | None) -> str:
    """The part of the deal form next to which the error on ``field`` is shown (``top``: above
    the form)."""
    if not field:
        return "top"
    root = field.split(".")[0].split("[")[0]
    if field.startswith("deals[") and ".adjust" in field:
        root = "adjust"
    return _ERROR_PLACES.get(root, "top")


def deal_totals(rules: Rules) -> dict[str, int]:
    """The points of a deal in each trump mode, for the page's "defense gets the rest"."""
    return {name: rules.deal_total(parse_trump(name)) for name in TRUMP_NAMES}


def game_context(view: GameView, lang: str, form: Mapping[str, str] | None = None,
                 error: str | None = None, edit: int | None = None,
                 error_field: str | None = None,
                 odds: tuple[float, float] | None = None,
                 undone: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """Everything the game fragment shows. ``error_field``: the form field the error is about
    (the error is then shown next to it); ``odds``: the chances of winning, when shown;
    ``undone``: the deal a tap just removed or changed (``n``, ``deal``, ``changed``), which
    the page offers to put back."""
    if form is None:
        form = form_from_deal(view.match.deals[edit - 1]) if edit else new_deal_form(view)
    rules = view.match.rules
    return {
        "view": view,
        "match": view.match,
        "rules": rules,
        "result": view.result,
        "teams": view.match.teams,
        "rows": sheet_rows(view, lang),
        "form": form,
        "error": error,
        "error_at": _error_place(error_field) if error else None,
        "edit": edit,
        "deal_totals": deal_totals(rules),
        "winner_name": (view.match.teams[TEAMS.index(view.result.winner)]
                        if view.result.winner else None),
        "next_dealer": (seat_label(view, view.dealers[-1], lang)
                        if view.dealers and not view.is_over else None),
        "first_dealer": view.meta.get("dealer", ""),
        "players": view.players,
        "seats": [(seat, i18n.gettext(lang, SEAT_LABELS[seat]),
                   view.match.teams[0 if seat in "NS" else 1]) for seat in SEATS],
        "odds": odds,
        "undone": undone,
    }


def percent(share: float, lang: str) -> str:
    """A chance as the page writes it, never a sure 0 or 100 before the end."""
    value = round(share * 100)
    if share < 1 and value >= 100:
        return "> 99 %" if lang == "fr" else ">99%"
    if share > 0 and value <= 0:
        return "< 1 %" if lang == "fr" else "<1%"
    return f"{value} %" if lang == "fr" else f"{value}%"


def remember_game(request: Request, response: Response, game_id: str,
                  secret: str | None = None) -> None:
    """Mark ``game_id`` as this browser's last game (and keep its secret, when given)."""
    response.set_cookie(GAME_COOKIE, game_id, max_age=YEAR, samesite="lax", httponly=True,
                        secure=is_https(request))
    if secret is not None:
        KeyRing.of(request).add(game_id, secret).store(request, response)


def missing(request: Request, game_id: str, error: GameNotFoundError | ForbiddenError
            ) -> HTMLResponse:
    """The page of a game this browser cannot open: unknown (404), or without its secret
    (403)."""
    forbidden = isinstance(error, ForbiddenError)
    return templates.render(request, "missing.html", 403 if forbidden else 404,
                            game_id=game_id, forbidden=forbidden)


#: The counter's pages. A page acts on a game with the secret this browser keeps for it (the
#: :class:`~rebelote.web.security.KeyRing` cookie).
router = APIRouter(include_in_schema=False)


async def my_games(request: Request, counter: CounterService, limit: int,
                   archived: bool = False) -> list[Any]:
    """This browser's games (its key ring's), the latest first."""
    return await counter.call(counter.list, list(KeyRing.of(request).keys.values()), limit, 0,
                              archived)


async def odds_of(request: Request, view: GameView) -> tuple[float, float] | None:
    """The chances of winning, when this browser asked to see them and the game goes on."""
    if request.cookies.get(CHANCES_COOKIE) != "on" or view.is_over:
        return None
    return await run_in_threadpool(chances, view.match.rules.game, view.result.totals,
                                   view.match.target)


async def form_of(request: Request) -> dict[str, str]:
    """The posted form's text fields."""
    data = await request.form()
    return {k: v for k, v in data.items() if isinstance(v, str)}


async def show_game(request: Request, view: GameView, status: int = 200, **extra: Any
                    ) -> Response:
    """The game after a form: its fragment to htmx, the whole page with an error, else a
    redirect to the game."""
    lang = i18n.request_lang(request)
    context = game_context(view, lang, odds=await odds_of(request, view), **extra)
    if is_htmx(request):
        response: Response = templates.render(request, "_game.html", status, **context)
    elif status >= 400:
        response = templates.render(request, "game.html", status, **context)
    else:
        response = RedirectResponse(f"/games/{view.id}", status_code=303)
    remember_game(request, response, view.id)
    return response


async def write(request: Request, counter: CounterService, game_id: str, secret: str | None,
                action: Callable[[str | None, int | None], GameView],
                form: Mapping[str, str], edit: int | None = None,
                undone: Mapping[str, Any] | None = None) -> Response:
    """Run a write; show the game again, with the error and the typed values if any; after
    it, with ``undone`` (the deal it removed or changed, to put back)."""
    lang = i18n.request_lang(request)
    version = optional_number(form.get("version", ""))
    try:
        view = await counter.call(action, secret, version)
    except InputError as e:
        view = await counter.call(counter.get, game_id, secret)
        return await show_game(request, view, 422, form=form, edit=edit, error_field=e.field,
                               error=i18n.error_text(e.field, e.reason, lang))
    except DealNotFoundError as e:
        view = await counter.call(counter.get, game_id, secret)
        return await show_game(request, view, 404, error=str(e))
    except (GameConflictError, GameBusyError):
        view = await counter.call(counter.get, game_id, secret)
        message = i18n.gettext(lang, "The game was changed on another device: here it is as "
                                     "it stands now. Check it and enter your change again.")
        return await show_game(request, view, 409, form=form, error=message, edit=edit)
    return await show_game(request, view, undone=undone)


async def forget_untouched(request: Request, response: Response, counter: CounterService,
                           game_id: str, secret: str) -> None:
    """Keep the new game's secret and forget this browser's games left empty since a tap on
    *Start* (never a game with a deal, a name or a setting written)."""
    ring = KeyRing.of(request)
    gone = await counter.call(counter.drop_untouched, list(ring.keys.values()), game_id)
    for old in gone:
        ring = ring.remove(old)
    response.set_cookie(GAME_COOKIE, game_id, max_age=YEAR, samesite="lax", httponly=True,
                        secure=is_https(request))
    ring.add(game_id, secret).store(request, response)


# -- pages ---------------------------------------------------------------------------------
@router.get("/", response_class=HTMLResponse)
async def home(request: Request, counter: CounterDep, rules: str | None = None) -> Response:
    games = await my_games(request, counter, 8)
    last = request.cookies.get(GAME_COOKIE)
    current = next((g for g in games if g.id == last), None)
    form, error = new_game_from_link(rules)
    return templates.render(request, "home.html", games=games, current=current, form=form,
                            error=error)


@router.get("/games", response_class=HTMLResponse)
async def games_list(request: Request, counter: CounterDep, archived: bool = False
                     ) -> Response:
    games = await my_games(request, counter, 200, archived)
    return templates.render(request, "games.html", games=games, archived=archived)


@router.post("/games/{game_id}/archive")
async def archive(request: Request, game_id: str, counter: CounterDep, secret: GameSecretDep
                  ) -> Response:
    form = await form_of(request)
    hide = form.get("archived", "1") != "0"
    with contextlib.suppress(GameNotFoundError):
        await counter.call(counter.archive, game_id, secret, hide)
    return RedirectResponse("/games?archived=true" if not hide else "/games", status_code=303)


@router.get("/stats", response_class=HTMLResponse)
async def stats_page(request: Request, counter: CounterDep) -> Response:
    views = await counter.call(counter.games_of, KeyRing.of(request).keys)
    figures = statistics((v.id, v.match, v.result) for v in views)
    return templates.render(request, "stats.html", stats=figures)


@router.get("/prefs/chances/{state}")
async def chances_pref(request: Request, state: str, next: str | None = None) -> Response:
    """Show the chances of winning on the board (``on``) or not (``off``, the default)."""
    response = RedirectResponse(_safe_next(next), status_code=303)
    response.set_cookie(CHANCES_COOKIE, "on" if state == "on" else "off", max_age=YEAR,
                        samesite="lax", httponly=True, secure=is_https(request))
    return response


@router.post("/games")
async def new_game(request: Request, counter: CounterDep) -> Response:
    form = await form_of(request)
    try:
        obj = new_game_json(form)
        view, secret = await counter.call(counter.create, obj)
    except InputError as e:
        games = await my_games(request, counter, 8)
        return templates.render(request, "home.html", 422, games=games, current=None,
                                form=form, error=str(e))
    target = f"/games/{view.id}"
    response: Response
    if is_htmx(request):
        response = Response(status_code=204, headers={"HX-Redirect": target})
    else:
        response = RedirectResponse(target, status_code=303)
    await forget_untouched(request, response, counter, view.id, secret)
    return response


@router.get("/games/{game_id}", response_class=HTMLResponse)
async def game_page(request: Request, game_id: str, counter: CounterDep,
                    secret: GameSecretDep) -> Response:
    try:
        view = await counter.call(counter.get, game_id, secret)
    except (GameNotFoundError, ForbiddenError) as e:
        return missing(request, game_id, e)
    lang = i18n.request_lang(request)
    # a concours table's game may be closed to its phone (the concours says so)
    note = (await counter.call(counter.note, view)
            if counter.notes and view.meta.get("concours") else None)
    response = templates.render(request, "game.html", **game_context(
        view, lang, odds=await odds_of(request, view),
        error=None if note is None else i18n.error_text(note[0], note[1], lang)))
    remember_game(request, response, view.id)
    return response


@router.get("/join/{game_id}")
async def join(request: Request, game_id: str, counter: CounterDep, key: str = "") -> Response:
    """The edit link: asks before it hands this browser the game's secret (a page of another
    site could send a browser here with its own game: login CSRF)."""
    try:
        view = await counter.call(counter.get, game_id, key)
    except (GameNotFoundError, ForbiddenError) as e:
        return missing(request, game_id, e)
    if KeyRing.of(request).get(game_id) == key:  # this browser holds it already
        return RedirectResponse(f"/games/{game_id}", status_code=303)
    link = view.meta.get("concours")
    return templates.render(request, "join_game.html", game_id=game_id, key=key,
                            teams=view.match.teams,
                            concours=link if isinstance(link, Mapping) else None)


@router.post("/join/{game_id}")
async def join_confirmed(request: Request, game_id: str, counter: CounterDep) -> Response:
    """The edit link's page said yes (a same-site form: the middleware refuses others)."""
    key = (await form_of(request)).get("key", "")
    try:
        await counter.call(counter.get, game_id, key)
    except (GameNotFoundError, ForbiddenError) as e:
        return missing(request, game_id, e)
    response = RedirectResponse(f"/games/{game_id}", status_code=303)
    remember_game(request, response, game_id, key)
    return response


@router.post("/games/{game_id}/deals")
async def add_deal(request: Request, game_id: str, counter: CounterDep, secret: GameSecretDep
                   ) -> Response:
    form = await form_of(request)
    view = await counter.call(counter.get, game_id, secret)

    def action(s: str | None, v: int | None) -> GameView:
        return counter.add_deal(game_id, s, deal_from_form(form, view.match.rules.game), v)

    return await write(request, counter, game_id, secret, action, form)


@router.get("/games/{game_id}/deals/{n}/edit", response_class=HTMLResponse)
async def edit_deal(request: Request, game_id: str, n: int, counter: CounterDep,
                    secret: GameSecretDep) -> Response:
    view = await counter.call(counter.get, game_id, secret)
    lang = i18n.request_lang(request)
    if not 1 <= n <= len(view.match.deals):
        return templates.render(request, "game.html", 404, **game_context(
            view, lang, error=str(DealNotFoundError(n, len(view.match.deals)))))
    name = "_game.html" if is_htmx(request) else "game.html"
    return templates.render(request, name, **game_context(view, lang, edit=n))


@router.post("/games/{game_id}/deals/{n}")
async def replace_deal(request: Request, game_id: str, n: int, counter: CounterDep,
                       secret: GameSecretDep) -> Response:
    form = await form_of(request)
    view = await counter.call(counter.get, game_id, secret)

    def action(s: str | None, v: int | None) -> GameView:
        return counter.replace_deal(game_id, s, n, deal_from_form(form, view.match.rules.game), v)

    old = view.match.deals[n - 1].to_json() if 1 <= n <= len(view.match.deals) else None
    return await write(request, counter, game_id, secret, action, form, edit=n,
                       undone={"n": n, "deal": json.dumps(old), "changed": True} if old else None)


@router.post("/games/{game_id}/undo")
async def undo(request: Request, game_id: str, counter: CounterDep, secret: GameSecretDep
               ) -> Response:
    form = await form_of(request)
    view = await counter.call(counter.get, game_id, secret)
    deals = view.match.deals
    undone = {"n": len(deals), "deal": json.dumps(deals[-1].to_json()), "changed": False} \
        if deals else None
    return await write(request, counter, game_id, secret,
                       lambda s, v: counter.undo(game_id, s, v), {**form}, undone=undone)


@router.post("/games/{game_id}/restore")
async def restore(request: Request, game_id: str, counter: CounterDep, secret: GameSecretDep
                  ) -> Response:
    """Put back the deal an undo removed (deal ``n`` is the next one) or an edit changed (deal
    ``n`` is replaced by its old self): the page's way back after either. The game must not
    have changed meanwhile (``version``)."""
    form = await form_of(request)

    def action(s: str | None, v: int | None) -> GameView:
        n = optional_number(form.get("n", ""))
        deal = parse_json(form.get("deal", "").encode())
        count = len(counter.get(game_id, s).match.deals)
        if n == count + 1:
            return counter.add_deal(game_id, s, deal, v)
        if n is None or not 1 <= n <= count:
            raise DealNotFoundError(n or 0, count)
        return counter.replace_deal(game_id, s, n, deal, v)

    return await write(request, counter, game_id, secret, action,
                       {"version": form.get("version", "")})


@router.post("/games/{game_id}/settings")
async def settings(request: Request, game_id: str, counter: CounterDep, secret: GameSecretDep
                   ) -> Response:
    form = await form_of(request)
    obj: dict[str, Any] = {}
    teams = {t: form[f"team_{t}"] for t in TEAMS if f"team_{t}" in form}
    if teams:
        obj["teams"] = teams
    if "target" in form:
        obj["target"] = _target(form)
    players = {seat: form[f"player_{seat}"] for seat in SEATS if f"player_{seat}" in form}
    if players:
        obj["players"] = players
    if "dealer" in form:
        obj["dealer"] = form["dealer"] or None
    return await write(request, counter, game_id, secret,
                       lambda s, v: counter.update_settings(game_id, s, obj, v), {})


@router.post("/games/{game_id}/delete")
async def delete(request: Request, game_id: str, counter: CounterDep, secret: GameSecretDep
                 ) -> Response:
    with contextlib.suppress(GameNotFoundError):
        await counter.call(counter.delete, game_id, secret)
    response = RedirectResponse("/games", status_code=303)
    KeyRing.of(request).remove(game_id).store(request, response)
    return response


@router.post("/import")
async def import_page(request: Request, counter: CounterDep) -> Response:
    data = await request.form()
    upload = data.get("file")
    try:
        if upload is None or isinstance(upload, str):
            raise InputError("file", "choose a file exported as JSON or CSV")
        raw = await upload.read()
        match = import_match(raw, upload.content_type or "")
        view, secret = await counter.call(counter.create_match, match)
    except InputError as e:
        games = await my_games(request, counter, 8)
        return templates.render(request, "home.html", 422, games=games, current=None, form={},
                                error=str(e))
    response = RedirectResponse(f"/games/{view.id}", status_code=303)
    await forget_untouched(request, response, counter, view.id, secret)
    return response


@router.get("/lang/{code}")
async def set_lang(request: Request, code: str, next: str | None = None) -> Response:
    response = RedirectResponse(_safe_next(next), status_code=303)
    if code in i18n.LANGS:
        response.set_cookie(i18n.COOKIE, code, max_age=YEAR, samesite="lax",
                            secure=is_https(request))
    return response


# The ways of counting offered on the new-game page, grouped as the page shows them.
OPTION_GROUPS: Final = (
    ("group.counting", ("counting", "failure_base", "coinche_form", "surcoinche")),
    ("group.belote", ("belote_prenable", "belote_multiplied", "belote_counts_for_contract")),
    ("group.contract", ("must_outscore", "declarations", "generale")),
    ("group.capot", ("capot_bid", "capot_value", "capot_unbid", "capot_failed")),
    ("group.rounding", ("rounding", "rounding_scope", "last_deal_exact")),
    ("group.end", ("target_rule",)),
)
FORM_OPTIONS: Final = tuple(k for _, keys in OPTION_GROUPS for k in keys)


def option_choices(lang: str, key: str) -> list[tuple[str, str]]:
    """The values of option ``key`` for a select: (the value as text, its words)."""
    values: tuple[Any, ...] = (True, False) if key in BOOL_OPTIONS else OPTION_CHOICES[key]
    out = []
    for value in values:
        shown = ("on" if value else "off") if isinstance(value, bool) else str(value)
        probe = Rules.preset(None, "contree").replace(**{key: value})
        out.append((shown, option_value(lang, probe, key)))
    return out


def new_game_from_link(raw: str | None) -> tuple[dict[str, str], str | None]:
    """The new-game form prefilled from a shared rule set (``/?rules=contree:ffb,...``)."""
    rules, error = rules_from_query(raw)
    if rules is None:
        return {}, error
    return {"rules_text": rules.to_text(), "game": rules.game}, None


def _target(form: Mapping[str, str]) -> int | str:
    raw = form.get("target", "").strip()
    if raw == "other":
        raw = form.get("target_other", "").strip()
    if is_digits(raw):
        return int(raw)
    raise InputError("target", f"{raw!r} is not a target: a whole number of points, like 1000")


def new_game_json(form: Mapping[str, str]) -> dict[str, Any]:
    """The ``POST /api/counter/games`` object from the new-game form (translation only).

    ``rules_text``, a rule set's text form (a shared link's), gives the game, the preset and
    the options at once; otherwise ``game``, ``rules`` (``contree_rules`` for contrée) and the
    options' fields (``opt_<name>``, empty for the preset's value) are read.
    """
    teams = {t: form.get(f"team_{t}", "").strip() or default
             for t, default in zip(TEAMS, DEFAULT_TEAMS, strict=True)}
    shared = form.get("rules_text", "").strip()
    if shared:
        try:
            rules = parse_rules(shared)
        except RulesError as e:
            raise InputError("rules_text", str(e)) from None
        obj: dict[str, Any] = {"game": rules.game, "rules": rules.name, "teams": teams}
        changed = rules.changed_options()
        obj["target"] = _target(form) if form.get("target") else changed.pop("target",
                                                                                rules.target)
        changed.pop("target", None)
        if changed:
            obj["options"] = changed
        return obj
    game = form.get("game", "belote")
    name = form.get("rules") or None
    if game == "contree":
        name = form.get("contree_rules") or (name if name in PRESETS["contree"] else None)
    obj = {"game": game, "teams": teams}
    if name is not None:
        obj["rules"] = name
    if form.get("target"):
        obj["target"] = _target(form)
    options: dict[str, Any] = {}
    if "declarations" in form and game != "contree":
        options["declarations"] = form["declarations"] == "on"
    if game == "coinche" and form.get("rounding") in ("nearest", "none"):
        options["rounding"] = form["rounding"]
    # the générale box is coinche's (contrée's presets say whether there is one: opt_generale)
    if game == "coinche" and "generale" in form:
        options["generale"] = form["generale"] == "on"
    if game in AUCTION_GAMES:
        for key in FORM_OPTIONS:
            raw = form.get(f"opt_{key}", "").strip()
            if raw:
                try:
                    options[key] = option_from_text(key, raw)
                except RulesError as e:
                    raise InputError(f"opt_{key}", str(e)) from None
    if options:
        obj["options"] = options
    return obj
