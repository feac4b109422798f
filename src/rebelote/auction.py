"""Auctions of Belote and Coinche (docs/rules.md section 5): bids as small values, auctions as
states.

A :class:`Bid` is a frozen value with a text form and a parser:

>>> [str(b) for b in (PASS, TAKE, Bid.parse("90 hearts"), Bid.parse("capot spades"))]
['pass', 'take', '90 hearts', 'capot spades']

An :class:`Auction` is immutable: :meth:`Auction.apply` returns the next one.

>>> from rebelote.rules import Rules
>>> a = Auction.start(Rules.preset("official", "coinche"), first=0)
>>> for text in ("90 hearts", "coinche", "pass", "pass", "pass"):
...     a = a.apply(Bid.parse(text))
>>> a.is_over, a.trump, a.value, a.multiplier, SEATS[a.taker]
(True, 1, 90, 2, 'N')
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final, Literal, NamedTuple

from rebelote.cards import SEATS, suit_of
from rebelote.errors import IllegalActionError, RulesError
from rebelote.numbers import is_digits
from rebelote.rules import (
    ALL_TRUMP,
    CAPOT_VALUE,
    CONTRACTS,
    NO_TRUMP,
    TRUMP_NAMES,
    Game,
    Rules,
    parse_trump,
    seat_step,  # re-exported: the direction of play lives in rules
)

__all__ = ["COINCHE", "PASS", "SURCOINCHE", "TAKE", "Auction", "Bid", "BidKind"]



BidKind = Literal["pass", "take", "suit", "value", "capot", "generale", "coinche", "surcoinche"]


_GENERALE_RANK: Final = 10_000


@dataclass(frozen=True, slots=True)
class Bid:
    """One call of an auction: ``pass``, ``take``, ``hearts``, ``90 hearts``, ``coinche``...

    ``kind`` says what it is; ``trump`` (a trump mode) is set for ``suit``, ``value``, ``capot``
    and ``generale``; ``value`` for ``value`` bids (80..160).
    """

    kind: BidKind
    trump: int = -1
    value: int = 0

    def __str__(self) -> str:
        if self.kind == "suit":
            return TRUMP_NAMES[self.trump]
        if self.kind == "value":
            return f"{self.value} {TRUMP_NAMES[self.trump]}"
        if self.kind in ("capot", "generale"):
            return f"{self.kind} {TRUMP_NAMES[self.trump]}"
        return self.kind

    @property
    def is_contract(self) -> bool:
        """A bid that names a contract (``value``, ``capot``, ``generale``)."""
        return self.kind in ("value", "capot", "generale")

    @property
    def rank(self) -> int:
        """The height of a coinche contract: its value, 250 for capot, above all for générale."""
        if self.kind == "value":
            return self.value
        if self.kind == "capot":
            return CAPOT_VALUE
        if self.kind == "generale":
            return _GENERALE_RANK
        return 0

    @staticmethod
    def parse(text: str) -> Bid:
        """Read a bid's text form; :class:`IllegalActionError` naming what is wrong otherwise."""
        if not isinstance(text, str):
            raise IllegalActionError("action", f"{text!r} is not a bid")
        words = text.strip().lower().replace("é", "e").split()
        if not words:
            raise IllegalActionError("action", "an empty bid")
        head = words[0]
        if len(words) == 1:
            if head in ("pass", "passe"):
                return PASS
            if head in ("take", "prends"):
                return TAKE
            if head in ("coinche", "contre"):
                return COINCHE
            if head in ("surcoinche", "surcontre"):
                return SURCOINCHE
            try:
                return Bid("suit", parse_trump(head))
            except RulesError:
                pass
        elif len(words) == 2:
            try:
                trump = parse_trump(words[1])
            except RulesError as exc:
                raise IllegalActionError("action", f"{text!r}: {exc}") from None
            if head == "capot":
                return Bid("capot", trump)
            if head == "generale":
                return Bid("generale", trump)
            if is_digits(head):
                value = int(head)
                if value == CAPOT_VALUE:
                    return Bid("capot", trump)
                if value not in CONTRACTS:
                    raise IllegalActionError(
                        "action", f"{text!r}: a contract is 80 to 160 by ten, capot or generale"
                    )
                return Bid("value", trump, value)
        raise IllegalActionError(
            "action", f"{text!r} is not a bid (pass, take, a trump, '90 hearts', 'capot spades', "
            "'generale no-trump', coinche, surcoinche)"
        )


PASS: Final = Bid("pass")
TAKE: Final = Bid("take")
COINCHE: Final = Bid("coinche")
SURCOINCHE: Final = Bid("surcoinche")

_SUIT_BIDS: Final = tuple(Bid("suit", t) for t in range(6))
_VALUE_BIDS: Final = tuple(Bid("value", t, v) for v in CONTRACTS for t in range(6))
_CAPOT_BIDS: Final = tuple(Bid("capot", t) for t in range(6))
_GENERALE_BIDS: Final = tuple(Bid("generale", t) for t in range(6))


class Auction(NamedTuple):
    """The state of an auction: who speaks, what was said, and the contract so far.

    ``first`` is the seat that speaks first (the dealer's next in the direction of play);
    ``turned`` the turned card of belote (-1 in coinche). ``history`` holds ``(seat, bid)``.
    ``best`` is the contract so far and ``bidder`` its seat (-1 before any); ``multiplier``
    1, 2 after a coinche, 4 after a surcoinche. ``round`` is 1 or 2 in belote.

    An immutable named tuple, like :class:`~rebelote.deal.DealState`: a new one is made per
    call, and a tuple is built several times faster than a frozen dataclass.
    """

    game: Game
    first: int
    step: int
    generale: bool
    coinche_capot: bool
    belote_extra: bool
    turned: int = -1
    player: int = 0
    history: tuple[tuple[int, Bid], ...] = ()
    round: int = 1
    best: Bid | None = None
    bidder: int = -1
    multiplier: int = 1
    passes: int = 0
    is_over: bool = False
    is_void: bool = False

    @staticmethod
    def start(rules: Rules, first: int, turned: int = -1) -> Auction:
        """A new auction opened by seat ``first`` (index into N E S W)."""
        if rules.game == "belote" and turned < 0:
            raise IllegalActionError("turned", "a belote auction needs the turned card")
        return Auction(
            game=rules.game,
            first=first,
            step=seat_step(rules),
            generale=rules.generale,
            coinche_capot=rules.coinche_capot,
            belote_extra=rules.belote_no_all_trump,
            turned=turned if rules.game == "belote" else -1,
            player=first,
        )

    # -- results ------------------------------------------------------------------------------
    @property
    def taker(self) -> int:
        """The seat that won the auction (-1 if none yet, or void)."""
        return self.bidder if self.is_over and not self.is_void else -1

    @property
    def trump(self) -> int:
        """The trump mode of the contract (-1 if none)."""
        if self.best is None:
            return -1
        if self.best.kind == "take":
            return suit_of(self.turned)
        return self.best.trump

    @property
    def value(self) -> int:
        """The contract value: the bid, 250 for capot, the générale value is the rules'."""
        return self.best.rank if self.best is not None else 0

    # -- moves --------------------------------------------------------------------------------
    def legal_bids(self) -> list[Bid]:
        """Every bid the player to speak may make, ``pass`` first."""
        if self.is_over:
            return []
        if self.game == "belote":
            if self.round == 1:
                return [PASS, TAKE]
            out = [PASS]
            turned_suit = suit_of(self.turned)
            out.extend(_SUIT_BIDS[s] for s in range(4) if s != turned_suit)
            if self.belote_extra:
                out.extend((_SUIT_BIDS[NO_TRUMP], _SUIT_BIDS[ALL_TRUMP]))
            return out
        out = [PASS]
        if self.multiplier == 1:
            rank = self.best.rank if self.best is not None else 0
            out.extend(b for b in _VALUE_BIDS if b.value > rank)
            if rank < CAPOT_VALUE:
                out.extend(_CAPOT_BIDS)
            if self.generale and rank < _GENERALE_RANK:
                out.extend(_GENERALE_BIDS)
            if self.can_coinche(self.player):
                out.append(COINCHE)
        elif self.multiplier == 2 and self.can_surcoinche(self.player):
            out.append(SURCOINCHE)
        return out

    def can_coinche(self, seat: int) -> bool:
        """May ``seat`` coinche now: an opponent of the bidder, in turn, before any coinche."""
        best = self.best
        return (
            not self.is_over
            and seat == self.player
            and best is not None
            and self.multiplier == 1
            and (seat - self.bidder) % 2 == 1
            and (self.coinche_capot or best.kind not in ("capot", "generale"))
        )

    def can_surcoinche(self, seat: int) -> bool:
        """May ``seat`` surcoinche now: the coinched team, in turn, after a coinche."""
        return (
            not self.is_over
            and seat == self.player
            and self.multiplier == 2
            and (seat - self.bidder) % 2 == 0
        )

    def why_illegal(self, bid: Bid) -> str | None:
        """``None`` if the player to speak may make ``bid``, else the rule that forbids it."""
        if self.is_over:
            return f"{bid}: the auction is over"
        if bid in self.legal_bids():
            return None
        seat = SEATS[self.player]
        if self.game == "belote":
            if bid.kind == "take" and self.round == 2:
                return f"{bid}: in the second round, name another suit or pass"
            if bid.kind == "suit" and self.round == 1:
                return f"{bid}: in the first round, take the turned suit or pass"
            if bid.kind == "suit" and bid.trump == suit_of(self.turned):
                return f"{bid}: the second round names a suit other than the turned one"
            if bid.kind == "suit":
                return f"{bid}: no-trump and all-trump are not bids of this rule set"
            return f"{bid}: not a belote bid (pass, take, or a suit in the second round)"
        if bid.kind in ("take", "suit"):
            return f"{bid}: a coinche bid names a value and a trump, like '90 hearts'"
        if bid.kind == "coinche":
            if self.best is None:
                return "coinche: there is no contract to coinche"
            if self.multiplier > 1:
                return "coinche: the contract is already coinched"
            if (self.player - self.bidder) % 2 == 0:
                return f"coinche: only an opponent of the bidder may coinche, not {seat}"
            return "coinche: a capot may not be coinched under these rules"
        if bid.kind == "surcoinche":
            if self.multiplier == 1:
                return "surcoinche: only a coinched contract may be surcoinched"
            # (a surcoinche ends the auction: "already surcoinched" is "the auction is over")
            return f"surcoinche: only the coinched team may surcoinche, not {seat}"
        if self.multiplier > 1:
            return f"{bid}: no bid after a coinche, only pass or surcoinche"
        if bid.kind == "generale" and not self.generale:
            return f"{bid}: the generale is not played under these rules"
        return f"{bid}: a bid must be above the current contract ({self.best})"

    def is_legal(self, bid: Bid) -> bool:
        """May the player to speak say ``bid`` (the same answer as ``bid in legal_bids()``)?"""
        if self.is_over:
            return False
        kind = bid.kind
        if kind == "pass":
            return True
        if self.game == "belote":
            if self.round == 1:
                return kind == "take"
            return kind == "suit" and bid.trump != suit_of(self.turned) and (
                bid.trump < 4 or self.belote_extra)
        if kind == "coinche":
            return self.can_coinche(self.player)
        if kind == "surcoinche":
            return self.can_surcoinche(self.player)
        if self.multiplier != 1 or not 0 <= bid.trump < 6:
            return False
        rank = self.best.rank if self.best is not None else 0
        if kind == "value":
            return bid.value in CONTRACTS and bid.value > rank
        if kind == "capot":
            return rank < CAPOT_VALUE
        return kind == "generale" and self.generale and rank < _GENERALE_RANK

    def apply(self, bid: Bid) -> Auction:
        """The auction after the player to speak says ``bid``; illegal bids raise."""
        if self.is_over:  # nobody is to speak: the message names no seat
            raise IllegalActionError(f"{bid}: the auction is over")
        if not self.is_legal(bid):
            reason = self.why_illegal(bid) or f"{bid}: not allowed here"
            raise IllegalActionError("", f"{SEATS[self.player]} {reason}")
        return self._apply(bid)

    def _apply(self, bid: Bid) -> Auction:
        seat = self.player
        nxt = (seat + self.step) % 4
        history = (*self.history, (seat, bid))
        kind = bid.kind
        if self.game == "belote":
            if kind == "pass":
                if (nxt == self.first):
                    if self.round == 2:
                        return self._with(history=history, player=-1, is_over=True, is_void=True)
                    return self._with(history=history, player=nxt, round=2)
                return self._with(history=history, player=nxt)
            return self._with(history=history, player=-1, best=bid, bidder=seat, is_over=True)
        if kind == "pass":
            passes = self.passes + 1
            if self.best is None and passes == 4:
                return self._with(history=history, player=-1, passes=passes, is_over=True,
                                  is_void=True)
            if self.best is not None and passes == 3:
                return self._with(history=history, player=-1, passes=passes, is_over=True)
            return self._with(history=history, player=nxt, passes=passes)
        if kind == "coinche":
            return self._with(history=history, player=nxt, multiplier=2, passes=0)
        if kind == "surcoinche":
            return self._with(history=history, player=-1, multiplier=4, is_over=True)
        return self._with(history=history, player=nxt, best=bid, bidder=seat, passes=0)

    def _with(self, *, history: tuple[tuple[int, Bid], ...], player: int, round: int | None = None,
              best: Bid | None = None, bidder: int | None = None, multiplier: int | None = None,
              passes: int | None = None, is_over: bool = False, is_void: bool = False
              ) -> Auction:
        return Auction(
            self.game, self.first, self.step, self.generale, self.coinche_capot,
            self.belote_extra, self.turned, player, history,
            self.round if round is None else round,
            self.best if best is None else best,
            self.bidder if bidder is None else bidder,
            self.multiplier if multiplier is None else multiplier,
            self.passes if passes is None else passes,
            is_over, is_void,
        )
