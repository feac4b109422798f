"""The concours's JSON API (docs/interfaces.md, "The concours API").

``POST /api/concours`` answers ``201`` with the concours's ``id``, its organiser's ``token``
and its room screen's ``view``; every write on ``/api/concours/{id}`` needs the token as
``Authorization: Bearer <token>`` (or the pages' cookie): ``403`` without it, ``404`` for an
unknown concours. Reading ``GET /api/concours/{id}`` needs no token (the id is unguessable; the
token adds each table's counter link). Bad input answers ``422`` ``{"error": ...}`` naming
the field; bodies are ``application/json`` (``415``), bounded (``413``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Annotated, Any, Final

from fastapi import APIRouter, Path, Request
from fastapi.responses import JSONResponse, Response

from rebelote.concours import Concours
from rebelote.errors import InputError
from rebelote.secret import secret_matches
from rebelote.web.concours.deps import (
    ConcoursDep,
    OrganiserSecretDep,
    creation_failed,
    creation_wait,
)
from rebelote.web.concours.service import ConcoursService, Loaded, PhonesTooFastError
from rebelote.web.errors import too_fast
from rebelote.web.openapi import SECURITY, error_doc, route_doc
from rebelote.web.security import (
    BodyTooLargeError,
    UnsupportedMediaError,
    client_of,
    parse_json,
    read_json,
)

Number = Annotated[int, Path(ge=1, le=10_000)]
_OBJECT: Final = {"type": "object"}
_WRITE: Final = (403, 404, 409, 413, 415, 422, 503)

router = APIRouter(prefix="/api/concours", tags=["concours"])


def _field(obj: Any, key: str) -> Any:
    if not isinstance(obj, dict):
        raise InputError("body", "must be a JSON object")
    return obj.get(key)


def partie_json(c: Concours, k: int) -> dict[str, Any]:
    """A drawn *partie*: ``{"partie", "tables": [{"table", "teams"}], "exempt", "repeats"}``."""
    partie = c.partie(k)
    return {"partie": k,
            "tables": [{"table": t.number, "teams": [c.side_json(s) for s in t.sides]}
                       for t in partie.tables],
            "exempt": list(partie.exempt), "repeats": c.repeats(k)}


#: The organiser's answers carry each table's counter secret: no cache keeps them.
PRIVATE: Final = {"Cache-Control": "no-store"}


def concours_response(loaded: Loaded, status: int = 200, **extra: Any) -> JSONResponse:
    """The concours as its organiser reads it, with its version as ``ETag`` (and ``extra``)."""
    return JSONResponse({**loaded.to_json(private=True), **extra}, status_code=status,
                        headers={"ETag": f'"{loaded.version}"', **PRIVATE})


def too_many(wait: float) -> JSONResponse:
    """The ``429`` of a creation past the rate."""
    return too_fast(f"rate: too many concours created from your address: try again in "
                    f"{wait:g} s", wait)


async def creation_body(request: Request, concours: ConcoursService) -> Any:
    """A creation's JSON body, at most ``Limits.concours_body`` bytes (413)."""
    await read_json_type(request)
    body = await request.body()
    if len(body) > concours.limits.concours_body:
        raise BodyTooLargeError(concours.limits.concours_body)
    return parse_json(body)


async def read_json_type(request: Request) -> None:
    """The body is JSON (415 otherwise), as :func:`read_json` checks it."""
    kind = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if kind != "application/json" and not (kind.startswith("application/")
                                           and kind.endswith("+json")):
        raise UnsupportedMediaError(kind)


async def change(concours: ConcoursService, cid: str, secret: str | None,
                 fn: Callable[[Concours], Concours]) -> Loaded:
    """The concours changed by ``fn``, for its organiser (403 for anyone else)."""
    return await concours.call(concours.change, cid, secret, fn)


@router.post("", status_code=201, summary="Create a concours",
             openapi_extra=route_doc(_OBJECT, 201, _OBJECT,
                                     "The concours, with its organiser's token",
                                     413, 415, 422, 429, 503, secret=False))
async def create(request: Request, concours: ConcoursDep) -> JSONResponse:
    obj = await creation_body(request, concours)
    wait = await creation_wait(request)
    if wait:
        return too_many(wait)
    try:
        loaded, token = await concours.call(concours.create, obj)
    except BaseException:
        await creation_failed(request)
        raise
    return concours_response(loaded, 201, token=token)


@router.get("/{cid}", summary="A concours: teams, parties, ranking",
            openapi_extra=route_doc(None, 200, _OBJECT, "The concours", 404, secret=False))
async def get(cid: str, concours: ConcoursDep, secret: OrganiserSecretDep) -> Response:
    loaded = await concours.call(concours.get, cid)
    private = secret is not None and secret_matches(secret, loaded.secret_hash)
    headers = {"ETag": f'"{loaded.version}"', **(PRIVATE if private else {})}
    return Response(loaded.body(private), media_type="application/json", headers=headers)


@router.get("/views/{view}", summary="A concours through its room screen's id",
            openapi_extra=route_doc(None, 200, _OBJECT, "The concours", 404, secret=False))
async def view(view: str, concours: ConcoursDep) -> JSONResponse:
    loaded = await concours.call(concours.of_view, view)
    out = loaded.to_json()
    del out["id"]  # a copy: the concours's answer is kept for its version
    return JSONResponse(out)


@router.patch("/{cid}", summary="Change the number of parties, the prizes or the name",
              openapi_extra=route_doc(_OBJECT, 200, _OBJECT, "The concours", *_WRITE))
async def patch(request: Request, cid: str, concours: ConcoursDep, secret: OrganiserSecretDep
                ) -> JSONResponse:
    obj = await read_json(request)
    if not isinstance(obj, dict):
        raise InputError("body", "must be a JSON object")
    unknown = sorted(set(obj) - {"parties", "prizes"})
    if unknown:
        raise InputError(unknown[0][:40], "only parties and prizes change once the concours is "
                                          "created")

    def fn(c: Concours) -> Concours:
        if "parties" in obj:
            c = c.set_parties(obj["parties"])
        if "prizes" in obj:
            c = c.set_prizes(obj["prizes"])
        return c

    return concours_response(await change(concours, cid, secret, fn))


@router.post("/{cid}/teams", status_code=201, summary="Register a team (plays from the next "
             "partie)", openapi_extra=route_doc(_OBJECT, 201, _OBJECT,
                                                "The concours and the team's number", *_WRITE))
async def add_team(request: Request, cid: str, concours: ConcoursDep,
                   secret: OrganiserSecretDep) -> JSONResponse:
    obj = await read_json(request)
    loaded = await change(concours, cid, secret, lambda c: c.add_entry(obj))
    return concours_response(loaded, 201, team=len(loaded.concours.entries))


@router.patch("/{cid}/teams/{n}", summary="Correct a team's name, players or fee",
              openapi_extra=route_doc(_OBJECT, 200, _OBJECT, "The concours", *_WRITE))
async def update_team(request: Request, cid: str, n: Number, concours: ConcoursDep,
                      secret: OrganiserSecretDep) -> JSONResponse:
    obj = await read_json(request)
    return concours_response(await change(concours, cid, secret,
                                          lambda c: c.update_entry(n, obj)))


@router.post("/{cid}/teams/{n}/withdraw", summary="A team withdraws",
             openapi_extra=route_doc(None, 200, _OBJECT, "The concours", *_WRITE))
async def withdraw(cid: str, n: Number, concours: ConcoursDep, secret: OrganiserSecretDep
                   ) -> JSONResponse:
    return concours_response(await change(concours, cid, secret, lambda c: c.withdraw(n)))


@router.post("/{cid}/teams/{n}/return", summary="Take a team's withdrawal back (no partie "
             "drawn since)", openapi_extra=route_doc(None, 200, _OBJECT, "The concours",
                                                     *_WRITE))
async def reinstate(cid: str, n: Number, concours: ConcoursDep, secret: OrganiserSecretDep
                    ) -> JSONResponse:
    return concours_response(await change(concours, cid, secret, lambda c: c.reinstate(n)))


@router.post("/{cid}/parties", summary="Draw the next partie",
             openapi_extra=route_doc(None, 200, _OBJECT, "The partie drawn", *_WRITE))
async def draw(cid: str, concours: ConcoursDep, secret: OrganiserSecretDep) -> JSONResponse:
    loaded = await change(concours, cid, secret, lambda c: c.draw_next())
    c = loaded.concours
    return JSONResponse(partie_json(c, len(c.parties)), headers={"ETag": f'"{loaded.version}"'})



@router.post("/{cid}/parties/{k}/redraw", summary="Draw the last partie again (before its "
             "first result)", openapi_extra=route_doc(None, 200, _OBJECT, "The partie drawn",
                                                      *_WRITE))
async def redraw(cid: str, k: Number, concours: ConcoursDep, secret: OrganiserSecretDep
                 ) -> JSONResponse:
    loaded = await change(concours, cid, secret, lambda c: c.redraw(k))
    return JSONResponse(partie_json(loaded.concours, k))


@router.post("/{cid}/parties/{k}/swap", summary="Swap two teams in the last partie (before "
             "its first result)", openapi_extra=route_doc(_OBJECT, 200, _OBJECT, "The partie",
                                                         *_WRITE))
async def swap(request: Request, cid: str, k: Number, concours: ConcoursDep,
               secret: OrganiserSecretDep) -> JSONResponse:
    obj = await read_json(request)
    teams = _field(obj, "teams")
    if not (isinstance(teams, list) and len(teams) == 2
            and all(isinstance(x, int) and not isinstance(x, bool) for x in teams)):
        raise InputError("teams", "the two teams' numbers, like [3, 8]")
    loaded = await change(concours, cid, secret, lambda c: c.swap(k, teams[0], teams[1]))
    return JSONResponse(partie_json(loaded.concours, k))


@router.delete("/{cid}/parties/{k}", status_code=204, summary="Cancel the last draw (before "
               "its first result)",
               openapi_extra={"security": SECURITY, "responses": {
                   "204": {"description": "Cancelled"}, **error_doc(*_WRITE)}})
async def cancel(cid: str, k: Number, concours: ConcoursDep, secret: OrganiserSecretDep
                 ) -> Response:
    await change(concours, cid, secret, lambda c: c.cancel(k))
    return Response(status_code=204)


@router.put("/{cid}/parties/{k}/tables/{t}", summary="A table's result (or its correction)",
            openapi_extra=route_doc(_OBJECT, 200, _OBJECT, "The concours, ranked again",
                                    *_WRITE))
async def result(request: Request, cid: str, k: Number, t: Number, concours: ConcoursDep,
                 secret: OrganiserSecretDep) -> JSONResponse:
    obj = await read_json(request)
    if not isinstance(obj, dict):
        raise InputError("body", "must be a JSON object like {\"scores\": {\"3\": 1204, "
                                 "\"7\": 740}}")
    unknown = sorted(set(obj) - {"scores", "deals", "belotes", "capots"})
    if unknown:
        raise InputError(unknown[0][:40], "unknown field of a result (known: scores, deals, "
                                          "belotes, capots)")
    if "scores" not in obj:
        raise InputError("scores", "missing: each team's points, like {\"3\": 1204, "
                                   "\"7\": 740}")
    loaded = await change(concours, cid, secret,
                          lambda c: c.record(k, t, obj["scores"], sheet=obj))
    check = loaded.concours.check(k, t)
    return concours_response(loaded, check=None if check is None else {"ok": check.ok,
                                                                       "reason": check.reason})


@router.delete("/{cid}/parties/{k}/tables/{t}", summary="Forget a table's result",
               openapi_extra=route_doc(None, 200, _OBJECT, "The concours", *_WRITE))
async def clear(cid: str, k: Number, t: Number, concours: ConcoursDep,
                secret: OrganiserSecretDep) -> JSONResponse:
    return concours_response(await concours.call(concours.clear_table, cid, secret, k, t))


@router.post("/{cid}/parties/{k}/phones", summary="Open a counter game for each table of the "
             "partie (links and QR codes for the phones)",
             openapi_extra=route_doc(None, 200, _OBJECT,
                                     "The concours, with each table's counter link", *_WRITE,
                                     429))
async def phones(request: Request, cid: str, k: Number, concours: ConcoursDep,
                 secret: OrganiserSecretDep) -> JSONResponse:
    try:
        loaded = await concours.call(concours.open_tables, cid, secret, k,
                                     client_of(request.scope))
    except PhonesTooFastError as e:
        return too_fast(str(e), e.wait)
    return concours_response(loaded)
