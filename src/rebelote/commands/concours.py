"""``rebelote tirage``: the first *partie*'s draw of a concours, recomputed from the seed shown
to all (docs/interfaces.md, "The concours API")."""

from __future__ import annotations

import json
from typing import Annotated

import typer


def register(app: typer.Typer) -> None:
    """Add ``tirage`` to the command line."""

    @app.command()
    def tirage(
        seed: Annotated[str, typer.Argument(help="The concours's seed, as the room screen and "
                                                 "the draw's PDF show it.")],
        teams: Annotated[int, typer.Argument(help="How many teams were registered for the "
                                                  "first partie.", min=2, max=1000)],
        melee: Annotated[bool, typer.Option("--melee", help="À la mêlée: the entries are "
                                                            "players, four to a table.")
                         ] = False,
    ) -> None:
        """Recompute the first partie's draw of a concours from its SEED and its number of
        TEAMS: the tables in order and the exempt, one JSON line, for anyone to check the
        organiser's draw."""
        from rebelote.concours import Concours
        from rebelote.errors import RebeloteError

        try:
            c = Concours.from_new({"name": "tirage", "game": "belote", "parties": 1,
                                   "deals": 12, "mode": "melee" if melee else "doublettes",
                                   "seed": seed,
                                   "teams": [f"{n}" for n in range(1, teams + 1)]})
            partie = c.draw_next().parties[0]
        except RebeloteError as e:
            typer.echo(json.dumps({"error": str(e)}, ensure_ascii=False))
            raise typer.Exit(1) from None
        out = {"seed": seed, "partie": 1,
               "tables": [{"table": t.number,
                           "teams": [s[0] if len(s) == 1 else list(s) for s in t.sides]}
                          for t in partie.tables],
               "exempt": list(partie.exempt)}
        typer.echo(json.dumps(out, ensure_ascii=False))
