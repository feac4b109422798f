"""``rebelote deal`` and ``rebelote replay`` on the command line, and the engine's doctests."""

from __future__ import annotations

import doctest
import hashlib
import json
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

import rebelote.actions
import rebelote.auction
import rebelote.bots
import rebelote.deal
import rebelote.declarations
import rebelote.determinize
import rebelote.fast.lookup
import rebelote.game
import rebelote.observation
import rebelote.record
from rebelote.bots import RandomBot
from rebelote.commands._deal import deal_records
from rebelote.rules import Rules
from record_checker import check


def run(*args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "rebelote.cli", *args], input=stdin,
                          capture_output=True, text=True, check=False)


def lines(text: str) -> list[dict[str, object]]:
    return [json.loads(line) for line in text.splitlines() if line.strip()]


@pytest.mark.parametrize("module", [rebelote.actions, rebelote.auction, rebelote.declarations,
                                    rebelote.deal, rebelote.determinize, rebelote.fast.lookup,
                                    rebelote.observation, rebelote.record, rebelote.game,
                                    rebelote.bots],
                         ids=lambda m: m.__name__)
def test_doctests(module: ModuleType) -> None:
    result = doctest.testmod(module)
    assert result.failed == 0 and result.attempted > 0


def test_deal_writes_records_that_replay_clean() -> None:
    out = run("deal", "--game", "coinche", "--rules", "official", "--seed", "7", "--count",
              "60", "--bots", "random")
    assert out.returncode == 0, out.stderr
    records = lines(out.stdout)
    assert len(records) == 60
    assert [r["dealer"] for r in records[:5]] == ["N", "E", "S", "W", "N"]
    for rec in records:
        assert check(rec) == rec["result"]
    replay = run("replay", "-", stdin=out.stdout)
    assert replay.returncode == 0, replay.stdout
    answers = lines(replay.stdout)
    assert len(answers) == 60
    for rec, answer in zip(records, answers, strict=True):
        assert answer["outcome"] == rec["result"]["outcome"]
        assert answer["score"] == rec["result"]["score"]


def test_the_same_seed_gives_the_same_records() -> None:
    args = ("deal", "--game", "belote", "--rules", "house", "--count", "20", "--dealer", "S",
            "--bots", "random,random,random,random")
    a = run(*args, "--seed", "3")
    b = run(*args, "--seed", "3")
    c = run(*args, "--seed", "4")
    assert a.returncode == 0 and a.stdout == b.stdout != c.stdout
    assert lines(a.stdout)[0]["dealer"] == "S"


def test_unknown_bots_are_refused_with_the_known_names() -> None:
    out = run("deal", "--bots", "random,deep-blue,random,random")
    assert out.returncode == 2 and "unknown bot 'deep-blue'" in out.stderr
    assert "known bots: heuristic, " in out.stderr and "Traceback" not in out.stderr
    assert run("deal", "--bots", "random,random").returncode == 2


def test_deal_bots_take_the_levels_for_people_and_name_them_on_a_mistake() -> None:
    # a level plays its registry spec (as rebelote play --bots and rebelote arena read it):
    # the same records as the specs themselves, and the explanations name the spec played
    args = ("deal", "--game", "belote", "--seed", "5", "--count", "2", "--explain")
    levels = run(*args, "--bots", "Débutant,club,debutant,random")
    specs = run(*args, "--bots", "heuristic,net,heuristic,random")
    assert levels.returncode == 0, levels.stderr
    assert levels.stdout == specs.stdout and len(lines(levels.stdout)) == 2
    named = {e["level"] for r in lines(levels.stdout) for e in r["explanations"]}
    assert named <= {"heuristic", "net", "random"} and "heuristic" in named
    bad = run("deal", "--bots", "random,master,random,random")
    assert bad.returncode == 2 and not bad.stdout and "Traceback" not in bad.stderr
    assert bad.stderr.strip() == (
        "rebelote: --bots: 'master' is neither a level (debutant, club, fort, expert) nor a "
        "bot: unknown bot 'master' (known bots: heuristic, learned, net, pimc, random, tuned)")
    level = run("deal", "--bots", "pimc:zzz")
    assert level.returncode == 2 and level.stderr.startswith(
        "rebelote: --bots: bot 'pimc': unknown level 'zzz'")


def test_replay_reports_the_first_illegal_move_and_exits_1(tmp_path: Path) -> None:
    out = run("deal", "--game", "coinche", "--seed", "11", "--count", "6")
    records = lines(out.stdout)
    bad = next(r for r in records if r["tricks"])
    first_card = bad["tricks"][0][1]
    bad["tricks"][0][2], bad["tricks"][0][1] = bad["tricks"][0][1], bad["tricks"][0][2]
    path = tmp_path / "records.jsonl"
    path.write_text("\n".join(json.dumps(r) for r in records) + "\nnot json\n")
    replay = run("replay", str(path))
    assert replay.returncode == 1
    answers = lines(replay.stdout)
    assert len(answers) == len(records) + 1
    errors = [a for a in answers if "error" in a]
    assert len(errors) == 2 and errors[-1]["error"].startswith("line 7: not JSON")
    assert str(errors[0]["error"]).startswith("tricks[0][1]:"), errors[0]
    assert first_card  # the swapped card was played by the wrong seat
    assert "Traceback" not in replay.stderr


def test_replay_of_a_missing_file_exits_2() -> None:
    out = run("replay", "/nonexistent/records.jsonl")
    assert out.returncode == 2 and "cannot read" in out.stderr


class _SteppingRandomBot(RandomBot):
    """The random bot without the play-out path: every card through its observation."""

    uniform_play = False


@pytest.mark.parametrize("game", ["belote", "coinche"])
def test_random_deals_played_out_equal_random_bots_card_by_card(game: str) -> None:
    rules = Rules.preset("official", game)
    fast = deal_records(rules, 5, 40, [RandomBot() for _ in range(4)])
    slow = deal_records(rules, 5, 40, [_SteppingRandomBot() for _ in range(4)])
    assert fast == slow and sum(1 for r in fast if r["tricks"]) > 5


#: sha256 of ``rebelote deal --game G --bots random --seed S --count 500``'s output, written by
#: the engine before its fast paths (play-out, record encoding, light start) were added: the
#: fast paths must write the same records byte for byte. A change of the rules or of the
#: random bot that changes the records legitimately changes these digests too.
GOLDEN_DIGESTS = {
    ("belote", 1): "00d43669f27d0f13a2a5173e3ab098e5cd085b5ee2b58f5b745811cd005a6f81",
    ("belote", 2): "d30f428dcc4bbd0f224321b21d496f58d1ccfe934847bdb3e32d3a1c31dd02ea",
    ("coinche", 1): "d9c649ff8b8458cd9105bebd9750431f07d07bffd5f629a3736d9e0d51554857",
    ("contree", 2): "d812ec9e976aff84d99eb66b9c43bb8050a9c2d3276775daba4ce9467eff656c",
}


@pytest.mark.parametrize(("game", "seed"), list(GOLDEN_DIGESTS))
def test_deal_writes_the_same_bytes_as_before_its_fast_paths(game: str, seed: int) -> None:
    out = subprocess.run([sys.executable, "-m", "rebelote.cli", "deal", "--game", game,
                          "--bots", "random", "--seed", str(seed), "--count", "500"],
                         capture_output=True, check=False)
    assert out.returncode == 0, out.stderr
    assert out.stdout.count(b"\n") == 500
    assert hashlib.sha256(out.stdout).hexdigest() == GOLDEN_DIGESTS[game, seed]


def test_the_light_deal_options_are_the_typer_commands() -> None:
    from typer.main import get_command

    from rebelote.cli import app
    from rebelote.commands._deal import DEAL_OPTIONS

    command = get_command(app).commands["deal"]  # type: ignore[attr-defined]
    typer_options = {p.name: p.default for p in command.params if p.name != "help"}
    assert typer_options == DEAL_OPTIONS


@pytest.mark.parametrize("args", [
    ["--help"], ["--game"], ["--seed", "-3"], ["--count", "1e3"], ["--count", "٣"],
    ["--count", "3", "extra"], ["--nobody", "x"], ["-h"], ["--game", "--count", "3"],
])
def test_deal_options_that_are_not_plain_go_to_typer(args: list[str]) -> None:
    from rebelote.commands._deal import read_deal_options

    assert read_deal_options(args) is None


def test_plain_deal_options_are_read_like_typer_reads_them() -> None:
    from rebelote.commands._deal import read_deal_options

    assert read_deal_options([]) == {}
    assert read_deal_options(["--game=belote", "--count", "0030", "--seed=7", "--rules",
                              "contree:ffb", "--bots", "random,heuristic,random,random",
                              "--dealer", "s", "--options", '{"target": 500}',
                              "--game", "coinche"]) == {
        "game": "coinche", "count": 30, "seed": 7, "rules": "contree:ffb",
        "bots": "random,heuristic,random,random", "dealer": "s", "options": '{"target": 500}'}


@pytest.mark.parametrize("args", [
    ["--game", "belote", "--seed", "3", "--count", "4", "--dealer", "w"],
    ["--game=contree", "--rules", "ffb", "--count=3", "--bots", "heuristic,random,random,random"],
    ["--bots", "random,deep-blue,random,random"], ["--dealer", "X"], ["--count", "0"],
    ["--bots", "Débutant", "--count", "2"], ["--bots", "random,master,random,random"],
    ["--options", "{bad"], ["--game", "tarot"], ["--rules", "contree:nonsense"],
])
def test_the_light_start_answers_deal_like_the_typer_command(args: list[str]) -> None:
    from typer.testing import CliRunner

    from rebelote.cli import app

    light = run("deal", *args)
    typer = CliRunner().invoke(app, ["deal", *args])
    assert (light.returncode, light.stdout, light.stderr) == \
        (typer.exit_code, typer.stdout, typer.stderr)


def test_rebelote_deal_starts_without_typer_pydantic_or_the_other_commands() -> None:
    out = subprocess.run([sys.executable, "-X", "importtime", "-m", "rebelote.cli", "deal",
                          "--game", "belote", "--count", "2"],
                         capture_output=True, text=True, check=False)
    assert out.returncode == 0 and len(lines(out.stdout)) == 2
    imported = {line.rsplit("|", 1)[-1].strip() for line in out.stderr.splitlines()}
    assert "rebelote.record" in imported
    for heavy in ("typer", "click", "pydantic", "numpy", "rebelote.commands.arena",
                  "rebelote.jsonio"):
        assert heavy not in imported


def test_a_reader_that_stops_early_ends_deal_without_a_traceback() -> None:
    proc = subprocess.Popen([sys.executable, "-m", "rebelote.cli", "deal", "--count", "20000"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert proc.stdout is not None and proc.stderr is not None
    first = proc.stdout.read(100)
    proc.stdout.close()  # like `rebelote deal ... | head -c 100`
    err = proc.stderr.read()
    assert proc.wait(timeout=60) == 1
    assert first.startswith(b'{"game": "coinche"') and b"Traceback" not in err, err
