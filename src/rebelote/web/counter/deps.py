"""What the counter's routes take from a request, as FastAPI dependencies named by
``Annotated`` types: the counter's service (built by the app, on ``app.state.counter``) and the
game's secret.

A route names them in its signature::

    @router.get("/games/{game_id}")
    async def get_game(game_id: str, counter: CounterDep, secret: GameSecretDep) -> ...
"""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends
from starlette.requests import Request

from rebelote.web.counter.service import CounterService
from rebelote.web.security import bearer


async def counter_service(request: Request) -> CounterService:
    """The app's counter service."""
    service: CounterService = request.app.state.counter
    return service


async def game_secret(request: Request, game_id: str) -> str | None:
    """The secret of game ``game_id`` that the request presents (``Authorization: Bearer``,
    else this browser's key ring), if any."""
    return bearer(request, game_id)


CounterDep = Annotated[CounterService, Depends(counter_service)]
GameSecretDep = Annotated[str | None, Depends(game_secret)]

__all__ = ["CounterDep", "GameSecretDep", "counter_service", "game_secret"]
