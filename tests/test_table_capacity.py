"""The capacity bench (``bench/table_capacity.py``) reads the bot decisions from the server's
own log lines: the line the table server writes (rebelote.tableserver.observe, formatted as
``rebelote serve`` writes its log), for the client the bench's player plays from."""

from __future__ import annotations

import asyncio
import logging

import pytest

from program_loader import load_program
from rebelote.rules import Rules
from rebelote.table import Seat, Table
from rebelote.tableserver.bots import CLIENT, BotRunner
from rebelote.tableserver.observe import decision_told
from rebelote.web.server import JsonLines

capacity = load_program("bench/table_capacity.py")


def test_the_bench_counts_the_decisions_the_server_logs_for_its_players(
        caplog: pytest.LogCaptureFixture) -> None:
    runner = BotRunner(workers=1, seconds=2.0)
    runner.listeners.append(decision_told)
    table = Table.new(Rules.preset("official", "coinche"), 1000,
                      [Seat.bot_seat("pimc:fast")] * 4, dealer=3)

    async def ask(client: str) -> None:
        CLIENT.set(client)
        await runner.decide("t1", 1, table)

    try:
        with caplog.at_level(logging.INFO, "rebelote.bots"):
            asyncio.run(ask("10.0.1.7"))
            asyncio.run(ask("10.0.2.9"))
    finally:
        runner.close()
    log = "\n".join(JsonLines().format(r) for r in caplog.records if r.name == "rebelote.bots")
    mine = capacity.decisions("uvicorn's own text line\n" + log, {"10.0.1.7"})
    assert len(mine) == 1
    (seconds, fell_back), = mine
    assert 0 < seconds < 2.0 and fell_back is False
    assert len(capacity.decisions(log, {"10.0.1.7", "10.0.2.9"})) == 2
