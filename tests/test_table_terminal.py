"""``rebelote play``: the table in the terminal, driven headlessly by feeding its standard input
(a number per turn), alone against bots and in a room of a running server joined by code."""

from __future__ import annotations

import json
import re
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from contextlib import nullcontext
from pathlib import Path

import httpx
import pytest

from web_fixtures import live_server

PLAY = [sys.executable, "-m", "rebelote.cli", "play"]


RECORDS = tempfile.mkdtemp(prefix="rebelote-records-")


def run(args: list[str], answers: str, timeout: float = 60, lang: str = "en"
        ) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*PLAY, "--lang", lang, *args], input=answers, capture_output=True,
                          text=True, timeout=timeout, check=False,
                          env={"COLUMNS": "100", "PATH": "/usr/bin", "REBELOTE_RECORDS": RECORDS,
                               "PYTHONPATH": ":".join(sys.path)})


def test_a_deal_of_each_game_is_played_from_the_keyboard() -> None:
    for game in ("belote", "coinche"):
        done = run(["--game", game, "--seed", "5", "--deals", "1", "--bots", "random"],
                   "1\n" * 300)
        assert done.returncode == 0, done.stdout + done.stderr
        out = done.stdout
        assert "Your hand:" in out and "Your turn:" in out
        assert "Deal 1:" in out and ("Marks:" in out or "voided by passes" in out)
        assert "Shuffle: commitment" in out and "Traceback" not in out + done.stderr


def test_your_declaration_is_said_to_you() -> None:
    # seed 1: South holds a tierce and declares it with its first card
    done = run(["--game", "coinche", "--seed", "1", "--deals", "1", "--bots", "random"],
               "1\n" * 300)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "You declare tierce" in done.stdout and "You declares" not in done.stdout


def test_a_refused_action_says_why_and_quitting_says_bye() -> None:
    done = run(["--game", "coinche", "--seed", "2", "--bots", "random"], "75 potatoes\nq\n")
    assert "Refused:" in done.stdout and "Bye." in done.stdout
    assert done.returncode == 1


def test_bad_options_exit_2_naming_them() -> None:
    done = run(["--bots", "genius"], "")
    assert done.returncode == 2 and "--bots" in done.stderr


@pytest.fixture(scope="module")
def rooms(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The server of the module's rooms (one start for its three tests, each with tables of
    its own), its burst of table creations raised for the decline test's 60 tables."""
    db = tmp_path_factory.mktemp("rooms") / "rooms.db"
    with live_server(f"sqlite:///{db}", None, "--limits", "tables_burst=1000") as base:
        yield base


def test_join_a_room_by_its_code(rooms: str) -> None:
    with nullcontext(rooms) as base:
        host = httpx.post(f"{base}/api/tables", json={"game": "coinche", "bots": "random",
                                                       "friends": ["N"]}).json()
        released = httpx.post(f"{base}/api/tables/{host['id']}/release",
                              headers={"Authorization": f"Bearer {host['token']}"})
        assert released.status_code == 200  # the host leaves: a bot plays South
        link = f"{base}/t/{host['code']}?invite={host['invites']['N']}"  # N's own invitation
        done = run(["--join", link, "--deals", "1"], "1\n" * 300, timeout=120)
        assert done.returncode == 0, done.stdout + done.stderr
        assert "Deal 1:" in done.stdout and "Your hand:" in done.stdout, done.stdout


def test_the_terminal_table_speaks_french_by_default_and_reads_like_the_pages(
        tmp_path: Path) -> None:
    """Issue 18, item 8: French by default; the deal's header before its first calls; a coinche
    call asked as its value, then its trump (not 49 numbered calls); the cards offered in the
    hand's order as faces; the result card's lines name the teams as the header does; the
    record of the deal is written to a file the last line names, which rebelote verify
    checks."""
    records = tmp_path / "deals.jsonl"
    # the heuristic's calls (débutant): the same auction from the seed whatever the default
    done = subprocess.run([*PLAY, "--seed", "3", "--deals", "1", "--bots", "debutant",
                           "--records", str(records)],
                          input="2\n2\n" + "1\n" * 40, capture_output=True, text=True,
                          timeout=60, check=False,
                          env={"COLUMNS": "100", "PATH": "/usr/bin",
                               "PYTHONPATH": ":".join(sys.path)})
    out = done.stdout
    assert done.returncode == 0, out + done.stderr
    lines = out.splitlines()
    first_call = next(i for i, line in enumerate(lines)
                      if re.match(r"(> )?(Partenaire|Est)\u00a0: ", line))
    assert lines[0].strip("─ ").startswith("Donne 1 · donneur Ouest") and first_call > 0
    # issue 33, item 12: the deal's header once (again only when it changes: the contract
    # shown), each declaration told once (every turn's block repeated them all)
    rules = [line.strip("─ ") for line in lines if line.startswith("─")]
    assert len(rules) == len(set(rules)) == 2, rules
    told = [line.removeprefix("> ") for line in lines if re.search(r" annoncez? ", line)]
    assert told and len(told) == len(set(told)), told
    asks = [line.lstrip("> ") for line in lines if "À vous\u00a0:" in line]  # after a prompt
    # the first question of the auction: the calls and each contract's value once
    assert "contrat 100" in asks[0] and "pique" not in asks[0] and len(asks[0]) < 300, asks[0]
    # the value picked (2: the first one), its trumps are asked
    assert re.search(r"1 \d+ pique\s+2 \d+ cœur", asks[1]), asks[1]
    at = next(i for i, line in enumerate(lines)
              if "À vous\u00a0:" in line and re.search(r"\b1 (10|[789VDRA])[♠♥♦♣]", line))
    cards = lines[at]
    hand = next(line for line in reversed(lines[:at]) if "Votre main" in line)
    faces = re.findall(r"\d+ ((?:10|[789VDRA])[♠♥♦♣])", cards)
    held = re.findall(r"(?:10|[789VDRA])[♠♥♦♣]", hand)
    assert faces == [c for c in held if c in faces], (faces, held)  # the hand's order
    assert not re.search(r"\b[789TJQKA][SHDC]\b", cards)  # faces, not codes
    card = out.split("Donne 1\u00a0:", 1)[1]
    assert "Nous" in card and "Eux" in card and " NS" not in card and " EW" not in card
    # the lines say the teams as teams ("Eux marque son total", "Nous a montré" before)
    said = " ".join(re.sub(r"[│┃|]", " ", card).split())
    assert not re.search(r"\b(Nous|Eux) (marque|a montré|garde|dedans|capot|prend)", said), said
    assert "équipe" in said, said
    assert f"rebelote verify {records}" in " ".join(out.split()), out
    written = records.read_text().splitlines()
    assert len(written) == 1 and json.loads(written[0])["commitment"]
    check = subprocess.run([sys.executable, "-m", "rebelote.cli", "verify", str(records)],
                           capture_output=True, text=True, check=False)
    assert check.returncode == 0 and '"verified": true' in check.stdout, check.stdout


def test_the_bots_are_named_by_level_as_on_the_web_table() -> None:
    # a level for people (accents and case as a player types them) or a registry spec, per seat
    done = run(["--game", "coinche", "--seed", "3", "--deals", "1",
                "--bots", "Débutant,random,debutant"], "1\n" * 300)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "Deal 1:" in done.stdout
    done = run(["--bots", "maître"], "")
    assert done.returncode == 2
    assert "--bots: 'maître' is neither a level (debutant, club, fort, expert)" in done.stderr


def test_play_reads_its_bots_as_deal_does() -> None:
    # rebelote play --bots reads the same names as rebelote deal --bots (bots.spec_of), and
    # refuses a wrong one with the same sentence, naming the option and listing the levels
    from typer.testing import CliRunner

    from rebelote.cli import app

    def said(*args: str) -> tuple[int, str]:
        res = CliRunner().invoke(app, list(args))
        return res.exit_code, res.stderr.strip().partition(": ")[2]

    for bad in ("master", "Maître", "pimc:zzz", "random,pimc:10001,random"):
        deal = said("deal", "--bots", bad if "," not in bad else bad + ",random")
        play = said("play", "--lang", "en", "--records", "-", "--bots", bad)
        assert play == deal and play[0] == 2, (bad, play, deal)
        assert play[1].startswith("--bots: ")
    assert said("play", "--bots", "master")[1] == (
        "--bots: 'master' is neither a level (debutant, club, fort, expert) nor a bot: "
        "unknown bot 'master' (known bots: heuristic, learned, net, pimc, random, tuned)")
    assert said("play", "--bots", "random,random") == (
        2, "--bots: one bot name or three (N,E,W), not 2")
    # the levels and specs deal takes, play takes: one deal to its end at each
    for good in ("Débutant,club,random", "pimc:fast+tuned,heuristic,random"):
        res = CliRunner().invoke(app, ["play", "--lang", "en", "--records", "-", "--seed", "3",
                                       "--deals", "1", "--bots", good], input="1\n" * 300)
        assert res.exit_code == 0 and "Deal 1:" in res.stdout, res.output


def test_declining_from_the_terminal_goes_with_the_card(rooms: str) -> None:
    # the server takes a decline only with its card (issue 37, item 4): the terminal keeps
    # the choice and sends it with the card that follows
    from rebelote.table.terminal import RemoteTable

    with nullcontext(rooms) as base:
        for _ in range(60):
            host = httpx.post(f"{base}/api/tables", json={
                "game": "belote", "bots": "random", "friends": ["N"], "pace": 0,
                "clock": 0}).json()
            httpx.post(f"{base}/api/tables/{host['id']}/release",
                       headers={"Authorization": f"Bearer {host['token']}"})
            seat = RemoteTable(base, f"{base}/t/{host['code']}?invite={host['invites']['N']}")
            view = seat.view()
            for _ in range(40):
                if view["phase"] != "auction" or view["turn"] != "S":
                    break
                view = seat.act("pass" if "pass" in view["legal"] else view["legal"][0])
            view = seat.view()
            if view["phase"] == "play" and view["turn"] == "S" and \
                    "no-declaration" in view["legal"]:
                break
        else:
            raise AssertionError("N never held a declaration at its first card")
        declined = seat.act("no-declaration")
        assert "no-declaration" not in declined["legal"]
        assert declined["version"] == view["version"]  # nothing sent yet
        card = declined["legal"][0]
        after = seat.act(card)
        assert card not in after["hand"] and after["version"] > view["version"]
        assert "S" not in after["declarations"]  # declined: nothing announced


def test_the_auction_recap_is_printed_once_a_deal() -> None:
    """The last stop's seam: the auction's recap ("Enchères : ...", every call so far) was
    printed again at each of the player's calls, after the calls it repeated. Now once a deal,
    at the player's first call; each call after is told once, as it is made. Seed 3
    (débutant): South calls twice in deal 1."""
    done = subprocess.run([*PLAY, "--seed", "3", "--deals", "2", "--bots", "debutant",
                           "--records", "-"],
                          input="1\n" * 80, capture_output=True, text=True, timeout=60,
                          check=False, env={"COLUMNS": "100", "PATH": "/usr/bin",
                                            "PYTHONPATH": ":".join(sys.path)})
    assert done.returncode == 0, done.stdout + done.stderr
    deals = re.split(r"\n─+ Donne \d+ · donneur \w+ · Nous \d+ – Eux \d+ \(partie en \d+\) ─+\n",
                     "\n" + done.stdout)[1:]
    assert len(deals) == 2, done.stdout
    first = deals[0].split("\n──")[0]  # deal 1's auction, up to the contract's header
    assert first.count("> Vous\u00a0: passe") == 2, first  # South called twice
    for deal in deals:
        recaps = [line for line in deal.splitlines() if line.startswith("Enchères\u00a0:")]
        assert len(recaps) <= 1, recaps
    assert first.count("Enchères\u00a0:") == 1
    # each call told once: West's 130 pique, made after South's first call
    assert first.count("Ouest\u00a0: 130 pique") == 1, first


def _bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def _finish(base: str, tid: str, tokens: list[str]) -> None:
    """The room's game played to its end through the API by its humans (a contract bid when
    one is on offer: with a target of 1 point, the first deal played ends it)."""
    for _ in range(2000):
        for token in tokens:
            view = httpx.get(f"{base}/api/tables/{tid}", headers=_bearer(token)).json()
            if view["over"]:
                return
            if view["legal"]:
                bids = [a for a in view["legal"] if a[0].isdigit() and " " in a]
                cards = [a for a in view["legal"] if len(a) == 2]
                action = (bids or cards or view["legal"])[0]
                r = httpx.post(f"{base}/api/tables/{tid}/actions", headers=_bearer(token),
                               json={"action": action})
                assert r.status_code == 200, r.text
    raise AssertionError("the game did not end")


def test_a_room_player_in_the_terminal_goes_on_to_the_rooms_next_game(rooms: str) -> None:
    """The last stop's seam: ``rebelote play --join`` did nothing at a game's end. Now the
    end of a room's game offers its next one through ``POST /api/tables/{id}/again``: when
    another player started it, the terminal says so and offers to join it ("Rejoindre la
    nouvelle partie ? [o/n]"), else it offers to start it ("Nouvelle partie ? [o/n]"); on yes
    the seat follows the room to it, the same seat with the same secret, and plays on."""
    from io import StringIO

    from rich.console import Console

    from rebelote.table.terminal import RemoteTable, play

    with nullcontext(rooms) as base:
        host = httpx.post(f"{base}/api/tables", json={
            "game": "coinche", "bots": "random", "friends": ["N"], "target": 1, "pace": 0,
            "clock": 0, "name": "Mamie Jo"}).json()
        first = host["id"]
        seat = RemoteTable(base, f"{base}/t/{host['code']}?invite={host['invites']['N']}",
                           "Jean")
        _finish(base, first, [host["token"], seat.token])
        # the host starts the room's next game, then leaves it: a bot plays South there
        r = httpx.post(f"{base}/api/tables/{first}/again", headers=_bearer(host["token"]))
        assert r.status_code == 201, r.text
        second = r.json()["id"]
        assert httpx.post(f"{base}/api/tables/{second}/release",
                          headers=_bearer(host["token"])).status_code == 200
        prompts: list[str] = []
        yes_no = iter(["peut-être", "o", "o"])

        def ask(prompt: str) -> str:
            prompts.append(prompt)
            if "[o/n]" in prompt:
                return next(yes_no)
            return "1" if seat.id in (first, second) else "q"  # the third game: quit

        out = StringIO()
        code = play(seat, Console(file=out, width=100), ask, lang="fr")
        text = out.getvalue()
        assert code == 1, text  # quit at the third game's first turn
        asked = [p for p in prompts if "[o/n]" in p]
        assert asked == ["Rejoindre la nouvelle partie\u00a0? [o/n] "] * 2 + [
            "Nouvelle partie\u00a0? [o/n] "], asked
        assert text.count("Une nouvelle partie a commencé\u00a0: votre place vous y attend.") \
            == 1, text  # told at the first game's end only: the terminal started the third
        assert "Répondez o (oui) ou n (non)." in text
        assert text.count("La partie est terminée.") == 2
        assert "│ Marque │" in text and "Marks" not in text  # a room's result card, in French
        third = seat.id
        assert third not in (first, second)
        told = httpx.get(f"{base}/api/tables/{second}", headers=_bearer(seat.token)).json()
        assert told["next_game"] == third and told["over"]
        view = httpx.get(f"{base}/api/tables/{third}", headers=_bearer(seat.token)).json()
        assert (view["seat"], view["seats"]["S"]["name"], view["deal"]) == ("N", "Jean", 1)
        assert view["seats"]["N"]["kind"] == "bot"  # the host left the second game
        assert not view["over"] and view["version"] >= 1
