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
from rebelote.web.security import bearer


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

__all__ = ["ConcoursDep", "OrganiserSecretDep", "concours_service", "organiser_secret"]
