"""The concours's pages: a new concours, the organiser's page (phone and laptop: registration,
draws, results, corrections, prizes), each *partie*'s table links and QR codes for the phones,
and the room screen for a projector (the draw with "où suis-je ?", then the live ranking,
updating itself).

Every form is a plain ``POST`` answered by a redirect (no JavaScript needed); the organiser's
secret is kept in the browser's key ring cookie, like the counter's games. Words come from the
``concours`` gettext domain (:func:`rebelote.sheets.concours_words.tr`).
"""

from __future__ import annotations

import base64
import math
from collections.abc import Callable, Mapping
from typing import Annotated, Any, Final

from fastapi import APIRouter, Path, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from jinja2 import Environment

from rebelote import catalogs
from rebelote.concours import (
    DRAWS,
    EXEMPTS,
    MODES,
    RANKINGS,
    RESERVES,
    TIEBREAKS,
    WITHDRAWALS,
    Concours,
)
from rebelote.errors import RebeloteError
from rebelote.numbers import number_or_text, optional_number, whole_number
from rebelote.rules import DEFAULT_PRESETS, PRESETS
from rebelote.sheets.concours_words import ntr, tr
from rebelote.sheets.rule_words import rules_name
from rebelote.store.concours import ConcoursNotFoundError
from rebelote.web import i18n
from rebelote.web.concours.deps import (
    ConcoursDep,
    OrganiserSecretDep,
    creation_failed,
    creation_wait,
)
from rebelote.web.concours.service import (
    ConcoursForbiddenError,
    ConcoursService,
    Loaded,
    PhonesTooFastError,
)
from rebelote.web.render import Templates
from rebelote.web.security import BodyTooLargeError, KeyRing, client_of
from rebelote.web.share import qr_svg

Number = Annotated[int, Path(ge=1, le=10_000)]
#: How often the room screen asks for the ranking again (seconds).
ROOM_REFRESH: Final = 4
_FORM_LIMIT: Final = 200


def _(message: str) -> str:
    return message


def _helpers(env: Environment, lang: str) -> None:
    """The concours's words (its own gettext domain, :func:`rebelote.sheets.concours_words.tr`) and
    lists of choices."""
    env.install_gettext_callables(  # type: ignore[attr-defined]
        gettext=lambda m: tr(lang, m),
        ngettext=lambda s, p, n: ntr(lang, s, p, n), newstyle=True)
    env.globals.update(PRESETS=PRESETS, DEFAULT_PRESETS=DEFAULT_PRESETS, RANKINGS=RANKINGS,
                       EXEMPTS=EXEMPTS, DRAWS=DRAWS, MODES=MODES, WITHDRAWALS=WITHDRAWALS,
                       TIEBREAKS=TIEBREAKS, ROOM_REFRESH=ROOM_REFRESH, TB_WORDS=TB_WORDS,
                       EXEMPT_WORDS=EXEMPT_WORDS, RESERVES=RESERVES,
                       RESERVE_WORDS=RESERVE_WORDS)


TB_WORDS: Final[Mapping[str, str]] = {
    "difference": _("Point difference"), "best": _("Best partie"),
    "against": _("Fewest points against"), "draw": _("Seeded draw"),
}
EXEMPT_WORDS: Final[Mapping[str, str]] = {
    "half": _("half a partie"), "average": _("the partie's average"),
    "win": _("a win with fixed points"), "none": _("nothing"),
}
RESERVE_WORDS: Final[Mapping[str, str]] = {
    "defence": _("to the team that did not take"), "void": _("to nobody"),
}
#: The fields a concours's error may name, as the pages name them.
FIELDS: Final[Mapping[str, str]] = {
    "name": _("Name"), "game": _("Game"), "rules": _("Rules"), "options": _("Rules"),
    "parties": _("Parties"), "deals": _("Deals per partie"), "target": _("Target"),
    "mode": _("Format"), "ranking": _("Ranking"), "tiebreaks": _("Tie-breaks"),
    "exempt": _("Exempt"), "exempt_score": _("Exempt's points"), "draw": _("Draw"),
    "withdrawal": _("Withdrawal"), "seed": _("Seed"), "teams": _("Teams"), "team": _("Team"),
    "partie": _("Partie"), "table": _("Table"), "scores": _("Scores"), "prizes": _("Prizes"),
    "belotes": _("Belotes"), "capots": _("Capots"),
    "reserve_at_end": _("Litige on a partie's last deal"),
}


def error_text(field: str, reason: str, lang: str) -> str:
    """A concours's error as the page says it: the field's name in ``lang``, then the rule."""
    import re

    root = re.split(r"[.\[]", field, maxsplit=1)[0] if field else ""
    name = tr(lang, FIELDS[root]) if root in FIELDS else field
    return f"{name}{catalogs.colon(lang)} {reason}" if name else reason


#: The concours's templates (``concours/``), in its words; no page is kept by a cache (an
#: organiser's page holds the table links' secrets).
templates = Templates(_helpers, headers={"Cache-Control": "no-store"})


def new_concours_json(form: Mapping[str, str]) -> dict[str, Any]:
    """The body of ``POST /api/concours`` from the new concours form (teams one per line:
    ``name`` or ``name: player, player``)."""
    def count(key: str) -> int | str | None:
        raw = form.get(key, "").strip()
        if not raw:
            return None
        return number_or_text(raw)

    game = form.get("game", "belote")
    obj: dict[str, Any] = {
        "name": form.get("name", ""), "game": game,
        "rules": form.get("rules") or None, "parties": count("parties"),
        "deals": count("deals"), "target": count("target"),
        "mode": form.get("mode") or None, "ranking": form.get("ranking") or None,
        "exempt": form.get("exempt") or None, "draw": form.get("draw") or None,
        "withdrawal": form.get("withdrawal") or None,
        "reserve_at_end": form.get("reserve_at_end") or None,
        "exempt_score": count("exempt_score"),
    }
    if form.get("seed", "").strip():
        obj["seed"] = form["seed"].strip()
    options: dict[str, Any] = {}
    if form.get("declarations") == "off":
        options["declarations"] = False
    if options:
        obj["options"] = options
    tb = [form.get(f"tiebreak{i}", "") for i in range(len(TIEBREAKS))]
    if any(tb):
        obj["tiebreaks"] = [x for x in tb if x]
    obj["teams"] = [entry_json(line) for line in form.get("teams", "").splitlines()
                    if line.strip()]
    return {k: v for k, v in obj.items() if v is not None}


def entry_json(line: str, paid: bool = False) -> dict[str, Any]:
    """A team from ``Les As: Anne, Marc`` (players after a colon)."""
    name, _sep, players = line.partition(":")
    out: dict[str, Any] = {"name": name.strip()}
    names = [p.strip() for p in players.split(",") if p.strip()]
    if names:
        out["players"] = names
    if paid:
        out["paid"] = True
    return out


def room_context(loaded: Loaded) -> dict[str, Any]:
    """What the room screen shows: the last *partie*'s seats by team, and the ranking."""
    c = loaded.concours
    seats: list[dict[str, Any]] = []
    partie = c.parties[-1] if c.parties else None
    if partie is not None:
        for t in partie.tables:
            for i, side in enumerate(t.sides):
                for n in side:
                    partner = " / ".join(c.entry(m).name for m in side if m != n)
                    seats.append({"team": n, "name": c.entry(n).name, "table": t.number,
                                  "partner": partner,
                                  "against": " / ".join(f"{m}. {c.entry(m).name}"
                                                        for m in t.sides[1 - i])})
        for n in partie.exempt:
            seats.append({"team": n, "name": c.entry(n).name, "table": None, "against": "",
                          "partner": ""})
    seats.sort(key=lambda s: s["team"])
    scored = sum(t.result is not None for t in partie.tables) if partie else 0
    return {"c": c, "loaded": loaded, "partie": partie, "seats": seats, "scored": scored,
            "lines": loaded.standings(), "draw_first": partie is not None and not partie.started}


router = APIRouter(include_in_schema=False)


def missing(request: Request, error: ConcoursNotFoundError | ConcoursForbiddenError
            ) -> HTMLResponse:
    """The page of a concours this browser cannot open: unknown (404), or without its
    organiser's secret (403)."""
    forbidden = isinstance(error, ConcoursForbiddenError)
    return templates.render(request, "concours/missing.html", 403 if forbidden else 404,
                            forbidden=forbidden)


async def form_of(request: Request) -> dict[str, str]:
    """The posted form's text fields (at most :data:`_FORM_LIMIT` and a few)."""
    data = await request.form(max_fields=_FORM_LIMIT + 20)
    return {k: v for k, v in data.items() if isinstance(v, str)}


async def organiser(request: Request, concours: ConcoursService, cid: str, secret: str | None,
                    status: int = 200, template: str = "concours/organiser.html",
                    **extra: Any) -> Response:
    """The organiser's page (with ``extra``: an error, a notice and its way back ``undo``;
    ``template``: the page, or its live part)."""
    try:
        loaded = await concours.call(concours.get, cid, secret, check=True)
    except (ConcoursNotFoundError, ConcoursForbiddenError) as e:
        return missing(request, e)
    lang = i18n.request_lang(request)
    c = loaded.concours
    base = str(request.base_url).rstrip("/")
    join_link = f"{base}/concours/{cid}/join?key={secret}"
    return templates.render(request, template, status, loaded=loaded, c=c,
                            join_link=join_link, private=loaded.to_json(private=True),
                            rules_text=rules_name(lang, c.settings.rules),
                            lines=loaded.standings(), **{"undo": None, **extra})


async def act(request: Request, concours: ConcoursService, cid: str, secret: str | None,
              change: Callable[[Concours], Concours] | None, anchor: str = "",
              notice: Callable[[Loaded], str | None] | None = None, *,
              do: Callable[[], Loaded] | None = None,
              undo: Mapping[str, Any] | None = None) -> Response:
    """Apply a change from a form (or ``do`` it through the service); the page again, with
    the error if any, or with the ``notice`` and its way back ``undo``."""
    lang = i18n.request_lang(request)
    try:
        if do is not None:
            loaded = await concours.call(do)
        else:
            assert change is not None
            loaded = await concours.call(concours.change, cid, secret, change)
    except RebeloteError as e:
        return await organiser(request, concours, cid, secret, 422,
                               error=error_text(e.field, e.reason, lang))
    except (ConcoursNotFoundError, ConcoursForbiddenError) as e:
        return missing(request, e)
    message = notice(loaded) if notice is not None else None
    if message:
        return await organiser(request, concours, cid, secret, 200, notice=message, undo=undo)
    target = f"/concours/{cid}" + (f"#{anchor}" if anchor else "")
    return RedirectResponse(target, status_code=303)


# -- a new concours -----------------------------------------------------------------------
@router.get("/concours", response_class=HTMLResponse)
async def home(request: Request, concours: ConcoursDep) -> Response:
    mine = await concours.call(concours.mine, list(KeyRing.of(request).keys.values()))
    return templates.render(request, "concours/new.html", mine=mine, form={}, error=None)


@router.post("/concours")
async def create(request: Request, concours: ConcoursDep) -> Response:
    if len(await request.body()) > concours.limits.concours_body:
        raise BodyTooLargeError(concours.limits.concours_body)
    form = await form_of(request)
    lang = i18n.request_lang(request)
    wait = await creation_wait(request)
    if wait:
        mine = await concours.call(concours.mine, list(KeyRing.of(request).keys.values()))
        refused = templates.render(
            request, "concours/new.html", 429, mine=mine, form=form,
            error=tr(lang, "Too many concours created from your address: try again in "
                           "%(s)s s.") % {"s": f"{wait:g}"})
        refused.headers["Retry-After"] = str(math.ceil(wait))
        return refused
    try:
        loaded, token = await concours.call(concours.create, new_concours_json(form))
    except RebeloteError as e:
        await creation_failed(request)
        mine = await concours.call(concours.mine, list(KeyRing.of(request).keys.values()))
        return templates.render(request, "concours/new.html", 422, mine=mine, form=form,
                                error=error_text(e.field, e.reason, lang))
    response = RedirectResponse(f"/concours/{loaded.id}", status_code=303)
    KeyRing.of(request).add(loaded.id, token).store(request, response)
    return response


@router.get("/concours/{cid}/join")
async def join(request: Request, cid: str, concours: ConcoursDep, key: str = "") -> Response:
    """The organiser's link for another device: asks before it hands this browser the secret
    (a page of another site could send a browser here with its own concours: login CSRF)."""
    try:
        loaded = await concours.call(concours.get, cid, key, check=True)
    except (ConcoursNotFoundError, ConcoursForbiddenError) as e:
        return missing(request, e)
    if KeyRing.of(request).get(cid) == key:  # this browser holds it already
        return RedirectResponse(f"/concours/{cid}", status_code=303)
    return templates.render(request, "concours/join.html", cid=cid, key=key,
                            concours_name=loaded.concours.settings.name)


@router.post("/concours/{cid}/join")
async def join_confirmed(request: Request, cid: str, concours: ConcoursDep) -> Response:
    """The organiser's link's page said yes (a same-site form: the middleware refuses
    others)."""
    key = (await form_of(request)).get("key", "")
    try:
        await concours.call(concours.get, cid, key, check=True)
    except (ConcoursNotFoundError, ConcoursForbiddenError) as e:
        return missing(request, e)
    response = RedirectResponse(f"/concours/{cid}", status_code=303)
    KeyRing.of(request).add(cid, key).store(request, response)
    return response


# -- the organiser's page -----------------------------------------------------------------
@router.get("/concours/{cid}", response_class=HTMLResponse)
async def page(request: Request, cid: str, concours: ConcoursDep, secret: OrganiserSecretDep
               ) -> Response:
    return await organiser(request, concours, cid, secret)


@router.post("/concours/{cid}/teams")
async def add_team(request: Request, cid: str, concours: ConcoursDep,
                   secret: OrganiserSecretDep) -> Response:
    form = await form_of(request)
    entry = entry_json(form.get("name", "") + (":" + form["players"]
                                               if form.get("players") else ""),
                       paid=form.get("paid") == "on")
    return await act(request, concours, cid, secret, lambda c: c.add_entry(entry), "teams")


@router.post("/concours/{cid}/teams/{n}/withdraw")
async def withdraw(request: Request, cid: str, n: Number, concours: ConcoursDep,
                   secret: OrganiserSecretDep) -> Response:
    lang = i18n.request_lang(request)

    def notice(loaded: Loaded) -> str:
        return tr(lang, "Team %(n)s, %(name)s, has withdrawn: it is in no partie drawn from "
                        "now on.") % {"n": n, "name": loaded.concours.entry(n).name}

    undo = {"action": f"/concours/{cid}/teams/{n}/return", "fields": {},
            "label": tr(lang, "Take the withdrawal back")}
    return await act(request, concours, cid, secret, lambda c: c.withdraw(n), "teams",
                     notice, undo=undo)


@router.post("/concours/{cid}/teams/{n}/return")
async def reinstate(request: Request, cid: str, n: Number, concours: ConcoursDep,
                    secret: OrganiserSecretDep) -> Response:
    return await act(request, concours, cid, secret, lambda c: c.reinstate(n), "teams")


@router.post("/concours/{cid}/teams/{n}/paid")
async def paid(request: Request, cid: str, n: Number, concours: ConcoursDep,
               secret: OrganiserSecretDep) -> Response:
    def fn(c: Concours) -> Concours:
        e = c.entry(n)
        return c.update_entry(n, {"name": e.name, "players": list(e.players),
                                  "paid": not e.paid})
    return await act(request, concours, cid, secret, fn, "teams")


@router.post("/concours/{cid}/draw")
async def draw(request: Request, cid: str, concours: ConcoursDep, secret: OrganiserSecretDep
               ) -> Response:
    return await act(request, concours, cid, secret, lambda c: c.draw_next(), "partie")


@router.post("/concours/{cid}/parties/{k}/redraw")
async def redraw(request: Request, cid: str, k: Number, concours: ConcoursDep,
                 secret: OrganiserSecretDep) -> Response:
    return await act(request, concours, cid, secret, lambda c: c.redraw(k), "partie")


@router.post("/concours/{cid}/parties/{k}/cancel")
async def cancel(request: Request, cid: str, k: Number, concours: ConcoursDep,
                 secret: OrganiserSecretDep) -> Response:
    lang = i18n.request_lang(request)

    def notice(_loaded: Loaded) -> str:
        return tr(lang, "The draw of partie %(k)s is cancelled: draw it again when you are "
                        "ready (the same seed gives the same first draw).") % {"k": k}

    return await act(request, concours, cid, secret, lambda c: c.cancel(k), "partie", notice)


@router.post("/concours/{cid}/parties/{k}/swap")
async def swap(request: Request, cid: str, k: Number, concours: ConcoursDep,
               secret: OrganiserSecretDep) -> Response:
    form = await form_of(request)

    def fn(c: Concours) -> Concours:
        a = whole_number(form.get("a", ""), "team", low=1, high=10_000)
        b = whole_number(form.get("b", ""), "team", low=1, high=10_000)
        return c.swap(k, a, b)

    return await act(request, concours, cid, secret, fn, "partie")


@router.post("/concours/{cid}/parties/{k}/tables/{t}")
async def result(request: Request, cid: str, k: Number, t: Number, concours: ConcoursDep,
                 secret: OrganiserSecretDep) -> Response:
    form = await form_of(request)
    if form.get("clear"):
        return await clear_result(request, concours, cid, secret, k, t)
    sheet: dict[str, Any] = {}
    for key in ("deals", "belotes", "capots"):
        raw = form.get(key, "").strip()
        if raw:
            sheet[key] = number_or_text(raw)
    scores = [_int_or_text(form.get("a", "")), _int_or_text(form.get("b", ""))]
    lang = i18n.request_lang(request)

    def notice(loaded: Loaded) -> str | None:
        check = loaded.concours.check(k, t)
        if check is None or check.ok:
            return None
        return (tr(lang, "Table %(t)s, partie %(k)s: the result is saved, but check the "
                         "sheet.") % {"t": t, "k": k}) + " " + check.reason

    return await act(request, concours, cid, secret,
                     lambda c: c.record(k, t, scores, sheet=sheet), f"p{k}t{t}", notice)


async def clear_result(request: Request, concours: ConcoursService, cid: str,
                       secret: str | None, k: int, t: int) -> Response:
    """Forget a table's result; the page says so and offers to put it back."""
    lang = i18n.request_lang(request)
    undo: dict[str, Any] = {}
    try:
        before = await concours.call(concours.get, cid, secret, check=True)
        old = before.concours.partie(k).table(t).result
    except (ConcoursNotFoundError, ConcoursForbiddenError) as e:
        return missing(request, e)
    except RebeloteError:
        old = None
    if old is not None:
        undo = {"action": f"/concours/{cid}/parties/{k}/tables/{t}",
                "fields": {"a": old.scores[0], "b": old.scores[1]},
                "label": tr(lang, "Put it back (%(a)s – %(b)s)") % {"a": old.scores[0],
                                                                     "b": old.scores[1]}}

    def notice(loaded: Loaded) -> str:
        now = loaded.concours.partie(k).table(t).result
        if now is not None:
            return tr(lang, "Table %(t)s, partie %(k)s: the phone's result is back.") % {
                "t": t, "k": k}
        return tr(lang, "Table %(t)s, partie %(k)s: its result is forgotten.") % {"t": t,
                                                                                  "k": k}

    return await act(request, concours, cid, secret, None, f"p{k}t{t}", notice,
                     do=lambda: concours.clear_table(cid, secret, k, t),
                     undo=undo or None)


@router.post("/concours/{cid}/parties/{k}/phones")
async def phones(request: Request, cid: str, k: Number, concours: ConcoursDep,
                 secret: OrganiserSecretDep) -> Response:
    try:
        await concours.call(concours.open_tables, cid, secret, k, client_of(request.scope))
    except (ConcoursNotFoundError, ConcoursForbiddenError) as e:
        return missing(request, e)
    except PhonesTooFastError as e:
        refused = await organiser(
            request, concours, cid, secret, 429,
            error=tr(i18n.request_lang(request), "Too many counter games opened from your "
                     "address: try again in %(s)s s.") % {"s": f"{e.wait:g}"})
        refused.headers["Retry-After"] = str(math.ceil(e.wait))
        return refused
    except RebeloteError as e:
        return await organiser(request, concours, cid, secret, 422,
                               error=error_text(e.field, e.reason, i18n.request_lang(request)))
    return RedirectResponse(f"/concours/{cid}/parties/{k}/qr", status_code=303)


@router.get("/concours/{cid}/parties/{k}/qr", response_class=HTMLResponse)
async def qr_page(request: Request, cid: str, k: Number, concours: ConcoursDep,
                  secret: OrganiserSecretDep) -> Response:
    """Each table's link and QR code: it opens the counter's form for that table."""
    try:
        loaded = await concours.call(concours.get, cid, secret, check=True)
    except ConcoursForbiddenError as e:
        return missing(request, e)
    c = loaded.concours
    partie = c.partie(k)
    base = str(request.base_url).rstrip("/")
    lang = i18n.request_lang(request)
    tables = []
    for t in partie.tables:
        link = f"{base}/join/{t.game}?key={t.key}" if t.game and t.key else None
        image = None
        if link:
            svg = qr_svg(link, tr(lang, "Table %(t)s") % {"t": t.number})
            image = "data:image/svg+xml;base64," + base64.b64encode(svg).decode()
        tables.append({"t": t, "link": link, "qr": image})
    return templates.render(request, "concours/qr.html", loaded=loaded, c=c, partie=partie,
                            tables=tables)


@router.post("/concours/{cid}/settings")
async def settings(request: Request, cid: str, concours: ConcoursDep,
                   secret: OrganiserSecretDep) -> Response:
    form = await form_of(request)

    def fn(c: Concours) -> Concours:
        raw = form.get("parties", "").strip()
        if raw:
            c = c.set_parties(number_or_text(raw))  # type: ignore[arg-type]
        if "prizes" in form:
            c = c.set_prizes([p.strip() for p in form["prizes"].splitlines()])
        return c

    return await act(request, concours, cid, secret, fn, "settings")


# -- the room screen ----------------------------------------------------------------------
@router.get("/salle/{view}", response_class=HTMLResponse)
async def room(request: Request, view: str, concours: ConcoursDep) -> Response:
    try:
        loaded = await concours.call(concours.of_view, view)
    except ConcoursNotFoundError as e:
        return missing(request, e)
    return templates.render(request, "concours/room.html", **room_context(loaded))


@router.get("/salle/{view}/live", response_class=HTMLResponse)
async def room_live(request: Request, view: str, concours: ConcoursDep,
                    version: str | None = None) -> Response:
    """The room screen's live part; ``204`` when the concours is still at ``version``."""
    try:
        loaded = await concours.call(concours.of_view, view)
    except ConcoursNotFoundError as e:
        return missing(request, e)
    if optional_number(version) == loaded.version:
        return Response(status_code=204)
    return templates.render(request, "concours/_room.html", **room_context(loaded))


@router.get("/concours/{cid}/live", response_class=HTMLResponse)
async def organiser_live(request: Request, cid: str, concours: ConcoursDep,
                         secret: OrganiserSecretDep, version: str | None = None) -> Response:
    """The organiser's page's content when the concours changed since ``version`` (a
    table's phone sent its result), else ``204``: the page asks every few seconds."""
    try:
        now = await concours.call(concours.version, cid)
    except ConcoursNotFoundError as e:
        return missing(request, e)
    if optional_number(version) == now:
        return Response(status_code=204)
    return await organiser(request, concours, cid, secret,
                           template="concours/_organiser.html")


def _int_or_text(raw: str) -> int | str:
    """A score typed with or without its thousands' spaces (``1 204``)."""
    return number_or_text(raw.strip().replace(" ", "").replace("\u202f", "")
                          .replace("\u00a0", ""))


__all__ = ["ROOM_REFRESH", "entry_json", "error_text", "new_concours_json", "room_context",
           "router"]
