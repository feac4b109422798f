"""``rebelote serve``: starts on a database, answers, stops cleanly on SIGTERM, keeps games."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import httpx
import pytest

from web_fixtures import free_port, live_server


def test_serve_answers_and_keeps_games_across_restarts(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'serve.sqlite3'}"
    port = free_port()
    with live_server(db, port) as base:  # stops it with SIGTERM and checks status 0
        created = httpx.post(f"{base}/api/counter/games", json={"game": "belote"}).json()
        gid, key = created["id"], {"Authorization": f"Bearer {created['token']}"}
        r = httpx.post(f"{base}/api/counter/games/{gid}/deals",
                       json={"taker": "NS", "points": {"NS": 100}}, headers=key)
        assert r.status_code == 200
        assert httpx.get(f"{base}/").status_code == 200
        assert httpx.get(f"{base}/docs").status_code == 200
    with live_server(db, port) as base:
        game = httpx.get(f"{base}/api/counter/games/{gid}", headers=key).json()
        assert game["totals"] == {"NS": 100, "EW": 62}


def test_serve_with_a_bad_database_url_says_so(tmp_path: Path) -> None:
    for url, words in (("nonsense://x", "not a database URL"),
                       ("postgresql+psycopg://nobody@127.0.0.1:1/none", "cannot open")):
        done = subprocess.run(
            [sys.executable, "-m", "rebelote.cli", "serve", "--db", url, "--port",
             str(free_port())], capture_output=True, text=True, timeout=60,
        )
        assert done.returncode == 2
        assert "--db" in done.stderr and words in done.stderr
        assert "Traceback" not in done.stderr


def test_the_tests_server_moves_off_a_port_taken_before_it_binds(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # a free port picked, then bound by another socket before the server binds it (a client's
    # ephemeral port can be it): the fixture takes another port, never the other socket's
    import socket

    import web_fixtures

    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        ports = iter([taken.getsockname()[1], free_port()])
        monkeypatch.setattr(web_fixtures, "free_port", lambda: next(ports))
        with live_server(f"sqlite:///{tmp_path / 'moved.db'}") as base:
            assert base != f"http://127.0.0.1:{taken.getsockname()[1]}"
            assert httpx.get(f"{base}/healthz").status_code == 200
