"""The table in the terminal (``rebelote play``): the same views, rules, bots and result cards
as the web table, drawn with Rich and played from the keyboard.

A game is played against local bots (:class:`LocalTable`), or in a room of a running server
joined by its code (:class:`RemoteTable`, over the JSON API). Either way the screen is drawn from
the seat's view only (:func:`rebelote.table.table_view`), turned so that the player sits South.
At the player's turn the legal actions are numbered: type a number, or the action itself
(``JH``, ``pass``, ``90 hearts``); ``q`` quits.
"""

from __future__ import annotations

import json
import random
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Mapping
from typing import Any, Protocol

from rich.console import Console
from rich.table import Table as RichTable

from rebelote.bots import Bot, make_bot
from rebelote.numbers import is_digits
from rebelote.rules import IllegalActionError, Rules
from rebelote.table.model import Seat, Table
from rebelote.table.shuffle import new_seed_and_salt
from rebelote.table.view import table_view

SUIT_SYMBOLS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
SEAT_NAMES = {"S": "You", "N": "Partner", "E": "East", "W": "West"}


def face(card: str) -> str:
    rank = "10" if card[0] == "T" else card[0]
    colour = "red" if card[1] in "HD" else "default"
    return f"[{colour}]{rank}{SUIT_SYMBOLS[card[1]]}[/]"


class Source(Protocol):
    """Where the views come from and the actions go."""

    def view(self) -> dict[str, Any]: ...

    def act(self, action: str) -> dict[str, Any]: ...

    def wait(self) -> dict[str, Any]: ...


class LocalTable:
    """A table in this process: the player at S, bots at N, E and W."""

    def __init__(self, rules: Rules, target: int, bots: list[str], seed: int | None,
                 pace: float = 0.0) -> None:
        self.rng = random.Random(seed)
        if seed is None:
            self.entropy: Callable[[], tuple[str, str]] = new_seed_and_salt
        else:
            self.entropy = lambda: (f"{self.rng.getrandbits(128):032x}",
                                    f"{self.rng.getrandbits(128):032x}")
        seats = [Seat.bot_seat(bots[0]), Seat.bot_seat(bots[1]),
                 Seat("human", bots[0], "", None), Seat.bot_seat(bots[2])]
        self.table = Table.new(rules, target, seats, dealer=3, entropy=self.entropy)
        self.bots: dict[str, Bot] = {}
        self.pace = pace
        self.bot_rng = random.Random(self.rng.getrandbits(64))

    def view(self) -> dict[str, Any]:
        return table_view(self.table, 2)

    def act(self, action: str) -> dict[str, Any]:
        self.table = self.table.act(2, action, self.entropy)
        return self.view()

    def wait(self) -> dict[str, Any]:
        """One bot move (after ``pace`` seconds)."""
        t = self.table
        if t.turn >= 0 and t.turn != 2:
            name = t.seats[t.turn].bot
            key = f"{t.turn}:{name}"  # one bot per seat: an outside one is one process a seat
            bot = self.bots.get(key) or self.bots.setdefault(key, make_bot(name))
            if self.pace:
                time.sleep(self.pace)
            self.table = t.act(t.turn, t.bot_action(bot, self.bot_rng), self.entropy)
        return self.view()


def join_target(text: str, server: str) -> tuple[str, str, str | None]:
    """The server, join code and invitation secret of ``--join``'s ``text``: a room's code
    (on ``server``), or an invitation link ``http://host/t/CODE?invite=SECRET`` (a seat kept
    for a friend: its own link).

    >>> join_target("K7XP3QAB", "http://127.0.0.1:8000")
    ('http://127.0.0.1:8000', 'K7XP3QAB', None)
    >>> join_target("https://club.example/t/K7XP3QAB?invite=s3cret", "http://127.0.0.1:8000")
    ('https://club.example', 'K7XP3QAB', 's3cret')
    """
    from urllib.parse import parse_qs, urlsplit

    if "/t/" not in text:
        return server, text, None
    link = urlsplit(text)
    code = link.path.rsplit("/t/", 1)[1].strip("/")
    invite = parse_qs(link.query).get("invite", [None])[0]
    base = f"{link.scheme}://{link.netloc}" if link.scheme and link.netloc else server
    return base, code, invite


class RemoteTable:
    """A seat in a room of a running server, joined by its code or an invitation link (the
    JSON API)."""

    def __init__(self, server: str, code: str, name: str | None = None) -> None:
        server, code, invite = join_target(code, server)
        self.server = server.rstrip("/")
        body: dict[str, Any] = {"code": code, "name": name}
        if invite:
            body["invite"] = invite
        joined = self._call("POST", "/api/tables/join", body)
        self.id = joined["id"]
        self.token = joined["token"]
        self.last = joined

    def _call(self, method: str, path: str, body: Mapping[str, Any] | None = None
              ) -> dict[str, Any]:
        data = json.dumps(body).encode() if body is not None else None
        req = urllib.request.Request(self.server + path, data=data, method=method)
        req.add_header("Content-Type", "application/json")
        if getattr(self, "token", None):
            req.add_header("Authorization", f"Bearer {self.token}")
        try:
            with urllib.request.urlopen(req, timeout=30) as resp:
                return dict(json.loads(resp.read()))
        except urllib.error.HTTPError as e:
            try:
                reason = json.loads(e.read()).get("error", str(e))
            except ValueError:
                reason = str(e)
            raise IllegalActionError(reason) from None

    def view(self) -> dict[str, Any]:
        self.last = self._call("GET", f"/api/tables/{self.id}")
        return self.last

    def act(self, action: str) -> dict[str, Any]:
        self.last = self._call("POST", f"/api/tables/{self.id}/actions", {"action": action})
        return self.last

    def wait(self) -> dict[str, Any]:
        time.sleep(0.4)
        return self.view()


def draw(console: Console, view: Mapping[str, Any], lines: list[str] | None = None) -> None:
    """The table as the player sees it."""
    names = SEAT_NAMES
    scores = view["scores"]
    head = (f"Deal {view['deal']} · dealer {names[view['dealer']]} · "
            f"Us {scores['NS']} – Them {scores['EW']} (to {view['target']})")
    if view["phase"] != "play":
        pass
    elif view.get("contract") and view["game"] != "belote":
        head += f" · contract {view['contract']} by {names[view['taker']]}"
        if view.get("coinche", 1) > 1:
            head += f" ×{view['coinche']}"
    elif view.get("trump"):
        head += f" · trump {view['trump']} ({names[view['taker']]})"
    console.rule(head)
    if view["phase"] == "auction":
        calls = ", ".join(f"{names[s]}: {b}" for s, b in view["auction"]) or "—"
        console.print(f"Auction: {calls}")
        if view.get("turned"):
            console.print(f"Turned card: {face(view['turned'])}")
    else:
        if view["trick"]:
            cards = "  ".join(f"{names[s]} {face(c)}" for s, c in view["trick"])
            console.print(f"Trick: {cards}")
        if view.get("last_trick"):
            last = view["last_trick"]
            cards = "  ".join(f"{names[s]} {face(c)}" for s, c in last["cards"])
            console.print(f"Last trick: {cards} — won by {names[last['winner']]}")
    for seat, kinds in view.get("declarations", {}).items():
        verb = "declare" if seat == "S" else "declares"  # "You declare", "Partner declares"
        console.print(f"{names[seat]} {verb} {', '.join(kinds)}")
    for seat, card, word in view.get("belote", []):
        console.print(f"{names[seat]}: {word} ({face(card)})")
    console.print("Your hand: " + "  ".join(face(c) for c in view["hand"]))


def result_card(view: Mapping[str, Any], table: Table | None) -> RichTable | None:
    """The last finished deal's result card (the lines of the counter's card)."""
    last = view.get("last_result")
    if not last:
        return None
    grid = RichTable(title=f"Deal {last['deal']}: {last['outcome']}", show_lines=False)
    grid.add_column("")
    grid.add_column("Us", justify="right")
    grid.add_column("Them", justify="right")
    if table is not None:
        score = table.replay.result.deals[last["deal"] - 1]
        for line in score.lines:
            grid.add_row(line.text, "" if line.ns is None else str(line.ns),
                         "" if line.ew is None else str(line.ew))
    else:
        grid.add_row("Marks", str(last["score"]["NS"]), str(last["score"]["EW"]))
    return grid


def choose(console: Console, view: Mapping[str, Any], ask: Callable[[str], str]) -> str | None:
    """The player's action: a number from the list, or the action's text; None to quit."""
    legal: list[str] = [str(a) for a in view["legal"]]
    shown = [a if len(a) != 2 else f"{a} {face(a)}" for a in legal]
    console.print("Your turn: " + "  ".join(f"[bold]{i}[/] {a}" for i, a in
                                              enumerate(shown, start=1)))
    while True:
        try:
            raw = ask("> ").strip()
        except EOFError:
            return None
        if raw.lower() in ("q", "quit", "exit"):
            return None
        if is_digits(raw) and 1 <= int(raw) <= len(legal):
            return legal[int(raw) - 1]
        if raw:
            return raw
        console.print("Type a number from the list, or a card like JH, or a bid like pass.")


def events(view: Mapping[str, Any]) -> list[str]:
    """What happened in the deal in play, one line per call or card."""
    names = SEAT_NAMES
    out = [f"{names[s]}: {b}" for s, b in view["auction"]]
    for trick in view["tricks"]:
        out.extend(_plays(s, c) for s, c in trick["cards"])
        out.append(f"  trick won by {names[trick['winner']]}")
    out.extend(_plays(s, c) for s, c in view["trick"])
    return out


def _plays(seat: str, card: str) -> str:
    return f"{SEAT_NAMES[seat]} {'play' if seat == 'S' else 'plays'} {face(card)}"


def play(source: Source, console: Console, ask: Callable[[str], str] = input,
         deals: int = 0, table_of: Callable[[], Table | None] = lambda: None) -> int:
    """Play until the game is won (or ``deals`` deals are over); 0 when done, 1 on quit."""
    view = source.view()
    drawn_version: Any = None
    shown_result = 0
    told = (0, 0)
    while True:
        said = events(view)
        start = told[1] if told[0] == view["deal"] else 0
        for line in said[start:]:
            console.print(line)
        told = (view["deal"], len(said))
        last = view.get("last_result")
        if last and last["deal"] > shown_result:
            shown_result = last["deal"]
            card = result_card(view, table_of())
            if card is not None:
                console.print(card)
            if last.get("record"):
                console.print(f"Shuffle: commitment {last['record']['commitment'][:16]}… "
                              f"seed {last['record']['seed']} (check with rebelote verify)")
            if deals and shown_result >= deals:
                return 0
        if view["over"]:
            winner = "Us" if view["winner"] == "NS" else "Them"
            console.print(f"[bold]Game over: {winner} won, {view['scores']['NS']} to "
                          f"{view['scores']['EW']}.[/]")
            return 0
        key = (view["deal"], len(view["auction"]), len(view["tricks"]), len(view["trick"]))
        if view["legal"]:
            if key != drawn_version:
                draw(console, view)
                drawn_version = key
            action = choose(console, view, ask)
            if action is None:
                console.print("Bye.")
                return 1
            try:
                view = source.act(action)
            except IllegalActionError as e:
                console.print(f"[red]Refused:[/] {e}")
        else:
            view = source.wait()
