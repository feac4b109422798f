"""``rebelote play``: the table in the terminal, driven headlessly by feeding its standard input
(a number per turn), alone against bots and in a room of a running server joined by code."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import httpx

from web_fixtures import live_server

PLAY = [sys.executable, "-m", "rebelote.cli", "play"]


def run(args: list[str], answers: str, timeout: float = 60) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*PLAY, *args], input=answers, capture_output=True, text=True,
                          timeout=timeout, check=False, env={"COLUMNS": "100", "PATH": "/usr/bin",
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


def test_join_a_room_by_its_code(tmp_path: Path) -> None:
    with live_server(f"sqlite:///{tmp_path / 'room.db'}") as base:
        host = httpx.post(f"{base}/api/tables", json={"game": "coinche", "bots": "random",
                                                       "friends": ["N"]}).json()
        released = httpx.post(f"{base}/api/tables/{host['id']}/release",
                              headers={"Authorization": f"Bearer {host['token']}"})
        assert released.status_code == 200  # the host leaves: a bot plays South
        link = f"{base}/t/{host['code']}?invite={host['invites']['N']}"  # N's own invitation
        done = run(["--join", link, "--deals", "1"], "1\n" * 300, timeout=120)
        assert done.returncode == 0, done.stdout + done.stderr
        assert "Deal 1:" in done.stdout and "Your hand:" in done.stdout, done.stdout
