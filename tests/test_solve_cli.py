"""``rebelote solve`` on the command line: values, best card, errors naming the field."""

from __future__ import annotations

import json
import subprocess
import sys
from typing import Any

import pytest

from rebelote.errors import InputError
from rebelote.solver.answer import answer_solve

FULL = {"N": ["7S", "8S", "9S", "TS", "JS", "QS", "KS", "AS"],
        "E": ["7H", "8H", "9H", "TH", "JH", "QH", "KH", "AH"],
        "S": ["7D", "8D", "9D", "TD", "JD", "QD", "KD", "AD"],
        "W": ["7C", "8C", "9C", "TC", "JC", "QC", "KC", "AC"]}
END = {"game": "coinche", "trump": "hearts", "leader": "N",
       "hands": {"N": ["JH", "AS"], "E": ["9H", "AD"], "S": ["TS", "8H"], "W": ["8S", "7H"]},
       "points": {"NS": 86, "EW": 0}, "tricks": {"NS": 6, "EW": 0}}


def run(stdin: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "rebelote.cli", "solve"], input=stdin,
                          capture_output=True, text=True, check=False)


def test_solve_lines() -> None:
    lost = {**END, "points": {"NS": 75, "EW": 11}, "tricks": {"NS": 5, "EW": 1}}
    on_trick = {**END, "hands": {"N": ["AS"], "E": ["9H", "AD"], "S": ["TS", "8H"],
                                 "W": ["8S", "7H"]}, "trick": ["JH"]}
    done = run("\n".join(json.dumps(x) for x in (END, lost, on_trick)) + "\n")
    assert done.returncode == 0, done.stderr
    answers = [json.loads(line) for line in done.stdout.splitlines()]
    assert answers[0] == {"values": {"JH": 252, "AS": 127}, "best": "JH"}
    assert answers[1] == {"values": {"JH": 151, "AS": 116}, "best": "JH"}
    # E to play on the jack of hearts: 9H forced (follow trump); EW's points: 0, a capot
    assert answers[2] == {"values": {"9H": 0}, "best": "9H"}


def test_full_deal_of_one_suit_each() -> None:
    answer = answer_solve({"trump": "hearts", "leader": "E", "hands": FULL, "trick": []})
    assert set(answer["values"].values()) == {252}  # E holds every trump: a capot


@pytest.mark.parametrize(("change", "field"), [
    ({"trump": "nope"}, "trump"),
    ({"leader": "X"}, "leader"),
    ({"hands": {**END["hands"], "E": ["9H", "AS"]}}, "hands.E[1]"),
    ({"hands": {**END["hands"], "E": ["9H", "ZZ"]}}, "hands.E[1]"),
    ({"hands": {**END["hands"], "E": ["9H"]}}, "hands.E"),
    ({"trick": [["E", "7D"]]}, "trick[0]"),
    ({"tricks": {"NS": 5, "EW": 0}}, "tricks"),
    ({"points": {"NS": -1}}, "points.NS"),
    ({"options": {"undertrump": "sometimes"}}, "options.undertrump"),
    ({"colour": "red"}, "colour"),
])
def test_bad_input_names_the_field(change: dict[str, Any], field: str) -> None:
    with pytest.raises(InputError) as info:
        answer_solve({**END, **change})
    assert info.value.field == field
    assert str(info.value).startswith(f"{field}: ")


def test_bad_line_answers_an_error_and_exit_1() -> None:
    done = run('{"trump": "hearts"}\nnot json\n' + json.dumps(END) + "\n")
    answers = [json.loads(line) for line in done.stdout.splitlines()]
    assert done.returncode == 1
    assert answers[0]["error"].startswith("hands")
    assert "error" in answers[1]
    assert answers[2]["best"] == "JH"
