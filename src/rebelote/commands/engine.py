"""``rebelote replay`` (check deal records) and ``rebelote deal`` (deals played by bots)."""

from __future__ import annotations

import json
import random
import sys
from typing import Annotated, Any, TextIO

import typer

from rebelote.bots import Bot, known_bots, make_bot
from rebelote.cards import SEATS
from rebelote.commands._lines import answer_lines, closing_input
from rebelote.deal import OVER, PLAY, DealState
from rebelote.errors import RulesError
from rebelote.observation import observe
from rebelote.record import check_record, record_of
from rebelote.rules import Rules, parse_rules, seat_step


def replay_lines(stream: TextIO, out: TextIO) -> int:
    """Check each record of ``stream`` (one JSON object a line), writing one answer a line;
    0 if every record is legal and scored as recorded, else 1."""
    return answer_lines(stream, check_record, out, what="record")


def parse_bots(text: str) -> list[Bot]:
    """``random`` for every seat, or four names ``N,E,S,W``; :class:`ValueError` otherwise."""
    names = [t.strip() for t in text.split(",")]
    if len(names) == 1:
        names *= 4
    if len(names) != 4:
        raise ValueError(f"--bots: one bot name or four (N,E,S,W), not {len(names)}")
    return [make_bot(n) for n in names]


def play_deal(state: DealState, bots: list[Bot], rng: random.Random) -> DealState:
    """Play a deal to its end, each seat's bot acting on that seat's observation. When every
    seat's bot plays uniformly random legal cards (``uniform_play``), the cards are played by
    :meth:`DealState.playout`, which draws the same cards from ``rng`` without building a
    state and an observation per card."""
    uniform = all(getattr(b, "uniform_play", False) for b in bots)
    while state.phase != OVER:
        if uniform and state.phase == PLAY:
            return state.playout(rng)
        seat = state.player
        state = state.apply(bots[seat].act(observe(state, seat), rng))
    return state


def deal_records(rules: Rules, seed: int, count: int, bots: list[Bot], dealer: int = 0
                 ) -> list[dict[str, Any]]:
    """``count`` deals played by ``bots`` from ``seed``, the dealer moving every deal."""
    rng = random.Random(seed)
    out = []
    step = seat_step(rules)
    for _ in range(count):
        state = play_deal(DealState.new(rules, dealer, rng=rng), bots, rng)
        out.append(record_of(state))
        dealer = (dealer + step) % 4
    return out


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
        bots: Annotated[str, typer.Option(help="A bot name for every seat, or four N,E,S,W "
                                               f"(known: {', '.join(known_bots())}).")]
        = "random",
        dealer: Annotated[str, typer.Option(help="The first dealer: N, E, S or W.")] = "N",
        options: Annotated[str | None, typer.Option(help="Rule options as a JSON object.")]
        = None,
    ) -> None:
        """Play deals with bots and write their records, one JSON line each."""
        try:
            opts = json.loads(options) if options else None
            if rules is not None and ":" in rules:
                chosen = parse_rules(rules)
                chosen = chosen.replace(**opts) if opts else chosen
            else:
                chosen = Rules.from_options(rules, game, opts)
            players = parse_bots(bots)
            if dealer.strip().upper() not in SEATS:
                raise ValueError(f"--dealer: {dealer!r} is not a seat (N, E, S, W)")
            if count < 0:
                raise ValueError("--count: must be 0 or more")
        except json.JSONDecodeError as e:
            typer.echo(f"rebelote: --options: not JSON: {e.msg}", err=True)
            raise typer.Exit(2) from None
        except (ValueError, RulesError) as e:
            typer.echo(f"rebelote: {e}", err=True)
            raise typer.Exit(2) from None
        first = SEATS.index(dealer.strip().upper())
        rng = random.Random(seed)
        step = seat_step(chosen)
        write = sys.stdout.write
        dumps = json.JSONEncoder(ensure_ascii=False).encode
        for _ in range(count):
            state = play_deal(DealState.new(chosen, first, rng=rng), players, rng)
            write(dumps(record_of(state)) + "\n")
            first = (first + step) % 4
        sys.stdout.flush()
