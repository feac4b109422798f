"""``rebelote problems``: card-play problems cut from deals played to their end
(*Exercices*, :mod:`rebelote.bots.problems`), one JSON line each, reproducibly from a seed.

With ``--out FILE``, each problem is written as soon as it is found and a file that already
holds problems of the same seed and game is carried on from its last deal (a line cut short
by a stopped run is dropped): a run stopped and started again writes the same file as one that
never stopped.

With ``--records FILE --seat S`` it reads the player's own finished deals instead and offers
the costly cards of seat ``S`` as problems (*vos cartes coûteuses*,
:func:`rebelote.bots.problems.costly_problems`).
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import Annotated, Final, TextIO

import typer

from rebelote.bots.problems import costly_problems, problem_set
from rebelote.cards import SEATS
from rebelote.commands._lines import closing_input, json_lines
from rebelote.errors import RulesError
from rebelote.record import replay_record
from rebelote.rules import GAMES, Rules, parse_rules

__all__ = ["costly_lines", "register", "resume_point", "write_problems"]

#: The most problems one run may ask for.
MOST: Final = 100_000


def resume_point(path: Path, seed: int, game: str) -> tuple[int, int]:
    """The problems ``path`` holds already and the deal to go on from: ``(0, 0)`` for a
    missing or empty file; a last line cut short is cut off the file. :class:`ValueError` if
    the file holds problems of another seed or game."""
    if not path.exists():
        return 0, 0
    data = path.read_bytes()
    keep = data[:data.rfind(b"\n") + 1]  # a line without its end was cut short
    if keep != data:
        path.write_bytes(keep)
    lines = keep.decode("utf-8").splitlines()
    if not lines:
        return 0, 0
    for n, line in enumerate(lines):
        try:
            obj = json.loads(line)
            if obj["seed"] != seed or obj["game"] != game:
                raise ValueError(f"--out: line {n + 1} is a problem of seed {obj['seed']} "
                                 f"and game {obj['game']}, not of seed {seed} and game {game}")
        except (json.JSONDecodeError, KeyError, TypeError):
            raise ValueError(f"--out: line {n + 1} is not a problem: give a new file") from None
    return len(lines), int(json.loads(lines[-1])["deal"]) + 1


def write_problems(out: TextIO, rules: Rules, seed: int, count: int, start: int = 0) -> int:
    """Write ``count`` problems of ``seed`` found from deal ``start`` on; the count written."""
    n = 0
    for problem in problem_set(rules, seed, count, start):
        out.write(json.dumps(problem, ensure_ascii=False, separators=(",", ":")) + "\n")
        out.flush()
        n += 1
    return n


def costly_lines(stream: TextIO, out: TextIO, seat: str, seed: int = 0) -> int:
    """*Vos cartes coûteuses*: for each deal record of ``stream`` (as ``rebelote deal`` or
    the play table write them), the cards ``seat`` played that cost marks in the real deal and
    that the worlds it could imagine would not have played, one problem a line (each with
    ``deal``: the record's number from 0). A record that cannot be replayed, or a belote one,
    is answered ``{"deal": n, "error": ...}``: 0, or 1 after an error line."""
    who = SEATS.index(seat)
    failed = False
    for n, (_, record) in enumerate(json_lines(stream)):
        try:
            if isinstance(record, Exception):
                raise record
            final = replay_record(record)
            got = costly_problems(final, who, seed)
        except (ValueError, KeyError, TypeError) as e:
            out.write(json.dumps({"deal": n, "error": str(e)}, ensure_ascii=False) + "\n")
            failed = True
            continue
        for problem in got:
            problem["deal"] = n
            out.write(json.dumps(problem, ensure_ascii=False, separators=(",", ":")) + "\n")
        out.flush()
    return 1 if failed else 0


def _rules(game: str, rules: str | None) -> Rules:
    if rules:
        chosen = parse_rules(rules)
        if chosen.game != game:
            raise RulesError("rules", f"a rule set of {chosen.game}, not of --game {game}")
        return chosen
    if game not in GAMES:
        raise RulesError("game", f"one of {', '.join(GAMES)}, not {game!r}")
    return Rules.preset("official", game)


def run(seed: int, count: int, game: str, rules: str | None, out: str | None,
        records: str | None = None, seat: str | None = None) -> int:
    """The command: 0, or 2 after a message on standard error."""
    if records is not None or seat is not None:
        want = (seat or "").strip().upper()
        if records is None or want not in SEATS:
            print("rebelote: --records FILE and --seat N|E|S|W go together", file=sys.stderr,
                  flush=True)
            return 2
        try:
            with closing_input(records) as stream:
                return costly_lines(stream, sys.stdout, want, seed)
        except OSError as e:
            print(f"rebelote: --records: {e}", file=sys.stderr, flush=True)
            return 2
    try:
        if not 1 <= count <= MOST:
            raise ValueError(f"--count: from 1 to {MOST}, not {count}")
        if seed < 0:
            raise ValueError("--seed: a whole number from 0")
        chosen = _rules(game, rules)
        if out is None:
            write_problems(sys.stdout, chosen, seed, count)
            return 0
        path = Path(out)
        have, start = resume_point(path, seed, game)
    except (ValueError, RulesError, OSError) as e:
        print(f"rebelote: {e}", file=sys.stderr, flush=True)
        return 2
    if have < count:
        with path.open("a", encoding="utf-8") as f:
            write_problems(f, chosen, seed, count - have, start)
            os.fsync(f.fileno())
    return 0


def register(app: typer.Typer) -> None:
    """Add ``problems`` to the command line."""

    @app.command()
    def problems(
        seed: Annotated[int, typer.Option(help="The problem set's seed: the same seed, the "
                                               "same problems.")] = 0,
        count: Annotated[int, typer.Option(help="How many problems.")] = 10,
        game: Annotated[str, typer.Option(help="belote, coinche or contree.")] = "coinche",
        rules: Annotated[str | None, typer.Option(help="A rule set (game:preset,option=value);"
                                                       " the game's official one by default.")]
        = None,
        out: Annotated[str | None, typer.Option(help="Write to this file, carrying on what it "
                                                     "holds of the same seed and game; "
                                                     "standard output by default.")] = None,
        records: Annotated[str | None, typer.Option(help="Your own finished deals (deal "
                                                         "records, '-' for standard input):"
                                                         " the costly cards of --seat as "
                                                         "problems.")] = None,
        seat: Annotated[str | None, typer.Option(help="With --records: your seat, N, E, S "
                                                      "or W.")] = None,
    ) -> None:
        """Card-play problems cut from deals played to their end: positions where one card is
        clearly best by its expected mark over the worlds the player can imagine; one JSON
        line each. With --records and --seat: your own costly cards as problems."""
        raise typer.Exit(run(seed, count, game, rules, out, records, seat))

