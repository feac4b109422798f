"""The play table's pages: start a table, join a room, play (htmx forms, a WebSocket for live
updates with polling as a fallback), all rendered from the seat's view only.

The table's HTML is one fragment (``#table``) rendered from :func:`rebelote.table.table_view`
of the viewer's seat: nothing the seat may not see can reach the page. The seat's secret is kept
in the browser's key ring cookie (``rebelote_keys``, HttpOnly, shared with the counter). Every
form works without JavaScript too (a plain post answers a redirect).
"""

from __future__ import annotations

import contextlib
import io
from collections.abc import Awaitable, Callable, Mapping
from typing import Any, Final
from urllib.parse import quote, urlencode

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from jinja2 import Environment

from rebelote import catalogs
from rebelote.bots import DEFAULT_LEVEL, level_of_spec, player_levels
from rebelote.bots.explain import Explanation
from rebelote.cards import SEATS, TEAMS
from rebelote.deal import DealState
from rebelote.errors import IllegalActionError, InputError
from rebelote.match import TARGETS
from rebelote.numbers import number_or_text, optional_number
from rebelote.rules import CONTRACTS, DEFAULT_PRESETS, PRESETS, TRUMP_NAMES, Rules
from rebelote.sheets.labels import text as label_text
from rebelote.sheets.rule_words import rules_name
from rebelote.store.play_tables import (
    CODE_ALPHABET,
    CODE_LENGTH,
    TableConflictError,
    TableNotFoundError,
    normal_code,
)
from rebelote.table import NotYourTurnError, turn_seat, verify_record
from rebelote.table.analysis import solver_available
from rebelote.table.model import DECLINE, NEXT, WAIT
from rebelote.table.view import sorted_hand
from rebelote.tableserver import Loaded, SeatForbiddenError, TableService
from rebelote.tableserver.service import ROOM_CLOCK
from rebelote.web import i18n
from rebelote.web.errors import error_response, refusal_of, too_fast_page
from rebelote.web.render import Templates
from rebelote.web.security import KeyRing, bearer
from rebelote.web.share import rules_body, rules_from_query
from rebelote.web.table import words
from rebelote.web.table.deps import (
    SeatTokenDep,
    TableServiceDep,
    TableStartDep,
    TablesTooFastError,
)

PACES: Final = (("instant", 0), ("fast", 300), ("normal", 800), ("slow", 1600))
#: The turn clocks (s) the start form offers after its first choice, the default: that one sends
#: no clock, so a room (seats kept for friends) gets ROOM_CLOCK and a table alone none, as
#: through the API.
CLOCKS: Final = (0, 30, 60, 120)
#: After a deal: wait for the player's "Next deal" (the default), or go on by itself after a few
#: seconds (ms; the page's script presses the button then).
BETWEENS: Final = (("wait for Next deal", WAIT), ("go on after 5 s", 5000),
                   ("go on after 10 s", 10000))
SEAT_ORDER: Final = ("N", "W", "E", "S")
#: What a player of the room reads (and hears) once another one started the next game.
NEXT_GAME: Final = "A new game has started: your seat is kept for you in it."
#: The refusal of a form shown at a version the table has left (a second tap, or a move made
#: meanwhile): the table is shown again as it is.
CHANGED: Final = ("The table moved on meanwhile (this was already played, or another move came "
                  "first): here it is as it is now.")


def _helpers(env: Environment, lang: str) -> None:
    """What the table's templates call: its words, cards and lists of choices in ``lang``."""
    env.globals.update(
        TARGETS=TARGETS, PACES=PACES, CLOCKS=CLOCKS, ROOM_CLOCK=ROOM_CLOCK,
        BETWEENS=BETWEENS,
        t=lambda text: words.tr(lang, text),
        face=lambda card: words.card_face(card, lang),
        said=lambda card: words.card_words(card, lang),
        red=words.is_red,
        bid_said=lambda bid: words.bid_words(bid, lang),
        seat_said=lambda seat: words.seat_word(seat, lang),
        bot_short=lambda spec: words.bot_short(spec, lang),
    )


#: The table's templates (the base page and ``table/``), with its words.
templates = Templates(_helpers)
router = APIRouter(include_in_schema=False)


def start_form_context(shared: Rules | None = None, lang: str = "fr") -> dict[str, Any]:
    """What the start form offers: games, rule sets, targets, the bots' levels (the levels for
    people only, each named and explained in ``lang``), paces; ``shared``, the rule set of a
    shared link (web/share.py), replaces the game and rule-set choices."""
    levels = [(lv.key, lv.name(lang), lv.explain(lang)) for lv in player_levels()]
    out: dict[str, Any] = {"levels": levels, "default_level": DEFAULT_LEVEL, "shared": shared,
                           "contree_word": label_text(lang, "web.game.contree"),
                           "contree_presets": [(name, label_text(lang, f"rules.{name}"),
                                                label_text(lang, f"web.preset.{name}"))
                                               for name in PRESETS["contree"]]}
    if shared is not None:
        out["shared_words"] = label_text(lang, "web.shared.table",
                                         rules=rules_name(lang, shared))
        out["shared_other"] = label_text(lang, "web.shared.other")
    return out


def _auction_choices(legal: list[str]) -> dict[str, Any]:
    """The calls the seat may make, grouped as the auction panel shows them."""
    values: list[str] = []
    trumps: list[str] = []
    suits: list[str] = []
    for item in legal:
        head, _, tail = item.partition(" ")
        if tail and tail in TRUMP_NAMES:
            if head not in values:
                values.append(head)
            if tail not in trumps:
                trumps.append(tail)
        elif item in TRUMP_NAMES:
            suits.append(item)
    order = [str(v) for v in CONTRACTS] + ["capot", "generale"]
    values.sort(key=order.index)
    return {"pass": "pass" in legal, "take": "take" in legal, "coinche": "coinche" in legal,
            "surcoinche": "surcoinche" in legal, "suits": suits, "contracts": values,
            "trumps": [t for t in TRUMP_NAMES if t in trumps]}


def _announce(view: Mapping[str, Any], lang: str) -> str:
    """The latest event, as a sentence (the page's live region), seats named as the page names
    them (you, partner, East, West)."""
    tr = words.tr

    def who(seat: str) -> str:
        return tr(lang, {"S": "You", "N": "Partner"}.get(seat, words.SEAT_WORDS[seat]))

    def plays(seat: str, card: str) -> str:
        verb = tr(lang, "play" if seat == "S" else "plays")
        return f"{who(seat)} {verb} {words.card_words(card, lang)}"

    if view["over"]:
        return tr(lang, "The game is over.")
    if view["trick"]:
        seat, card = view["trick"][-1]
        return plays(seat, card) + "."
    if view["tricks"]:
        last = view["tricks"][-1]
        seat, card = last["cards"][-1]
        return f"{plays(seat, card)} ; {tr(lang, 'Trick')} {tr(lang, 'won by')} " \
               f"{who(last['winner'])}."
    if view["auction"]:
        seat, bid = view["auction"][-1]
        return f"{who(seat)} : {words.bid_words(bid, lang)}."
    return f"{tr(lang, 'Deal')} {view['deal']}, {tr(lang, 'dealer')} {who(view['dealer'])}."


#: The live region's events a fragment carries: the latest ones (a move answered by the bots at
#: once brings a dozen at most: three cards, a trick, the next deal's calls).
MAX_EVENTS: Final = 24


def _events(view: Mapping[str, Any], lang: str, result: Mapping[str, Any] | None
            ) -> list[tuple[str, str]]:
    """The deal's public events, each as the live region says it, with a key the page's script
    keeps once it has said it: a move that the bots answered at once (several calls and cards
    in one update) is said in full, not only its last card. The deal and its dealer, each
    call, each card and each trick's winner (the latest :data:`MAX_EVENTS`), the last deal's
    result, the game's end."""
    tr = words.tr
    colon = catalogs.colon(lang)

    def who(seat: str) -> str:
        return tr(lang, {"S": "You", "N": "Partner"}.get(seat, words.SEAT_WORDS[seat]))

    def by(seat: str) -> str:  # "won by you", "by your partner", "by East"
        return tr(lang, {"S": "you", "N": "your partner"}.get(seat, words.SEAT_WORDS[seat]))

    def plays(seat: str, card: str) -> str:
        verb = tr(lang, "play" if seat == "S" else "plays")
        return f"{who(seat)} {verb} {words.card_words(card, lang)}."

    deal = view["deal"]
    out: list[tuple[str, str]] = []
    out.append((f"{deal}d", f"{tr(lang, 'Deal')} {deal}, {tr(lang, 'dealer')} "
                            f"{who(view['dealer'])}."))
    for i, (seat, bid) in enumerate(view["auction"]):
        out.append((f"{deal}a{i}", f"{who(seat)}{colon} {words.bid_words(bid, lang)}."))
    for t, trick in enumerate(view["tricks"]):
        out += [(f"{deal}c{t}.{j}", plays(seat, card))
                for j, (seat, card) in enumerate(trick["cards"])]
        out.append((f"{deal}w{t}", f"{tr(lang, 'Trick')} {tr(lang, 'won by')} "
                                   f"{by(trick['winner'])}."))
    t = len(view["tricks"])
    out += [(f"{deal}c{t}.{j}", plays(seat, card)) for j, (seat, card) in enumerate(view["trick"])]
    out = out[-MAX_EVENTS:]
    if result is not None:  # the last deal's: after its cards when it ends the game
        said = (f"r{result['n']}", f"{tr(lang, 'Result of deal')} {result['n']}{colon} "
                f"{tr(lang, result['outcome'])}, {tr(lang, 'Us')} "
                f"{i18n.signed(result['score']['NS'], lang)}, {tr(lang, 'Them')} "
                f"{i18n.signed(result['score']['EW'], lang)}.")
        out.insert(len(out) if result["n"] == deal else 0, said)
    if view["over"]:
        out.append(("over", tr(lang, "The game is over.")))
    if view.get("next_game"):
        out.append(("next-game", tr(lang, NEXT_GAME)))
    return out


def analysis_rows(cards: list[dict[str, Any]], seat: int
                  ) -> tuple[list[dict[str, Any]], dict[str, list[int]]]:
    """The analysis page's rows (each card with its seat as the viewer ``seat`` sees it:
    ``rel``, and ``costly`` when it cost anything, in card points or only in the mark: a card
    worth 0 like the best one, but after which the other team makes capot) and each seat's
    total cost in points and in the mark."""
    rows = []
    totals: dict[str, list[int]] = {}
    for item in cards:
        rel = turn_seat(SEATS.index(item["seat"]), seat)
        rows.append({**item, "rel": rel, "costly": bool(item["cost"] or item["mark_cost"])})
        # per seat: the card points its cards cost in all, the costliest card in the mark (each
        # card's cost in the mark is against the best card then, the rest played perfectly:
        # they do not add up, a sum ran to several times what the deal was worth), and how
        # many of its cards cost anything
        total = totals.setdefault(rel, [0, 0, 0])
        total[0] += item["cost"]
        total[1] = max(total[1], item["mark_cost"])
        total[2] += bool(item["cost"] or item["mark_cost"])
    return rows, totals


def robot_sum_text(total: Mapping[str, Any] | None, lang: str) -> str | None:
    """The game's running sum of *le robot à votre place* in words ("vous : +40 sur le robot
    fort en 6 donnes"), ``None`` for none."""
    if not total:
        return None
    level = level_of_spec(total["level"])
    name = level.names.get(lang, level.key) if level else total["level"]
    gain, deals = int(total["gain"]), int(total["deals"])
    return catalogs.ngettext(lang, "You: %(gain)s over the %(level)s bot in %(n)s deal",
                             "You: %(gain)s over the %(level)s bot in %(n)s deals", deals) % {
        "gain": catalogs.signed(gain, lang), "level": name, "n": deals}


def analysis_hands(deal: DealState, seat: int) -> dict[str, list[str]]:
    """The four hands of a finished deal as its play began (public once it is over), by seat
    as ``seat`` sees them, each sorted as a hand is shown."""
    return {turn_seat(s, seat): sorted_hand(deal.start_hands[s], deal.trump) for s in range(4)}


def table_context(loaded: Loaded, seat: int, view: Mapping[str, Any], lang: str,
                  tables: TableService | None = None) -> dict[str, Any]:
    """Everything the table's fragment shows, from the seat's view (and, for a finished deal,
    its public result card; with ``tables``, the game's running sum of *le robot à votre
    place* as this worker keeps it, marks of finished deals only)."""
    table = loaded.table
    mine = seat & 1
    # the result card's sentences name the teams as subjects ("your team marks its total"):
    # the columns' "Us" and "Them" would read "Nous marque", "Us marks"
    said = (words.tr(lang, "your team"), words.tr(lang, "the other team")) if mine == 0 else \
        (words.tr(lang, "the other team"), words.tr(lang, "your team"))
    result = None
    last = view.get("last_result")
    if last:
        n = last["deal"]
        deal = table.replay.finished[n - 1]
        summary = deal.summary()
        score = table.replay.result.deals[n - 1]
        try:
            verified: str | None = None
            verify_record(last["record"])
        except InputError as e:
            verified = str(e)
        result = {
            "n": n,
            "outcome": score.outcome,
            "lines": [{"text": i18n.sentence(i18n.line_text(line, lang, summary, said)),
                       "us": line.ns if mine == 0 else line.ew,
                       "them": line.ew if mine == 0 else line.ns}
                      for line in score.lines],
            "score": last["score"],
            "took": view["sheet"][n - 1],
            "last_trick": last.get("last_trick"),
            "record": last["record"],
            "error": verified,
            "analysis": solver_available(),
        }
    legal = list(view["legal"])
    cards = {c for c in legal if len(c) == 2}
    return {
        "v": view, "result": result, "auction_choices": _auction_choices(legal),
        "playable": cards, "may_skip_declaring": "no-declaration" in legal,
        "announce": _announce(view, lang), "events": _events(view, lang, result),
        "seat_order": SEAT_ORDER,
        "team_of": {"N": "NS", "S": "NS", "E": "EW", "W": "EW"}, "TEAMS": TEAMS,
        "sheet": view["sheet"], "free": view["free_seats"],
        "hint": Explanation.from_record(view["hint"]).to_json(lang) if view.get("hint")
        else None,
        "robot_sum": robot_sum_text(tables.robots.running(
            loaded.id, seat, len(table.replay.finished)), lang)
        if tables is not None and 0 <= seat < 4 else None,
    }


def seat_cookie(request: Request, response: Response, table_id: str, token: str) -> None:
    """Keep the seat's secret in this browser's key ring (shared with the counter)."""
    KeyRing.of(request).add(table_id, token).store(request, response)


async def seat_or_none(tables: TableService, table_id: str, token: str | None
                       ) -> tuple[Loaded, int | None]:
    """The table and the seat ``token`` holds at it, if any."""
    loaded = await tables.load(table_id)
    return loaded, loaded.table.seat_of(token)


def fragment(request: Request, tables: TableService, loaded: Loaded, seat: int,
             status: int = 200, error: str | None = None) -> HTMLResponse:
    """The table's fragment (``#table``) as ``seat`` sees it."""
    view = tables.view(loaded, seat)
    return templates.render(request, "table/_table.html", status, error=error,
                            **table_context(loaded, seat, view, i18n.request_lang(request),
                                            tables))


def is_htmx(request: Request) -> bool:
    """The request comes from htmx (it wants the fragment, not a redirect)."""
    return request.headers.get("HX-Request") == "true"


@router.get("/tables/new", response_class=HTMLResponse)
async def new_page(request: Request, rules: str | None = None) -> HTMLResponse:
    # a shared rule set's link (web/share.py) opens the form with its rules
    shared, error = rules_from_query(rules)
    return templates.render(request, "table/new.html", 422 if error else 200, error=error,
                            **start_form_context(shared, i18n.request_lang(request)))


@router.post("/tables")
async def create(request: Request, tables: TableServiceDep) -> Response:
    form = await request.form()
    game = str(form.get("game") or "coinche")
    # contrée has presets of its own (rules.PRESETS), chosen in their own group
    rules_field = "contree_rules" if game == "contree" else "rules"
    rules = form.get(rules_field) or DEFAULT_PRESETS.get(game, "official")
    body: dict[str, Any] = {"game": game, "rules": rules,
                            "bots": form.get("bots") or None,
                            "name": form.get("name") or None}
    shared, error = rules_from_query(str(form.get("rules_text") or "").strip() or None)
    if error:
        return templates.render(request, "table/new.html", 422, error=error,
                                **start_form_context(None, i18n.request_lang(request)))
    if shared is not None:
        body |= rules_body(shared)
    for key in ("target", "pace", "clock", "between"):
        raw = str(form.get(key) or "").strip()
        if raw:
            body[key] = number_or_text(raw)
    friends = [seat for f in form.getlist("friends") for seat in str(f)
               if seat in ("N", "E", "W")]
    if friends:
        body["friends"] = friends
    if form.get("hints") in ("yes", "no"):  # else: allowed alone, not with friends
        body["hints"] = form.get("hints") == "yes"
    try:
        loaded, token = await tables.create(body)
    except InputError as e:
        return templates.render(request, "table/new.html", 422, error=str(e),
                                **start_form_context(shared, i18n.request_lang(request)))
    response = RedirectResponse(f"/tables/{loaded.id}", status_code=303)
    seat_cookie(request, response, loaded.id, token)
    return response


@router.get("/tables/{table_id}", response_class=HTMLResponse)
async def page(table_id: str, request: Request, tables: TableServiceDep, token: SeatTokenDep
               ) -> Response:
    try:
        loaded, seat = await seat_or_none(tables, table_id, token)
    except TableNotFoundError:
        return templates.render(request, "table/missing.html", 404)
    if seat is None:  # the id is not a join code: a stranger learns nothing of the room
        return templates.render(request, "table/join.html", 403, loaded=loaded, code="",
                                no_seat=True, free=[], invite=None)
    if loaded.table.bot_to_play and loaded.table.pace:
        tables.start_driver(table_id)
    await tables.robots.load(table_id, len(loaded.table.replay.finished))  # the running sum
    view = tables.view(loaded, seat)
    invite = str(request.url_for("join_page", code=loaded.code))
    invites = {s: f"{invite}?{urlencode({'invite': secret})}"
               for s, secret in view.get("invites", {}).items()}
    return templates.render(request, "table/page.html", invite=invite, invites=invites,
                            host=loaded.table.is_host(seat),
                            **table_context(loaded, seat, view, i18n.request_lang(request),
                                            tables))


@router.get("/tables/{table_id}/fragment", response_class=HTMLResponse)
async def table_fragment(table_id: str, request: Request, tables: TableServiceDep,
                         token: SeatTokenDep) -> Response:
    try:
        loaded, seat = await seat_or_none(tables, table_id, token)
    except TableNotFoundError:
        return Response(status_code=404)
    if seat is None:
        return Response(status_code=403)
    known = optional_number(request.query_params.get("since", ""))
    if known is not None and known >= loaded.version:
        return Response(status_code=204)
    return fragment(request, tables, loaded, seat)


@router.post("/tables/{table_id}/act")
async def act(table_id: str, request: Request, tables: TableServiceDep, token: SeatTokenDep
              ) -> Response:
    form = await request.form()
    action = str(form.get("action") or "")
    if not action and form.get("value") and form.get("trump"):
        action = f"{form.get('value')} {form.get('trump')}"
    if form.get("decline") == DECLINE and action and action != DECLINE:
        action = f"{DECLINE} {action}"  # "announce nothing" ticked: declined with the card
    # the version the form was shown at: a second tap of the same form (or a form left open
    # while the table moved on) changes nothing
    shown = str(form.get("version") or "")
    try:
        loaded, seat = await tables.act(table_id, token, action, optional_number(shown))
    except Exception as e:
        refused = refusal_of(e)
        if refused is None:
            raise
        if not is_htmx(request):
            return RedirectResponse(f"/tables/{table_id}", status_code=303)
        if isinstance(e, SeatForbiddenError | TableNotFoundError):
            return error_response(refused.status, refused.say(e))
        loaded, seat_or = await seat_or_none(tables, table_id, token)
        assert seat_or is not None
        if action == NEXT:  # another player (or this page's own timer) went on first
            return fragment(request, tables, loaded, seat_or)
        lang = i18n.request_lang(request)
        # the engine's reason in English (as the API answers it), said in the page's
        # language with the seats as this seat sees them
        error = words.tr(lang, CHANGED) if isinstance(e, TableConflictError) \
            else words.refusal_text(str(e), lang, seat_or)
        return fragment(request, tables, loaded, seat_or, refused.status, error=error)
    if not is_htmx(request):
        return RedirectResponse(f"/tables/{table_id}", status_code=303)
    return fragment(request, tables, loaded, seat)


async def seat_step(request: Request, tables: TableService, table_id: str, token: str | None,
                    step: Callable[[str, str | None], Awaitable[Loaded]]) -> Response:
    """A seat's step that is not a move (take the seat back, hand free seats to bots): the
    fresh table to an htmx request, a redirect to the page otherwise."""
    try:
        loaded = await step(table_id, token)
        seat = tables.seat_of(loaded, token)
    except (SeatForbiddenError, TableNotFoundError):
        return RedirectResponse(f"/tables/{table_id}", status_code=303)
    if not is_htmx(request):
        return RedirectResponse(f"/tables/{table_id}", status_code=303)
    return fragment(request, tables, loaded, seat)


@router.post("/tables/{table_id}/back")
async def back(table_id: str, request: Request, tables: TableServiceDep, token: SeatTokenDep
               ) -> Response:
    return await seat_step(request, tables, table_id, token, tables.back)


@router.post("/tables/{table_id}/hint")
async def hint(table_id: str, request: Request, tables: TableServiceDep, token: SeatTokenDep
               ) -> Response:
    """Un conseil: the hint's sentence for ``#hint`` (htmx), or back to the table."""
    lang = i18n.request_lang(request)
    try:
        _, _, why = await tables.hint(table_id, token)
    except (InputError, NotYourTurnError) as e:
        said = "Hints are not allowed at this table." if isinstance(e, InputError) \
            else "A hint is given at your turn only."
        if not is_htmx(request):
            return RedirectResponse(f"/tables/{table_id}", status_code=303)
        return templates.render(request, "table/_hint_answer.html", 409,
                                error=words.tr(lang, said), hint=None)
    except (SeatForbiddenError, TableNotFoundError):
        return RedirectResponse(f"/tables/{table_id}", status_code=303)
    if not is_htmx(request):
        return RedirectResponse(f"/tables/{table_id}", status_code=303)
    return templates.render(request, "table/_hint_answer.html", hint=why.to_json(lang),
                            error=None)


@router.post("/tables/{table_id}/fill")
async def fill(table_id: str, request: Request, tables: TableServiceDep, token: SeatTokenDep
               ) -> Response:
    return await seat_step(request, tables, table_id, token, tables.fill)


@router.post("/tables/{table_id}/seats/{seat}/bot")
async def hand_back(table_id: str, seat: str, tables: TableServiceDep, token: SeatTokenDep
                    ) -> Response:
    """The host hands a seat back to its bot (a player who stalls the room)."""
    with contextlib.suppress(SeatForbiddenError, TableNotFoundError, InputError):
        await tables.hand_back(table_id, token, seat)
    return RedirectResponse(f"/tables/{table_id}", status_code=303)


@router.get("/tables/{table_id}/deals/{n}/analysis", response_class=HTMLResponse)
async def analysis_page(table_id: str, n: int, request: Request, tables: TableServiceDep,
                        token: SeatTokenDep) -> Response:
    try:
        loaded, seat, cards = await tables.analysis(table_id, token, n)
    except (SeatForbiddenError, TableNotFoundError):
        return templates.render(request, "table/missing.html", 404)
    except InputError as e:
        return templates.render(request, "table/analysis.html", 404, error=str(e), cards=[],
                                n=n, table_id=table_id, totals={}, hands={})
    rows, totals = analysis_rows(cards, seat)
    hands = analysis_hands(loaded.table.replay.finished[n - 1], seat)
    lang = i18n.request_lang(request)
    why = [{**e, "rel": turn_seat(SEATS.index(e["seat"]), seat)}
           for e in await tables.explanations_in(table_id, n, lang)]
    robot = await tables.robots.stored(table_id, n, seat)
    level = level_of_spec(robot["level"]) if robot else None
    upto = len(loaded.table.replay.finished)
    await tables.robots.load(table_id, upto)
    total = tables.robots.running(table_id, seat, upto)
    return templates.render(request, "table/analysis.html", cards=rows, n=n,
                            table_id=table_id, totals=totals, hands=hands, error=None, why=why,
                            robot=robot, robot_sum=total,
                            robot_sum_text=robot_sum_text(total, lang),
                            robot_level=(level.names.get(lang, level.key) if level
                                         else robot["level"] if robot else ""))


@router.post("/tables/{table_id}/release")
async def release(table_id: str, request: Request, tables: TableServiceDep,
                  token: SeatTokenDep) -> Response:
    """The caller's seat handed back to its bot (the page asked first); the way back: the
    join page of the table (a bot's seat, theirs from the next deal), while its game goes on."""
    where = "/"
    with contextlib.suppress(SeatForbiddenError, TableNotFoundError):
        loaded = await tables.release(table_id, token)
        if not loaded.table.is_over and loaded.code:
            where = f"/t/{quote(loaded.code)}?left=1"
    response = RedirectResponse(where, status_code=303)
    KeyRing.of(request).remove(table_id).store(request, response)
    return response


@router.post("/tables/{table_id}/again")
async def again(table_id: str, request: Request, tables: TableServiceDep, token: SeatTokenDep,
                starting: TableStartDep) -> Response:
    """The room's next game, for a player of the finished table (its secret): started by the
    first who asks, with the same seats, names and settings (the bots' levels as chosen, the
    rules and target, pace, clock, pause between deals); every other player's page offers it
    and brings them to the same seat, with their own secret (:meth:`TableService.again`).
    Anyone else goes home; a game not over is shown again. Counted as a table started
    (``tables_per_minute``, the JSON route's allowance: a ``429`` page in the page's language
    past it) only by the press that starts it."""

    async def step(table_id: str, token: str | None) -> tuple[Loaded, int]:
        new, seat, _ = await tables.start_next_game(table_id, token, starting)
        return new, seat

    try:
        return await to_next_game(request, table_id, token, step)
    except TablesTooFastError as e:
        return too_fast_page(request, str(e), e.wait)


@router.post("/tables/{table_id}/next-game")
async def next_game(table_id: str, request: Request, tables: TableServiceDep,
                    token: SeatTokenDep) -> Response:
    """*Rejoindre la nouvelle partie*: a player of the finished table goes to the next game
    another player started (:meth:`TableService.next_game`), at their seat; it starts none
    (not counted as a table started)."""
    return await to_next_game(request, table_id, token, tables.next_game)


async def to_next_game(request: Request, table_id: str, token: str | None,
                       step: Callable[[str, str | None], Awaitable[tuple[Loaded, int]]]
                       ) -> Response:
    """The player's way to the room's next game (``step``: start it, or find it): a redirect
    to it, their secret kept for it in this browser's key ring; anyone else goes home, and a
    game not over (or with no next game yet) is shown again."""
    try:  # an unknown table: the error map's 404 page
        new, _ = await step(table_id, token)
    except SeatForbiddenError:
        return RedirectResponse("/", status_code=303)
    except IllegalActionError:
        return RedirectResponse(f"/tables/{table_id}", status_code=303)
    response = RedirectResponse(f"/tables/{new.id}", status_code=303)
    assert token is not None  # a seat's secret: the same at the new game
    seat_cookie(request, response, new.id, token)
    return response


@router.get("/tables/{table_id}/qr.svg")
async def qr(table_id: str, request: Request, tables: TableServiceDep, token: SeatTokenDep
             ) -> Response:
    import segno

    loaded, seat = await seat_or_none(tables, table_id, token)
    if seat is None:
        return Response(status_code=403)
    url = str(request.url_for("join_page", code=loaded.code))
    kept = tables.view(loaded, seat).get("invites", {})
    wanted = request.query_params.get("seat")
    if wanted in kept:  # a seat kept for a friend: its own invitation
        url += "?" + urlencode({"invite": kept[wanted]})
    buffer = io.BytesIO()
    segno.make(url, error="m").save(buffer, kind="svg", scale=4, border=2, title="QR",
                                     xmldecl=False)
    return Response(buffer.getvalue(), media_type="image/svg+xml")


#: A join code's form, as typed: at most this many characters are read (a code is
#: :data:`~rebelote.store.play_tables.CODE_LENGTH`, typed with spaces or dashes at most).
MAX_CODE_TYPED: Final = 24


@router.get("/t/find", response_class=HTMLResponse)
async def find_by_code(request: Request, tables: TableServiceDep, code: str = "") -> Response:
    """The code a friend typed on the home page (or the start form's page): the seat choice of
    its table (the join page, answered here: a redirect to ``/t/CODE`` would count as a failed
    join), else the form again with why, next to the field. Counted against the failed joins
    of the client like ``/t/CODE`` (its path is one)."""
    lang = i18n.request_lang(request)
    typed = code[:MAX_CODE_TYPED]
    wanted = normal_code(typed)
    if len(wanted) != CODE_LENGTH or any(ch not in CODE_ALPHABET for ch in wanted):
        error = i18n.gettext(lang, "Table code: a code has 8 letters and digits, like "
                                   "K7XP3QAB.")
        return templates.render(request, "table/code.html", 422, code_typed=typed,
                                code_error=error)
    response = await join_page(wanted, request, tables)
    if response.status_code == 404:
        error = i18n.gettext(lang, "Table code: no table in play has this code. Check it with "
                                   "the table's host (a code ends with its game).")
        return templates.render(request, "table/code.html", 404, code_typed=typed,
                                code_error=error)
    return response


@router.get("/t/{code}", response_class=HTMLResponse, name="join_page")
async def join_page(code: str, request: Request, tables: TableServiceDep) -> Response:
    try:
        table_id = await tables.id_of_code(code)
        loaded = await tables.load(table_id)
    except TableNotFoundError:
        return templates.render(request, "table/missing.html", 404)
    if loaded.table.seat_of(bearer(request, table_id)) is not None:
        return RedirectResponse(f"/tables/{table_id}", status_code=303)
    invite = request.query_params.get("invite") or None
    invited = loaded.table.invited_seat(invite)
    free = [invited] if invited is not None else [
        s for s in tables.free_seats(loaded.table) if loaded.table.seats[s].kind == "bot"]
    return templates.render(request, "table/join.html", loaded=loaded, code=loaded.code,
                            free=free, no_seat=False,
                            invite=invite if invited is not None else None,
                            left=request.query_params.get("left") == "1")


@router.post("/t/{code}")
async def join(code: str, request: Request, tables: TableServiceDep) -> Response:
    form = await request.form()
    wanted = str(form.get("seat") or "") or None
    invite = str(form.get("invite") or "") or None
    try:
        loaded, token, _ = await tables.join(code, form.get("name") or None, wanted, invite)
    except TableNotFoundError:
        return templates.render(request, "table/missing.html", 404)
    except Exception as e:
        if refusal_of(e) is None:
            raise
        return RedirectResponse(f"/t/{quote(code)}", status_code=303)
    response = RedirectResponse(f"/tables/{loaded.id}", status_code=303)
    seat_cookie(request, response, loaded.id, token)
    return response
