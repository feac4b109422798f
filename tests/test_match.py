"""A game (docs/rules.md section 7): totals, the litige reserve, the target and the winner rules."""

from __future__ import annotations

from typing import Any

import pytest

from rebelote.errors import InputError
from rebelote.match import Match
from rebelote.rules import Rules
from rebelote.summary import DealSummary


def game(deals: list[dict[str, Any]], **kw: Any) -> dict[str, Any]:
    obj = {"game": kw.pop("game", "belote"), "target": kw.pop("target", 1000), "deals": deals,
           **kw}
    return Match.from_json(obj).result().to_json()


def made(taker: str, pts: int, **kw: Any) -> dict[str, Any]:
    return {"trump": "hearts", "taker": taker, "points": {taker: pts}, **kw}


def test_totals_add_up_the_marks() -> None:
    r = game([made("NS", 98), made("EW", 100)])
    assert r["totals"] == {"NS": 98 + 62, "EW": 64 + 100}


def test_the_litige_reserve_goes_to_the_winner_of_the_next_deal() -> None:
    r = game([made("EW", 81), made("NS", 102)])
    assert [d["outcome"] for d in r["deals"]] == ["litige", "made"]
    assert r["deals"][0]["held_over"] == 81
    assert r["deals"][1]["score"] == {"NS": 102 + 81, "EW": 60}


def test_the_reserve_goes_to_the_defense_when_the_next_takers_fail() -> None:
    r = game([made("EW", 81), made("NS", 60)])
    assert r["deals"][1]["score"] == {"NS": 0, "EW": 162 + 81}


def test_the_reserve_waits_over_a_void_deal() -> None:
    r = game([made("EW", 81), {"void": True}, made("NS", 102)])
    assert r["deals"][1] == {"outcome": "void", "score": {"NS": 0, "EW": 0}, "held_over": 81}
    assert r["deals"][2]["score"]["NS"] == 183


def test_an_adjustment_changes_nothing_but_its_points() -> None:
    r = game([made("EW", 81), {"adjust": {"NS": 50}}, made("NS", 102)])
    assert r["deals"][1]["held_over"] == 81
    assert r["totals"] == {"NS": 81 + 50 + 183, "EW": 60}


def test_the_team_with_the_higher_total_wins_once_it_reached_the_target() -> None:
    r = game([made("NS", 90)], start={"NS": 940, "EW": 930})
    assert (r["totals"], r["winner"], r["won_after_deal"]) == \
        ({"NS": 1030, "EW": 1002}, "NS", 1)


def test_equal_totals_past_the_target_play_one_more_deal() -> None:
    r = game([made("NS", 100)], start={"NS": 960, "EW": 998})
    assert r["totals"] == {"NS": 1060, "EW": 1060} and r["winner"] is None
    r = game([made("NS", 100), made("EW", 90)], start={"NS": 960, "EW": 998})
    assert r["winner"] == "EW" and r["won_after_deal"] == 2


def test_belote_alone_after_failing_does_not_win() -> None:
    r = game([{"trump": "hearts", "taker": "NS", "contract": 80, "points": {"NS": 60},
               "belote": "NS"}], game="coinche", start={"NS": 990, "EW": 500})
    assert r["totals"]["NS"] == 1010 and r["winner"] is None


def test_belote_alone_while_capot_does_not_win() -> None:
    r = game([made("EW", 252, capot="EW", belote="NS")], start={"NS": 990, "EW": 100})
    assert r["totals"] == {"NS": 1010, "EW": 352} and r["winner"] is None


def test_the_team_wins_once_it_wins_a_trick_in_a_later_deal() -> None:
    r = game([made("EW", 252, capot="EW", belote="NS"), made("EW", 252, capot="EW"),
              made("EW", 150)], start={"NS": 990, "EW": 100})
    assert r["winner"] == "NS" and r["won_after_deal"] == 3


def test_option_belote_alone_wins() -> None:
    r = game([made("EW", 252, capot="EW", belote="NS")], start={"NS": 990, "EW": 100},
             options={"belote_alone_wins": True})
    assert r["winner"] == "NS"


def test_reaching_the_target_with_more_than_the_belote_wins() -> None:
    r = game([made("NS", 40, belote="NS")], start={"NS": 990, "EW": 100})
    assert r["deals"][0]["outcome"] == "failed" and r["winner"] is None
    r = game([made("NS", 100, belote="NS")], start={"NS": 990, "EW": 100})
    assert r["winner"] == "NS"


def test_the_winner_stays_the_first_one() -> None:
    r = game([made("NS", 90), made("EW", 252, capot="EW")], start={"NS": 940, "EW": 930})
    assert r["winner"] == "NS" and r["won_after_deal"] == 1


def test_add_undo_replace() -> None:
    rules = Rules.preset("official", "belote")
    m = Match(rules)
    d1 = DealSummary(game="belote", taker="NS", points=(98, 64))
    d2 = DealSummary(game="belote", taker="EW", points=(81, 81))
    d3 = DealSummary(game="belote", taker="NS", points=(102, 60))
    m = m.add(d1).add(d2).add(d3)
    assert m.result().totals == (98 + 81 + 183, 64 + 60)
    m2 = m.replace(2, DealSummary(game="belote", taker="EW", points=(60, 102)))
    assert m2.result().totals == (98 + 60 + 102, 64 + 102 + 60)
    assert m.undo().deals == (d1, d2)
    with pytest.raises(InputError, match="no deal 4"):
        m.replace(4, d1)
    with pytest.raises(InputError, match="no deal to undo"):
        Match(rules).undo()
    with pytest.raises(InputError, match="this game is belote"):
        m.add(DealSummary(game="coinche", taker="NS", points=(98, 64), contract=80))


def test_a_game_round_trips_through_json() -> None:
    obj = {"game": "coinche", "rules": "house", "options": {"rounding": "nearest"},
           "target": 1500, "teams": {"NS": "Les As", "EW": "Eux"}, "start": {"NS": 10, "EW": 0},
           "deals": [made("NS", 97, contract=90), {"void": True}, {"adjust": {"EW": 50}}]}
    m = Match.from_json(obj)
    again = Match.from_json(m.to_json())
    assert again == m
    assert m.target == 1500 and m.teams == ("Les As", "Eux") and m.rules.rounding == "nearest"


@pytest.mark.parametrize(
    ("obj", "field"),
    [({"game": "belote", "deals": {}}, "deals"),
     ({"game": "belote", "deals": [{"trump": "hearts"}]}, "deals[1].taker"),
     ({"game": "belote", "deals": [made("NS", 90), made("NS", 300)]}, "deals[2].points.NS"),
     ({"game": "belote", "target": -5, "deals": []}, "target"),
     ({"game": "belote", "teams": {"NS": ""}, "deals": []}, "teams.NS"),
     ({"game": "belote", "start": {"NS": "x"}, "deals": []}, "start.NS"),
     ({"game": "belote", "deals": [], "winner": "NS"}, "winner"),
     ({"game": "belote", "deals": [made("NS", 90, rules="house")]}, "deals[1].rules")],
)
def test_bad_games_name_the_field(obj: dict[str, Any], field: str) -> None:
    with pytest.raises(InputError) as err:
        Match.from_json(obj)
    assert err.value.field == field, str(err.value)
