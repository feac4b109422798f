"""The club tournament on the web: its service (concours stored, tables counted on phones
through counter games), its JSON API, its pages (the organiser's, the room screen) and its
PDFs."""

from __future__ import annotations

from fastapi import FastAPI
from sqlalchemy import Engine

from rebelote.store import GameStore
from rebelote.store.concours import ConcoursStore
from rebelote.web.concours.api import make_concours_router
from rebelote.web.concours.service import ConcoursService

__all__ = ["install_concours"]


def install_concours(app: FastAPI, engine: Engine, inline: bool) -> ConcoursService:
    """Add the concours's routes to ``app`` (its store on ``engine``)."""
    service = ConcoursService(ConcoursStore(engine), GameStore(engine), inline=inline)
    app.state.concours = service
    app.include_router(make_concours_router(service))
    from rebelote.web.concours.pages import make_concours_pages
    from rebelote.web.concours.printables import make_concours_printables

    app.include_router(make_concours_printables(service))
    app.include_router(make_concours_pages(service))
    return service
