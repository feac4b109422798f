"""The command line: JSON lines in and out, one answer per line, exit statuses, no traceback."""

from __future__ import annotations

import doctest
import itertools
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

import rebelote.cards
import rebelote.errors
import rebelote.jsonio
import rebelote.match
import rebelote.rules
import rebelote.scoring
import rebelote.summary

GOOD = ('{"game": "coinche", "trump": "spades", "taker": "NS", "contract": 90, '
        '"points": {"NS": 97, "EW": 65}}')


def run(*args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "rebelote.cli", *args], input=stdin,
                          capture_output=True, text=True, check=False)


def test_score_answers_every_line_in_order_and_exits_0() -> None:
    proc = run("score", stdin=GOOD + "\n\n" + GOOD + "\n")
    assert proc.returncode == 0
    lines = [json.loads(line) for line in proc.stdout.splitlines()]
    assert [a["score"] for a in lines] == [{"NS": 190, "EW": 70}] * 2


def test_a_bad_line_gets_its_error_and_the_others_are_answered() -> None:
    stdin = "\n".join([GOOD, "{not json", "[1, 2]", '{"game": "belote"}', GOOD]) + "\n"
    proc = run("score", stdin=stdin)
    assert proc.returncode == 1
    answers = [json.loads(line) for line in proc.stdout.splitlines()]
    assert len(answers) == 5
    assert answers[0]["outcome"] == answers[4]["outcome"] == "made"
    assert answers[1]["error"].startswith("line 2: not JSON")
    assert "JSON object" in answers[2]["error"]
    assert answers[3]["error"].startswith("taker: missing")
    assert "Traceback" not in proc.stderr


def test_score_reads_a_file(tmp_path: Path) -> None:
    f = tmp_path / "deals.jsonl"
    f.write_text(GOOD + "\n", encoding="utf-8")
    proc = run("score", str(f))
    assert proc.returncode == 0 and json.loads(proc.stdout)["outcome"] == "made"


def test_unusable_arguments_exit_2() -> None:
    proc = run("score", "/no/such/file.jsonl")
    assert proc.returncode == 2
    assert "cannot read" in proc.stderr
    assert run("score", "--no-such-option").returncode == 2


def test_explain_adds_the_result_card() -> None:
    proc = run("score", "--explain", stdin=GOOD + "\n")
    lines = json.loads(proc.stdout)["lines"]
    assert lines[-1] == {"key": "score", "NS": 190, "EW": 70, "text": "Marks: NS 190, EW 70.",
                         "args": {}}


def test_legal_answers_cards_and_full_tricks() -> None:
    stdin = "\n".join([
        '{"game": "coinche", "trump": "hearts", "hand": ["JH", "KD"], '
        '"trick": [["S", "AS"], ["W", "TS"], ["N", "7S"]]}',
        '{"game": "coinche", "trump": "hearts", '
        '"trick": [["S", "AS"], ["W", "TS"], ["N", "7S"], ["E", "JH"]]}',
        '{"game": "coinche", "trump": "hearts", "hand": ["AS"], "trick": [["S", "AS"]]}',
        '{"game": "coinche", "trump": "hearts", "hand": ["JH"], "trick": [["S", "AS"], '
        '["N", "7S"]]}',
        '{"game": "coinche", "trump": "hearts", "hand": ["XX"]}',
    ]) + "\n"
    proc = run("legal", stdin=stdin)
    assert proc.returncode == 1
    a = [json.loads(line) for line in proc.stdout.splitlines()]
    assert a[0]["legal"] == ["JH"] and a[0]["winner"] is None
    assert a[1]["winner"] == "E" and a[1]["points"] == 41
    assert a[2]["error"].startswith("hand[0]: AS is also trick[0]")
    assert a[3]["error"].startswith("trick[1]: N does not play after S")
    assert a[4]["error"].startswith("hand[0]: 'XX' is not a card")


def test_version() -> None:
    proc = run("--version")
    assert proc.returncode == 0 and proc.stdout.startswith("rebelote ")


@pytest.mark.parametrize("module", [rebelote.cards, rebelote.rules, rebelote.scoring,
                                    rebelote.summary, rebelote.errors, rebelote.match,
                                    rebelote.jsonio])
def test_docstring_examples_run(module: object) -> None:
    result = doctest.testmod(module)  # type: ignore[arg-type]
    assert result.failed == 0 and result.attempted > 0


def test_the_help_names_contree_and_wraps_its_sentences_without_bool_placeholders() -> None:
    env = {**os.environ, "COLUMNS": "80", "TERM": "dumb"}
    root = subprocess.run([sys.executable, "-m", "rebelote.cli", "--help"], env=env,
                          capture_output=True, text=True, check=True).stdout
    assert "Contrée" in root, root
    helps: dict[str, str] = {}
    for command in ("arena", "deal", "score", "serve", "play", "solve"):
        out = subprocess.run([sys.executable, "-m", "rebelote.cli", command, "--help"],
                             env=env, capture_output=True, text=True, check=True).stdout
        assert "<bool>" not in out, out
        # the description's paragraph is wrapped to the width, not at the docstring's breaks:
        # each line of it but its last is full (the next word would not fit on it)
        para = out.split("\n\n")[1].splitlines()
        assert all(len(line) + 1 + len(nxt.split()[0]) > 78
                   for line, nxt in itertools.pairwise(para)), para
        helps[command] = out
    arena = helps["arena"]  # read above: no second process
    assert "95% interval, games won" in " ".join(arena.split()), arena


def test_the_command_modules_are_listed_with_their_commands() -> None:
    # each command module is named after the commands it holds and listed in _app, not
    # discovered: the application's commands are exactly the listed ones, score and legal
    import pkgutil

    import rebelote.commands
    from rebelote.commands._app import COMMAND_MODULES, app

    names = {c.name or (c.callback.__name__ if c.callback else "") for c in
             app.registered_commands}
    listed = {c for commands in COMMAND_MODULES.values() for c in commands}
    assert names == listed | {"score", "legal"}
    modules = {m.name for m in pkgutil.iter_modules(rebelote.commands.__path__)
               if not m.name.startswith("_")}
    assert modules == set(COMMAND_MODULES)


def test_a_command_module_that_fails_to_import_is_an_error(
        monkeypatch: pytest.MonkeyPatch) -> None:
    import importlib
    import sys

    import rebelote.commands._app as app_module

    monkeypatch.setitem(sys.modules, "rebelote.commands.solve", None)  # its import fails
    with pytest.raises(ImportError):
        importlib.reload(app_module)
    monkeypatch.undo()
    importlib.reload(app_module)
