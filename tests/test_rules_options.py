"""The rule set's options and totals (docs/rules.md section 9): what each option's value means
for the totals of a deal, how options are read from text, and the refusal of each bad value."""

from __future__ import annotations

import pytest

from rebelote.cards import HEARTS, parse_cards
from rebelote.errors import IllegalActionError, RulesError
from rebelote.rules import (
    ALL_TRUMP,
    NO_TRUMP,
    OPTION_NAMES,
    Rules,
    option_from_text,
    parse_rules,
    parse_trump,
    round_mark,
    trick_points,
    trick_winner,
)


# -- totals --------------------------------------------------------------------------------------
@pytest.mark.parametrize(("name", "game", "trump", "totals"), [
    # (deal total, capot total, a failed contract's base, a failed capot's base, an unbid capot)
    ("official", "coinche", HEARTS, (162, 252, 160, 250, 252)),  # failure_base 160: rounded
    ("official", "coinche", ALL_TRUMP, (162, 252, 160, 250, 252)),
    ("house", "coinche", NO_TRUMP, (130, 220, 130, 220, 220)),  # aces 11 in no-trump
    ("cannes-2016", "contree", HEARTS, (162, 252, 162, 252, 252)),  # failure_base 162: exact
    ("annonces", "contree", HEARTS, (162, 252, 0, 0, 252)),  # failure_base 0: the contract alone
])
def test_the_totals_of_a_deal_by_rule_set(name: str, game: str, trump: int,
                                          totals: tuple[int, ...]) -> None:
    rules = Rules.preset(name, game)
    assert (rules.deal_total(trump), rules.capot_total(trump), rules.fall_base(trump),
            rules.capot_base(trump), rules.unbid_capot(trump)) == totals


def test_an_unbid_capot_rounded_to_ten_under_capot_unbid_250() -> None:
    rules = Rules.preset("official", "coinche").replace(capot_unbid=250)
    assert rules.unbid_capot(HEARTS) == 250
    assert rules.replace(no_trump_aces=11).unbid_capot(NO_TRUMP) == 220


@pytest.mark.parametrize(("surcoinche", "multipliers"), [(4, (1, 2, 4)), (3, (1, 2, 3))])
def test_a_coinche_doubles_and_a_surcoinche_multiplies_by_the_option(
        surcoinche: int, multipliers: tuple[int, int, int]) -> None:
    rules = Rules.preset("ffb", "contree").replace(surcoinche=surcoinche)
    assert tuple(rules.coinche_multiplier(c) for c in (1, 2, 4)) == multipliers


def test_the_options_are_every_field_but_the_game_and_the_rule_sets_name() -> None:
    rules = Rules.preset("house", "belote")
    assert tuple(rules.options()) == OPTION_NAMES
    assert "game" not in rules.options() and "name" not in rules.options()
    assert rules.options()["no_trump_aces"] == 11


def test_the_undertrump_flag_reads_the_option() -> None:
    assert Rules.preset("official", "belote").must_undertrump
    assert not Rules.preset("official", "coinche").must_undertrump


# -- options from text ---------------------------------------------------------------------------
@pytest.mark.parametrize("word", ["on", "true", "yes", "1", "ON", "True"])
def test_yes_words(word: str) -> None:
    assert option_from_text("declarations", word) is True


@pytest.mark.parametrize("word", ["off", "false", "no", "0", "OFF", "No"])
def test_no_words(word: str) -> None:
    assert option_from_text("declarations", word) is False


def test_a_yes_no_option_refuses_another_word() -> None:
    with pytest.raises(RulesError) as e:
        option_from_text("declarations", "maybe")
    assert (e.value.field, e.value.reason) == ("options.declarations", "'maybe' is not on or off")


def test_number_options_are_read_as_numbers() -> None:
    rules = parse_rules("coinche:official,generale_value=600,target=1500,surcoinche=3")
    assert (rules.generale_value, rules.target, rules.surcoinche) == (600, 1500, 3)
    assert option_from_text("capot_value", "270") == 270
    assert option_from_text("rounding", "six_up") == "six_up"  # a word stays a word
    with pytest.raises(RulesError) as e:
        option_from_text("generale_value", "lots")
    assert (e.value.field, e.value.reason) == ("options.generale_value",
                                               "'lots' is not a whole number")


# -- bad values ----------------------------------------------------------------------------------
@pytest.mark.parametrize(("option", "value", "reason"), [
    ("target", 0, "must be a positive whole number, not 0"),
    ("target", True, "must be a positive whole number, not True"),
    ("target", "1000", "must be a positive whole number, not '1000'"),
    ("generale_value", 505, "must be a positive multiple of ten, not 505"),
    ("generale_value", 0, "must be a positive multiple of ten, not 0"),
    ("generale_value", False, "must be a positive multiple of ten, not False"),
    ("generale_value", "600", "must be a positive multiple of ten, not '600'"),
    ("declarations", 1, "must be true or false, not 1"),
    ("surcoinche", True, "True is not one of 4, 3"),
    ("rounding", "up", "'up' is not one of nearest, six_up, none"),
])
def test_each_bad_value_is_refused_naming_its_option(option: str, value: object,
                                                      reason: str) -> None:
    with pytest.raises(RulesError) as e:
        Rules.preset("official", "coinche").replace(**{option: value})
    assert (e.value.field, e.value.reason) == (f"options.{option}", reason)


def test_an_unknown_option_is_refused_naming_it() -> None:
    for make in (lambda: Rules().replace(speed=3), lambda: parse_rules("coinche:official,speed=3")):
        with pytest.raises(RulesError) as e:
            make()
        assert e.value.field == "options.speed"
        assert e.value.reason.startswith("unknown rule option (known: direction, undertrump, ")


def test_an_option_without_a_value_in_the_text_form() -> None:
    with pytest.raises(RulesError) as e:
        parse_rules("coinche:official,rounding")
    assert (e.value.field, e.value.reason) == ("options.rounding", "write rounding=value")


# -- rounding, card points, trumps, the text form -------------------------------------------------
def test_rounding_to_ten_both_ways_and_none() -> None:
    assert [round_mark(x) for x in (84, 85, 86, 0)] == [80, 90, 90, 0]  # nearest, the default
    assert [round_mark(x, "six_up") for x in (85, 86)] == [80, 90]
    assert [round_mark(x, "none") for x in (87, -3)] == [87, -3]
    # a negative mark rounds as its opposite (a team marking points against itself)
    assert [round_mark(x, "nearest") for x in (-84, -85, -86)] == [-80, -90, -90]
    assert [round_mark(x, "six_up") for x in (-85, -86, -126)] == [-80, -90, -130]


def test_trick_points_read_the_rule_sets_card_values() -> None:
    trick = parse_cards(["JS", "9S", "AS", "TS"])
    official = Rules.preset("official", "coinche")
    assert trick_points(trick, ALL_TRUMP) == trick_points(trick, ALL_TRUMP, official) == 34
    assert trick_points(trick, ALL_TRUMP, official.replace(all_trump_scale="trump")) == 55
    aces = parse_cards(["AS", "AH"])
    assert trick_points(aces, NO_TRUMP) == 38
    assert trick_points(aces, NO_TRUMP, Rules.preset("house", "coinche")) == 22


def test_an_empty_trick_has_no_winner() -> None:
    with pytest.raises(IllegalActionError) as e:
        trick_winner([], HEARTS)
    assert (e.value.field, e.value.reason) == ("trick", "an empty trick has no winner")


def test_a_trump_that_cannot_be_read_is_refused_with_the_choices() -> None:
    assert [parse_trump(t) for t in ("Hearts", " sa ", "tout-atout", "♣")] == [
        HEARTS, NO_TRUMP, ALL_TRUMP, 3]
    for bad in ("cups", 3, None):
        with pytest.raises(RulesError) as e:
            parse_trump(bad)
        assert (e.value.field, e.value.reason) == (
            "", f"{bad!r} is not a trump: spades, hearts, diamonds, clubs, no-trump or all-trump")


def test_the_text_form_writes_yes_no_options_as_on_and_off() -> None:
    rules = Rules.preset("official", "coinche").replace(belote_prenable=True, generale=False)
    assert rules.to_text() == "coinche:official,generale=off,belote_prenable=on"
    assert parse_rules(rules.to_text()) == rules


def test_rules_from_options_default_to_official_coinche() -> None:
    assert Rules.from_options() == Rules.preset("official", "coinche")
    assert Rules.from_options("house", "belote", {"target": 501}).target == 501
    with pytest.raises(RulesError) as e:
        Rules.from_options(options=["target"])  # type: ignore[arg-type]
    assert (e.value.field, e.value.reason) == ("options", "must be an object of rule options")


def test_presets_by_name_and_game() -> None:
    assert Rules.preset() == Rules.preset("official", "coinche") == Rules()
    for make in (lambda: Rules.preset("official", "tarot"), lambda: parse_rules("tarot:ffb")):
        with pytest.raises(RulesError) as e:
            make()
        assert (e.value.field, e.value.reason) == (
            "game", "'tarot' is not a game (belote, coinche, contree)")


def test_a_preset_that_does_not_exist_is_refused_with_the_games_presets() -> None:
    with pytest.raises(RulesError) as e:
        Rules.preset("nope", "coinche")
    assert (e.value.field, e.value.reason) == (
        "rules", "'nope' is not a rule set of coinche (official, house)")
    assert Rules.preset("official", "contree") == Rules.preset("ffb", "contree")  # an alias


def test_the_text_form_skips_empty_pairs_and_reads_one_colon() -> None:
    assert parse_rules("coinche:official,,target=1500, ").target == 1500
    with pytest.raises(RulesError) as e:
        parse_rules("coinche:house:x")
    assert e.value.field == "rules"  # the preset "house:x" of coinche, not a game "coinche:house"
    with pytest.raises(RulesError) as e:
        parse_rules("  ")
    assert (e.value.field, e.value.reason) == ("rules",
                                               "empty; write game:preset, like contree:ffb")
    with pytest.raises(RulesError) as e:
        parse_rules("coinche:official,speed=3")
    assert e.value.reason == "unknown rule option (known: " + ", ".join(
        Rules().options()) + ")"


def test_a_rule_set_of_its_own_name_changes_the_games_default() -> None:
    mine = Rules(game="coinche", name="mine", target=1500, rounding="none")
    assert mine.changed_options() == {"rounding": "none", "target": 1500}


def test_a_rule_set_is_named_by_text() -> None:
    with pytest.raises(RulesError) as info:
        Rules(game="coinche", name=5)  # type: ignore[arg-type]
    assert (info.value.field, info.value.reason) == ("rules", "5 is not a rule set name")
    assert Rules(game="coinche", name="ours").name == "ours"
