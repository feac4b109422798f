"""The attackers' checks of the play table (issue 17's 64, issue 37's from 65), replayed at
every run: each is a test, run by the program an operator runs before deploying
(``scripts/attack_table.py``), against real ``rebelote serve`` processes on 127.0.0.1.

The checks share their servers: the ones on the main server run together (xdist group
``attack-main``), the ones that start, kill or restart servers of their own together
(``attack-own``), beside each other on two workers; the PostgreSQL ones (9, 59, 60, 69, 72) with the
other PostgreSQL tests, when ``REBELOTE_TEST_PG_URL`` names a server.
"""

from __future__ import annotations

import os
import socket
from collections.abc import Iterator
from pathlib import Path

import pytest

from program_loader import load_program

PG_URL = os.environ.get("REBELOTE_TEST_PG_URL", "")


attack = load_program("scripts/attack_table.py")


def _checks(needs: str) -> list[int]:
    return [n for n, c in sorted(attack.CHECKS.items()) if c.needs == needs]


@pytest.fixture(scope="module")
def ctx(tmp_path_factory: pytest.TempPathFactory) -> Iterator[object]:
    """The servers of the checks (each started when a check first needs it)."""
    with attack.Context(PG_URL or None, tmp_path_factory.mktemp("attack")) as c:
        yield c


def _holds(ctx: object, number: int) -> None:
    outcome = attack.run_check(ctx, number)
    assert outcome.ok, outcome.lines()


def test_the_program_replays_every_check() -> None:
    # issue 17's 64, then issue 37's (table-attack-4) from 65 on; the concours's from 80
    first_rounds = [n for n in sorted(attack.CHECKS) if n < 80]
    assert first_rounds == list(range(1, 73))
    # issue 37's concours findings 1, 5, 6, 8 and 9: checks 80 to 84
    assert set(range(80, 85)) <= set(attack.CHECKS)
    assert sorted(_checks("main") + _checks("own") + _checks("pg")) == sorted(attack.CHECKS)


@pytest.mark.xdist_group("attack-main")
@pytest.mark.parametrize("number", _checks("main"), ids=lambda n: f"{n:02d}")
def test_on_the_main_server(ctx: object, number: int) -> None:
    _holds(ctx, number)


@pytest.mark.xdist_group("attack-own")
@pytest.mark.parametrize("number", _checks("own"), ids=lambda n: f"{n:02d}")
def test_on_servers_of_its_own(ctx: object, number: int) -> None:
    _holds(ctx, number)


@pytest.mark.postgres
@pytest.mark.skipif(not PG_URL, reason="REBELOTE_TEST_PG_URL is not set: no PostgreSQL server "
                                       "to test against")
@pytest.mark.parametrize("number", _checks("pg"), ids=lambda n: f"{n:02d}")
def test_on_postgresql(ctx: object, number: int) -> None:
    _holds(ctx, number)


@pytest.mark.xdist_group("attack-own")
def test_a_server_whose_port_is_taken_meanwhile_moves_to_another(tmp_path: Path) -> None:
    # another program binds the chosen port before the server does (a loaded CI machine):
    # uvicorn says "address already in use" in lower case, and the server starts elsewhere
    server = attack.Server("taken", tmp_path, f"sqlite:///{tmp_path / 'taken.sqlite3'}")
    with socket.socket() as holder:
        holder.bind(("127.0.0.1", 0))
        holder.listen()
        server.port = holder.getsockname()[1]
        try:
            server.start()
            assert server.port != holder.getsockname()[1]
            assert server.client().get("/healthz").status == 200
            assert "address already in use" in server.log().lower()
        finally:
            server.kill()
