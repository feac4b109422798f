"""Bad input never stops the run: each bad line gets its own ``{"error": ...}`` naming the field.

docs/interfaces.md: a wrong type, a missing field, points that don't add up, a contract in belote, a
declaration of 35, belote in no-trump, both teams' declarations ... answer an error on that line
and the other lines go on; exit status 1 when any line was an error, 2 for unusable arguments;
never a traceback. Every case below is one line with the word its error must contain (the field
it is about); they run through ``rebelote score`` / ``rebelote legal`` between good lines that
the oracle answers, and (for deal and game objects) through the Python API.
"""

from __future__ import annotations

import json
import random
import subprocess
from pathlib import Path
from typing import Any

import pytest

from oracle import gen
from oracle.compare import (
    cut_answer,
    cut_legal,
    expected_legal,
    expected_score,
    rebelote_command,
    run_cli,
)
from rebelote.match import Match
from rebelote.summary import DealSummary, summary_rules

B: dict[str, Any] = {"game": "belote", "trump": "hearts", "taker": "NS",
                     "points": {"NS": 100, "EW": 62}}
C: dict[str, Any] = {"game": "coinche", "trump": "hearts", "taker": "NS", "contract": 100,
                     "points": {"NS": 100, "EW": 62}}
H: dict[str, Any] = {"game": "coinche", "trump": "hearts", "hand": ["JH", "KD"],
                     "trick": [["S", "AS"], ["W", "TS"], ["N", "7S"]]}
DROP = object()


def w(base: dict[str, Any], **changes: Any) -> str:
    """``base`` with some fields changed (``DROP`` removes one), as a JSON line."""
    obj = dict(base)
    for key, value in changes.items():
        if value is DROP:
            obj.pop(key, None)
        else:
            obj[key] = value
    return json.dumps(obj, ensure_ascii=False)


def game(*deals: Any, **fields: Any) -> str:
    return json.dumps({"game": "belote", **fields, "deals": list(deals)})


GOOD_DEAL = {"trump": "hearts", "taker": "NS", "points": {"NS": 100, "EW": 62}}

# (line, a word the error must contain: the field it is about; "" when there is no field)
SCORE_CASES: list[tuple[str, str]] = [
    ('{"game": "belote",', "json"),
    ('{"game": "belote" "trump": "hearts"}', "json"),
    ("[1, 2, 3]", "object"),
    ('"hello"', "object"),
    ("42", "object"),
    ("null", "object"),
    ("{}", "game"),
    ("}{", "json"),
    (w(B, game="poker"), "game"),
    (w(B, game=DROP), "game"),
    (w(B, game=1), "game"),
    (w(B, rules="strange"), "rules"),
    (w(B, options={"no_such_option": True}), "no_such_option"),
    (w(B, options={"rounding": 5}), "rounding"),
    (w(B, options={"litige": "sometimes"}), "litige"),
    (w(B, options=[1]), "options"),
    (w(B, trump="purple"), "trump"),
    (w(B, trump=3), "trump"),
    (w(B, taker=DROP), "taker"),
    (w(B, taker="NE"), "taker"),
    (w(B, taker=1), "taker"),
    (w(B, points={"NS": 97, "EW": 70}), "points"),
    (w(B, points={"NS": -10, "EW": 172}), "points"),
    (w(B, points={"NS": "97", "EW": 65}), "points"),
    (w(B, points={"NS": 97.5, "EW": 64.5}), "points"),
    (w(B, points={"NS": True, "EW": 161}), "points"),
    (w(B, points={"XY": 90}), "points"),
    (w(B, points={"NS": 170}), "points"),
    (w(B, points=97), "points"),
    (w(B, points={}), "points"),
    (w(B, points=DROP), "points"),
    (w(B, trump="no-trump", rules="house", points={"NS": 100, "EW": 62}), "points"),
    (w(B, contract=100), "contract"),
    (w(B, coinche="coinche"), "coinche"),
    (w(C, contract=DROP), "contract"),
    (w(C, contract=85), "contract"),
    (w(C, contract=170), "contract"),
    (w(C, contract=70), "contract"),
    (w(C, contract="big"), "contract"),
    (w(C, contract=True), "contract"),
    (w(C, coinche="maybe"), "coinche"),
    (w(C, coinche=3), "coinche"),
    (w(C, coinche=2), "coinche"),
    (w(C, coinche="double"), "coinche"),
    (w(C, coinche=True), "coinche"),
    (w(B, declarations={"NS": 35}), "declarations"),
    (w(B, declarations={"NS": 30}), "declarations"),
    (w(B, declarations={"NS": 10}), "declarations"),
    (w(B, declarations={"NS": 20, "EW": 50}), "declarations"),
    (w(B, declarations={"NS": -20}), "declarations"),
    (w(B, declarations={"XY": 20}), "declarations"),
    (w(B, declarations={"NS": "20"}), "declarations"),
    (w(B, declarations=20), "declarations"),
    (w(B, declarations={"NS": 20}, options={"declarations": False}), "declarations"),
    (w(B, trump="no-trump", belote="NS"), "belote"),
    (w(B, belote="XY"), "belote"),
    (w(B, belote=1), "belote"),
    (w(B, belote={"NS": 2}), "belote"),
    (w(B, belote={"NS": 1, "EW": 1}), "belote"),
    (w(B, trump="all-trump", belote={"NS": 3, "EW": 2}), "belote"),
    (w(B, trump="all-trump", belote={"NS": -1}), "belote"),
    (w(B, capot="NS"), "capot"),
    (w(B, capot="EW", points={"NS": 252, "EW": 0}), "capot"),
    (w(B, capot="XY"), "capot"),
    (w(C, generale=True), "generale"),
    (w(C, generale="yes"), "generale"),
    (w(C, held_over=50), "held_over"),
    (w(B, held_over=-5), "held_over"),
    (w(B, held_over="81"), "held_over"),
    (w(B, points=DROP, cards={"NS": 90, "EW": 62}), "last_trick"),
    (w(B, points=DROP, cards={"NS": 90, "EW": 70}, last_trick="NS"), "cards"),
    (w(B, points=DROP, cards={"NS": 160}, last_trick="NS"), "cards"),
    (w(B, points=DROP, cards={"NS": -1, "EW": 153}, last_trick="EW"), "cards"),
    (w(B, points=DROP, cards={"NS": 90, "EW": 62}, last_trick="XY"), "last_trick"),
    (w(B, cards={"NS": 90, "EW": 62}, last_trick="NS"), "points"),
    (w(C, contract="capot", coinche="coinche", capot="NS", points={"NS": 252, "EW": 0},
       options={"coinche_capot": False}), "coinche"),
    (w(C, contract="generale", options={"generale": False}), "generale"),
    (w(B, surprise=1), "surprise"),
    ('{"void": "yes"}', "void"),
    ('{"adjust": {"NS": "x"}}', "adjust"),
    ('{"adjust": 50}', "adjust"),
    ('{"adjust": {"XY": 50}}', "adjust"),
    ('{"adjust": {"NS": 1e400}}', "adjust"),
    ('{"game": "belote", "deals": 5}', "deals"),
    (game(GOOD_DEAL, {**GOOD_DEAL, "points": {"NS": 100, "EW": 60}}), "deals[2]"),
    (game(GOOD_DEAL, 7), "deals[2]"),
    (game(GOOD_DEAL, {**GOOD_DEAL, "contract": 100}), "deals[2]"),
    (game({**GOOD_DEAL, "declarations": {"NS": 35}}), "deals[1]"),
    (game({**GOOD_DEAL, "trump": "no-trump", "belote": "EW"}), "deals[1]"),
    (game(target=-5), "target"),
    (game(target="abc"), "target"),
    (game(target=0), "target"),
    (game(start={"NS": "x"}), "start"),
    (game(start=5), "start"),
    (game(teams=5), "teams"),
    ('{"game": "poker", "deals": []}', "game"),
    ('{"game": "coinche", "deals": [{"trump": "hearts", "taker": "NS", "points": {"NS": 100}}]}',
     "contract"),
]

LEGAL_CASES: list[tuple[str, str]] = [
    ('{"game": "coinche",', "json"),
    ("[1]", "object"),
    ("7", "object"),
    (w(H, hand=["ZZ"]), "hand"),
    (w(H, hand="JH"), "hand"),
    (w(H, hand=["JH", "JH"]), "hand"),
    (w(H, hand=["JH", "J♥"]), "hand"),
    (w(H, hand=["JH", "AS"]), "hand"),
    (w(H, hand=[]), "hand"),
    (w(H, hand=DROP), "hand"),
    (w(H, trick=[["S", "AS"], ["W", "AS"]]), "trick"),
    (w(H, trick=[["S", "AS"], ["N", "7S"]]), "trick"),
    (w(H, trick=[["S", "AS"], ["W", "TS"]], options={"direction": "counterclockwise"}), "trick"),
    (w(H, trick=[["S", "AS"], ["W", "TS"], ["N", "7S"], ["E", "8S"], ["S", "9S"]]), "trick"),
    (w(H, trick=[["X", "AS"]]), "trick"),
    (w(H, trick=[["S"]]), "trick"),
    (w(H, trick=["AS"]), "trick"),
    (w(H, trick=[["S", "1S"]]), "trick"),
    (w(H, trick=5), "trick"),
    (w(H, trump=DROP), "trump"),
    (w(H, trump="purple"), "trump"),
    (w(H, game="poker"), "game"),
    (w(H, rules="strange"), "rules"),
    (w(H, options={"undertrump": "sometimes"}), "undertrump"),
    (w(H, options={"bogus": 1}), "bogus"),
]


def _interleave(cases: list[tuple[str, str]], good: list[dict[str, Any]]
                ) -> tuple[list[str], list[tuple[int, str]], list[tuple[int, dict[str, Any]]]]:
    """Lines with a good line before every bad one; where the bad and the good ones sit."""
    lines: list[str] = []
    bad_at: list[tuple[int, str]] = []
    good_at: list[tuple[int, dict[str, Any]]] = []
    for (line, field), obj in zip(cases, good, strict=False):
        good_at.append((len(lines), obj))
        lines.append(json.dumps(obj))
        bad_at.append((len(lines), field))
        lines.append(line)
    good_at.append((len(lines), good[-1]))
    lines.append(json.dumps(good[-1]))
    return lines, bad_at, good_at


def _check_run(subcommand: str, cases: list[tuple[str, str]], good: list[dict[str, Any]],
               expected: Any, cut: Any) -> None:
    lines, bad_at, good_at = _interleave(cases, good)
    proc = run_cli(subcommand, lines)
    assert "Traceback" not in proc.stderr + proc.stdout
    answers = [json.loads(a) for a in proc.stdout.splitlines()]
    assert len(answers) == len(lines), proc.stderr
    problems = []
    for i, field in bad_at:
        err = answers[i].get("error")
        if not isinstance(err, str) or field.lower() not in err.lower():
            problems.append(f"{lines[i]}\n    -> {answers[i]} (should name {field!r})")
    for i, obj in good_at:
        if cut(obj, answers[i]) != expected(obj):
            problems.append(f"{lines[i]}\n    -> {answers[i]}, expected {expected(obj)}")
    assert not problems, "\n".join(problems)
    assert proc.returncode == 1


def test_every_bad_score_line_has_its_own_error_and_the_good_lines_go_on() -> None:
    rng = random.Random(5)
    good = [gen.random_line(rng) if i % 4 else gen.random_game(rng, max_deals=4)
            for i in range(len(SCORE_CASES) + 1)]
    _check_run("score", SCORE_CASES, good, expected_score, lambda _o, a: cut_answer(a))


def test_every_bad_legal_line_has_its_own_error_and_the_good_lines_go_on() -> None:
    rng = random.Random(6)
    good = [gen.random_position(rng, full_trick=i % 4 == 0) for i in range(len(LEGAL_CASES) + 1)]
    _check_run("legal", LEGAL_CASES, good, expected_legal, cut_legal)


def test_rows_of_garbage_are_answered_one_error_each() -> None:
    garbage = ["not json at all", "{", "]", "{'game': 'belote'}", "true", "[]", "{}", "\t{}",
               '{"game": "belote", "deals": [{}]}', '{"deals": []}', "0x10", "NaN"]
    proc = run_cli("score", [*garbage, json.dumps({"void": True})])
    answers = [json.loads(a) for a in proc.stdout.splitlines()]
    assert "Traceback" not in proc.stderr
    assert len(answers) == len(garbage) + 1
    assert all(isinstance(a.get("error"), str) and a["error"] for a in answers[:-1])
    assert answers[-1]["outcome"] == "void"
    assert proc.returncode == 1


def test_bytes_that_are_not_utf8_are_one_error() -> None:
    proc = subprocess.run([*rebelote_command(), "score"],
                          input=b'\xff\xfe{}\n{"void": true}\n', capture_output=True,
                          timeout=60, check=False)
    out = proc.stdout.decode().splitlines()
    assert b"Traceback" not in proc.stderr
    assert "error" in json.loads(out[0])
    assert json.loads(out[1])["outcome"] == "void"
    assert proc.returncode == 1


@pytest.mark.parametrize("subcommand", ["score", "legal"])
def test_deeply_nested_json_is_one_error_not_a_traceback(subcommand: str) -> None:
    proc = run_cli(subcommand, ["[" * 100_000, json.dumps({"void": True}) if subcommand == "score"
                                else w(H)])
    assert "Traceback" not in proc.stderr
    answers = [json.loads(a) for a in proc.stdout.splitlines()]
    assert len(answers) == 2
    assert "error" in answers[0]
    assert "error" not in answers[1]
    assert proc.returncode == 1


@pytest.mark.parametrize("subcommand", ["score", "legal"])
def test_a_missing_file_is_an_unusable_argument(subcommand: str, tmp_path: Path) -> None:
    proc = run_cli(subcommand, [], str(tmp_path / "no-such-file.jsonl"))
    assert proc.returncode == 2
    assert "Traceback" not in proc.stderr
    assert "no-such-file" in proc.stderr


@pytest.mark.parametrize("subcommand", ["score", "legal"])
def test_an_unknown_flag_is_an_unusable_argument(subcommand: str) -> None:
    proc = run_cli(subcommand, [], "--no-such-flag")
    assert proc.returncode == 2
    assert "Traceback" not in proc.stderr


def test_a_file_argument_is_read_like_standard_input(tmp_path: Path) -> None:
    path = tmp_path / "lines.jsonl"
    path.write_text(w(B) + "\n" + w(B, points={"NS": 170}) + "\n", encoding="utf-8")
    proc = run_cli("score", [], str(path))
    answers = [json.loads(a) for a in proc.stdout.splitlines()]
    assert answers[0] == {**answers[0], **expected_score(B)}
    assert "points" in answers[1]["error"]
    assert proc.returncode == 1




def _deal_objects() -> list[tuple[dict[str, Any], str]]:
    out = []
    for line, field in SCORE_CASES:
        try:
            obj = json.loads(line)
        except ValueError:
            continue
        if isinstance(obj, dict) and "deals" not in obj and "adjust" not in obj:
            out.append((obj, field))
    return out


@pytest.mark.parametrize(("obj", "field"), _deal_objects())
def test_bad_summaries_raise_a_value_error_naming_the_field(obj: dict[str, Any],
                                                            field: str) -> None:
    """Through the Python API: a ValueError (InputError, RulesError) whose text names the field,
    never a KeyError or TypeError from inside."""
    with pytest.raises(ValueError) as info:
        DealSummary.from_json(obj, summary_rules(obj))
    assert field.lower() in str(info.value).lower()


@pytest.mark.parametrize("line", [line for line, _ in SCORE_CASES if '"deals"' in line])
def test_bad_games_raise_a_value_error_naming_the_field(line: str) -> None:
    field = dict(SCORE_CASES)[line]
    with pytest.raises(ValueError) as info:
        Match.from_json(json.loads(line))
    assert field.lower() in str(info.value).lower()
