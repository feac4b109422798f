"""Persistence of the counter's games: SQLAlchemy 2 models, migrations and a small game store.

A game is stored as its JSON input (``Match.to_json()``, the game input of ``rebelote score``)
with its metadata: id, version (bumped by every write) and the times it was created and updated.
SQLite (one file in the user's data directory) by default; any SQLAlchemy URL works,
PostgreSQL included.
"""

from rebelote.store.counter_games import (
    GameConflictError,
    GameNotFoundError,
    GameRow,
    GameStore,
    GameSummary,
    StoredGame,
)
from rebelote.store.db import default_db_url, make_engine, migrate

__all__ = [
    "GameConflictError",
    "GameNotFoundError",
    "GameRow",
    "GameStore",
    "GameSummary",
    "StoredGame",
    "default_db_url",
    "make_engine",
    "migrate",
]
