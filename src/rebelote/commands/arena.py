"""``rebelote arena``: two bots on duplicate deals (and games), with the confidence interval."""

from __future__ import annotations

import json
import sys
from typing import Annotated, Any

import typer

from rebelote.bots import known_specs, spec_of


def _text(summary: dict[str, Any]) -> str:
    """The summary for people, a few lines."""
    lines = [f"{summary['a']} (A) vs {summary['b']} (B), {summary['game']} {summary['rules']}, "
             f"seed {summary['seed']}"]
    diff = summary.get("mark_diff")
    if diff:
        low, high = diff["ci95"]
        ci = f"[{low}, {high}]" if low is not None else "(one deal: no interval)"
        lines.append(f"{summary['deals']} duplicate deals: A - B = {diff['mean']} a deal, "
                     f"95% CI {ci}")
        c = summary["contracts"]
        lines.append(f"contracts: A took {c['a']['took']} (made {c['a']['made']}), "
                     f"B took {c['b']['took']} (made {c['b']['made']}), "
                     f"{c['passed_out']} passed out")
    games = summary.get("games")
    if games:
        lines.append(f"{games['played']} games: A won {games['a_won']}, B won {games['b_won']} "
                     f"({games['mean_deals']} deals a game)")
    for key in ("a", "b"):
        t = summary["decision_ms"][key]
        lines.append(f"{key.upper()} decisions: {t['decisions']}, mean {t['mean']} ms, "
                     f"median {t['median']} ms, p99 {t['p99']} ms")
    where = summary["scheduler"] or f"{summary['workers']} worker(s)"
    lines.append(f"{summary['seconds']} s on {where}")
    return "\n".join(lines)


def register(app: typer.Typer) -> None:
    """Add ``arena`` to the command line."""

    @app.command()
    def arena(
        a: Annotated[str, typer.Option("--a", help="Bot A's spec "
                                       f"({', '.join(known_specs())}, a level for people: "
                                       "debutant, club, fort, expert, or engine:COMMAND, "
                                       "an outside program: docs/interfaces.md).")
                     ] = "heuristic",
        b: Annotated[str, typer.Option("--b", help="Bot B's spec.")] = "random",
        game: Annotated[str, typer.Option(help="belote, coinche or contree.")] = "coinche",
        rules: Annotated[str, typer.Option(help="A rule set of the game: official, house "
                                                "(contree: ffb, annonces...).")] = "official",
        deals: Annotated[int, typer.Option(help="Duplicate deals (each played twice).")] = 200,
        games: Annotated[int, typer.Option(help="Duplicate games to the target (each played "
                                                "twice).")] = 0,
        target: Annotated[int | None, typer.Option(help="The games' target (the rules' by "
                                                        "default).")] = None,
        seed: Annotated[int, typer.Option(help="The same seed gives the same results.")] = 0,
        workers: Annotated[int, typer.Option(help="Local worker processes.")] = 1,
        scheduler: Annotated[str | None, typer.Option(
            help="A Dask scheduler, tcp://host:port (needs the 'arena' extra).")] = None,
        options: Annotated[str | None, typer.Option(help="Rule options as a JSON object.")]
        = None,
        as_json: Annotated[bool, typer.Option("--json", help="One JSON object (docs/bots.md).")]
        = False,
        engine_timeout: Annotated[float, typer.Option(
            help="Seconds an outside bot (engine:COMMAND) may take for each answer.")] = 10.0,
    ) -> None:
        """Match two bots on duplicate deals: the mean mark difference with its 95% interval,
        games won, decision times."""
        from rebelote.arena import ArenaConfig, run_arena  # here: other commands start faster
        from rebelote.bots.external import check_timeout

        try:
            check_timeout(engine_timeout, "--engine-timeout")
            opts = json.loads(options) if options else None
            # a level for people (fort) plays its registry spec (pimc:default+tuned)
            a, b = spec_of(a, "--a"), spec_of(b, "--b")
            config = ArenaConfig(a=a, b=b, game=game, rules=rules, deals=deals, games=games,
                                 seed=seed, target=target, options=opts,
                                 engine_timeout=engine_timeout)
            result = run_arena(config, workers=workers, scheduler=scheduler)
        except json.JSONDecodeError as e:
            typer.echo(f"rebelote: --options: not JSON: {e.msg}", err=True)
            raise typer.Exit(2) from None
        except ValueError as e:
            typer.echo(f"rebelote: {e}", err=True)
            raise typer.Exit(2) from None
        summary = result.summary()
        if as_json:
            sys.stdout.write(json.dumps(summary) + "\n")
        else:
            typer.echo(_text(summary))
