"""A game, rule by rule (docs/rules.md section 7): which deals may be replaced or undone, what
each refusal says, and the JSON a game is written as. Written to kill the mutants that the
mutation runs of `match` left alive (docs/mutation.md)."""

from __future__ import annotations

import pytest

from rebelote.errors import InputError
from rebelote.match import Match
from rebelote.rules import Rules
from rebelote.scoring import DealSummary

BELOTE = Rules.preset("official", "belote")


def deal(taker: str, ns: int) -> DealSummary:
    return DealSummary(game="belote", taker=taker, points=(ns, 162 - ns))


def three_deals() -> Match:
    return Match(BELOTE).add(deal("NS", 98)).add(deal("EW", 60)).add(deal("NS", 120))


def refusal(call: object) -> InputError:
    with pytest.raises(InputError) as info:
        call()  # type: ignore[operator]
    return info.value


# -- undo and replace --------------------------------------------------------------------------
def test_undoing_a_game_without_deals_is_refused() -> None:
    error = refusal(Match(BELOTE).undo)
    assert (error.field, str(error)) == ("deals", "deals: there is no deal to undo")


def test_the_first_and_the_last_deal_may_be_replaced() -> None:
    m = three_deals()
    new = deal("EW", 40)
    assert m.replace(1, new).deals == (new, *m.deals[1:])
    assert m.replace(3, new).deals == (*m.deals[:2], new)


@pytest.mark.parametrize("n", [0, 4, -1])
def test_only_a_deal_of_the_game_may_be_replaced(n: int) -> None:
    error = refusal(lambda: three_deals().replace(n, deal("EW", 40)))
    assert (error.field, str(error)) == ("n", f"n: there is no deal {n} (the game has 3)")


def test_a_deal_of_another_game_is_refused_naming_both_games() -> None:
    other = DealSummary(game="coinche", taker="NS", points=(98, 64), contract=80)
    for call in (lambda: three_deals().add(other), lambda: three_deals().replace(1, other)):
        error = refusal(call)
        assert (error.field, str(error)) == ("game", "game: this game is belote, not coinche")


# -- the JSON of a game ------------------------------------------------------------------------
def test_a_game_from_nothing_writes_no_start_and_no_options() -> None:
    assert Match(BELOTE, target=1000).to_json() == {
        "game": "belote", "rules": "official", "target": 1000,
        "teams": {"NS": "Nous", "EW": "Eux"}, "deals": []}


@pytest.mark.parametrize("start", [(1, 0), (0, 1), (250, 120)])
def test_a_game_started_from_points_writes_them(start: tuple[int, int]) -> None:
    out = Match(BELOTE, start=start).to_json()
    assert out["start"] == {"NS": start[0], "EW": start[1]}
    assert Match.from_json(out).start == start


def test_the_target_is_written_once_not_as_a_changed_option() -> None:
    rules = BELOTE.replace(target=1500)
    out = Match(rules, target=1500).to_json()
    assert out["target"] == 1500 and "options" not in out
