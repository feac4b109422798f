"""What the concours's routes take from a request, as FastAPI dependencies named by
``Annotated`` types: the concours's service (built by the app, on ``app.state.concours``) and
the organiser's secret.

A route names them in its signature::

    @router.post("/{cid}/parties")
    async def draw(cid: str, concours: ConcoursDep, secret: OrganiserSecretDep) -> ...
"""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends
from starlette.requests import Request

from rebelote.web.concours.service import ConcoursService
from rebelote.web.limits import Limits, LimitStore, client_key
from rebelote.web.security import bearer, client_of


async def concours_service(request: Request) -> ConcoursService:
    """The app's concours service."""
    service: ConcoursService = request.app.state.concours
    return service


async def organiser_secret(request: Request, cid: str) -> str | None:
    """The secret of concours ``cid`` that the request presents (``Authorization: Bearer``,
    else this browser's key ring), if any."""
    return bearer(request, cid)


ConcoursDep = Annotated[ConcoursService, Depends(concours_service)]
OrganiserSecretDep = Annotated[str | None, Depends(organiser_secret)]

__all__ = ["ConcoursDep", "OrganiserSecretDep", "concours_service", "creation_failed",
           "creation_wait", "organiser_secret"]


async def creation_wait(request: Request) -> float:
    """0 when this client may create one more concours (``Limits.concours_per_minute``,
    counted for the whole site like the other rates: :class:`~rebelote.web.limits.LimitStore`),
    one then taken from its bucket, else the seconds to wait (nothing taken)."""
    store, client = creation_counts(request)
    return await store.take("concours", client)


async def creation_failed(request: Request) -> None:
    """A creation refused for its content: it does not count against the rate."""
    store, client = creation_counts(request)
    await store.give_back("concours", client)


def creation_counts(request: Request) -> tuple[LimitStore, str]:
    """The site's limit store and the client a creation counts against (its address, an IPv6
    client's network)."""
    limits: Limits = request.app.state.limits
    return request.app.state.limit_counts, client_key(client_of(request.scope),
                                                      limits.ipv6_prefix)
