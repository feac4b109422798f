"""A game, rule by rule (docs/rules.md section 7): which deals may be replaced or undone, what
each refusal says, and the JSON a game is written as. Written to kill the mutants that the
mutation runs of `match` left alive (docs/mutation.md)."""

from __future__ import annotations

import pytest

from rebelote.errors import InputError
from rebelote.match import Match
from rebelote.rules import Rules
from rebelote.scoring import LineKey
from rebelote.summary import DealSummary

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


# -- reading a game: each refusal names the field and the rule ---------------------------------
def read_refusal(obj: object) -> tuple[str, str]:
    with pytest.raises(InputError) as info:
        Match.from_json(obj)  # type: ignore[arg-type]
    return info.value.field, str(info.value)


def test_a_game_is_an_object() -> None:
    assert read_refusal([]) == ("", "a game is a JSON object with deals")


def test_an_unknown_field_is_named_with_the_known_ones() -> None:
    assert read_refusal({"game": "belote", "deals": [], "score": 3}) == (
        "score", "score: unknown field of a game (known: deals, game, options, rules, start, "
                 "target, teams)")


def test_a_field_starting_with_an_underscore_is_a_comment() -> None:
    assert Match.from_json({"game": "belote", "deals": [], "_note": "Sunday"}).deals == ()


@pytest.mark.parametrize("target", [0, -1, True, 1.5, "1000"])
def test_the_target_is_a_positive_whole_number(target: object) -> None:
    assert read_refusal({"game": "belote", "deals": [], "target": target}) == (
        "target", f"target: must be a positive whole number, not {target!r}")


def test_a_target_of_one_point_is_a_target() -> None:
    assert Match.from_json({"game": "belote", "deals": [], "target": 1}).target == 1


def test_the_teams_are_an_object_of_names() -> None:
    assert read_refusal({"game": "belote", "deals": [], "teams": ["A", "B"]}) == (
        "teams", 'teams: must be an object like {"NS": "Nous", "EW": "Eux"}')


def test_a_team_left_out_keeps_its_default_name() -> None:
    m = Match.from_json({"game": "belote", "deals": [], "teams": {"NS": " Les As "}})
    assert m.teams == ("Les As", "Eux")


def test_a_team_name_has_1_to_40_characters() -> None:
    forty = "x" * 40
    assert Match.from_json({"game": "belote", "deals": [],
                            "teams": {"EW": forty}}).teams == ("Nous", forty)
    for bad in ("x" * 41, "  ", 7):
        assert read_refusal({"game": "belote", "deals": [], "teams": {"EW": bad}}) == (
            "teams.EW", "teams.EW: must be a name of 1 to 40 characters")


def test_only_ns_and_ew_are_teams() -> None:
    assert read_refusal({"game": "belote", "deals": [], "teams": {"NS": "A", "XY": "B"}}) == (
        "teams.XY", "teams.XY: not a team: NS or EW")


def test_the_start_is_an_object_of_points() -> None:
    assert read_refusal({"game": "belote", "deals": [], "start": 10}) == (
        "start", 'start: must be an object like {"NS": 0, "EW": 0}')


def test_a_team_left_out_of_the_start_starts_from_nothing() -> None:
    assert Match.from_json({"game": "belote", "deals": [],
                            "start": {"EW": 120}}).start == (0, 120)
    assert Match.from_json({"game": "belote", "deals": [],
                            "start": {"NS": 120}}).start == (120, 0)


def test_the_deals_are_a_list() -> None:
    assert read_refusal({"game": "belote", "deals": {"1": {}}}) == (
        "deals", "deals: must be a list of deal summaries")
    assert read_refusal({"game": "belote"})[0] == "deals"


# -- the result of a game ----------------------------------------------------------------------
def test_the_result_writes_the_reserve_carried_over() -> None:
    m = Match(BELOTE).add(DealSummary(game="belote", taker="NS", points=(81, 81)))
    out = m.result().to_json()
    assert out["held_over"] == 81 and out["totals"] == {"NS": 0, "EW": 81}


def test_the_last_deal_counted_exactly_says_so_just_before_its_marks() -> None:
    made = {"trump": "hearts", "taker": "NS", "contract": 100,
            "points": {"NS": 110, "EW": 52}, "belote": "NS"}
    obj = {"game": "contree", "rules": "ffb", "start": {"NS": 1800, "EW": 0}, "deals": [made]}
    rounded = Match.from_json({**obj, "options": {"last_deal_exact": False}}).result().deals[0]
    exact = Match.from_json({**obj, "options": {"last_deal_exact": True}}).result().deals[0]
    assert exact.score == (230, 52) and rounded.score == (230, 50)
    *_, note, last = exact.lines
    assert (note.key, note.ns, note.ew, note.text) == (
        LineKey.LAST_DEAL_EXACT, 230, 52,
        "The last deal of the game is counted exactly (no rounding).")
    assert (last.key, last.ns, last.ew) == (LineKey.SCORE, 230, 52)
    assert [line.key for line in exact.lines].count(LineKey.LAST_DEAL_EXACT) == 1


# -- the running totals and the reserve a deal states -------------------------------------------
def test_the_running_totals_follow_each_deal() -> None:
    m = Match(BELOTE).add(deal("NS", 98)).add(deal("EW", 60))
    assert m.result().running == ((98, 64), (98 + 60, 64 + 102))


def made_by(taker: str, pts: int, **kw: object) -> dict[str, object]:
    return {"trump": "hearts", "taker": taker, "points": {taker: pts}, **kw}


def game_of(deals: list[dict[str, object]], **kw: object) -> Match:
    return Match.from_json({"game": kw.pop("game", "belote"), "target": 1000, "deals": deals,
                            **kw})


def test_a_deal_may_state_the_reserve_the_game_carries() -> None:
    stated = game_of([made_by("EW", 81), made_by("NS", 102, held_over=81)]).result()
    assert stated == game_of([made_by("EW", 81), made_by("NS", 102)]).result()
    assert stated.deals[1].score == (102 + 81, 60)


def test_a_deal_stating_another_reserve_is_refused_with_the_deal_named() -> None:
    with pytest.raises(InputError) as info:
        game_of([made_by("EW", 81), made_by("NS", 102, held_over=50)]).result()
    assert (info.value.field, str(info.value)) == (
        "deals[2].held_over", "deals[2].held_over: the game carries a reserve of 81, not 50")


# -- the belote-alone rule: who must still win a trick (MatchResult.pending) ---------------------
def test_nobody_is_blocked_before_the_first_deal_and_an_adjustment_can_win() -> None:
    r = game_of([{"adjust": {"EW": 1000}}]).result()
    assert r.pending == (False, False) and r.winner == "EW"


def test_the_failing_takers_past_the_target_only_by_their_belote_are_blocked() -> None:
    # EW take and fail: they mark their belote alone, 990 + 20 = 1010, higher than NS's 162.
    r = game_of([made_by("EW", 60, belote="EW")], start={"NS": 0, "EW": 990}).result()
    assert r.totals == (162, 1010) and r.pending == (False, True) and r.winner is None


def test_reaching_the_target_exactly_by_the_belote_blocks_too() -> None:
    r = game_of([made_by("EW", 60, belote="EW")], start={"NS": 0, "EW": 980}).result()
    assert r.totals == (162, 1000) and r.pending == (False, True) and r.winner is None


def test_failing_takers_are_not_blocked_without_a_belote_or_short_of_the_target() -> None:
    assert game_of([made_by("NS", 60)]).result().pending == (False, False)
    assert game_of([made_by("NS", 60, belote="NS")]).result().pending == (False, False)


def test_a_team_past_the_target_before_the_deal_was_not_carried_by_its_belote() -> None:
    r = game_of([made_by("EW", 60, belote="EW")], start={"NS": 0, "EW": 1005}).result()
    assert r.pending == (False, False) and r.winner == "EW"


def test_a_team_at_the_target_whose_belote_is_taken_was_not_carried_by_it() -> None:
    # Under belote_prenable the failing takers' belote goes to the defense: NS mark nothing.
    fail = {"trump": "hearts", "taker": "NS", "contract": 80, "points": {"NS": 60},
            "belote": "NS"}
    r = game_of([fail], game="coinche", start={"NS": 1000, "EW": 0},
                options={"belote_prenable": True}).result()
    assert r.totals[0] == 1000 and r.pending == (False, False) and r.winner == "NS"
