"""The rule set's options and totals (docs/rules.md section 9): what each option's value means
for the totals of a deal, how options are read from text, and the refusal of each bad value."""

from __future__ import annotations

import pytest

from rebelote.rules import (
    ALL_TRUMP,
    HEARTS,
    NO_TRUMP,
    Rules,
    RulesError,
    option_from_text,
    parse_rules,
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
