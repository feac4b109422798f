"""The play table, core side: a table is its rules, its target, its four seats and, per deal, a
secret seed and the list of actions taken; everything else is replayed through the engine.

A :class:`Table` is immutable: :meth:`Table.act` answers a new table (and refuses an action out
of turn or illegal with :class:`IllegalActionError`, changing nothing). Deals follow each other
to the target (:class:`~rebelote.match.Match` keeps the score); each deal is shuffled by its own
seed, committed to before the deal (:mod:`rebelote.table.shuffle`). A seat is played by a human
(who holds the seat's secret; the table keeps only its SHA-256) or by a bot of the registry; a
human who left is played by the seat's bot until back (``away``). Bots never see the seed: they
get the seat's observation only (:meth:`Table.bot_action`).

**No hand changes owner mid-deal.** A newcomer who takes a seat a bot played, or a player left
(:meth:`Table.sit`), holds it from the next deal (:attr:`Seat.from_deal`): until then the seat's
bot plays on and the newcomer watches with no hand (:meth:`Table.holds`). The one exception is
a seat kept for a friend (``open``), which nobody has played: its friend holds it at once, and
only with the seat's own invitation secret (:attr:`Seat.invite`). The host holds every
invitation, so a hand shown at once that way stays its player's to the deal's end
(:attr:`Seat.bound`): handed back before, it shows as its player's, away, its bot playing it in
everyone's sight, and is a bot's seat from the next deal; no plain bot plays, as someone's
partner, a hand another player has seen.

>>> from rebelote.rules import Rules
>>> seeds = iter([("a1", "b1"), ("a2", "b2"), ("a3", "b3")])
>>> table = Table.new(Rules.preset("official", "coinche"), target=1000,
...                   seats=[Seat.bot_seat("random")] * 4, entropy=lambda: next(seeds))
>>> table.deal_number, table.turn, table.current.commitment == commitment("a1", "b1")
(1, 1, True)
>>> table = table.act(1, "pass")
>>> table.act(1, "pass")
Traceback (most recent call last):
...
rebelote.table.model.NotYourTurnError: E pass: it is S's turn, not E's
"""

from __future__ import annotations

import hmac
import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from functools import cached_property
from typing import Any, Final, Literal

from rebelote.actions import NO_DECLARATION, parse_action
from rebelote.bots import (
    Bot,
    bot_levels,
    is_engine_spec,
    known_bots,
    known_specs,
    make_bot,
    parse_bot_spec,
)
from rebelote.cards import SEATS, Team
from rebelote.deal import DealState
from rebelote.errors import IllegalActionError, InputError, RulesError
from rebelote.game import end_deal
from rebelote.match import DEFAULT_TEAMS, Match, MatchResult
from rebelote.record import record_of
from rebelote.rules import Rules
from rebelote.secret import same_secret, secret_hash, secret_matches
from rebelote.summary import summary_rules
from rebelote.table.shuffle import commitment, deck_of, new_seed_and_salt

SeatKind = Literal["human", "bot", "open"]
Entropy = Callable[[], tuple[str, str]]

#: The action that starts the deal in play when the table waits between deals (``between``):
#: kept in the deal's actions (first, alone of its kind), never given to the engine.
NEXT: Final = "next"
#: ``between``: the table waits after each deal until a player goes on (:data:`NEXT`).
WAIT: Final = -1

#: The bot seats are played by when nothing is said: the strongest quick bot known.
PREFERRED_BOTS: Final = ("heuristic", "random")


def default_bot() -> str:
    """The heuristic bot once it is registered, else the random one."""
    known = known_bots()
    return next((b for b in PREFERRED_BOTS if b in known), known[0])


def bot_spec(text: object, field: str = "bots", allow_engine: bool = False) -> str:
    """The registry's spec of a bot (``heuristic``, ``pimc:fast``) in its written form; an
    :class:`InputError` on ``field`` naming the specs the registry knows otherwise. An outside
    program (``engine:...``) only with ``allow_engine`` (the terminal table): a server never
    starts one.

    >>> bot_spec(" Random ")
    'random'
    >>> bot_spec("nobody")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    rebelote.errors.InputError: bots: 'nobody' is not a bot (known: heuristic, ...)
    """
    if is_engine_spec(text) and not allow_engine:
        raise InputError(field, f"{text!r}: the play table seats the registry's bots only; an "
                                "outside program (engine:...) is started by the command line "
                                f"and the library, never by a server (known: "
                                f"{', '.join(known_specs())})")
    try:
        spec = parse_bot_spec(text)
        if spec.level is not None and not is_engine_spec(spec) \
                and spec.level not in bot_levels(spec.name):
            make_bot(spec)  # a level beyond the named ones (a budget...): the bot says
        return str(spec)
    except ValueError:
        raise InputError(field, f"{text!r} is not a bot (known: {', '.join(known_specs())})"
                         ) from None


class NotYourTurnError(IllegalActionError):
    """An action by a seat whose turn it is not (or whose hand is not yet its holder's)."""


class SeatTakenError(RuntimeError):
    """A newcomer asked for a seat a human holds already."""


class InviteError(PermissionError):
    """A seat kept for a friend asked for without its invitation secret."""


@dataclass(frozen=True, slots=True)
class Seat:
    """One seat: played by a human (``token_hash``: the :func:`~rebelote.secret.secret_hash`
    of the seat's secret), by the bot ``bot``, or
    ``open``: kept for a friend (the table waits at its turn until a friend takes it or it is
    handed to its bot).

    ``away``: a human who left or ran out of time; the seat's bot plays until the human is
    back. A human seat's bot is the one that takes over. ``from_deal``: the first deal whose
    hand is the human's (the seat's bot plays the deals before: :meth:`Table.holds`).
    ``invite``: an open seat's invitation secret, the only way to take it (kept with the
    table's seeds: it never leaves the server but to the table's host). ``bound``: the deal in
    which this seat was taken with its invitation, its hand shown at once: the seat is not
    handed to a plain bot before that deal ends (:meth:`Table.hand_back`).
    ``consent``: the
    human at this seat said yes to the teacher's view (:attr:`Table.teaching`); cleared for
    every seat whenever a human seat changes (:meth:`Table.with_seat`)."""

    kind: SeatKind = "bot"
    bot: str = "random"
    name: str = ""
    token_hash: str | None = None
    away: bool = False
    from_deal: int = 0
    invite: str = ""
    bound: int = 0
    consent: bool = False

    @staticmethod
    def bot_seat(bot: str) -> Seat:
        return Seat("bot", bot)

    @staticmethod
    def human(token: str, bot: str, name: str = "", from_deal: int = 0) -> Seat:
        return Seat("human", bot, name, secret_hash(token), from_deal=from_deal)

    @staticmethod
    def kept(bot: str, invite: str) -> Seat:
        """A seat kept for a friend, taken with ``invite`` only."""
        return Seat("open", bot, invite=invite)

    @property
    def by_bot(self) -> bool:
        """The seat's bot plays its turns (a bot seat, or a human away)."""
        return self.kind == "bot" or self.away

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"kind": self.kind, "bot": self.bot, "name": self.name,
                               "token_hash": self.token_hash, "away": self.away}
        if self.from_deal:
            out["from_deal"] = self.from_deal
        if self.invite:
            out["invite"] = self.invite
        if self.bound:
            out["bound"] = self.bound
        if self.consent:
            out["consent"] = True
        return out

    @staticmethod
    def from_json(obj: Mapping[str, Any]) -> Seat:
        kind = obj.get("kind")
        if kind not in ("human", "bot", "open"):
            raise InputError("seats.kind", f"{kind!r}: a seat is human, bot or open")
        from_deal = obj.get("from_deal", 0)
        if isinstance(from_deal, bool) or not isinstance(from_deal, int) or from_deal < 0:
            raise InputError("seats.from_deal", f"{from_deal!r}: a deal number")
        bound = obj.get("bound", 0)
        if isinstance(bound, bool) or not isinstance(bound, int) or bound < 0:
            raise InputError("seats.bound", f"{bound!r}: a deal number")
        return Seat(kind, str(obj.get("bot") or "random"), str(obj.get("name") or ""),
                    obj.get("token_hash"), bool(obj.get("away")), from_deal,
                    str(obj.get("invite") or ""), bound,
                    obj.get("consent") is True)


@dataclass(frozen=True, slots=True)
class DealLog:
    """One deal as the table keeps it: its secret seed and salt, its dealer, its actions."""

    seed: str
    salt: str
    dealer: int
    actions: tuple[str, ...] = ()

    @property
    def commitment(self) -> str:
        """Shown before the deal: the SHA-256 of the seed and salt."""
        return commitment(self.seed, self.salt)

    def to_json(self) -> dict[str, Any]:
        return {"seed": self.seed, "salt": self.salt, "dealer": SEATS[self.dealer],
                "actions": list(self.actions)}

    @staticmethod
    def from_json(obj: Mapping[str, Any]) -> DealLog:
        actions = obj.get("actions", [])
        if not isinstance(actions, list) or not all(isinstance(a, str) for a in actions):
            raise InputError("deals.actions", "must be a list of actions as text")
        return DealLog(str(obj["seed"]), str(obj["salt"]), SEATS.index(str(obj["dealer"])),
                       tuple(actions))


@dataclass(frozen=True, slots=True)
class Replay:
    """A table's deals played through the engine: the score, the finished deals, the deal in
    play (the last one, finished, when the game is won)."""

    match: Match
    result: MatchResult
    finished: tuple[DealState, ...]
    deal: DealState

    @property
    def winner(self) -> Team | None:
        return self.result.winner if self.finished else None


def _start(rules: Rules, log: DealLog, result: MatchResult | None) -> DealState:
    reserve, totals = (result.reserve, result.totals) if result else (0, (0, 0))
    return DealState.from_deck(rules, log.dealer, deck_of(log.seed), reserve, totals)


@dataclass(frozen=True)
class Table:
    """A play table. ``seats`` N E S W; ``deals`` every deal so far, the last one in play
    (or the last of a won game). ``pace``: milliseconds between two bots' moves as a page
    shows them; ``clock``: seconds a human has to act before the seat's bot plays (0: none);
    ``code``: the short join code of a room; ``host``: the hash of its creator's secret (who
    may hand a seat back to its bot, and sees the invitations). ``between``: what the table
    does after a deal while a human sits at it: 0 deal on at once, :data:`WAIT` wait until a
    player goes on (the action :data:`NEXT`), a number of milliseconds: the players' pages go
    on by themselves after that long (the player may go on sooner). Meanwhile nobody is to
    act (:attr:`turn` is -1) and every page shows the deal that ended. ``levels``: the bots'
    levels as the table was asked for them (N, E, S, W: ``fort``, or a registry spec with a
    named level), kept for a new game with the same settings (the seats' ``bot`` are the specs
    they stand for, ``pimc:default+tuned``, which a table is not asked for); empty for a table
    stored before it was kept.
    ``hints``: its creator
    lets the players ask for a hint at their turn (:mod:`rebelote.table.hint`);
    ``hints_taken``: how many each seat took (the table's sheet counts them).

    ``watch`` and ``teach``: the secrets of the table's watch link and teacher's link (kept in
    clear like the invitations: every seat is shown them; empty: none, or revoked);
    ``watch_delay``: how far behind the watchers follow the deal in play (1 trick, 0 live, -1
    the end of each deal only: :mod:`rebelote.table.watching`).

    ``next_game``: once the game is over, the id of the new game its players started with the
    same seats (:meth:`with_next_game`; empty: none yet). Only one: a second "New game" goes
    to it."""

    rules: Rules
    target: int
    seats: tuple[Seat, Seat, Seat, Seat]
    deals: tuple[DealLog, ...]
    teams: tuple[str, str] = DEFAULT_TEAMS
    pace: int = 0
    clock: int = 0
    code: str = ""
    host: str = ""
    between: int = 0
    levels: tuple[str, ...] = ()
    hints: bool = False
    hints_taken: tuple[int, int, int, int] = (0, 0, 0, 0)
    watch: str = ""
    teach: str = ""
    watch_delay: int = 1
    next_game: str = ""

    @staticmethod
    def new(rules: Rules, target: int | None = None, seats: Sequence[Seat] | None = None,
            dealer: int = 0, entropy: Entropy = new_seed_and_salt, **more: Any) -> Table:
        """A table at its first deal, dealt by ``dealer``."""
        seat_list = tuple(seats) if seats is not None else tuple(
            Seat.bot_seat(default_bot()) for _ in range(4))
        if len(seat_list) != 4:
            raise InputError("seats", "a table has four seats (N, E, S, W)")
        seed, salt = entropy()
        return Table(rules, target or rules.target,
                     (seat_list[0], seat_list[1], seat_list[2], seat_list[3]),
                     (DealLog(seed, salt, dealer),), **more)

    # -- replay -------------------------------------------------------------------------------
    @cached_property
    def replay(self) -> Replay:
        """Every deal replayed through the engine (computed once per table)."""
        match = Match(self.rules, target=self.target, teams=self.teams)
        result: MatchResult | None = None
        finished: list[DealState] = []
        state: DealState | None = None
        for n, log in enumerate(self.deals):
            state = _start(self.rules, log, result)
            for i, text in enumerate(log.actions):
                if text == NEXT:  # the player went on to this deal: no move of the engine
                    continue
                try:
                    state = state.apply(parse_action(text))
                except IllegalActionError as e:
                    raise InputError(f"deals[{n}].actions[{i}]", str(e)) from None
            if state.is_terminal:
                match, result, _ = end_deal(match, state)
                finished.append(state)
        assert state is not None
        return Replay(match, result or match.result(), tuple(finished), state)

    @property
    def current(self) -> DealLog:
        """The deal in play (the last one)."""
        return self.deals[-1]

    @property
    def deal(self) -> DealState:
        return self.replay.deal

    @property
    def deal_number(self) -> int:
        """The deal in play, counted from 1."""
        return len(self.deals)

    @property
    def is_over(self) -> bool:
        """The game is won."""
        return self.replay.winner is not None

    @property
    def winner(self) -> Team | None:
        return self.replay.winner

    @property
    def waiting(self) -> bool:
        """The deal in play waits for a player to go on (:data:`NEXT`): it follows a finished
        one, nothing is played in it yet, the table waits between deals and a human sits at
        it (not away: a table whose players all left goes on with their bots)."""
        return (self.between != 0 and len(self.deals) > 1 and not self.current.actions
                and not self.is_over
                and any(s.kind == "human" and not s.away for s in self.seats))

    @property
    def turn(self) -> int:
        """The seat to act (-1 when the game is over, or while the table waits between
        deals: :attr:`waiting`)."""
        return -1 if self.is_over or self.waiting else self.deal.current_player

    @property
    def bot_to_play(self) -> bool:
        """The seat to act is played by its bot."""
        return self.turn >= 0 and self.by_bot(self.turn)

    # -- who holds each seat ------------------------------------------------------------------
    def holds(self, seat: int) -> bool:
        """The human at ``seat`` holds its hand in the deal in play (from its
        :attr:`~Seat.from_deal` on): they see it and play it (unless away)."""
        s = self.seats[seat]
        return s.kind == "human" and self.deal_number >= s.from_deal

    def by_bot(self, seat: int) -> bool:
        """``seat``'s bot plays its turns in this deal: a bot seat, a human away, or a
        newcomer's seat before the deal it holds."""
        s = self.seats[seat]
        return s.by_bot or (s.kind == "human" and not self.holds(seat))

    def sit(self, seat: int, token: str, name: str = "", invite: str | None = None) -> Table:
        """The table with a newcomer (secret ``token``) at ``seat``. A seat kept for a friend
        is taken with its invitation secret only (:class:`InviteError`), and held at once; a
        bot's seat (one a bot played, or a player left) is held from the next deal: its bot
        plays this one and the newcomer sees no hand of it. :class:`SeatTakenError` if a
        human holds ``seat``."""
        old = self.seats[seat]
        if old.kind == "human":
            raise SeatTakenError(f"seat: {SEATS[seat]} is taken")
        if old.kind == "open":
            if not same_secret(invite, old.invite):
                raise InviteError(f"invite: {SEATS[seat]} is kept for a friend: take it with "
                                  "its own invitation link")
            taken = Seat.human(token, old.bot, name, self.deal_number)
            if self.in_play:  # its hand shown at once: its player's to the deal's end
                taken = replace(taken, bound=self.deal_number)
            return self.with_seat(seat, taken)
        return self.with_seat(seat, Seat.human(token, old.bot, name, self.deal_number + 1))

    def invited_seat(self, invite: str | None) -> int | None:
        """The seat kept for a friend whose invitation secret is ``invite``."""
        if not invite:
            return None
        found = None
        for s, seat in enumerate(self.seats):
            if seat.kind == "open" and same_secret(invite, seat.invite):
                found = s
        return found

    @property
    def in_play(self) -> bool:
        """A deal is in play (not over, not waiting for the next)."""
        return not self.is_over and not self.waiting

    def hand_back(self, seat: int) -> Table:
        """The table with ``seat`` played by its bot (its secret stops working): a player who
        leaves, or the host handing a seat back. A seat taken with its invitation in the deal
        in play (:attr:`Seat.bound`: its hand was shown to its player, and the host holds
        every invitation) stays its player's, away, to the deal's end: its bot plays it as
        that player's, in everyone's sight, and it is a bot's seat from the next deal (a
        plain bot never plays, as someone's partner, a hand a person saw)."""
        s = self.seats[seat]
        if s.kind == "human" and s.bound == self.deal_number and self.in_play:
            return self.with_seat(seat, replace(s, away=True, token_hash=None))
        return self.with_seat(seat, Seat.bot_seat(s.bot))

    def is_host(self, seat: int) -> bool:
        """``seat`` is held by the table's creator."""
        h = self.seats[seat].token_hash
        return bool(self.host) and h is not None and hmac.compare_digest(h, self.host)

    def play(self, seat: int, action: str, entropy: Entropy = new_seed_and_salt) -> Table:
        """``action`` by the human at ``seat`` (:meth:`act`), who must hold the seat's hand:
        a newcomer before their first deal is refused (:class:`NotYourTurnError`).
        Declining one's declarations comes with the first card (``no-declaration JH``), never
        alone (:data:`DECLINE`)."""
        s = self.seats[seat]
        if s.kind != "human" or not self.holds(seat):
            raise NotYourTurnError(
                f"{SEATS[seat]} {action}: this seat is yours from deal {s.from_deal}; its bot "
                f"plays deal {self.deal_number}")
        if isinstance(action, str) and action.strip().lower() in _DECLINE_ALONE:
            raise IllegalActionError(
                f"{DECLINE}: send it with your first card, like '{DECLINE} JH' (declining alone "
                "would show the other seats that you hold a declaration)")
        return self.act(seat, action, entropy)

    # -- acting -------------------------------------------------------------------------------
    def act(self, seat: int, action: str, entropy: Entropy = new_seed_and_salt) -> Table:
        """The table after ``seat`` takes ``action`` (text); the next deal is dealt (seed from
        ``entropy``) when this one ends and the game is not won. Refused, changing nothing:
        :class:`NotYourTurnError` out of turn, :class:`IllegalActionError` naming the rule."""
        if not isinstance(action, str) or not action.strip():
            raise IllegalActionError("action: missing: a bid or a card as text")
        if self.is_over:
            raise IllegalActionError(f"{action}: the game is over ({self.winner} won)")
        if action.strip() == NEXT:  # any player goes on to the next deal
            if not self.waiting:
                raise IllegalActionError(f"{NEXT}: the table is not waiting between deals")
            table = replace(self, deals=(*self.deals[:-1],
                                         replace(self.current, actions=(NEXT,))))
            table.__dict__["replay"] = self.replay
            return table
        if self.waiting:
            raise IllegalActionError(f"{action}: the table waits between deals: go on first "
                                     f"({NEXT})")
        declined, card = _declined_card(action)
        if declined:  # the decline and the card in one change: no frame, version or NOTIFY
            return self.act(seat, DECLINE, entropy).act(seat, card, entropy)  # of its own
        turn = self.turn
        parsed = parse_action(action)
        if seat != turn:
            raise NotYourTurnError(f"{SEATS[seat]} {parsed}: it is {SEATS[turn]}'s turn, "
                                   f"not {SEATS[seat]}'s")
        old = self.replay
        state = old.deal.apply(parsed)
        log = replace(self.current, actions=(*self.current.actions, str(parsed)))
        deals = (*self.deals[:-1], log)
        if not state.is_terminal:
            table = replace(self, deals=deals)
            table.__dict__["replay"] = replace(old, deal=state)
            return table
        end = end_deal(old.match, state)
        finished = (*old.finished, state)
        seats = self.seats
        if end.dealer >= 0:  # the game goes on: the next deal, dealt by the next seat
            seed, salt = entropy()
            nxt = DealLog(seed, salt, end.dealer)
            deals = (*deals, nxt)
            state = _start(self.rules, nxt, end.result)
            # the seats handed back in the deal their hand was shown in are bots' from now
            released = [Seat.bot_seat(x.bot) if x.kind == "human" and x.token_hash is None
                        else x for x in seats]
            seats = (released[0], released[1], released[2], released[3])
        table = replace(self, deals=deals, seats=seats)
        table.__dict__["replay"] = Replay(end.match, end.result, finished, state)
        return table

    def hint_taken(self, seat: int) -> Table:
        """The table after ``seat`` took a hint (counted on the table's sheet)."""
        taken = list(self.hints_taken)
        taken[seat] += 1
        table = replace(self, hints_taken=(taken[0], taken[1], taken[2], taken[3]))
        if "replay" in self.__dict__:
            table.__dict__["replay"] = self.__dict__["replay"]
        return table

    def bot_action(self, bot: Bot, rng: random.Random) -> str:
        """What ``bot`` plays for the seat to act, from that seat's observation only. A bot
        that declines its declarations is asked for its card at once: the two are one change
        (``no-declaration JH``), as a player's are (:meth:`play`)."""
        seat = self.turn
        if seat < 0:
            raise IllegalActionError("the game is over: nobody is to act")
        action = bot.act(self.deal.observation(seat), rng)
        if action == NO_DECLARATION:
            after = self.deal.apply(action)
            return f"{DECLINE} {bot.act(after.observation(seat), rng)}"
        return str(action)

    def with_seat(self, seat: int, new: Seat) -> Table:
        """The table with ``new`` at ``seat``. A human who sits, leaves or goes away ends the
        teacher's view for everyone: every seat's consent is cleared."""
        old = self.seats[seat]
        seats = list(self.seats)
        seats[seat] = new
        if "human" in (old.kind, new.kind) and (
                (old.kind, old.token_hash) != (new.kind, new.token_hash)
                or (new.away and not old.away)):
            seats = [replace(s, consent=False) if s.consent else s for s in seats]
        table = replace(self, seats=(seats[0], seats[1], seats[2], seats[3]))
        if "replay" in self.__dict__:
            table.__dict__["replay"] = self.__dict__["replay"]
        return table

    def with_next_game(self, table_id: str) -> Table:
        """The finished table once its players started their next game, ``table_id``
        (:attr:`next_game`); :class:`IllegalActionError` while the game goes on."""
        if not self.is_over:
            raise IllegalActionError("again: the game goes on; a new game starts once it is "
                                     "over")
        table = replace(self, next_game=table_id)
        table.__dict__["replay"] = self.replay
        return table

    def with_consent(self, seat: int, yes: bool) -> Table:
        """The human at ``seat`` says yes (or no) to the teacher's view."""
        s = self.seats[seat]
        if s.kind != "human":
            raise IllegalActionError(f"consent: {SEATS[seat]} is not a player's seat")
        return self.with_seat(seat, replace(s, consent=yes))

    @property
    def teaching(self) -> bool:
        """The teacher's view shows the hands: a teacher's link exists, a human sits at the
        table and every human said yes (none away)."""
        humans = [s for s in self.seats if s.kind == "human"]
        return bool(self.teach) and bool(humans) and all(s.consent and not s.away
                                                         for s in humans)

    def seat_of(self, token: str | None) -> int | None:
        """The seat whose secret is ``token`` (compared in constant time), else ``None``."""
        if not token:
            return None
        found = None
        for s, seat in enumerate(self.seats):
            if seat.kind == "human" and secret_matches(token, seat.token_hash):
                found = s
        return found

    # -- records ------------------------------------------------------------------------------
    def record(self, n: int) -> dict[str, Any]:
        """Finished deal ``n`` (from 1) as a deal record, with its commitment, seed and salt;
        :class:`InputError` if that deal is not over."""
        finished = self.replay.finished
        if not 1 <= n <= len(finished):
            raise InputError("n", f"deal {n} is not finished ({len(finished)} deals are)")
        log = self.deals[n - 1]
        rec = record_of(finished[n - 1])
        rec["commitment"] = log.commitment
        rec["seed"] = log.seed
        rec["salt"] = log.salt
        return rec

    # -- moves between two versions -------------------------------------------------------
    def moves_after(self, known: Table) -> dict[str, Any] | None:
        """What takes ``known`` to this table when only moves of its deal in play were made
        since (the same seats, rules and settings, no deal dealt): ``{"a": [the actions added
        to known's deal in play]}``; ``None`` otherwise. It holds nothing hidden (the cards
        played and the calls are public; a new deal's seed is never in it), so it may travel
        where any database role can read it (PostgreSQL's ``NOTIFY``). :meth:`with_moves`
        plays it."""
        if (known.rules, known.target, known.teams, known.seats, known.pace, known.clock,
                known.code, known.host, known.between, known.hints, known.hints_taken,
                known.watch, known.teach, known.watch_delay, known.next_game) != (
                    self.rules, self.target, self.teams, self.seats, self.pace, self.clock,
                    self.code, self.host, self.between, self.hints, self.hints_taken,
                    self.watch, self.teach, self.watch_delay, self.next_game):
            return None
        moves = _moves_between(known.deals, self.deals)
        if moves is None or moves[1]:
            return None
        return {"a": list(moves[0])}

    def with_moves(self, moves: Mapping[str, Any]) -> Table | None:
        """This table after ``moves`` (:meth:`moves_after`), every move through the engine;
        ``None`` if they are not moves of this table's deal in play."""
        try:
            actions = moves["a"]
        except (KeyError, TypeError):
            return None
        if not isinstance(actions, list) or not all(isinstance(a, str) for a in actions):
            return None
        return _played_on(self, actions, ())

    # -- storage ------------------------------------------------------------------------------
    def to_json(self) -> dict[str, Any]:
        """Everything the table is, secrets included (seeds, token hashes): for the store only,
        never for a player."""
        return {
            "game": self.rules.game, "rules": self.rules.name,
            "options": self.rules.changed_options(), "target": self.target,
            "teams": {"NS": self.teams[0], "EW": self.teams[1]},
            "seats": [s.to_json() for s in self.seats],
            "deals": [d.to_json() for d in self.deals],
            "pace": self.pace, "clock": self.clock, "code": self.code, "host": self.host,
            **({"between": self.between} if self.between else {}),
            **({"levels": list(self.levels)} if self.levels else {}),
            **({"hints": True} if self.hints else {}),
            **({"hints_taken": list(self.hints_taken)} if any(self.hints_taken) else {}),
            **({"watch": self.watch} if self.watch else {}),
            **({"teach": self.teach} if self.teach else {}),
            **({"watch_delay": self.watch_delay} if self.watch_delay != 1 else {}),
            **({"next_game": self.next_game} if self.next_game else {}),
        }

    @staticmethod
    def from_json(obj: Mapping[str, Any], known: Table | None = None) -> Table:
        """The table stored as ``obj`` (:meth:`to_json`). ``known``: an earlier version of the
        same table whose deals ``obj`` goes on from (a worker that held it): only the actions
        after it are played, instead of every deal from the start; the table is the same
        either way (when ``obj`` does not go on from ``known``, every deal is replayed)."""
        try:
            rules = summary_rules(obj)
        except RulesError as e:
            raise InputError("options", str(e)) from None
        seats = [Seat.from_json(s) for s in obj["seats"]]
        teams = obj.get("teams") or {}
        table = Table(
            rules, int(obj["target"]), (seats[0], seats[1], seats[2], seats[3]),
            tuple(DealLog.from_json(d) for d in obj["deals"]),
            (str(teams.get("NS", DEFAULT_TEAMS[0])), str(teams.get("EW", DEFAULT_TEAMS[1]))),
            int(obj.get("pace", 0)), int(obj.get("clock", 0)), str(obj.get("code", "")),
            str(obj.get("host") or ""),
            int(obj.get("between", 0)),
            tuple(str(level) for level in obj.get("levels") or ()),
            bool(obj.get("hints", False)),
            _hints_taken(obj.get("hints_taken")),
            str(obj.get("watch") or ""), str(obj.get("teach") or ""),
            int(obj.get("watch_delay", 1)),
            str(obj.get("next_game") or ""),
        )
        if known is not None:
            replay = _replay_after(known, table)
            if replay is not None:
                table.__dict__["replay"] = replay
        return table


def _hints_taken(raw: Any) -> tuple[int, int, int, int]:
    if raw is None:
        return (0, 0, 0, 0)
    if not isinstance(raw, list) or len(raw) != 4 or not all(
            isinstance(n, int) and not isinstance(n, bool) and n >= 0 for n in raw):
        raise InputError("hints_taken", "four counts of hints, by seat N, E, S, W")
    return (raw[0], raw[1], raw[2], raw[3])


def _moves_between(before: tuple[DealLog, ...], after: tuple[DealLog, ...]
                   ) -> tuple[tuple[str, ...], tuple[DealLog, ...]] | None:
    """The actions added to ``before``'s deal in play and the deals dealt since, if ``after``
    goes on from ``before`` (its finished deals the same, its deal in play a beginning of
    ``after``'s); else ``None``."""
    n = len(before)
    if n > len(after) or before[:-1] != after[:n - 1]:
        return None
    last, now = before[-1], after[n - 1]
    if (last.seed, last.salt, last.dealer) != (now.seed, now.salt, now.dealer) or \
            now.actions[:len(last.actions)] != last.actions:
        return None
    return now.actions[len(last.actions):], after[n:]


#: Declining one's declarations (the only action a seat takes because of what it holds).
DECLINE: Final = str(NO_DECLARATION)
_DECLINE_ALONE: Final = frozenset({DECLINE, "no declaration", "nodeclaration", "no-declare"})


def _declined_card(action: str) -> tuple[bool, str]:
    """``(True, card)`` for ``no-declaration <card>``, else ``(False, "")``.

    >>> _declined_card("no-declaration JH"), _declined_card("JH")
    ((True, 'JH'), (False, ''))
    """
    head, _, rest = action.strip().partition(" ")
    if head.lower() == DECLINE and rest.strip():
        return True, rest.strip()
    return False, ""


def _played_on(known: Table, actions: Sequence[str], dealt: Sequence[DealLog]) -> Table | None:
    """``known`` after ``actions``, then each deal of ``dealt`` dealt from its seed and salt
    and its actions played, every move through the engine; ``None`` if the engine does not
    come to exactly those deals."""
    seeds = iter((d.seed, d.salt) for d in dealt)
    t = known
    try:
        for text in (*actions, *(a for d in dealt for a in d.actions)):
            t = t.act(t.turn, text, entropy=lambda: next(seeds))
    except (IllegalActionError, StopIteration):
        return None
    last = known.deals[-1]
    wanted = (*known.deals[:-1], replace(last, actions=(*last.actions, *actions)), *dealt)
    return t if t.deals == wanted else None


def _replay_after(known: Table, table: Table) -> Replay | None:
    """``table``'s replay played on from ``known``'s, if ``table``'s deals go on from
    ``known``'s (same rules, target and teams), else ``None``."""
    if (known.rules, known.target, known.teams) != (table.rules, table.target, table.teams):
        return None
    moves = _moves_between(known.deals, table.deals)
    played = _played_on(known, *moves) if moves is not None else None
    return played.replay if played is not None else None


__all__ = ["DECLINE", "NEXT", "WAIT", "DealLog", "InviteError", "NotYourTurnError", "Replay",
           "Seat", "SeatTakenError", "Table", "bot_spec", "default_bot"]
