"""Scoring a deal (docs/rules.md section 6): one test per rule, named after it."""

from __future__ import annotations

from typing import Any

import pytest

from rebelote.errors import InputError
from rebelote.rules import Rules
from rebelote.scoring import LineKey, MarkCase, score_deal
from rebelote.summary import DealSummary, is_declaration_total, summary_rules


def score(**deal: Any) -> tuple[str, dict[str, int], int]:
    if "void" not in deal and "adjust" not in deal:
        deal.setdefault("trump", "hearts")
        deal.setdefault("taker", "NS")
    rules = summary_rules(deal)
    s = score_deal(DealSummary.from_json({k: v for k, v in deal.items() if k != "game"}
                                         | {"game": deal["game"]}, rules), rules)
    return s.outcome, {"NS": s.score[0], "EW": s.score[1]}, s.held_over


def belote(**deal: Any) -> tuple[str, dict[str, int], int]:
    return score(game="belote", **deal)


def coinche(**deal: Any) -> tuple[str, dict[str, int], int]:
    return score(game="coinche", **deal)


# -- belote -------------------------------------------------------------------------------------
def test_belote_takers_ahead_each_team_marks_its_total() -> None:
    assert belote(points={"NS": 98}, belote="NS") == ("made", {"NS": 118, "EW": 64}, 0)


def test_belote_takers_behind_are_dedans_the_defense_marks_162_and_all_declarations() -> None:
    assert belote(points={"NS": 66}, declarations={"NS": 20}, belote="EW") == \
        ("failed", {"NS": 0, "EW": 162 + 20 + 20}, 0)


def test_belote_dedans_takers_keep_their_belote() -> None:
    assert belote(points={"NS": 70}, belote="NS") == ("failed", {"NS": 20, "EW": 162}, 0)


def test_belote_takers_capot_mark_252_belote_and_all_declarations() -> None:
    assert belote(points={"NS": 252}, capot="NS", belote="EW", declarations={"EW": 50}) == \
        ("made", {"NS": 302, "EW": 20}, 0)


def test_belote_defense_capot_the_takers_fail_and_the_defense_marks_162() -> None:
    assert belote(points={"EW": 252}, capot="EW", belote="NS") == \
        ("failed", {"NS": 20, "EW": 162}, 0)


def test_belote_equal_totals_is_a_litige_the_takers_points_held_over() -> None:
    assert belote(points={"NS": 81, "EW": 81}) == ("litige", {"NS": 0, "EW": 81}, 81)


def test_belote_litige_the_belote_is_never_held_over() -> None:
    # NS 61 + belote 20 = 81 against 101? no: EW 101. Make a tie with belote: 71 + 20 = 91.
    assert belote(points={"NS": 71, "EW": 91}, belote="NS") == \
        ("litige", {"NS": 20, "EW": 91}, 71)


def test_belote_the_reserve_goes_to_the_takers_if_they_make_it() -> None:
    assert belote(points={"NS": 102}, held_over=91) == ("made", {"NS": 193, "EW": 60}, 0)


def test_belote_the_reserve_goes_to_the_defense_if_the_takers_fail() -> None:
    assert belote(points={"NS": 60}, held_over=91) == ("failed", {"NS": 0, "EW": 162 + 91}, 0)


def test_belote_a_second_litige_gives_the_old_reserve_to_the_defense() -> None:
    assert belote(points={"NS": 81}, held_over=50) == ("litige", {"NS": 0, "EW": 131}, 81)


def test_belote_option_litige_defense_takes_all() -> None:
    assert belote(points={"NS": 81}, options={"litige": "defense"}) == \
        ("litige", {"NS": 0, "EW": 162}, 0)


def test_belote_marks_are_exact_unless_rounding_is_asked() -> None:
    assert belote(points={"NS": 97}) == ("made", {"NS": 97, "EW": 65}, 0)
    assert belote(points={"NS": 97}, options={"rounding": "nearest"}) == \
        ("made", {"NS": 100, "EW": 70}, 0)


def test_belote_house_no_trump_deal_is_130() -> None:
    assert belote(rules="house", trump="no-trump", points={"NS": 66}) == \
        ("made", {"NS": 66, "EW": 64}, 0)


def test_belote_option_belote_counts_for_contract_off() -> None:
    # 71 + 20 = 91 against 91 would be a litige; without the belote, 71 < 91: dedans.
    assert belote(points={"NS": 71}, belote="NS",
                  options={"belote_counts_for_contract": False}) == \
        ("failed", {"NS": 20, "EW": 162}, 0)


# -- coinche ------------------------------------------------------------------------------------
def test_coinche_made_takers_mark_total_plus_contract_defense_its_total_rounded() -> None:
    assert coinche(contract=90, points={"NS": 97}) == ("made", {"NS": 190, "EW": 70}, 0)


def test_coinche_the_takers_must_reach_the_contract() -> None:
    assert coinche(contract=110, points={"NS": 100}) == ("failed", {"NS": 0, "EW": 270}, 0)


def test_coinche_a_tie_fails() -> None:
    assert coinche(contract=80, points={"NS": 81}) == ("failed", {"NS": 0, "EW": 240}, 0)


def test_coinche_failed_defense_marks_160_contract_all_declarations_and_its_belote() -> None:
    assert coinche(contract=110, points={"NS": 60}, declarations={"NS": 50}, belote="EW") == \
        ("failed", {"NS": 0, "EW": 160 + 110 + 50 + 20}, 0)


def test_coinche_coinched_made_all_times_two_defense_keeps_only_its_belote() -> None:
    assert coinche(contract=90, coinche="coinche", points={"NS": 100}, belote="EW") == \
        ("made", {"NS": 500, "EW": 20}, 0)


def test_coinche_surcoinched_times_four() -> None:
    assert coinche(contract=90, coinche="surcoinche", points={"NS": 104}) == \
        ("made", {"NS": 1000, "EW": 0}, 0)
    assert coinche(contract=90, coinche="surcoinche", points={"NS": 60}) == \
        ("failed", {"NS": 0, "EW": 1000}, 0)


def test_coinche_capot_not_bid_takes_the_defense_declarations() -> None:
    assert coinche(contract=100, points={"NS": 252}, capot="NS", belote="NS",
                   declarations={"EW": 20}) == ("made", {"NS": 390, "EW": 0}, 0)


def test_coinche_capot_bid_is_made_only_with_all_eight_tricks() -> None:
    assert coinche(contract="capot", points={"NS": 252}, capot="NS") == \
        ("made", {"NS": 500, "EW": 0}, 0)
    assert coinche(contract="capot", points={"NS": 152}) == ("failed", {"NS": 0, "EW": 410}, 0)


def test_coinche_coinched_capot_counts_250_instead_of_160() -> None:
    assert coinche(contract=110, coinche="coinche", points={"NS": 252}, capot="NS",
                   belote="NS") == ("made", {"NS": 760, "EW": 0}, 0)


def test_coinche_defense_capot_fails_for_160_not_252() -> None:
    assert coinche(contract=80, points={"EW": 252}, capot="EW") == \
        ("failed", {"NS": 0, "EW": 240}, 0)


def test_coinche_generale_is_made_only_by_the_taker_alone() -> None:
    assert coinche(contract="generale", points={"NS": 252}, capot="NS", generale=True) == \
        ("made", {"NS": 750, "EW": 0}, 0)
    assert coinche(contract="generale", points={"NS": 252}, capot="NS") == \
        ("failed", {"NS": 0, "EW": 660}, 0)


def test_coinche_generale_value_option() -> None:
    assert coinche(contract="generale", points={"NS": 252}, capot="NS", generale=True,
                   options={"generale_value": 1000}) == ("made", {"NS": 1250, "EW": 0}, 0)


def test_coinche_rounding_five_up_and_success_judged_exact() -> None:
    assert coinche(contract=80, points={"NS": 78}) == ("failed", {"NS": 0, "EW": 240}, 0)
    assert coinche(contract=80, points={"NS": 95}) == ("made", {"NS": 180, "EW": 70}, 0)


def test_coinche_house_rules_do_not_round() -> None:
    assert coinche(rules="house", contract=100, cards={"NS": 98, "EW": 54},
                   last_trick="NS") == ("made", {"NS": 208, "EW": 54}, 0)


def test_coinche_house_no_trump_falls_for_130() -> None:
    assert coinche(rules="house", trump="no-trump", contract=80, points={"NS": 40}) == \
        ("failed", {"NS": 0, "EW": 210}, 0)


def test_coinche_all_trump_belotes_per_suit() -> None:
    assert coinche(trump="all-trump", contract=100, points={"NS": 90},
                   belote={"NS": 1, "EW": 2}) == ("failed", {"NS": 20, "EW": 160 + 100 + 40}, 0)


def test_coinche_all_trump_trump_scale_is_a_258_deal() -> None:
    assert coinche(trump="all-trump", contract=100, points={"NS": 158},
                   options={"all_trump_scale": "trump"}) == ("made", {"NS": 260, "EW": 100}, 0)


# -- void deals and adjustments ----------------------------------------------------------------
def test_a_void_deal_marks_nothing() -> None:
    assert score(game="coinche", void=True) == ("void", {"NS": 0, "EW": 0}, 0)


def test_an_adjustment_marks_the_points_it_names() -> None:
    assert score(game="belote", adjust={"NS": 50}) == ("adjust", {"NS": 50, "EW": 0}, 0)


# -- the points forms and the result card -------------------------------------------------------
def test_the_three_points_forms_agree() -> None:
    a = coinche(contract=100, points={"NS": 108, "EW": 54})
    b = coinche(contract=100, points={"NS": 108})
    c = coinche(contract=100, points={"EW": 54})
    d = coinche(contract=100, cards={"NS": 98}, last_trick="NS")
    e = coinche(contract=100, cards={"NS": 98, "EW": 54}, last_trick="NS")
    assert a == b == c == d == e


def test_capot_is_inferred_from_252_points() -> None:
    assert coinche(contract=100, points={"NS": 252}) == ("made", {"NS": 350, "EW": 0}, 0)


def test_the_result_card_explains_the_marks() -> None:
    rules = Rules.preset("official", "coinche")
    s = score_deal(DealSummary.from_json({"trump": "spades", "taker": "NS", "contract": 100,
                                          "coinche": "coinche", "points": {"NS": 96},
                                          "belote": "NS", "declarations": {"NS": 20}}, rules),
                   rules)
    keys = [line.key for line in s.lines]
    assert keys == ["tricks", "declarations", "belote", "total", "contract", "mark", "score"]
    assert "(160 + all declarations 20 + belote 20 + contract 100) × 2" in s.lines[5].text
    assert s.to_json(explain=True)["lines"][-1]["NS"] == 600


def test_summary_round_trips_through_json() -> None:
    rules = Rules.preset("official", "coinche")
    obj = {"trump": "all-trump", "taker": "EW", "contract": "capot", "coinche": "surcoinche",
           "points": {"NS": 0, "EW": 252}, "capot": "EW", "belote": {"NS": 1, "EW": 2},
           "declarations": {"EW": 150}}
    s = DealSummary.from_json(obj, rules)
    assert DealSummary.from_json(s.to_json(), rules) == s


def test_declaration_totals_are_sums_of_declaration_values() -> None:
    assert all(is_declaration_total(v) for v in (0, 20, 40, 50, 70, 100, 130, 150, 200, 550))
    assert not any(is_declaration_total(v) for v in (10, 30, 35, 45, -20))


@pytest.mark.parametrize(
    ("deal", "field"),
    [({"points": {"NS": 97, "EW": 70}}, "points"),
     ({"points": {"NS": -4}}, "points.NS"),
     ({"points": {"NS": 200}}, "points.NS"),
     ({"points": {"NS": 252}, "capot": "EW"}, "points"),
     ({"cards": {"NS": 100, "EW": 40}, "last_trick": "NS"}, "cards"),
     ({"cards": {"NS": 100}}, "last_trick"),
     ({"points": {"NS": 97}, "cards": {"NS": 87}, "last_trick": "NS"}, "points"),
     ({}, "points"),
     ({"points": {"NS": 97}, "taker": "SN"}, "taker"),
     ({"points": {"NS": 97}, "trump": "stars"}, "trump"),
     ({"points": {"NS": 97}, "declarations": {"NS": 35}}, "declarations.NS"),
     ({"points": {"NS": 97}, "declarations": {"NS": 20, "EW": 50}}, "declarations"),
     ({"points": {"NS": 97}, "belote": "NS", "trump": "no-trump"}, "belote"),
     ({"points": {"NS": 97}, "belote": {"NS": 1, "EW": 1}}, "belote"),
     ({"points": {"NS": 97}, "contract": 85}, "contract"),
     ({"points": {"NS": 97}, "coinche": "triple"}, "coinche"),
     ({"points": {"NS": 97}, "held_over": 20}, "held_over"),
     ({"points": {"NS": 97}, "generale": True}, "generale"),
     ({"points": {"NS": 97}, "contrat": 100}, "contrat")],
)
def test_bad_coinche_summaries_name_the_field(deal: dict[str, Any], field: str) -> None:
    obj = {"trump": "hearts", "taker": "NS", "contract": 100, **deal}
    rules = Rules.preset("official", "coinche")
    with pytest.raises(InputError) as err:
        DealSummary.from_json(obj, rules)
    assert err.value.field == field, str(err.value)


def test_a_coinched_capot_is_refused_when_the_option_is_off() -> None:
    rules = Rules.preset("official", "coinche").replace(coinche_capot=False)
    with pytest.raises(InputError, match="coinche_capot"):
        DealSummary.from_json({"taker": "NS", "contract": "capot", "coinche": "coinche",
                               "points": {"NS": 252}}, rules)


def test_declarations_are_refused_when_the_option_is_off() -> None:
    rules = Rules.preset("official", "belote").replace(declarations=False)
    with pytest.raises(InputError, match="option declarations"):
        DealSummary.from_json({"taker": "NS", "points": {"NS": 97},
                               "declarations": {"NS": 20}}, rules)


def test_a_contract_in_belote_is_refused() -> None:
    rules = Rules.preset("official", "belote")
    with pytest.raises(InputError, match="contract: belote has no contract"):
        DealSummary.from_json({"taker": "NS", "points": {"NS": 97}, "contract": 90}, rules)


def test_a_capot_alone_gives_the_points() -> None:
    assert coinche(contract="capot", capot="NS") == ("made", {"NS": 500, "EW": 0}, 0)
    assert belote(capot="EW") == ("failed", {"NS": 0, "EW": 162}, 0)


def test_the_mark_line_names_taker_defense_and_case() -> None:
    rules = Rules.preset("official", "coinche")
    s = score_deal(DealSummary.from_json({"taker": "EW", "contract": "capot", "capot": "EW"},
                                         rules), rules)
    mark = next(line for line in s.lines if line.key == "mark")
    assert dict(mark.args) == {"taker": "EW", "defense": "NS", "taker_mark": 502,
                               "defense_mark": 0, "case": "capot", "multiplier": 1,
                               "capot": 252, "belote": 0, "decl": 0, "contract": 250}
    assert mark.args[4] == ("case", MarkCase.CAPOT) and mark.key is LineKey.MARK


# -- the result card, line by line: what each figure is and the arguments its sentence uses -----
def card(deal: dict[str, Any], **options: Any) -> tuple[Any, list[tuple[object, ...]]]:
    rules = summary_rules(deal)
    if options:
        rules = rules.replace(**options)
    s = score_deal(DealSummary.from_json({k: v for k, v in deal.items() if k != "game"},
                                         rules), rules)
    return s, [(line.key.value, line.ns, line.ew, dict(line.args)) for line in s.lines]


def test_the_card_of_a_made_belote_deal() -> None:
    s, lines = card({"game": "belote", "trump": "hearts", "taker": "NS", "points": {"NS": 98},
                     "belote": "NS", "declarations": {"EW": 20}})
    assert (s.outcome, s.score, s.totals, s.points) == ("made", (118, 84), (118, 84), (98, 64))
    assert lines == [
        ("tricks", 98, 64, {}),
        ("declarations", 0, 20, {"team": "EW", "value": 20}),
        ("belote", 20, 0, {}),
        ("total", 118, 84, {}),
        ("mark", 118, 84, {"taker": "NS", "defense": "EW", "taker_mark": 118,
                           "defense_mark": 84, "case": "made"}),
        ("score", 118, 84, {}),
    ]


def test_the_card_of_failed_takers_with_the_reserve_to_the_defense() -> None:
    s, lines = card({"game": "belote", "trump": "hearts", "taker": "NS", "points": {"NS": 60},
                     "belote": "NS", "held_over": 81})
    assert (s.outcome, s.score, s.held_over) == ("failed", (20, 243), 0)
    assert lines[3:] == [
        ("mark", 20, 162, {"taker": "NS", "defense": "EW", "taker_mark": 20,
                           "defense_mark": 162, "case": "failed", "total": 162, "decl": 0,
                           "belote": 0, "capot": False}),
        ("held_over", 0, 81, {"team": "EW", "reserve": 81}),
        ("score", 20, 243, {}),
    ]


def test_the_card_of_a_litige_held_over_or_taken_by_the_defense() -> None:
    deal = {"game": "belote", "trump": "hearts", "taker": "EW", "points": {"EW": 81}}
    s, lines = card(deal)
    assert (s.outcome, s.score, s.held_over) == ("litige", (81, 0), 81)
    assert lines[2] == ("mark", 81, 0, {"taker": "EW", "defense": "NS", "taker_mark": 0,
                                        "defense_mark": 81, "case": "litige", "reserve": 81})
    s, lines = card(deal, litige="defense")
    assert (s.outcome, s.score, s.held_over) == ("litige", (162, 0), 0)
    assert lines[2] == ("mark", 162, 0, {"taker": "EW", "defense": "NS", "taker_mark": 0,
                                         "defense_mark": 162, "case": "litige_defense",
                                         "total": 162, "decl": 0, "belote": 0})


def test_the_card_of_a_belote_capot() -> None:
    _, lines = card({"game": "belote", "trump": "hearts", "taker": "NS", "points": {"NS": 252},
                     "capot": "NS", "belote": "EW"})
    assert lines == [
        ("capot", 252, 0, {"team": "NS", "total": 252}),
        ("belote", 0, 20, {}),
        ("total", 252, 20, {}),
        ("mark", 252, 20, {"taker": "NS", "defense": "EW", "taker_mark": 252,
                           "defense_mark": 20, "case": "capot", "points": 252, "belote": 0,
                           "decl": 0}),
        ("score", 252, 20, {}),
    ]


def test_the_card_of_a_made_coinche_contract_rounded() -> None:
    _, lines = card({"game": "coinche", "trump": "spades", "taker": "NS", "contract": 90,
                     "points": {"NS": 97}})
    assert lines[2:] == [
        ("contract", None, None, {"taker": "NS", "value": 90, "made": True}),
        ("mark", 187, 65, {"taker": "NS", "defense": "EW", "taker_mark": 187,
                           "defense_mark": 65, "case": "made", "multiplier": 1, "total": 97,
                           "contract": 90, "defense_total": 65}),
        ("rounding", 190, 70, {"how": "nearest"}),
        ("score", 190, 70, {}),
    ]


def test_the_card_of_a_coinched_contract_made_with_the_belote() -> None:
    s, lines = card({"game": "coinche", "trump": "spades", "taker": "NS", "contract": 90,
                     "coinche": "coinche", "points": {"NS": 97}, "belote": "NS"})
    assert s.score == (540, 0)
    assert lines[4] == ("mark", 540, 0, {
        "taker": "NS", "defense": "EW", "taker_mark": 540, "defense_mark": 0,
        "case": "made_multiplied", "multiplier": 2, "base": 160, "decl": 0, "belote": 40,
        "contract": 90, "even": True, "belote_times": 2})


def test_the_card_of_a_failed_contract_with_declarations() -> None:
    s, lines = card({"game": "coinche", "trump": "spades", "taker": "EW", "contract": 120,
                     "points": {"EW": 97}, "declarations": {"EW": 20}})
    assert (s.outcome, s.score, s.totals, s.points) == ("failed", (300, 0), (65, 117), (65, 97))
    assert lines[3:] == [
        ("contract", None, None, {"taker": "EW", "value": 120, "made": False}),
        ("mark", 300, 0, {"taker": "EW", "defense": "NS", "taker_mark": 0, "defense_mark": 300,
                          "case": "failed", "multiplier": 1, "fall": 160, "decl": 20,
                          "contract": 120, "belote": 0, "belote_times": 1, "even": True}),
        ("score", 300, 0, {}),
    ]


def test_the_card_of_a_capot_bid_coinched_and_of_a_capot_prime() -> None:
    capot = {"game": "coinche", "trump": "spades", "taker": "NS", "contract": "capot",
             "capot": "NS"}
    s, lines = card({**capot, "coinche": "coinche"})
    assert s.score == (1000, 0)
    assert lines[3] == ("mark", 1000, 0, {
        "taker": "NS", "defense": "EW", "taker_mark": 1000, "defense_mark": 0,
        "case": "capot_multiplied", "multiplier": 2, "base": 250, "decl": 0, "belote": 0,
        "contract": 250, "even": True, "belote_times": 2})
    s, lines = card({**capot, "game": "contree", "rules": "contree:ffb"})
    assert lines[3:] == [
        ("mark", 500, 0, {"taker": "NS", "defense": "EW", "taker_mark": 500, "defense_mark": 0,
                          "case": "capot_prime", "multiplier": 1, "prime": 500, "decl": 0,
                          "belote": 0}),
        ("score", 500, 0, {}),
    ]


def test_the_cards_of_a_void_deal_and_of_an_adjustment() -> None:
    s, lines = card({"game": "belote", "void": True, "held_over": 81})
    assert (s.outcome, s.score, s.held_over) == ("void", (0, 0), 81)
    assert lines == [("void", 0, 0, {}), ("held_over", None, None, {"reserve": 81})]
    assert card({"game": "belote", "void": True})[1] == [("void", 0, 0, {})]
    s, lines = card({"game": "coinche", "adjust": {"NS": 50}})
    assert (s.outcome, s.score, lines) == ("adjust", (50, 0), [("adjust", 50, 0, {})])


def test_a_score_and_its_lines_as_json() -> None:
    s, _ = card({"game": "belote", "trump": "hearts", "taker": "EW", "points": {"EW": 81}})
    assert s.to_json() == {"outcome": "litige", "score": {"NS": 81, "EW": 0}, "held_over": 81,
                           "points": {"NS": 81, "EW": 81}, "totals": {"NS": 81, "EW": 81}}
    lines = s.to_json(explain=True)["lines"]
    assert lines[0] == {"key": "tricks", "NS": 81, "EW": 81, "args": {},
                        "text": "Trick points with the dix de der: NS 81, EW 81."}
    assert lines[-1]["key"] == "score" and len(lines) == 4
    void, _ = card({"game": "belote", "void": True})
    assert void.to_json() == {"outcome": "void", "score": {"NS": 0, "EW": 0}, "held_over": 0}
    adjust, _ = card({"game": "coinche", "adjust": {"EW": 30}})
    assert adjust.to_json() == {"outcome": "adjust", "score": {"NS": 0, "EW": 30},
                                "held_over": 0}


# -- the sentences of the contract and mark lines, case by case -------------------------------
Sentences = list[tuple[str, str]]
SENTENCES: list[tuple[dict[str, Any], dict[str, Any], str, tuple[int, int], Sentences]] = [
    ({'game': 'belote', 'trump': 'hearts', 'taker': 'NS', 'points': {'NS': 60}, 'belote': 'NS'},
     {}, 'failed', (20, 162), [
         ('mark',
          'NS dedans (80 < 102): EW marks 162 + all declarations 0 + its belote 0; NS keeps '
          'its belote.'),
     ]),
    ({'game': 'belote', 'trump': 'hearts', 'taker': 'NS', 'points': {'EW': 252}, 'capot': 'EW'},
     {}, 'failed', (0, 162), [
         ('mark',
          'NS dedans (EW capot): EW marks 162 + all declarations 0 + its belote 0; NS keeps '
          'its belote.'),
     ]),
    ({'game': 'belote', 'trump': 'hearts', 'taker': 'EW', 'points': {'EW': 81}},
     {}, 'litige', (81, 0), [
         ('mark',
          "Litige (81 = 81): NS marks its total; EW's 81 are held over for the winner of the "
          "next deal."),
     ]),
    ({'game': 'belote', 'trump': 'hearts', 'taker': 'EW', 'points': {'EW': 81},
     'declarations': {'NS': 20}},
     {'litige': 'defense'}, 'failed', (182, 0), [
         ('mark',
          'EW dedans (81 < 101): NS marks 162 + all declarations 20 + its belote 0; EW keeps '
          'its belote.'),
     ]),
    ({'game': 'coinche', 'trump': 'spades', 'taker': 'NS', 'contract': 'generale', 'capot': 'NS',
     'generale': True},
     {'generale': True}, 'made', (750, 0), [
         ('contract',
          'Contract generale (500) by NS: the taker alone won every trick: made.'),
         ('mark',
          'NS capot: 252 + belote 0 + all declarations 0 + contract 500; EW keeps its belote.'),
         ('rounding',
          'Rounded to the nearest ten: NS 752 → 750, EW 0 → 0.'),
     ]),
    ({'game': 'coinche', 'trump': 'spades', 'taker': 'NS', 'contract': 'generale', 'capot': 'NS'},
     {'generale': True}, 'failed', (0, 660), [
         ('contract',
          'Contract generale (500) by NS: the taker did not win every trick: failed.'),
         ('mark',
          'Failed: EW marks (160 + contract 500 + all declarations 0 + its belote 0); NS keeps '
          'its belote.'),
     ]),
    ({'game': 'coinche', 'trump': 'spades', 'taker': 'NS', 'contract': 'capot',
     'points': {'NS': 100}},
     {}, 'failed', (0, 410), [
         ('contract',
          'Contract capot (250) by NS: NS lost a trick: failed.'),
         ('mark',
          'Failed: EW marks (160 + contract 250 + all declarations 0 + its belote 0); NS keeps '
          'its belote.'),
     ]),
    ({'game': 'coinche', 'trump': 'spades', 'taker': 'NS', 'contract': 90, 'points': {'NS': 82}},
     {'must_outscore': True}, 'failed', (0, 250), [
         ('contract',
          'Contract 90 by NS: 82 < 90 and 82 > 80: failed.'),
         ('mark',
          'Failed: EW marks (160 + contract 90 + all declarations 0 + its belote 0); NS keeps '
          'its belote.'),
     ]),
    ({'game': 'coinche', 'trump': 'spades', 'taker': 'NS', 'contract': 80, 'points': {'NS': 82}},
     {'must_outscore': True}, 'made', (160, 80), [
         ('contract',
          'Contract 80 by NS: 82 ≥ 80 and 82 > 80: made.'),
         ('mark',
          'Made: NS marks its total 82 + the contract 80; EW marks its total 80.'),
         ('rounding',
          'Rounded to the nearest ten: NS 162 → 160, EW 80 → 80.'),
     ]),
    ({'game': 'coinche', 'trump': 'spades', 'taker': 'NS', 'contract': 90, 'points': {'NS': 100}},
     {'counting': 'made'}, 'made', (100, 60), [
         ('contract',
          'Contract 90 by NS: 100 ≥ 90 and 100 > 62: made.'),
         ('mark',
          'Made, points faits: NS marks its total 100; EW marks its total 62.'),
         ('rounding',
          'Rounded to the nearest ten: NS 100 → 100, EW 62 → 60.'),
     ]),
    ({'game': 'coinche', 'trump': 'spades', 'taker': 'NS', 'contract': 90, 'points': {'NS': 100},
     'coinche': 'coinche', 'belote': 'NS'},
     {'coinche_form': 'contract'}, 'made', (380, 0), [
         ('contract',
          'Contract 90 by NS: 120 ≥ 90 and 120 > 62: made.'),
         ('mark',
          'Made, ×2: NS marks (base 160 + all declarations 0) + contract 90 × 2 + belote 20 × '
          '2; EW keeps only its belote.'),
     ]),
    ({'game': 'coinche', 'trump': 'spades', 'taker': 'NS', 'contract': 90, 'points': {'NS': 60},
     'coinche': 'surcoinche', 'belote': 'NS'},
     {'coinche_form': 'base', 'belote_prenable': True}, 'failed', (0, 810), [
         ('contract',
          'Contract 90 by NS: 80 < 90 and 80 ≤ 102: failed.'),
         ('mark',
          'Failed: EW marks (base 160 + all declarations 0) × 4 + contract 90 + all the belote '
          '20 × 4; NS marks nothing.'),
     ]),
    ({'game': 'coinche', 'trump': 'spades', 'taker': 'NS', 'contract': 90, 'points': {'NS': 100}},
     {'counting': 'bid'}, 'made', (90, 0), [
         ('contract',
          'Contract 90 by NS: 100 ≥ 90 and 100 > 62: made.'),
         ('mark',
          'Made, points annoncés: NS marks the contract 90; EW marks nothing.'),
     ]),
    ({'game': 'coinche', 'trump': 'spades', 'taker': 'NS', 'contract': 90, 'points': {'NS': 60},
     'coinche': 'coinche'},
     {'counting': 'bid'}, 'failed', (0, 500), [
         ('contract',
          'Contract 90 by NS: 60 < 90 and 60 ≤ 102: failed.'),
         ('mark',
          'Failed, points annoncés: EW marks 160 × 2 + the contract 90 × 2.'),
     ]),
    ({'game': 'contree', 'rules': 'contree:ffb', 'trump': 'spades', 'taker': 'NS',
     'contract': 'capot', 'points': {'NS': 100}},
     {}, 'failed', (0, 500), [
         ('contract',
          'Contract capot (250) by NS: NS lost a trick: failed.'),
         ('mark',
          'Capot failed: EW marks the prime 500 + all declarations 0, + all the belote 0; NS '
          'marks nothing.'),
     ]),
    ({'game': 'coinche', 'trump': 'spades', 'taker': 'NS', 'contract': 100, 'points': {'NS': 107},
     'belote': 'NS'},
     {'rounding_scope': 'points'}, 'made', (230, 60), [
         ('contract',
          'Contract 100 by NS: 127 ≥ 100 and 127 > 55: made.'),
         ('mark',
          'Made: NS marks its total 127 + the contract 100; EW marks its total 55.'),
     ]),
]


@pytest.mark.parametrize(("deal", "options", "outcome", "marks", "sentences"), SENTENCES)
def test_the_sentences_of_the_contract_and_mark_lines(
        deal: dict[str, Any], options: dict[str, Any], outcome: str, marks: tuple[int, int],
        sentences: list[tuple[str, str]]) -> None:
    rules = summary_rules(deal)
    if options:
        rules = rules.replace(**options)
    s = score_deal(DealSummary.from_json({k: v for k, v in deal.items() if k != "game"}, rules),
                   rules)
    assert (s.outcome, s.score) == (outcome, marks)
    assert [(line.key.value, line.text) for line in s.lines
            if line.key in (LineKey.CONTRACT, LineKey.MARK, LineKey.ROUNDING)] == sentences


def marks_of(deal: dict[str, Any], **options: Any) -> tuple[int, int]:
    return card(deal, **options)[0].score  # type: ignore[no-any-return]


def test_a_scores_points_and_totals_as_json_are_each_teams() -> None:
    s, _ = card({"game": "belote", "trump": "hearts", "taker": "NS", "points": {"NS": 98},
                 "belote": "NS"})
    out = s.to_json()
    assert (out["points"], out["totals"]) == ({"NS": 98, "EW": 64}, {"NS": 118, "EW": 64})


def test_belote_takers_capot_keep_their_belote_on_top_of_252() -> None:
    assert marks_of({"game": "belote", "trump": "hearts", "taker": "NS", "capot": "NS",
                     "belote": "NS"}) == (272, 0)


def test_a_litige_to_the_defense_gives_it_the_declarations_and_its_belote() -> None:
    s, _ = card({"game": "belote", "trump": "hearts", "taker": "EW", "points": {"EW": 81},
                 "declarations": {"EW": 20}, "belote": "NS"}, litige="defense")
    assert (s.outcome, s.score) == ("litige", (162 + 20 + 20, 0))


def test_the_reserve_to_ns_is_written_on_ns_side() -> None:
    _, lines = card({"game": "belote", "trump": "hearts", "taker": "NS", "points": {"NS": 102},
                     "held_over": 81})
    assert lines[-2] == ("held_over", 81, 0, {"team": "NS", "reserve": 81})


def test_points_faits_add_no_contract_even_unrounded() -> None:
    assert marks_of({"game": "coinche", "trump": "spades", "taker": "NS", "contract": 90,
                     "points": {"NS": 101}}, counting="made", rounding="none") == (101, 61)


def test_the_points_rounded_first_follow_the_rounding_rule() -> None:
    deal = {"game": "coinche", "trump": "spades", "taker": "NS", "contract": 80,
            "points": {"NS": 95}}
    assert marks_of(deal, rounding_scope="points") == (100 + 80, 70)
    assert marks_of(deal, rounding_scope="points", rounding="six_up") == (90 + 80, 70)


def test_a_capot_prime_under_points_annonces() -> None:
    capot = {"game": "contree", "rules": "contree:ffb", "trump": "spades", "taker": "NS",
             "contract": "capot"}
    s, lines = card({**capot, "capot": "NS"}, counting="bid")
    assert s.score == (500, 0)
    assert lines[-2][3] == {"taker": "NS", "defense": "EW", "taker_mark": 500, "defense_mark": 0,
                            "case": "bid_made", "multiplier": 1, "contract": 250, "fall": 160}
    assert s.lines[-2].text == "Made, points annoncés: NS marks the contract 500; EW marks nothing."
    s, lines = card({**capot, "points": {"NS": 100}}, counting="bid")
    assert s.score == (0, 500) and lines[-2][3]["case"] == "bid_failed"
    assert s.lines[-2].text == "Failed, points annoncés: EW marks the capot 500."
    s, _ = card({**capot, "points": {"NS": 100}}, counting="bid", capot_failed="formula")
    assert s.score == (0, 160 + 250)


def test_a_capot_prime_made_adds_the_declarations_before_the_multiplier() -> None:
    assert marks_of({"game": "contree", "rules": "contree:ffb", "trump": "spades",
                     "taker": "NS", "contract": "capot", "capot": "NS", "coinche": "coinche",
                     "declarations": {"NS": 50}}, declarations=True) == ((500 + 50) * 2, 0)


# -- the sentences every deal has, and the last details of the marks ------------------------------
def sentences_of(deal: dict[str, Any], *keys: str, **options: Any) -> list[str]:
    s, _ = card(deal, **options)
    return [line.text for line in s.lines if line.key.value in keys]


def test_the_sentences_of_tricks_declarations_belote_totals_and_marks_name_each_team() -> None:
    deal = {"game": "belote", "trump": "hearts", "taker": "NS", "points": {"NS": 98},
            "belote": "NS", "declarations": {"NS": 50}}
    assert sentences_of(deal, "tricks", "declarations", "belote", "total", "score") == [
        "Trick points with the dix de der: NS 98, EW 64.",
        "Declarations: NS showed the strongest and scores all of its own (50).",
        "Belote-rebelote: NS 20, EW 0, kept whatever happens.",
        "Totals: NS 168, EW 64.",
        "Marks: NS 168, EW 64.",
    ]
    assert card(deal)[1][1] == ("declarations", 50, 0, {"team": "NS", "value": 50})


def test_a_void_deal_and_an_adjustment_say_so_and_an_adjustment_keeps_the_reserve() -> None:
    assert sentences_of({"game": "belote", "void": True}, "void") == [
        "Deal voided by passes: nothing is marked."]
    s, _ = card({"game": "belote", "adjust": {"NS": 50}, "held_over": 81})
    assert s.held_over == 81 and [line.text for line in s.lines] == ["Adjustment: NS 50, EW 0."]


def test_a_summary_built_without_a_taker_is_refused() -> None:
    rules = Rules.preset("official", "belote")
    with pytest.raises(InputError) as info:
        score_deal(DealSummary(game="belote"), rules)
    assert (info.value.field, info.value.reason) == ("taker", "missing: NS or EW")


def test_without_the_belote_in_the_contract_each_team_is_judged_on_its_points() -> None:
    deal = {"game": "coinche", "trump": "spades", "taker": "NS", "contract": 80}
    off = {"belote_counts_for_contract": False}
    # 70 + the belote 20 would reach 80: not counted, the contract fails
    assert card({**deal, "points": {"NS": 70}, "belote": "NS"}, **off)[0].outcome == "failed"
    # NS are judged on their own points, 90 against EW's 72
    assert card({**deal, "points": {"NS": 90}}, **off)[0].outcome == "made"
    # the defense's belote does not count either: 85 > 77, made
    assert card({**deal, "points": {"NS": 85}, "belote": "EW"}, must_outscore=True,
                **off)[0].outcome == "made"


def test_the_last_sentences_of_contracts_coinches_and_roundings() -> None:
    capot = {"game": "coinche", "trump": "spades", "taker": "NS", "contract": "capot",
             "capot": "NS"}
    assert sentences_of(capot, "contract") == [
        "Contract capot (250) by NS: NS won every trick: made."]
    coinched = {"game": "coinche", "trump": "spades", "taker": "NS", "contract": 90,
                "points": {"NS": 60}, "coinche": "coinche", "belote": "EW"}
    s, lines = card(coinched)
    assert s.score == (0, 540) and lines[-2][3]["belote"] == 40
    assert [line.text for line in s.lines if line.key == LineKey.MARK] == [
        "Failed: EW marks (160 + contract 90 + all declarations 0 + its belote 20) × 2; NS keeps "
        "its belote."]
    prime = {"game": "contree", "rules": "contree:ffb", "trump": "spades", "taker": "NS",
             "contract": "capot", "capot": "NS"}
    assert sentences_of(prime, "mark") == [
        "Capot bid and made: NS marks the prime 500 + all declarations 0, + belote 0; EW keeps "
        "its belote."]
    assert sentences_of({"game": "coinche", "trump": "spades", "taker": "NS", "contract": 90,
                         "points": {"NS": 97}}, "rounding", rounding="six_up") == [
        "Rounded to the nearest ten (6 up): NS 187 → 190, EW 65 → 60."]


def test_a_failed_contract_says_whether_its_parts_share_one_multiplier() -> None:
    failed = {"game": "coinche", "trump": "spades", "taker": "NS", "contract": 90,
              "points": {"NS": 60}}
    assert card({**failed, "coinche": "coinche"}, coinche_form="contract")[1][-2][3][
        "even"] is False
    ffb = {**failed, "game": "contree", "rules": "contree:ffb"}
    assert card(ffb)[1][-2][3]["even"] is True
    capot = {**ffb, "contract": "capot", "points": {"NS": 100}}
    assert card(capot, capot_failed="formula")[1][-2][3]["even"] is True
