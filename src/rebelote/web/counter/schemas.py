"""The JSON Schemas of the counter's API, written once: the OpenAPI document (``/openapi.json``)
is built from them, and the schema-driven fuzz test checks every answer against them.

The names of games, rule sets and teams come from the core (:data:`rebelote.rules.GAMES`,
:data:`rebelote.rules.PRESET_NAMES`, :data:`rebelote.cards.TEAMS`).
"""

from __future__ import annotations

from typing import Any, Final

from rebelote.cards import SEATS, TEAMS
from rebelote.match import DEFAULT_TEAMS
from rebelote.rules import GAMES, PRESET_NAMES


def _per_team(kind: dict[str, Any], example: dict[str, Any] | None = None) -> dict[str, Any]:
    out: dict[str, Any] = {"type": "object", "properties": {t: kind for t in TEAMS}}
    if example is not None:
        out["example"] = example
    return out


_INT: Final = {"type": "integer"}
_SEAT: Final = {"type": "string", "enum": list(SEATS)}
_PLAYERS: Final = {"type": "object", "properties": {s: {"type": "string"} for s in SEATS},
                   "example": {"N": "Anne", "S": "Bruno"}}
_TEAM: Final = {"type": ["string", "null"], "enum": [*TEAMS, None]}

NEW_GAME: Final[dict[str, Any]] = {
    "type": "object",
    "properties": {
        "game": {"type": "string", "enum": list(GAMES)},
        "rules": {"type": "string", "enum": list(PRESET_NAMES)},
        "options": {"type": "object"},
        "target": {"type": "integer", "example": 1000},
        "teams": _per_team({"type": "string"}, dict(zip(TEAMS, DEFAULT_TEAMS, strict=True))),
        "start": _per_team(_INT),
        "deals": {"type": "array", "items": {"type": "object"}},
        "players": _PLAYERS,
        "dealer": {**_SEAT, "description": "Who dealt the first deal"},
    },
    "required": ["game"],
}
DEAL: Final[dict[str, Any]] = {
    "type": "object",
    "description": "A deal summary (docs/interfaces.md), without game",
    "example": {"trump": "hearts", "taker": "NS", "points": {"NS": 98}, "belote": "NS"},
}
SETTINGS: Final[dict[str, Any]] = {
    "type": "object",
    "properties": {"teams": _per_team({"type": "string"}), "target": _INT,
                   "players": _PLAYERS,
                   "dealer": {"type": ["string", "null"], "enum": [*SEATS, None],
                              "description": "Who dealt the first deal (null: not known)"},
                   "archived": {"type": "boolean",
                                "description": "Hide the game from the list (false: show it)"}},
    "example": {"teams": {"NS": "Les bleus"}, "target": 1500},
}
_PAIR: Final = _per_team(_INT)
GAME: Final[dict[str, Any]] = {
    "type": "object",
    "description": "The game answer of `rebelote score` plus the game's identity and settings",
    "properties": {
        "id": {"type": "string"},
        "view": {"type": "string", "description": "The id of the game's read-only view"},
        "token": {"type": "string",
                  "description": "The game's secret (only when it is created)"},
        "version": _INT,
        "game": {"type": "string", "enum": list(GAMES)},
        "rules": {"type": "string", "enum": list(PRESET_NAMES)},
        "options": {"type": "object"},
        "target": _INT,
        "teams": _per_team({"type": "string"}),
        "start": _PAIR,
        "deals": {"type": "array", "items": {"type": "object"}},
        "totals": _PAIR,
        "running": {"type": "array", "items": _PAIR},
        "winner": _TEAM,
        "won_after_deal": {"type": ["integer", "null"]},
        "held_over": _INT,
        "created": {"type": "string"},
        "updated": {"type": "string"},
        "players": {**_PLAYERS, "description": "The players' names by seat, those given"},
        "dealer": {"type": ["string", "null"], "enum": [*SEATS, None],
                   "description": "Who dealt the first deal (null: not known)"},
        "dealers": {"type": "array", "items": _SEAT,
                    "description": "Who dealt each deal, then who deals the next one (empty "
                                   "while the first dealer is not known)"},
    },
    "required": ["view", "version", "game", "rules", "target", "teams", "deals", "totals",
                 "winner"],
}
GAME_LIST: Final[dict[str, Any]] = {
    "type": "object",
    "properties": {"games": {"type": "array", "items": {
        "type": "object",
        "properties": {
            "id": {"type": "string"}, "version": _INT,
            "game": {"type": "string", "enum": list(GAMES)},
            "teams": _per_team({"type": "string"}), "target": _INT, "deals": _INT,
            "totals": _PAIR, "winner": _TEAM, "archived": {"type": "boolean"},
            "created": {"type": "string"}, "updated": {"type": "string"},
        },
        "required": ["id", "version", "game", "teams", "target", "deals", "totals", "winner"],
    }}},
    "required": ["games"],
}


__all__ = ["DEAL", "GAME", "GAME_LIST", "NEW_GAME", "SETTINGS"]
