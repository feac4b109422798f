"""docs/counting.md's "Every option value on an example": each figure of its tables is the
scorer's.

Each table follows a ``<!-- example: NAME -->`` marker; its first column is a rule set written
as the changes to ``contree:ffb`` (``ffb`` itself for none), each other column one case of the
example ``NAME`` below: a deal's marks (``230 / 50``, takers first), a game's totals and its
winner (``2000 / 1550, NS``), or ``refused`` when the rule set refuses the deal. Run this module
as a script to print the tables from the scorer.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from rebelote.errors import InputError
from rebelote.jsonio import answer_score
from rebelote.match import Match

DOC = Path(__file__).parent.parent / "docs" / "counting.md"
HEART = {"trump": "hearts", "taker": "NS"}
MADE = {**HEART, "contract": 100, "points": {"NS": 110, "EW": 52}, "belote": "NS"}
FAILED = {**HEART, "contract": 100, "points": {"NS": 70, "EW": 92}, "belote": "NS"}
CAPOT = {**HEART, "contract": "capot", "capot": "NS", "belote": "NS"}
CAPOT_FAILED = {**HEART, "contract": "capot", "points": {"NS": 150, "EW": 12}, "belote": "NS"}
WORKED_GAME = {"start": {"NS": 1770, "EW": 1500}, "deals": [MADE]}

# name -> (the cases' headings, the cases: a deal summary, or a game with "deals")
EXAMPLES: dict[str, list[tuple[str, dict[str, Any]]]] = {
    "worked": [
        ("made", MADE),
        ("coinched", {**MADE, "coinche": "coinche"}),
        ("surcoinched", {**MADE, "coinche": "surcoinche"}),
        ("failed", FAILED),
        ("failed coinched", {**FAILED, "coinche": "coinche"}),
    ],
    "capot": [
        ("capot bid, made", CAPOT),
        ("coinched", {**CAPOT, "coinche": "coinche"}),
        ("failed (150 / 12)", CAPOT_FAILED),
        ("failed coinched", {**CAPOT_FAILED, "coinche": "coinche"}),
        ("100 bid, capot made", {**MADE, "points": None, "capot": "NS"}),
        ("générale bid, made", {**CAPOT, "contract": "generale", "generale": True}),
    ],
    "rounding": [
        ("80 bid, 85 / 77", {**HEART, "contract": 80, "points": {"NS": 85, "EW": 77}}),
        ("80 bid, 86 / 76", {**HEART, "contract": 80, "points": {"NS": 86, "EW": 76}}),
        ("100 bid, 85 / 77, surcoinched", {**HEART, "contract": 100, "coinche": "surcoinche",
                                           "points": {"NS": 85, "EW": 77}}),
    ],
    "contract": [
        ("80 bid, 80 / 82", {**HEART, "contract": 80, "points": {"NS": 80, "EW": 82}}),
        ("100 bid, 90 + belote / 72", {**HEART, "contract": 100, "belote": "NS",
                                       "points": {"NS": 90, "EW": 72}}),
        ("100 bid, 90 + tierce / 72", {**HEART, "contract": 100, "declarations": {"NS": 20},
                                       "points": {"NS": 90, "EW": 72}}),
    ],
    "end": [
        ("1770 / 1500, then the worked example made", WORKED_GAME),
    ],
}


def clean(case: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in case.items() if v is not None}


def figure(rules: str, case: dict[str, Any]) -> str:
    """The case's figure under ``rules`` (changes to contree:ffb), as the doc writes it."""
    text = "contree:ffb" + ("" if rules == "ffb" else "," + rules)
    try:
        if "deals" in case:
            result = Match.from_json({"rules": text, **case}).result()
            winner = result.winner or "no winner yet"
            return f"{result.totals[0]} / {result.totals[1]}, {winner}"
        got = answer_score({"rules": text, **clean(case)})
    except InputError:
        return "refused"
    assert "error" not in got, got
    return f"{got['score']['NS']} / {got['score']['EW']}"


def doc_tables() -> dict[str, list[tuple[str, list[str]]]]:
    """Each marked table of the doc: its rows as (rule set, figures)."""
    out: dict[str, list[tuple[str, list[str]]]] = {}
    name = None
    for line in DOC.read_text(encoding="utf-8").splitlines():
        marker = re.fullmatch(r"<!-- example: (\w+) -->", line.strip())
        if marker:
            name = marker.group(1)
            out[name] = []
        elif name and line.startswith("| `"):
            cells = [c.strip() for c in line.strip().strip("|").split("|")]
            out[name].append((cells[0].strip("`"), cells[1:]))
        elif name and out[name] and not line.startswith("|"):
            name = None
    return out


def test_every_example_has_its_table() -> None:
    tables = doc_tables()
    assert sorted(tables) == sorted(EXAMPLES)
    for name, rows in tables.items():
        assert rows, name
        assert rows[0][0] == "ffb", name  # each table starts from the preset


@pytest.mark.parametrize("name", sorted(EXAMPLES))
def test_each_figure_of_the_table_is_the_scorers(name: str) -> None:
    cases = EXAMPLES[name]
    for rules, figures in doc_tables()[name]:
        assert len(figures) == len(cases), (name, rules)
        want = [figure(rules, case) for _, case in cases]
        assert figures == want, (name, rules)


def test_every_option_value_is_shown_in_some_table() -> None:
    """Every value of every counting option appears: as ffb's own or as a changed row."""
    from rebelote.rules import PRESETS, Rules

    ffb = Rules.preset("ffb", "contree")
    shown: set[tuple[str, str]] = set()
    for rows in doc_tables().values():
        for rules, _ in rows:
            r = ffb if rules == "ffb" else Rules.preset("ffb", "contree").replace(
                **dict(_pair(p) for p in rules.split(",")))
            for key, value in r.options().items():
                shown.add((key, _text(value)))
    keys = ("counting", "failure_base", "coinche_form", "surcoinche", "belote_prenable",
            "belote_multiplied", "belote_counts_for_contract", "must_outscore", "capot_bid",
            "capot_value", "capot_unbid", "capot_failed", "rounding", "rounding_scope",
            "last_deal_exact", "target_rule", "declarations", "generale")
    from rebelote.rules import BOOL_OPTIONS, OPTION_CHOICES

    missing = [(k, _text(v)) for k in keys
               for v in ((True, False) if k in BOOL_OPTIONS else OPTION_CHOICES[k])
               if (k, _text(v)) not in shown]
    assert not missing, missing
    assert PRESETS["contree"]["ffb"]  # the tables start from a real preset


def _text(value: Any) -> str:
    return ("on" if value else "off") if isinstance(value, bool) else str(value)


def _pair(text: str) -> tuple[str, Any]:
    from rebelote.rules import option_from_text

    key, _, raw = text.partition("=")
    return key, option_from_text(key, raw)


# The rows the doc shows for each example (printed by running this module).
ROWS: dict[str, list[str]] = {
    "worked": ["ffb", "counting=made", "counting=bid", "failure_base=162", "failure_base=0",
               "coinche_form=contract", "coinche_form=flat", "coinche_form=base",
               "surcoinche=3", "belote_prenable=off", "belote_multiplied=on"],
    "capot": ["ffb", "capot_bid=contract", "capot_bid=contract,capot_value=270",
              "capot_failed=formula", "rounding=none", "capot_unbid=250,rounding=none",
              "generale=on"],
    "rounding": ["ffb", "rounding=six_up", "rounding=none", "rounding_scope=points",
                 "failure_base=162", "failure_base=162,rounding_scope=points"],
    "contract": ["ffb", "must_outscore=on", "belote_counts_for_contract=off",
                 "declarations=on"],
    "end": ["ffb", "target_rule=exceed", "last_deal_exact=on", "rounding=none"],
}

if __name__ == "__main__":
    for name, cases in EXAMPLES.items():
        print(f"<!-- example: {name} -->")
        print("| rule set | " + " | ".join(h for h, _ in cases) + " |")
        print("|---|" + "---|" * len(cases))
        for rules in ROWS[name]:
            print(f"| `{rules}` | " + " | ".join(figure(rules, c) for _, c in cases) + " |")
        print()
