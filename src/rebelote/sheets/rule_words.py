"""A rule set in words, for the sheets and the counter: its preset's name, the options it
changes, and each way of counting with its value (labels in :mod:`rebelote.sheets.labels`).

>>> from rebelote.rules import Rules
>>> rules_name("fr", Rules.preset("cannes-2016", "contree"))
'Championnat de France, Cannes 2016'
>>> rules_name("fr", Rules.preset("ffb", "contree").replace(surcoinche=3))
'FFB (barème 2016), modifiées\\xa0: Surcoinche\\xa0: × 3'
"""

from __future__ import annotations

from typing import Final

from rebelote.rules import Rules
from rebelote.sheets.labels import text

# The options that say how a deal of coinche or contrée is counted, in the order a table
# discusses them.
COUNTING_OPTIONS: Final = (
    "counting", "failure_base", "coinche_form", "surcoinche", "belote_prenable",
    "belote_multiplied", "belote_counts_for_contract", "must_outscore", "declarations",
    "generale", "capot_bid", "capot_unbid", "capot_failed", "rounding", "rounding_scope",
    "last_deal_exact", "target", "target_rule",
)
_NO_VALUE_WORDS: Final = frozenset({"capot_value", "target", "generale_value"})


def option_label(lang: str, key: str) -> str:
    """An option's name in words; an option without words is shown by its key."""
    try:
        return text(lang, f"opt.{key}")
    except KeyError:
        return key


def option_value(lang: str, rules: Rules, key: str) -> str:
    """An option's value in words: ``oui``/``non``, a number, or the value's label."""
    value = getattr(rules, key)
    if isinstance(value, bool):
        return text(lang, "opt.on" if value else "opt.off")
    if key == "capot_bid" and value == "contract":
        return text(lang, "opt.capot_bid.contract", value=rules.capot_value)
    if key in _NO_VALUE_WORDS:
        return str(value)
    try:
        return text(lang, f"opt.{key}.{value}")
    except KeyError:
        return str(value)


def preset_label(lang: str, game: str, name: str) -> str:
    try:
        return text(lang, f"rules.{name}")
    except KeyError:
        return name


def rules_name(lang: str, rules: Rules) -> str:
    """The preset's name, and the options the rule set changes from it, in words."""
    name = preset_label(lang, rules.game, rules.name)
    changed = [k for k in rules.changed_options() if k != "target"]
    if not changed:
        return name
    shown = ", ".join(text(lang, "opt.pair", option=option_label(lang, k),
                           value=option_value(lang, rules, k)) for k in changed)
    return text(lang, "rules.changed", rules=name, options=shown)


def counting_rows(lang: str, rules: Rules) -> list[tuple[str, str]]:
    """Each way of counting of an auction game's rule set, as (option, value) in words."""
    return [(option_label(lang, k), option_value(lang, rules, k)) for k in COUNTING_OPTIONS]
