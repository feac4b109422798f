"""The table in the terminal (``rebelote play``): the same views, rules, bots and result cards
as the web table, drawn with Rich and played from the keyboard.

A game is played against local bots (:class:`LocalTable`), or in a room of a running server
joined by its code (:class:`RemoteTable`, over the JSON API). Either way the screen is drawn from
the seat's view only (:func:`rebelote.table.table_view`), turned so that the player sits South.
At the player's turn the legal actions are numbered: type a number, or the action itself
(``JH``, ``pass``, ``90 hearts``); ``q`` quits. A coinche or contrée call is asked in two steps,
the contract's value, then its trump; the cards are offered in the hand's order. French by
default, as the pages (the words are the play table's, from the gettext catalogs); each
finished deal's record is written to a file that ``rebelote verify`` checks.
"""

from __future__ import annotations

import json
import random
import re
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any, Final, Protocol

from rich.console import Console
from rich.table import Table as RichTable

from rebelote import catalogs
from rebelote.bots import Bot, make_bot
from rebelote.catalogs import pgettext
from rebelote.errors import IllegalActionError
from rebelote.numbers import is_digits
from rebelote.rules import Rules
from rebelote.table.model import DECLINE, Seat, Table
from rebelote.table.shuffle import new_seed_and_salt
from rebelote.table.view import table_view

SUIT_BY_LETTER = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
SEAT_WORDS = {"S": "You", "N": "Partner", "E": "East", "W": "West"}
#: The ranks as printed on French cards (valet, dame, roi): the page's.
FRENCH_RANKS = {"J": "V", "Q": "D", "K": "R", "T": "10"}
TRUMP_ORDER = ("spades", "hearts", "diamonds", "clubs", "no-trump", "all-trump")


def tr(lang: str, text: str) -> str:
    """``text`` (English) in ``lang``: the play table's words (gettext context ``table``)."""
    return text if lang == "en" else pgettext(lang, "table", text)


def face(card: str, lang: str = "en") -> str:
    rank = "10" if card[0] == "T" else card[0]
    if lang == "fr":
        rank = FRENCH_RANKS.get(card[0], rank)
    colour = "red" if card[1] in "HD" else "default"
    return f"[{colour}]{rank}{SUIT_BY_LETTER[card[1]]}[/]"


def bid_words(bid: str, lang: str) -> str:
    """A call as said: ``90 cœur``, ``passe``."""
    return " ".join(tr(lang, w) for w in bid.split())


def _name(seat: str, lang: str) -> str:
    return tr(lang, SEAT_WORDS[seat])


def team_words(text: str, lang: str) -> str:
    """A result-card line of the core, its teams named as the terminal's header names them
    (South's team is NS: "Us", the other "Them")."""
    return re.sub(r"\b(NS|EW)\b", lambda m: tr(lang, "Us" if m.group(1) == "NS" else "Them"),
                  text)


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
        self.declining = False

    def _call(self, method: str, path: str, body: Mapping[str, Any] | None = None
              ) -> dict[str, Any]:
        return self._request(method, path, body)[1]

    def _request(self, method: str, path: str, body: Mapping[str, Any] | None = None
                 ) -> tuple[int, dict[str, Any]]:
        """The answer's status and JSON; a refusal as :class:`IllegalActionError` with the
        server's sentence."""
        data = json.dumps(body).encode() if body is not None else None
        req = urllib.request.Request(self.server + path, data=data, method=method)
        req.add_header("Content-Type", "application/json")
        if getattr(self, "token", None):
            req.add_header("Authorization", f"Bearer {self.token}")
        try:
            with urllib.request.urlopen(req, timeout=30) as resp:
                return resp.status, dict(json.loads(resp.read()))
        except urllib.error.HTTPError as e:
            try:
                reason = json.loads(e.read()).get("error", str(e))
            except ValueError:
                reason = str(e)
            raise IllegalActionError(reason) from None

    def view(self) -> dict[str, Any]:
        self.last = self._declined(self._call("GET", f"/api/tables/{self.id}"))
        return self.last

    def act(self, action: str) -> dict[str, Any]:
        """Send ``action``. Declining one's declarations is kept here and sent with the card
        that follows (``no-declaration JH``): the server takes it with the card only, so that
        the other seats never see a change of its own."""
        if action.strip().lower() == DECLINE:
            self.declining = True
            self.last = self._declined(self.last)
            return self.last
        if self.declining and len(action.strip()) == 2:  # a card
            action = f"{DECLINE} {action.strip()}"
        self.last = self._call("POST", f"/api/tables/{self.id}/actions", {"action": action})
        self.declining = False
        return self.last

    def again(self) -> tuple[dict[str, Any], bool]:
        """The room's next game (``POST /api/tables/{id}/again``, the page's *Nouvelle
        partie*): this seat's view of it, and whether this call started it (``False``:
        another player of the room had). The seat moves to it, with the same secret."""
        status, view = self._request("POST", f"/api/tables/{self.id}/again")
        self.id = view["id"]
        self.token = view.get("token") or self.token
        self.declining = False
        self.last = view
        return view, status == 201

    def _declined(self, view: dict[str, Any]) -> dict[str, Any]:
        if not getattr(self, "declining", False) or DECLINE not in view.get("legal", ()):
            return view
        return {**view, "legal": [a for a in view["legal"] if a != DECLINE]}

    def wait(self) -> dict[str, Any]:
        time.sleep(0.4)
        return self.view()


def header(view: Mapping[str, Any], lang: str = "en") -> str:
    """The deal's header line: its number, dealer, the score (and the contract in play)."""
    scores = view["scores"]
    head = (f"{tr(lang, 'Deal')} {view['deal']} · {tr(lang, 'dealer')} "
            f"{_name(view['dealer'], lang)} · {tr(lang, 'Us')} {scores['NS']} – "
            f"{tr(lang, 'Them')} {scores['EW']} ({tr(lang, 'game to')} {view['target']})")
    if view["phase"] != "play":
        pass
    elif view.get("contract") and view["game"] != "belote":
        head += (f" · {tr(lang, 'Contract')} {bid_words(view['contract'], lang)} "
                 f"({_name(view['taker'], lang)})")
        if view.get("coinche", 1) > 1:
            head += f" ×{view['coinche']}"
    elif view.get("trump"):
        head += (f" · {tr(lang, 'Trump')} {tr(lang, view['trump'])} "
                 f"({_name(view['taker'], lang)})")
    return head


#: In :func:`draw`'s ``said``: the deal's auction recap was printed.
AUCTION_TOLD: Final = "\0auction"


def draw(console: Console, view: Mapping[str, Any], lines: list[str] | None = None,
         lang: str = "en", said: set[str] | None = None, rule: bool = True) -> None:
    """The table as the player sees it. ``rule``: the deal's header first. ``said``: what was
    told already this deal, each told once, then added: the declarations and belotes, and the
    auction's recap (at the player's first call of the deal; each call after is told as it
    is made, :func:`events`: the recap repeated every call at every turn)."""
    colon = catalogs.colon(lang)
    if rule:
        console.rule(header(view, lang))
    if view["phase"] == "auction":
        if said is None or AUCTION_TOLD not in said:
            calls = ", ".join(f"{_name(s, lang)}{colon} {bid_words(b, lang)}"
                              for s, b in view["auction"]) or "—"
            console.print(f"{tr(lang, 'Auction')}{colon} {calls}")
        if said is not None:
            said.add(AUCTION_TOLD)
        if view.get("turned"):
            console.print(f"{tr(lang, 'Turned card')}{colon} {face(view['turned'], lang)}")
    else:
        if view["trick"]:
            cards = "  ".join(f"{_name(s, lang)} {face(c, lang)}" for s, c in view["trick"])
            console.print(f"{tr(lang, 'Trick')}{colon} {cards}")
        if view.get("last_trick"):
            last = view["last_trick"]
            cards = "  ".join(f"{_name(s, lang)} {face(c, lang)}" for s, c in last["cards"])
            console.print(f"{tr(lang, 'Last trick')}{colon} {cards} — {tr(lang, 'won by')} "
                          f"{_name(last['winner'], lang)}")
    # "You declare", "Partner declares"; then the belote and rebelote
    news = [f"{_name(seat, lang)} {tr(lang, 'declare' if seat == 'S' else 'declares')} "
            f"{', '.join(tr(lang, k) for k in kinds)}"
            for seat, kinds in view.get("declarations", {}).items()]
    news += [f"{_name(seat, lang)}{colon} {tr(lang, word)} ({face(card, lang)})"
             for seat, card, word in view.get("belote", [])]
    for line in news:
        if said is None or line not in said:
            console.print(line)
    if said is not None:
        said.update(news)
    console.print(f"{tr(lang, 'Your hand')}{colon} " + "  ".join(face(c, lang)
                                                                   for c in view["hand"]))


#: A result-card line said in the player's language, its teams named as the header names them
#: (given by the command line, which may read the pages' sentences).
LineWords = Callable[[Any, Any], str]


def result_card(view: Mapping[str, Any], table: Table | None, lang: str = "en",
                line_words: LineWords | None = None) -> RichTable | None:
    """The last finished deal's result card (the lines of the counter's card), the teams
    named as the header names them (Us, Them)."""
    last = view.get("last_result")
    if not last:
        return None
    colon = catalogs.colon(lang)
    grid = RichTable(title=f"{tr(lang, 'Deal')} {last['deal']}{colon} "
                           f"{tr(lang, last['outcome'])}", show_lines=False)
    grid.add_column("")
    grid.add_column(tr(lang, "Us"), justify="right")
    grid.add_column(tr(lang, "Them"), justify="right")
    if table is not None:
        score = table.replay.result.deals[last["deal"] - 1]
        summary = table.replay.finished[last["deal"] - 1].summary()
        for line in score.lines:
            text = line_words(line, summary) if line_words else team_words(line.text, lang)
            grid.add_row(text, "" if line.ns is None else str(line.ns),
                         "" if line.ew is None else str(line.ew))
    else:
        grid.add_row(tr(lang, "Marks"), str(last["score"]["NS"]), str(last["score"]["EW"]))
    return grid


def _offer(view: Mapping[str, Any]) -> tuple[list[str], dict[str, list[str]]]:
    """The first choices of a turn: the cards in the hand's order, the calls, and each
    contract value once (its trumps, ``value -> [legal "value trump"]``, asked next)."""
    legal: list[str] = [str(a) for a in view["legal"]]
    hand = list(view.get("hand") or [])
    cards = sorted((a for a in legal if len(a) == 2 and a in hand), key=hand.index)
    values: dict[str, list[str]] = {}
    calls: list[str] = []
    for a in legal:
        head, _, tail = a.partition(" ")
        if tail in TRUMP_ORDER:
            values.setdefault(head, []).append(a)
        elif a not in cards:
            calls.append(a)
    return [*cards, *calls, *values], values


def _ask(console: Console, ask: Callable[[str], str], options: list[str],
         shown: list[str], lang: str) -> str | None:
    """One numbered question: the option picked (by number, or typed), None to quit."""
    colon = catalogs.colon(lang)
    console.print(f"{tr(lang, 'Your turn')}{colon} " + "  ".join(
        f"[bold]{i}[/] {a}" for i, a in enumerate(shown, start=1)))
    while True:
        try:
            raw = ask("> ").strip()
        except EOFError:
            return None
        if raw.lower() in ("q", "quit", "exit"):
            return None
        if is_digits(raw) and 1 <= int(raw) <= len(options):
            return options[int(raw) - 1]
        if raw:
            return raw
        console.print(tr(lang, "Type a number from the list, or a card like JH, or a bid "
                               "like pass."))


def choose(console: Console, view: Mapping[str, Any], ask: Callable[[str], str],
           lang: str = "en") -> str | None:
    """The player's action: a number from the list, or the action's text; None to quit. A
    contract is chosen in two steps: its value, then its trump."""
    options, values = _offer(view)
    shown = [face(a, lang) if len(a) == 2 and a[1] in SUIT_BY_LETTER and a[0] in "789TJQKA"
             else (tr(lang, "Contract").lower() + " " + tr(lang, a) if a in values
                   else bid_words(a, lang)) for a in options]
    picked = _ask(console, ask, options, shown, lang)
    if picked is None or picked not in values:
        return picked
    bids = sorted(values[picked], key=lambda b: TRUMP_ORDER.index(b.partition(" ")[2]))
    return _ask(console, ask, bids, [bid_words(b, lang) for b in bids], lang)


def events(view: Mapping[str, Any], lang: str = "en") -> list[str]:
    """What happened in the deal in play, one line per call or card."""
    colon = catalogs.colon(lang)
    out = [f"{_name(s, lang)}{colon} {bid_words(b, lang)}" for s, b in view["auction"]]
    for trick in view["tricks"]:
        out.extend(_plays(s, c, lang) for s, c in trick["cards"])
        out.append(f"  {tr(lang, 'Trick')} {tr(lang, 'won by')} {_name(trick['winner'], lang)}")
    out.extend(_plays(s, c, lang) for s, c in view["trick"])
    return out


def _plays(seat: str, card: str, lang: str = "en") -> str:
    return f"{_name(seat, lang)} {tr(lang, 'play' if seat == 'S' else 'plays')} " \
           f"{face(card, lang)}"


def default_records() -> Path:
    """Where ``rebelote play`` writes its deals' records by default: ``$REBELOTE_RECORDS``
    (a folder), else the user's data directory, one file per game."""
    import os

    from platformdirs import user_data_dir

    folder = Path(os.environ.get("REBELOTE_RECORDS") or
                  Path(user_data_dir("rebelote", appauthor=False)) / "records")
    return folder / f"table-{time.strftime('%Y%m%d-%H%M%S')}.jsonl"


#: What the terminal says and asks at the end of a room's game (the page's words).
NEXT_GAME_TOLD: Final = "A new game has started: your seat is kept for you in it."
#: Answers to a yes-or-no question, in either language (o, oui; y, yes).
YES: Final = frozenset({"o", "oui", "y", "yes"})
NO: Final = frozenset({"n", "non", "no", "q", "quit"})


def play(source: Source, console: Console, ask: Callable[[str], str] = input,
         deals: int = 0, table_of: Callable[[], Table | None] = lambda: None,
         lang: str = "en", records: Path | None = None,
         line_words: LineWords | None = None) -> int:
    """Play until the game is won (or ``deals`` deals are over); 0 when done, 1 on quit.
    ``records``: the file each finished deal's record is added to (a line each). In a room
    (:class:`RemoteTable`), a game's end offers the room's next game (:func:`next_game`),
    played the same way."""
    while True:
        code, over = play_game(source, console, ask, deals, table_of, lang, records,
                               line_words)
        if code or not over or not isinstance(source, RemoteTable):
            return code
        if not next_game(source, console, ask, lang):
            return 0


def next_game(room: RemoteTable, console: Console, ask: Callable[[str], str],
              lang: str = "en") -> bool:
    """At a room's finished game: offer its next game ("Nouvelle partie ? [o/n]"), or, when
    another player started it already, say so and offer to join it; on yes, the seat follows
    the room to it (:meth:`RemoteTable.again`: the same seat, the same secret). Whether the
    player goes on."""
    colon = catalogs.colon(lang)
    started = bool(room.view().get("next_game"))  # another player of the room pressed first
    if started:
        console.print(tr(lang, NEXT_GAME_TOLD))
    question = tr(lang, "Join the new game? [y/n]" if started else "New game? [y/n]")
    while True:
        try:
            said = ask(f"{question} ").strip().lower()
        except EOFError:
            return False
        if said in YES or said in NO:
            break
        console.print(tr(lang, "Answer y (yes) or n (no)."))
    if said in NO:
        return False
    try:
        _, mine = room.again()
    except IllegalActionError as e:
        console.print(f"[red]{tr(lang, 'Refused')}{colon}[/] {e}")
        return False
    if not mine and not started:  # another player pressed it meanwhile: theirs is joined
        console.print(tr(lang, NEXT_GAME_TOLD))
    return True


def play_game(source: Source, console: Console, ask: Callable[[str], str] = input,
              deals: int = 0, table_of: Callable[[], Table | None] = lambda: None,
              lang: str = "en", records: Path | None = None,
              line_words: LineWords | None = None) -> tuple[int, bool]:
    """One game of :func:`play`: its exit code, and whether the game ended (not the
    ``deals`` asked for, nor a quit)."""
    view = source.view()
    drawn_version: Any = None
    shown_result = 0
    told = (0, 0)
    ruled = ""  # the header last printed: printed again only when it changes (the contract)
    announced: set[str] = set()  # the deal's declarations and belotes told already
    while True:
        said = events(view, lang)
        start = told[1] if told[0] == view["deal"] else 0
        new_deal = told[0] != view["deal"]
        told = (view["deal"], len(said))
        last = view.get("last_result")
        if last and last["deal"] > shown_result:
            shown_result = last["deal"]
            card = result_card(view, table_of(), lang, line_words)
            if card is not None:
                console.print(card)
            if last.get("record"):
                record = last["record"]
                line = (f"{tr(lang, 'Shuffle')}{catalogs.colon(lang)} "
                        f"{tr(lang, 'commitment')} {record['commitment'][:16]}… "
                        f"{tr(lang, 'seed')} {record['seed']}")
                if records is not None:
                    records.parent.mkdir(parents=True, exist_ok=True)
                    with records.open("a", encoding="utf-8") as out:
                        out.write(json.dumps(record, ensure_ascii=False) + "\n")
                    line += (f" ({tr(lang, 'record written to')} {records}; "
                             f"{tr(lang, 'check it with')} rebelote verify {records})")
                console.print(line)
            if deals and shown_result >= deals:
                return 0, False
        if new_deal:
            announced = set()
        if new_deal and not view["over"]:
            ruled = header(view, lang)
            console.rule(ruled)  # a new deal: its header before its first call
        for line in said[start:]:
            console.print(line)
        if view["over"]:
            won = tr(lang, "We won the game" if view["winner"] == "NS" else "They won the game")
            console.print(f"[bold]{tr(lang, 'The game is over.')} {won} "
                          f"({view['scores']['NS']} – {view['scores']['EW']}).[/]")
            return 0, True
        key = (view["deal"], len(view["auction"]), len(view["tricks"]), len(view["trick"]))
        if view["legal"]:
            if key != drawn_version:
                head = header(view, lang)
                draw(console, view, lang=lang, said=announced, rule=head != ruled)
                ruled = head
                drawn_version = key
            action = choose(console, view, ask, lang)
            if action is None:
                console.print(tr(lang, "Bye."))
                return 1, False
            try:
                view = source.act(action)
            except IllegalActionError as e:
                console.print(f"[red]{tr(lang, 'Refused')}{catalogs.colon(lang)}[/] "
                              f"{e}")
        else:
            view = source.wait()
