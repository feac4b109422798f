"""A table that waits between deals (issue 18, item 2): after a deal nobody is to act until a
player goes on ("next"); the bots do not start the next auction meanwhile; "next" is stored
in the deal's actions, replayed, carried as a move between workers, and never reaches the
engine."""

from __future__ import annotations

import random

import pytest

from rebelote.errors import IllegalActionError
from rebelote.rules import Rules
from rebelote.table.model import NEXT, WAIT, Seat, Table
from table_helpers import counting_entropy


def _table(between: int, away: bool = False) -> Table:
    south = Seat("human", "random", "Ann", "h" * 64, away)
    return Table.new(Rules.preset("official", "coinche"), target=3000,
                     seats=[Seat.bot_seat("random"), Seat.bot_seat("random"), south,
                            Seat.bot_seat("random")],
                     entropy=counting_entropy(), between=between)


def _to_deal_end(table: Table, rng: random.Random) -> Table:
    from rebelote.bots import make_bot

    bot = make_bot("random")
    while table.deal_number == 1:
        table = table.act(table.turn, table.bot_action(bot, rng), entropy=counting_entropy(50))
    return table


def test_the_table_waits_after_a_deal_until_a_player_goes_on() -> None:
    table = _to_deal_end(_table(WAIT), random.Random(3))
    assert table.waiting and table.turn == -1 and not table.bot_to_play
    assert table.deal.current_player >= 0  # the engine's deal is ready, the table waits
    with pytest.raises(IllegalActionError, match="waits between deals"):
        table.act(2, "pass")
    going = table.act(2, NEXT)
    assert not going.waiting and going.turn == table.deal.current_player
    assert going.current.actions == (NEXT,)
    with pytest.raises(IllegalActionError, match="not waiting"):
        going.act(2, NEXT)
    # stored and read again, replayed from the start or carried as moves: the same table
    again = Table.from_json(going.to_json())
    assert again.deals == going.deals and again.turn == going.turn and not again.waiting
    moves = going.moves_after(table)
    assert moves == {"a": [NEXT]}
    played = table.with_moves(moves)
    assert played is not None and played.deals == going.deals


def test_a_table_that_does_not_wait_deals_on_at_once() -> None:
    for table in (_to_deal_end(_table(0), random.Random(3)),  # the API's default
                  _to_deal_end(_table(WAIT, away=True), random.Random(3))):  # nobody there
        assert not table.waiting and table.turn == table.deal.current_player


def test_a_timed_pause_waits_too_for_the_page_to_go_on() -> None:
    table = _to_deal_end(_table(5000), random.Random(4))
    assert table.waiting and table.to_json()["between"] == 5000
