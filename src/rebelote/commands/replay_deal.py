"""``rebelote replay`` (check deal records) and ``rebelote deal`` (deals played by bots; the
deals themselves are written by :mod:`rebelote.commands._deal`)."""

from __future__ import annotations

import sys
from typing import Annotated, TextIO

import typer

from rebelote.bots import known_bots
from rebelote.commands._deal import run_deal
from rebelote.commands._lines import answer_lines, closing_input
from rebelote.record import check_record

__all__ = ["register", "replay_lines"]


def replay_lines(stream: TextIO, out: TextIO) -> int:
    """Check each record of ``stream`` (one JSON object a line), writing one answer a line;
    0 if every record is legal and scored as recorded, else 1."""
    return answer_lines(stream, check_record, out, what="record")


def register(app: typer.Typer) -> None:
    """Add ``replay`` and ``deal`` to the command line."""

    @app.command()
    def replay(
        file: Annotated[str, typer.Argument(help="Deal records, one per line; '-' for standard "
                                                 "input.")] = "-",
    ) -> None:
        """Check deal records: every bid and card, and the score (one JSON answer a line)."""
        with closing_input(file) as stream:
            code = replay_lines(stream, sys.stdout)
        raise typer.Exit(code)

    @app.command()
    def deal(
        game: Annotated[str, typer.Option(help="belote, coinche or contree.")] = "coinche",
        rules: Annotated[str | None, typer.Option(
            help="A preset (official, house; contrée: ffb, ffb-ludique, cannes-2016, annonces, "
                 "exact) or a rule set's text form like contree:ffb,rounding=none.")] = None,
        seed: Annotated[int, typer.Option(help="The same seed gives the same records.")] = 0,
        count: Annotated[int, typer.Option(help="How many deals.")] = 1,
        bots: Annotated[str, typer.Option(help="A bot for every seat, or four N,E,S,W: a "
                                               "level for people (debutant, club, fort, "
                                               "expert), a bot "
                                               f"(known: {', '.join(known_bots())}, or "
                                               "engine:COMMAND, an outside program).")]
        = "random",
        dealer: Annotated[str, typer.Option(help="The first dealer: N, E, S or W.")] = "N",
        options: Annotated[str | None, typer.Option(help="Rule options as a JSON object.")]
        = None,
        engine_timeout: Annotated[float, typer.Option(
            help="Seconds an outside bot (engine:COMMAND) may take for each answer.")] = 10.0,
        explain: Annotated[bool, typer.Option(
            "--explain", help="Each record also holds why each bot decision was made "
                              "(its explanations, as `rebelote explain` prints them).")]
        = False,
    ) -> None:
        """Play deals with bots and write their records, one JSON line each."""
        raise typer.Exit(run_deal(game, rules, seed, count, bots, dealer, options,
                                  engine_timeout, explain))
