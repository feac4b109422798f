"""``rebelote explain``: why each bot decision of deal records was made (*Pourquoi ce coup ?*).

A record that holds its explanations (the play table stores them with the deal) is read as
it is. The records ``rebelote deal`` writes do not: they are replayed, in order, from the seed
and the options that made them (the same options as ``rebelote deal``, with the same
defaults), each bot's decision made again with its explanation recorded as the search runs
(:func:`rebelote.bots.explain.explained_act`: the same action, the same draws). A replayed
deal that is not its record is refused: the options are not the ones that wrote it.
"""

from __future__ import annotations

import json
import random
import sys
from collections.abc import Iterator, Mapping
from typing import Annotated, Any, Final, TextIO

import typer

from rebelote.actions import Play
from rebelote.auction import Bid
from rebelote.bots.explain import LANGS, Explanation
from rebelote.bots.external import close_bots
from rebelote.cards import SEATS
from rebelote.commands._deal import (
    DEAL_OPTIONS,
    Decision,
    deal_setup,
    explained_deal,
    seat_specs,
)
from rebelote.commands._lines import closing_input, json_lines
from rebelote.deal import DealState
from rebelote.errors import InputError, RulesError
from rebelote.record import record_of
from rebelote.rules import seat_step

__all__ = ["explain_lines", "register"]

#: The fields of a record that a replayed deal must match.
_SAME: Final = ("game", "dealer", "hands", "turned", "auction", "tricks")

def _line(deal: int, index: int, why: Explanation, lang: str) -> dict[str, Any]:
    got = why.to_json(lang)
    return {"deal": deal, "seat": got["seat"], "index": index, "action": got["action"],
            "level": got["level"], "candidates": got["candidates"], "why": got["why"],
            "knew": got["knew"]}


def _stored(record: Mapping[str, Any]) -> Iterator[Decision]:
    for item in record["explanations"]:
        yield int(item["index"]), Explanation.from_record(item)


def _differs(record: Mapping[str, Any], replayed: Mapping[str, Any]) -> str | None:
    for key in _SAME:
        if record.get(key) != replayed.get(key):
            return key
    return None


def explain_lines(stream: TextIO, out: TextIO, *, deal: int | None = None,
                  seat: str | None = None, lang: str = "fr", game: str = "coinche",
                  rules: str | None = None, seed: int = 0, bots: str = "random",
                  dealer: str = "N", options: str | None = None) -> int:
    """One JSON line a bot decision (a call or a card) of the records of ``stream``: 0, or 1
    after an error line (a record that cannot be read, or that the options do not replay),
    or 2 for bad options (a message on standard error)."""
    try:
        if lang not in LANGS:
            raise ValueError(f"--lang: one of {', '.join(LANGS)}, not {lang!r}")
        want = None if seat is None else seat.strip().upper()
        if want is not None and want not in SEATS:
            raise ValueError(f"--seat: {seat!r} is not a seat (N, E, S, W)")
        if deal is not None and deal < 0:
            raise ValueError("--deal: a deal's number, from 0")
        chosen, players, first = deal_setup(game, rules, bots, dealer, options)
    except (ValueError, RulesError) as e:
        print(f"rebelote: {e}", file=sys.stderr, flush=True)
        return 2
    specs = seat_specs(bots)
    rng = random.Random(seed)
    step = seat_step(chosen)
    failed = False
    try:
        for n, (_, record) in enumerate(json_lines(stream)):
            if deal is not None and n > deal:
                break
            off = False
            try:
                if isinstance(record, dict) and "explanations" in record:
                    decisions = list(_stored(record))
                else:  # replayed (a record that cannot be read was a deal played all the same)
                    state, decisions = explained_deal(
                        DealState.new(chosen, first, rng=rng), players, specs, rng)
                    first = (first + step) % 4
                    if isinstance(record, InputError):
                        raise record
                    if not isinstance(record, dict):
                        raise InputError(f"record {n}", "not a JSON object")
                    key = _differs(record, record_of(state))
                    if key is not None:
                        off = True
                        raise InputError(f"record {n}", _mismatch(key, seed, bots))
            except (ValueError, KeyError, TypeError) as e:
                out.write(json.dumps({"deal": n, "error": str(e)}, ensure_ascii=False) + "\n")
                failed = True
                if off:
                    break  # every later record would be off too
                continue
            if deal is not None and n != deal:
                continue
            for index, why in decisions:
                if not isinstance(why.action, (Bid, Play)):
                    continue
                if want is not None and SEATS[why.seat] != want:
                    continue
                out.write(json.dumps(_line(n, index, why, lang), ensure_ascii=False) + "\n")
        out.flush()
    finally:
        close_bots(players)
    return 1 if failed else 0


def _mismatch(key: str, seed: int, bots: str) -> str:
    return (f"its {key} is not what seed {seed} with --bots {bots} replays: give the options "
            f"`rebelote deal` wrote it with (--seed, --bots, --game, --rules, --dealer, "
            f"--options), from its first record")


def register(app: typer.Typer) -> None:
    """Add ``explain`` to the command line."""

    @app.command()
    def explain(
        records: Annotated[str, typer.Argument(help="Deal records, one per line (as `rebelote "
                                                    "deal` writes them); '-' for standard "
                                                    "input.")] = "-",
        deal: Annotated[int | None, typer.Option(help="Only this deal (from 0).")] = None,
        seat: Annotated[str | None, typer.Option(help="Only this seat: N, E, S or W.")]
        = None,
        lang: Annotated[str, typer.Option(help="The sentences' language: fr or en.")] = "fr",
        game: Annotated[str, typer.Option(help="As `rebelote deal` was given.")]
        = str(DEAL_OPTIONS["game"]),
        rules: Annotated[str | None, typer.Option(help="As `rebelote deal` was given.")]
        = None,
        seed: Annotated[int, typer.Option(help="As `rebelote deal` was given.")] = 0,
        bots: Annotated[str, typer.Option(help="As `rebelote deal` was given.")] = "random",
        dealer: Annotated[str, typer.Option(help="As `rebelote deal` was given.")] = "N",
        options: Annotated[str | None, typer.Option(help="As `rebelote deal` was given.")]
        = None,
    ) -> None:
        """Why each bot decision of deal records was made: one JSON line a call or card
        (what the bot knew, each action it weighed with its mark over its worlds, why)."""
        with closing_input(records) as stream:
            code = explain_lines(stream, sys.stdout, deal=deal, seat=seat, lang=lang,
                                 game=game, rules=rules, seed=seed, bots=bots, dealer=dealer,
                                 options=options)
        raise typer.Exit(code)

