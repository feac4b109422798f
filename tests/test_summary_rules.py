"""What a deal summary may say (docs/interfaces.md, the deal summary; docs/rules.md): the edges
of each check, one test each, with the field and the reason of every refusal."""

from __future__ import annotations

from typing import Any

import pytest

from rebelote.cards import HEARTS
from rebelote.errors import InputError
from rebelote.rules import Rules
from rebelote.summary import DealSummary, summaries_from_json, summary_rules

BELOTE = Rules.preset("official", "belote")
COINCHE = Rules.preset("official", "coinche")


def read(obj: dict[str, Any], rules: Rules = COINCHE) -> DealSummary:
    return DealSummary.from_json(obj, rules)


def refusal(obj: dict[str, Any], rules: Rules = COINCHE) -> tuple[str, str]:
    with pytest.raises(InputError) as e:
        read(obj, rules)
    return e.value.field, e.value.reason


def test_one_team_may_hold_all_162_points_without_a_capot() -> None:
    # the other team won a trick of sevens and eights: no points, no capot
    s = read({"trump": "hearts", "taker": "NS", "points": {"NS": 162}}, BELOTE)
    assert (s.points, s.capot) == ((162, 0), None)
    assert refusal({"trump": "hearts", "taker": "NS", "points": {"NS": 163}}, BELOTE) == (
        "points.NS", "163 is more than the 162 of a deal (252 for a capot)")


def test_a_generale_cannot_be_coinched_when_capots_cannot() -> None:
    rules = COINCHE.replace(coinche_capot=False)
    obj = {"trump": "hearts", "taker": "NS", "contract": "generale", "coinche": "coinche",
           "capot": "NS", "generale": True}
    assert refusal(obj, rules) == ("coinche", "a generale contract cannot be coinched under "
                                              "these rules (option coinche_capot is off)")
    assert read(obj).coinche == 2


def test_a_generale_is_the_takers_capot_not_the_defenses() -> None:
    obj = {"trump": "hearts", "taker": "NS", "contract": "generale", "capot": "EW",
           "generale": True}
    assert refusal(obj) == ("generale", "a générale is the taker alone winning every trick: "
                                        "capot must be NS")
    assert read({**obj, "capot": "NS"}).generale


def test_a_games_deals_are_counted_from_one_in_errors() -> None:
    good = {"trump": "hearts", "taker": "NS", "points": {"NS": 100}}
    with pytest.raises(InputError) as e:
        summaries_from_json([good, {**good, "taker": "XY"}], BELOTE)
    assert e.value.field == "deals[2].taker"
    with pytest.raises(InputError) as e:
        summaries_from_json([{**good, "game": "coinche"}], BELOTE)
    assert (e.value.field, e.value.reason) == ("deals[1].game", "this game is belote")


def test_an_adjustment_may_be_negative_and_other_numbers_may_be_zero() -> None:
    adj = read({"adjust": {"NS": -50}}, BELOTE)
    assert (adj.kind, adj.adjust) == ("adjust", (-50, 0))
    s = read({"trump": "hearts", "taker": "NS", "points": {"NS": 0}, "held_over": 0}, BELOTE)
    assert s.points == (0, 162)
    assert refusal({"trump": "hearts", "taker": "NS", "points": {"NS": -1}}, BELOTE) == (
        "points.NS", "must be 0 or more, not -1")


@pytest.mark.parametrize("contract", ["capot", "Capot", 250, "250"])
def test_a_capot_contract_is_written_capot_or_250(contract: object) -> None:
    s = read({"trump": "hearts", "taker": "NS", "contract": contract, "capot": "NS"})
    assert s.contract == "capot"


@pytest.mark.parametrize(("word", "multiplier"), [
    ("none", 1), ("coinche", 2), ("surcoinche", 4), ("contre", 2), ("surcontre", 4),
    (" Contre ", 2), (None, 1),
])
def test_the_coinche_words_of_both_games(word: str | None, multiplier: int) -> None:
    s = read({"trump": "hearts", "taker": "NS", "contract": 90, "coinche": word,
              "points": {"NS": 100}})
    assert s.coinche == multiplier


# -- every refusal of a deal summary, with its field and its reason --------------------------------
H = {"trump": "hearts", "taker": "NS", "contract": 90}
SUIT_NAMES = "spades, hearts, diamonds, clubs, no-trump or all-trump"
CONTRACT_RULE = '80 to 160 by ten, "capot" or "generale"'


@pytest.mark.parametrize(("obj", "field", "reason"), [
    ({"foo": 1, **H, "points": {"NS": 100}}, "foo",
     "unknown field (known: adjust, belote, capot, cards, coinche, contract, declarations, game, "
     "generale, held_over, last_trick, options, points, rules, taker, trump, void)"),
    ({**H, "points": {"NS": 100.5}}, "points.NS", "must be a whole number, not 100.5"),
    ({**H, "points": {"NS": True}}, "points.NS", "must be a whole number, not True"),
    ({**H, "taker": "XY", "points": {"NS": 100}}, "taker", "'XY' is not a team: NS or EW"),
    ({**H, "capot": "XY", "points": {"NS": 100}}, "capot", "'XY' is not a team: NS or EW or null"),
    ({**H, "points": [100]}, "points", 'must be an object of teams, like {"NS": 20}, not [100]'),
    ({**H, "points": {"XY": 3}}, "points", "'XY' is not a team: NS or EW"),
    ({"void": "yes"}, "void", "must be true or false, not 'yes'"),
    ({"void": True, "taker": "NS"}, "taker", "a void deal carries nothing but its reserve"),
    ({"adjust": {"NS": 5}, "taker": "NS"}, "taker",
     "an adjustment line carries only the points it marks"),
    ({"adjust": {}}, "adjust", 'give the points of at least one team, like {"NS": 50}'),
    ({**H, "trump": "stars", "points": {"NS": 100}}, "trump",
     f"'stars' is not a trump: {SUIT_NAMES}"),
    ({"trump": "hearts", "contract": 90, "points": {"NS": 100}}, "taker",
     "missing: the team that took, NS or EW"),
    ({**H, "taker": None, "points": {"NS": 100}}, "taker", "missing: the team that took, NS or EW"),
    ({"trump": "hearts", "taker": "NS", "points": {"NS": 100}}, "contract",
     f"missing: {CONTRACT_RULE}"),
    ({**H, "coinche": "double", "points": {"NS": 100}}, "coinche",
     "'double' is not one of none, coinche, surcoinche"),
    ({**H, "coinche": 2, "points": {"NS": 100}}, "coinche",
     "2 is not one of none, coinche, surcoinche"),
    ({**H, "generale": "yes", "points": {"NS": 100}}, "generale",
     "must be true or false, not 'yes'"),
    ({**H, "points": {"NS": 100}, "declarations": {"NS": 20, "EW": 20}}, "declarations",
     "only one team scores declarations, the one that showed the strongest; got both NS and EW"),
    ({**H, "points": {"NS": 100}, "declarations": {"NS": 30}}, "declarations.NS",
     "30 is not a sum of declarations (tierce 20, cinquante 50, cent 100, carrés 100, 150, 200)"),
    ({**H, "contract": "abc", "points": {"NS": 100}}, "contract",
     f"'abc' is not a contract: {CONTRACT_RULE}"),
    ({**H, "contract": True, "points": {"NS": 100}}, "contract",
     f"True is not a contract: {CONTRACT_RULE}"),
    ({**H, "contract": 95, "points": {"NS": 100}}, "contract",
     f"95 is not a contract: {CONTRACT_RULE}"),
    ({**H, "points": {"NS": 100}, "belote": [1]}, "belote",
     '[1] is not a team (NS, EW) or counts like {"NS": 1, "EW": 2}'),
    ({**H, "trump": "no-trump", "points": {"NS": 100}, "belote": "NS"}, "belote",
     "there is no belote in no-trump"),
    ({**H, "points": {"NS": 100}, "belote": {"NS": 2}}, "belote",
     "2 belotes: at most 1 in a suit contract"),
    ({**H, "trump": "all-trump", "points": {"NS": 100}, "belote": {"NS": 5}}, "belote",
     "5 belotes: at most 4 in all-trump (one per suit)"),
    ({**H, "points": {"NS": 100}, "cards": {"NS": 90}}, "points",
     "give either points (with the dix de der) or cards with last_trick, not both"),
    (H, "points", "missing: the takers' trick points with the dix de der (or both teams'), "
                  "or cards with last_trick"),
    ({**H, "cards": {}}, "cards", "give the card points of at least one team"),
    ({**H, "cards": {"NS": 153}}, "cards.NS", "153 is more than the 152 points of the cards"),
    ({**H, "cards": {"NS": 100, "EW": 50}}, "cards", "100 + 50 = 150, the cards hold 152"),
    ({**H, "cards": {"NS": 100}}, "last_trick",
     "missing: the team that won the last trick (NS or EW), which cards need"),
    ({**H, "cards": {"NS": 152}, "capot": "NS", "last_trick": "EW"}, "last_trick",
     "NS is capot, so NS won the last trick"),
    ({**H, "cards": {"NS": 100}, "capot": "NS"}, "cards.NS",
     "NS is capot and holds all 152 card points, not 100"),
    ({**H, "points": {}}, "points", "give the trick points of at least one team"),
    ({**H, "points": {"NS": 100}, "capot": "NS"}, "points",
     "NS capot makes 252 / 0 (NS / EW: 252 / 0), not 100 / ?"),
    ({**H, "points": {"EW": 100}, "capot": "EW"}, "points",
     "EW capot makes 252 / 0 (NS / EW: 0 / 252), not ? / 100"),
    ({**H, "points": {"NS": 100, "EW": 50}}, "points",
     "100 + 50 = 150, a deal has 162 (252 / 0 for a capot)"),
    ({**H, "points": {"NS": 100}, "held_over": 10}, "held_over",
     "coinche has no litige: nothing is held over"),
])
def test_each_refusal_names_its_field_and_rule(obj: dict[str, Any], field: str,
                                               reason: str) -> None:
    assert refusal(obj) == (field, reason)


def test_a_deal_summary_is_an_object() -> None:
    with pytest.raises(InputError) as e:
        DealSummary.from_json([], COINCHE)  # type: ignore[arg-type]
    assert (e.value.field, e.value.reason) == ("", "a deal summary is a JSON object, not list")


def test_the_refusals_that_depend_on_the_rules() -> None:
    generale = {**H, "contract": "Générale", "capot": "NS", "generale": True}
    assert refusal(generale, COINCHE.replace(generale=False)) == (
        "contract", "générale is off in these rules (option generale)")
    assert read(generale, COINCHE.replace(generale=True)).contract == "generale"
    declared = {**H, "points": {"NS": 100}, "declarations": {"NS": 20}}
    assert refusal(declared, COINCHE.replace(declarations=False)) == (
        "declarations", "declarations are off in these rules (option declarations)")
    belote = {"trump": "hearts", "taker": "NS", "points": {"NS": 100}}
    assert refusal({**belote, "contract": 90}, BELOTE) == (
        "contract", "belote has no contract: the taker takes the turned card (contracts are for "
                    "coinche and contrée)")
    assert refusal({**belote, "coinche": "coinche"}, BELOTE) == (
        "coinche", "belote has no coinche (coinche is for coinche and contrée)")
    assert read({**belote, "coinche": "none", "contract": None}, BELOTE).coinche == 1


def test_a_games_deals_are_objects_without_rules_of_their_own() -> None:
    for deals, field, reason in [
        ([5], "deals[1]", "a deal summary is a JSON object"),
        ([{"rules": "house"}], "deals[1].rules", "a game's deals share the game's rules"),
        ([{"options": {}}], "deals[1].options", "a game's deals share the game's rules"),
    ]:
        with pytest.raises(InputError) as e:
            summaries_from_json(deals, BELOTE)
        assert (e.value.field, e.value.reason) == (field, reason)


# -- what a deal summary accepts -------------------------------------------------------------------
def test_whole_numbers_may_be_written_as_floats_and_teams_in_any_case() -> None:
    s = read({"trump": "hearts", "taker": " ns ", "contract": 90, "points": {"ew": 62.0}})
    assert (s.taker, s.points) == ("NS", (100, 62))


def test_a_void_deal_carries_its_reserve_and_false_is_no_void() -> None:
    s = read({"void": True, "held_over": 81, "id": 3, "note": "x"}, BELOTE)
    assert (s.kind, s.held_over, s.taker) == ("void", 81, None)
    s = read({"void": False, "trump": "hearts", "taker": "NS", "points": {"NS": 100}}, BELOTE)
    assert (s.kind, s.points) == ("deal", (100, 62))


def test_an_adjustment_carries_the_points_it_marks_and_its_reserve() -> None:
    s = read({"adjust": {"EW": 30}, "held_over": 81, "void": False}, BELOTE)
    assert (s.kind, s.adjust, s.held_over) == ("adjust", (0, 30), 81)


def test_no_trump_named_is_a_suit_contract_and_no_generale_is_false() -> None:
    s = read({"trump": None, "taker": "EW", "contract": 90, "points": {"EW": 100},
              "generale": None, "declarations": None, "belote": None})
    assert (s.trump, s.generale, s.declarations, s.belote) == (HEARTS, False, (0, 0), (0, 0))


def test_the_points_of_a_capot_may_be_left_out_or_given_as_a_pair() -> None:
    assert read({**H, "capot": "EW"}).points == (0, 252)
    assert read({**H, "capot": "NS"}).points == (252, 0)
    assert read({**H, "points": {"NS": 0, "EW": 252}}).capot == "EW"
    s = read({**H, "points": {"EW": 252}})
    assert (s.points, s.capot) == ((0, 252), "EW")
    assert read({**H, "points": {"NS": 252, "EW": 0}, "capot": "NS"}).capot == "NS"
    assert read({**H, "points": {"EW": 0}, "capot": "NS"}).points == (252, 0)


def test_card_points_add_the_dix_de_der_or_the_capots_last_trick() -> None:
    s = read({**H, "cards": {"NS": 100}, "last_trick": "EW"})
    assert s.points == (100, 62)
    s = read({**H, "cards": {"EW": 100, "NS": 52}, "last_trick": "NS"})
    assert s.points == (62, 100)
    s = read({**H, "cards": {"EW": 152}, "capot": "EW"})
    assert (s.points, s.capot) == ((0, 252), "EW")
    assert read({**H, "cards": {"NS": 152}, "capot": "NS", "last_trick": "NS"}).points == (252, 0)


def test_declarations_of_one_team_the_other_written_as_zero() -> None:
    s = read({**H, "points": {"NS": 100}, "declarations": {"NS": 0, "EW": 50}})
    assert s.declarations == (0, 50)


def test_belotes_by_team_or_by_count() -> None:
    assert read({**H, "points": {"NS": 100}, "belote": "ew"}).belote == (0, 1)
    s = read({**H, "trump": "all-trump", "points": {"NS": 100}, "belote": {"NS": 3, "EW": 1}})
    assert s.belote == (3, 1)
    assert read({**H, "trump": "no-trump", "points": {"NS": 100},
                 "belote": {"NS": 0}}).belote == (0, 0)


# -- the rule set named by a summary ---------------------------------------------------------------
@pytest.mark.parametrize(("obj", "field", "reason"), [
    ({}, "game", "missing: belote, coinche, contree"),
    ({"game": "tarot"}, "game", "'tarot' is not a game: belote, coinche, contree"),
    ({"game": "belote", "rules": 5}, "rules",
     "5 is not a rule set: a preset's name or a text form like contree:ffb,rounding=none"),
    ({"game": "belote", "options": [1]}, "options", "must be an object of rule options"),
    ({"game": "belote", "rules": "contree:ffb"}, "rules",
     "'contree:ffb' is a rule set of contree, and this game is belote"),
    ({"game": "belote", "options": {"target": -1}}, "options.target",
     "must be a positive whole number, not -1"),
])
def test_summary_rules_refusals(obj: dict[str, Any], field: str, reason: str) -> None:
    with pytest.raises(InputError) as e:
        summary_rules(obj)
    assert (e.value.field, e.value.reason) == (field, reason)


def test_the_game_of_a_summary_from_its_rules_text_or_its_kind() -> None:
    assert summary_rules({"rules": " Contree :ffb"}).game == "contree"
    assert summary_rules({"void": True}).game == "coinche"
    assert summary_rules({"adjust": {"NS": 5}}).game == "coinche"
    assert summary_rules({"game": "tarot"}, game="belote").game == "belote"
    rules = summary_rules({"rules": "coinche:official", "options": {"target": 2000}})
    assert (rules.game, rules.target) == ("coinche", 2000)
    assert summary_rules({"rules": "coinche:official"}) == Rules.preset("official", "coinche")


# -- a summary written back ------------------------------------------------------------------------
def test_a_summary_is_written_back_as_it_is_read() -> None:
    assert DealSummary.void("belote").to_json() == {"void": True}
    assert read({"void": True, "held_over": 81}, BELOTE).to_json() == {"void": True,
                                                                        "held_over": 81}
    assert DealSummary.adjustment("coinche", -20, 30).to_json() == {
        "adjust": {"NS": -20, "EW": 30}}
    belote = read({"trump": "spades", "taker": "EW", "points": {"EW": 100}, "belote": "NS",
                   "held_over": 81}, BELOTE)
    assert belote.to_json() == {"trump": "spades", "taker": "EW", "points": {"NS": 62, "EW": 100},
                                "capot": None, "belote": "NS", "held_over": 81}
    coinche = read({"trump": "all-trump", "taker": "NS", "contract": "generale",
                    "coinche": "surcoinche", "capot": "NS", "generale": True,
                    "declarations": {"NS": 100}, "belote": {"EW": 1}},
                   COINCHE.replace(generale=True))
    assert coinche.to_json() == {
        "trump": "all-trump", "taker": "NS", "contract": "generale", "coinche": "surcoinche",
        "points": {"NS": 252, "EW": 0}, "capot": "NS", "generale": True,  # scaled to 162
        "declarations": {"NS": 100}, "belote": {"EW": 1}}
    assert read({**H, "points": {"NS": 100}, "belote": {"NS": 1, "EW": 0}},
                ).to_json()["belote"] == "NS"


def test_the_value_of_a_contract_and_the_defense() -> None:
    rules = COINCHE.replace(generale=True)
    assert read({**H, "contract": "capot", "capot": "NS"}).contract_value(rules) == 250
    assert read({**H, "contract": "generale", "capot": "NS", "generale": True},
                rules).contract_value(rules) == rules.generale_value
    assert read({**H, "points": {"NS": 100}}).contract_value(rules) == 90
    assert DealSummary(game="belote", taker="NS").contract_value(rules) == 0
    assert read({**H, "points": {"NS": 100}}).defense == "EW"
    assert DealSummary(game="belote", taker="EW").defense == "NS"
    assert DealSummary.void("belote").defense is None


# -- the survivors of summary's mutation run: each refusal's field, the fields a line may carry -
BASE: dict[str, Any] = {"trump": "hearts", "taker": "NS", "contract": 80,
                        "points": {"NS": 100}}


def field(obj: dict[str, Any], rules: Rules = COINCHE) -> str:
    return refusal(obj, rules)[0]


@pytest.mark.parametrize("key, value, where", [
    ("held_over", -10, "held_over"), ("held_over", "x", "held_over"),
    ("declarations", {"NS": -20}, "declarations.NS"), ("declarations", [20], "declarations"),
    ("belote", "both", "belote"), ("belote", {"North": 1}, "belote"),
    ("belote", 3, "belote"), ("belote", {"NS": "one"}, "belote.NS"),
])
def test_a_bad_value_is_refused_naming_its_field(key: str, value: Any, where: str) -> None:
    rules = BELOTE if key == "held_over" else COINCHE
    obj = {**BASE, key: value}
    if rules is BELOTE:
        obj.pop("contract")
    assert field(obj, rules) == where


@pytest.mark.parametrize("adjust, where", [({"NS": "x"}, "adjust.NS"), ([], "adjust"),
                                           ({"North": 5}, "adjust"), ({}, "adjust")])
def test_a_bad_adjustment_is_refused_naming_adjust(adjust: Any, where: str) -> None:
    assert field({"adjust": adjust}) == where


@pytest.mark.parametrize("cards", [{"NS": "x"}, [80], {"North": 80}, {}])
def test_bad_card_points_are_refused_naming_cards(cards: Any) -> None:
    got = field({"trump": "hearts", "taker": "NS", "contract": 80, "cards": cards,
                 "last_trick": "NS"})
    assert got.split(".")[0] == "cards"


def test_a_field_starting_with_an_underscore_is_a_comment() -> None:
    assert read({**BASE, "_why": "a note"}).points == (100, 62)
    assert field({**BASE, "why": "a note"}) == "why"


def test_void_and_adjustment_lines_may_name_their_rules_and_carry_an_id_and_a_note() -> None:
    extra = {"game": "coinche", "rules": "official", "options": {}, "id": 7, "note": "x"}
    assert DealSummary.from_json({"void": True, **extra}, COINCHE).kind == "void"
    adjusted = DealSummary.from_json({"adjust": {"NS": 50}, **extra}, COINCHE)
    assert adjusted.kind == "adjust" and adjusted.adjust == (50, 0)
    assert field({"void": True, "taker": "NS"}) == "taker"
    assert field({"adjust": {"NS": 50}, "taker": "NS"}) == "taker"


def test_a_belote_deal_has_no_contract() -> None:
    s = read({"trump": "hearts", "taker": "NS", "points": {"NS": 100}}, BELOTE)
    assert s.contract is None and s.coinche == 1


def test_an_uncoinched_capot_contract_is_read_when_capots_cannot_be_coinched() -> None:
    rules = COINCHE.replace(coinche_capot=False)
    s = read({"trump": "hearts", "taker": "NS", "contract": "capot", "capot": "NS"}, rules)
    assert (s.contract, s.coinche, s.capot) == ("capot", 1, "NS")


def test_the_other_teams_belote_is_written_as_its_team() -> None:
    s = read({**BASE, "belote": "EW"})
    assert s.belote == (0, 1) and s.to_json()["belote"] == "EW"
    assert read(s.to_json()) == s


def test_a_rule_set_text_names_its_game_before_the_first_colon() -> None:
    # "coinche:official:x": the game is read before the first colon, and the rest is refused
    # by the rule set's text form, not as a game
    with pytest.raises(InputError) as e:
        summary_rules({**BASE, "rules": "coinche:official:x"})
    assert (e.value.field, e.value.reason) == (
        "rules", "'official:x' is not a rule set of coinche (official, house)")


def test_a_bad_last_trick_is_refused_naming_last_trick() -> None:
    assert refusal({"trump": "hearts", "taker": "NS", "contract": 80,
                    "cards": {"NS": 90}, "last_trick": "North"}) == (
        "last_trick", "'North' is not a team: NS or EW")


@pytest.mark.parametrize("points, pair, capot", [
    ({"NS": 252, "EW": 0}, (252, 0), "NS"), ({"NS": 0, "EW": 252}, (0, 252), "EW"),
    ({"NS": 252}, (252, 0), "NS"), ({"EW": 252}, (0, 252), "EW"),
])
def test_points_of_a_capot_say_which_team_is_capot(points: dict[str, int],
                                                     pair: tuple[int, int], capot: str) -> None:
    s = read({"trump": "hearts", "taker": "NS", "contract": 80, "points": points})
    assert (s.points, s.capot) == (pair, capot)
