"""The play table, core side: tables of four seats (humans or bots) playing deals to a target,
their replay through the engine, the views each seat may see, and the verifiable shuffle.

It uses the core and the bots only; the store, the web pages and the API build on it.
"""

from rebelote.table.model import (
    DealLog,
    NotYourTurnError,
    Replay,
    Seat,
    Table,
    bot_spec,
    default_bot,
)
from rebelote.table.shuffle import commitment, deck_of, new_seed_and_salt, verify_record
from rebelote.table.view import sorted_hand, table_view, turn_seat, turn_team

__all__ = [
    "DealLog",
    "NotYourTurnError",
    "Replay",
    "Seat",
    "Table",
    "bot_spec",
    "commitment",
    "deck_of",
    "default_bot",
    "new_seed_and_salt",
    "sorted_hand",
    "table_view",
    "turn_seat",
    "turn_team",
    "verify_record",
]
