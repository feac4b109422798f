"""The deal engine: one deal of Belote or Coinche from the shuffle to the result card.

A :class:`DealState` is immutable and speaks the engine API (docs/style.md section 5):
``current_player``, ``legal_actions()``, ``apply(action)``, ``is_terminal``, ``returns()``,
``observation(seat)`` and ``determinize(seat, rng)``. The actions (bids, cards, declarations)
and the phases are in :mod:`rebelote.actions`.

>>> from rebelote.rules import Rules
>>> state = DealState.new(Rules.preset("official", "coinche"), dealer=3, seed=7)
>>> SEATS[state.current_player], [str(a) for a in state.legal_actions()[:3]]
('N', ['pass', '80 spades', '80 hearts'])
>>> for text in ("80 hearts", "pass", "pass", "pass"):
...     state = state.apply(parse_action(text))
>>> while not state.is_terminal:
...     state = state.apply(state.legal_actions()[-1])
>>> len(state.tricks), sum(state.summary().points) in (162, 252)
(8, True)

The legal cards come from :func:`rebelote.rules.legal_mask` (the one rule, on masks), computed
once per state (``playable``); who wins a trick from :data:`rebelote.rules.BEATERS`. The
finished deal is reduced to a :class:`~rebelote.summary.DealSummary` and scored by
:func:`~rebelote.scoring.score_deal`. What one seat knows of a deal is
:mod:`rebelote.observation`; dealing the hidden cards again, :mod:`rebelote.determinize`; the
random playout and the look-up tables of the hot paths are fenced in :mod:`rebelote.fast`.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any, Final, NamedTuple

from rebelote.actions import (
    AUCTION,
    NO_DECLARATION,
    OVER,
    PLAY,
    PLAYS,
    Action,
    Declare,
    Phase,
    Play,
    parse_action,
)
from rebelote.auction import Auction, Bid
from rebelote.cards import SEATS, TEAMS, Mask, card_str
from rebelote.dealing import packet_places, shuffle_and_cut, stock_places
from rebelote.declarations import (
    Combo,
    belote_holders,
    best_declarations,
    check_declarations,
    declaring_team,
)
from rebelote.determinize import FittedDeals, announced_play, deals, fitted_deals
from rebelote.errors import IllegalActionError
from rebelote.fast.lookup import BELOTE_MASKS, PLAYS8
from rebelote.fast.playout import Played, playout, reference_playout
from rebelote.observation import Observation, observe
from rebelote.rules import (
    BEATERS,
    DIX_DE_DER,
    Rules,
    card_values,
    legal_mask,
    seat_step,
    why_illegal,
)
from rebelote.scoring import DealScore, score_deal
from rebelote.summary import DealSummary

__all__ = ["DealState"]



_DECK: Final = frozenset(range(32))
#: A play-out function of :mod:`rebelote.fast.playout`.
_PlayOut = Callable[[Rules, tuple[Mask, Mask, Mask, Mask], int, int, tuple[int, ...], int,
                     tuple[Mask, Mask, Mask, Mask], random.Random], Played]
#: Builds a :class:`DealState` from a tuple of all its fields in one step (no ``__new__``
#: keyword handling): the constructor of the hot paths.
_new: Final = tuple.__new__


class DealState(NamedTuple):
    """One deal, immutable. Seats are indexes 0..3 (N E S W); pairs of teams are (NS, EW).

    ``hands`` are the cards each seat holds now (5 in a belote auction); ``stock`` the 11 cards
    after the turned card, in dealing order (belote); ``tricks`` the finished tricks as
    ``(leader, cards)``; ``trick`` the cards of the trick in play (``win`` indexes its winning
    card); ``points`` the card points won (NS, EW) without the dix de der; ``winners`` a mask
    of the seats that won a trick; ``start_hands`` the hands when play began; ``declared``
    each seat's declarations (``None`` before its first card); ``best`` each seat's best
    declarations (hidden information); ``belote`` the belote announcements ``(seat, card)``.
    ``held_over`` is the litige reserve brought in and ``scores`` the game's totals before the
    deal (both public, for the observation). ``playable`` is the mask of the cards the player
    to play may play (0 outside the play): derived from the other fields, kept so that
    :meth:`legal_actions` and :meth:`apply` do not compute it twice.

    A named tuple rather than a frozen dataclass: the engine builds a state per card, and a
    tuple of 23 fields is built in ~0.2 µs where a frozen dataclass's ``__init__`` takes ~2 µs
    (every field goes through ``object.__setattr__``). It compares, hashes and stays immutable
    the same way; change fields with :meth:`replace`, which keeps ``playable`` right.
    """

    rules: Rules
    dealer: int
    hands: tuple[int, int, int, int]
    auction: Auction
    stock: tuple[int, ...] = ()
    turned: int = -1
    phase: Phase = AUCTION
    player: int = 0
    trump: int = -1
    taker: int = -1
    leader: int = 0
    trick: tuple[int, ...] = ()
    win: int = 0
    tricks: tuple[tuple[int, tuple[int, ...]], ...] = ()
    points: tuple[int, int] = (0, 0)
    winners: int = 0
    start_hands: tuple[int, int, int, int] = (0, 0, 0, 0)
    declared: tuple[tuple[Combo, ...] | None, ...] = (None, None, None, None)
    best: tuple[tuple[Combo, ...], ...] = ((), (), (), ())
    belote: tuple[tuple[int, int], ...] = ()
    held_over: int = 0
    scores: tuple[int, int] = (0, 0)
    playable: Mask = 0

    # -- construction -------------------------------------------------------------------------
    @staticmethod
    def new(rules: Rules, dealer: int = 0, seed: int | None = None,
            rng: random.Random | None = None, held_over: int = 0,
            scores: tuple[int, int] = (0, 0)) -> DealState:
        """A deal shuffled and cut by ``rng`` (or ``random.Random(seed)``) and dealt."""
        if rng is None:
            rng = random.Random(seed)
        return DealState.from_deck(rules, dealer, shuffle_and_cut(rng), held_over, scores)

    @staticmethod
    def from_deck(rules: Rules, dealer: int, deck: Sequence[int], held_over: int = 0,
                  scores: tuple[int, int] = (0, 0)) -> DealState:
        """Deal ``deck`` (32 cards, top first) in packets from the dealer's next seat:
        3-2-3 in coinche; 3-2 and a turned card in belote (the rest is the stock)."""
        if len(deck) != 32 or set(deck) != _DECK:
            raise IllegalActionError("deck", "must hold each of the 32 cards once")
        if not 0 <= dealer < 4:
            raise IllegalActionError("dealer", "must be a seat N, E, S or W")
        step = seat_step(rules)
        hands = [0, 0, 0, 0]
        for seat, places in enumerate(packet_places(rules.game, (dealer + step) % 4, step)):
            h = 0
            for i in places:
                h |= 1 << deck[i]
            hands[seat] = h
        hs = (hands[0], hands[1], hands[2], hands[3])
        if rules.game == "belote":
            return DealState._dealt(rules, dealer, hs, deck[20], tuple(deck[21:]), held_over,
                                    scores)
        return DealState._dealt(rules, dealer, hs, -1, (), held_over, scores)

    @staticmethod
    def from_hands(rules: Rules, dealer: int, hands: Sequence[Mask], turned: int = -1,
                   stock: Sequence[int] = (), held_over: int = 0,
                   scores: tuple[int, int] = (0, 0)) -> DealState:
        """A deal from given hands (masks, N E S W): 8 cards each in coinche; in belote 5 cards
        each, the ``turned`` card and the 11 cards of the ``stock`` in dealing order."""
        if not 0 <= dealer < 4:
            raise IllegalActionError("dealer", "must be a seat N, E, S or W")
        hs = (hands[0], hands[1], hands[2], hands[3])
        total = 0
        for h in hs:
            if total & h:
                raise IllegalActionError("hands", "a card is dealt twice")
            total |= h
        belote = rules.game == "belote"
        size = 5 if belote else 8
        if any(h.bit_count() != size for h in hs):
            raise IllegalActionError("hands", f"each seat holds {size} cards at the auction")
        if belote:
            if len(stock) != 11 or not 0 <= turned < 32:
                raise IllegalActionError("turned", "a belote deal has a turned card and 11 more")
            for c in (turned, *stock):
                if total >> c & 1:
                    raise IllegalActionError("hands", "a card is dealt twice")
                total |= 1 << c
        if belote:
            return DealState._dealt(rules, dealer, hs, turned, tuple(stock), held_over, scores)
        return DealState._dealt(rules, dealer, hs, -1, (), held_over, scores)

    @staticmethod
    def _dealt(rules: Rules, dealer: int, hands: tuple[Mask, Mask, Mask, Mask], turned: int,
               stock: tuple[int, ...], held_over: int, scores: tuple[int, int]) -> DealState:
        """The deal at its auction, from hands already checked."""
        first = (dealer + seat_step(rules)) % 4
        return DealState(rules, dealer, hands, Auction.start(rules, first, turned), stock,
                         turned, AUCTION, first, held_over=held_over, scores=scores)

    def replace(self, **changes: Any) -> DealState:
        """This state with some fields changed (like :func:`dataclasses.replace`), the legal
        cards (``playable``) computed again for the new fields."""
        state = self._replace(**changes)
        return state._replace(playable=state._legal_mask())

    def _legal_mask(self) -> Mask:
        """The cards the player to play may play, computed from the hand and the trick."""
        if self.phase != PLAY:
            return 0
        r = self.rules
        return legal_mask(self.hands[self.player], self.trick, self.win, self.trump,
                     r.overtrump_partner, r.must_undertrump)

    # -- the engine API -----------------------------------------------------------------------
    @property
    def current_player(self) -> int:
        """The seat (0..3) to act, -1 when the deal is over."""
        return self.player if self.phase != OVER else -1

    @property
    def is_terminal(self) -> bool:
        return self.phase == OVER

    @property
    def is_void(self) -> bool:
        """The deal was voided by passes."""
        return self.phase == OVER and self.auction.is_void

    @property
    def first(self) -> int:
        """The seat after the dealer: it speaks first and leads the first trick."""
        return self.auction.first

    @property
    def step(self) -> int:
        return self.auction.step

    def legal_actions(self) -> list[Action]:
        """Every action the current player may take (none when the deal is over): in the play,
        the legal cards lowest first, then ``no-declaration`` if the player may declare."""
        if self.phase == PLAY:
            m = self.playable
            out: list[Action] = [*PLAYS8[0][m & 255], *PLAYS8[1][m >> 8 & 255],
                                 *PLAYS8[2][m >> 16 & 255], *PLAYS8[3][m >> 24]]
            p = self.player
            if self.declared[p] is None and self.best[p]:
                out.append(NO_DECLARATION)
            return out
        if self.phase == AUCTION:
            return list(self.auction.legal_bids())
        return []

    def legal_cards(self) -> Mask:
        """The cards the player to play may play (a mask; 0 outside the play)."""
        return self.playable

    def apply(self, action: Action | str) -> DealState:
        """The state after the current player takes ``action`` (an action or its text).

        An illegal action raises :class:`IllegalActionError` naming the rule."""
        if isinstance(action, Play) and self.phase == PLAY:  # the hot path: a card in the play
            return self._play(action.card)
        if isinstance(action, Bid) and self.phase == AUCTION:
            return self._bid(action)
        if isinstance(action, str):
            action = parse_action(action)
        if self.phase == OVER:
            raise IllegalActionError(f"{action}", "the deal is over")
        seat = SEATS[self.player]
        if isinstance(action, Play):
            if self.phase != PLAY:
                raise IllegalActionError(f"{seat} {action}", "cards are played after the auction")
            return self._play(action.card)
        if isinstance(action, Declare):
            if self.phase != PLAY:
                raise IllegalActionError(f"{seat} {action}", "declarations come with the first "
                                         "card")
            return self._declare(action)
        if self.phase != AUCTION:
            raise IllegalActionError(f"{seat} {action}", "the auction is over, play a card")
        return self._bid(action)

    def returns(self) -> tuple[int, int, int, int]:
        """Each seat's deal result: its team's mark minus the other team's (0 before the end)."""
        if self.phase != OVER:
            return (0, 0, 0, 0)
        ns, ew = self.score().score
        return (ns - ew, ew - ns, ns - ew, ew - ns)

    # -- auction ------------------------------------------------------------------------------
    def _bid(self, bid: Bid) -> DealState:
        auction = self.auction.apply(bid)
        if not auction.is_over:  # the next to speak; the fields after ``player`` unchanged
            return _new(DealState, (self.rules, self.dealer, self.hands, auction, self.stock,
                                    self.turned, AUCTION, auction.player, *self[8:]))
        if auction.is_void:
            return self._replace(auction=auction, phase=OVER, player=-1)
        return self._first_lead(auction, auction.taker, auction.trump)

    def _first_lead(self, auction: Auction, taker: int, trump: int) -> DealState:
        """The deal at its first lead with ``auction``, ``taker`` having taken in ``trump``:
        in belote the taker gets the turned card and 2 cards of the stock, the others 3."""
        hs = self.hands
        if self.rules.game == "belote":
            stock = self.stock
            hands = list(hs)
            hands[taker] |= 1 << self.turned
            for seat, places in enumerate(stock_places(auction.first, auction.step, taker)):
                for i in places:
                    hands[seat] |= 1 << stock[i]
            hs = (hands[0], hands[1], hands[2], hands[3])
        if self.rules.declarations:
            best = tuple(best_declarations(h, trump) for h in hs)
            declared: tuple[tuple[Combo, ...] | None, ...] = (None, None, None, None)
        else:
            best = ((), (), (), ())
            declared = ((), (), (), ())
        first = auction.first
        return _new(DealState, (
            self.rules, self.dealer, hs, auction, self.stock, self.turned, PLAY, first, trump,
            taker, first, (), 0, (), (0, 0), 0, hs, declared, best, (), self.held_over,
            self.scores, hs[first]))

    def taken(self, taker: int, trump: int) -> DealState:
        """This deal, still in its auction, at its first lead as if ``taker`` had taken with
        ``trump`` (the belote stock dealt for that taker, each seat to declare its best set);
        the auction is kept as it stands (a bot's simulation of a call)."""
        if self.phase != AUCTION:
            raise IllegalActionError("taken", "the deal is not in its auction")
        if not 0 <= taker < 4:
            raise IllegalActionError("taker", "must be a seat N, E, S or W")
        if self.rules.game == "belote" and (self.turned < 0 or len(self.stock) != 11):
            raise IllegalActionError("stock", "a belote deal has a turned card and 11 more")
        return self._first_lead(self.auction, taker, trump)

    # -- play ---------------------------------------------------------------------------------
    def _declare(self, action: Declare) -> DealState:
        p = self.player
        if self.declared[p] is not None:
            raise IllegalActionError(f"{SEATS[p]} {action}", "declarations are made with the "
                                     "first card only")
        if action.combos:
            reason = check_declarations(action.combos, self.start_hands[p], self.trump)
            if reason is not None:
                raise IllegalActionError(f"{SEATS[p]} declarations", reason)
        declared = list(self.declared)
        declared[p] = action.combos
        return self._replace(declared=tuple(declared))

    def _play(self, card: int) -> DealState:
        # The hot path of the step API: one tuple unpacked, one tuple built (see the class).
        (rules, dealer, hands, auction, stock, turned, _, p, trump, taker, leader, trick, win,
         tricks, points, winners, start, declared, best, belote, held_over, scores,
         playable) = self
        if not playable >> card & 1:
            reason = why_illegal(card, hands[p], trick, trump, rules) or \
                f"{card_str(card)}: illegal"
            raise IllegalActionError("", f"{SEATS[p]} {reason}")
        if declared[p] is None:  # the first card declares the best set, unless declined
            d = list(declared)
            d[p] = best[p]
            declared = (d[0], d[1], d[2], d[3])
        if BELOTE_MASKS[trump] >> card & 1:
            pair = 0b0110_0000 << (card & 0x18)
            if start[p] & pair == pair:
                belote = (*belote, (p, card))
        keep = ~(1 << card)
        hs = (hands[0] & keep, hands[1] & keep, hands[2] & keep, hands[3] & keep)
        n = len(trick)
        if n and BEATERS[trump][trick[win]] >> card & 1:
            win = n
        trick = (*trick, card)
        step = auction.step
        if n < 3:  # the next seat plays to the trick
            phase = PLAY
            p = (p + step) % 4
            playable = legal_mask(hs[p], trick, win, trump, rules.overtrump_partner,
                             rules.must_undertrump)
        else:  # the trick is won: its winner leads the next, or the deal is over
            values = card_values(trump, rules.no_trump_aces, rules.all_trump_scale)
            winner = (leader + win * step) % 4
            pts = values[trick[0]] + values[trick[1]] + values[trick[2]] + values[trick[3]]
            points = (points[0] + pts, points[1]) if winner & 1 == 0 else \
                (points[0], points[1] + pts)
            tricks = (*tricks, (leader, trick))
            winners |= 1 << winner
            leader = winner
            trick = ()
            win = 0
            if len(tricks) == 8:
                phase = OVER
                p = -1
                playable = 0
            else:
                phase = PLAY
                p = winner
                playable = hs[winner]
        return _new(DealState, (
            rules, dealer, hs, auction, stock, turned, phase, p, trump, taker, leader, trick,
            win, tricks, points, winners, start, declared, best, belote, held_over, scores,
            playable))

    def playout(self, rng: random.Random) -> DealState:
        """The deal played to its end with random legal cards (and default declarations), on a
        fast path (:func:`rebelote.fast.playout.playout`); the result equals applying the same
        cards one by one."""
        return self._played_out(self._playout_with(playout, rng))

    def _playout_with(self, run: _PlayOut, rng: random.Random) -> Played:
        """The raw result of a play-out function of :mod:`rebelote.fast.playout` from here."""
        if self.phase != PLAY:
            raise IllegalActionError("playout", "the deal is not in its play")
        return run(self.rules, self.hands, self.trump, self.leader, self.trick,
                   self.auction.step, self.start_hands, rng)

    def reference_playout(self, rng: random.Random) -> DealState:
        """:meth:`playout` by the plain-Python play-out
        (:func:`rebelote.fast.playout.reference_playout`), which the tests hold it equal to."""
        return self._played_out(self._playout_with(reference_playout, rng))

    def _played_out(self, got: Played) -> DealState:
        """The finished state from a play-out's raw result: its tricks, points and belote
        added, every seat's declarations made (the best set for a seat that had not played)."""
        (rules, dealer, _, auction, stock, turned, _, _, trump, taker, _, _, _, tricks, points,
         winners, start, declared, best, belote, held_over, scores, _) = self
        declared = tuple(best[s] if d is None else d for s, d in enumerate(declared))
        return _new(DealState, (
            rules, dealer, got.hands, auction, stock, turned, OVER, -1, trump, taker,
            got.leader, (), 0, (*tricks, *got.tricks),
            (points[0] + got.points[0], points[1] + got.points[1]), winners | got.won, start,
            declared, best, (*belote, *got.belote), held_over, scores, 0))

    # -- results ------------------------------------------------------------------------------
    def declaring_team(self) -> int:
        """The team (0 NS, 1 EW) whose declarations count, -1 for nobody (so far)."""
        if self.phase == AUCTION or not any(self.declared):
            return -1
        declared = [d or () for d in self.declared]
        return declaring_team(declared, self.trump, self.first, self.step,
                              self.rules.declaration_tie)

    def declaration_points(self) -> tuple[int, int]:
        """The declaration points each team (NS, EW) scores in this deal's play: the combos of
        the team whose declarations count, each seat yet to play its first card counted with
        its best set (what its first card declares unless it declines)."""
        if self.phase == AUCTION or not self.rules.declarations:
            return (0, 0)
        declared = [self.best[s] if d is None else d for s, d in enumerate(self.declared)]
        if not any(declared):
            return (0, 0)
        team = declaring_team(declared, self.trump, self.first, self.step,
                              self.rules.declaration_tie)
        if team < 0:
            return (0, 0)
        points = sum(c.points for s in range(team, 4, 2) for c in declared[s])
        return (points, 0) if team == 0 else (0, points)

    def belote_count(self) -> tuple[int, int]:
        """How many belotes (K and Q of a trump in one starting hand) each team (NS, EW) holds
        in this deal's play: one in a suit trump, up to four in all-trump."""
        bel = [0, 0]
        if self.phase != AUCTION:
            for holder in belote_holders(self.start_hands, self.trump):
                if holder >= 0:
                    bel[holder & 1] += 1
        return (bel[0], bel[1])

    def auction_hand(self, seat: int) -> Mask:
        """The cards ``seat`` held during the auction: its hand now in the auction, its hand
        when play began without the cards dealt after a belote auction (the turned card, the
        stock)."""
        if self.phase == AUCTION or self.auction.is_void:
            return self.hands[seat]
        stock = self.stock
        if not stock:
            return self.start_hands[seat]
        global _after_stock
        cached = _after_stock  # read once: another thread may replace it meanwhile
        if cached[0] is not stock:
            after = 0
            for c in stock:
                after |= 1 << c
            cached = _after_stock = (stock, after)  # one assignment of an immutable pair
        return self.start_hands[seat] & ~(cached[1] | 1 << self.turned)

    def auction_hands(self) -> tuple[Mask, Mask, Mask, Mask]:
        """Each seat's cards during the auction (:meth:`auction_hand`), N E S W."""
        hand = self.auction_hand
        return (hand(0), hand(1), hand(2), hand(3))

    def summary(self) -> DealSummary:
        """The finished deal as a counter knows it (:class:`~rebelote.summary.DealSummary`)."""
        if self.phase != OVER:
            raise IllegalActionError("summary", "the deal is not over")
        game = self.rules.game
        if self.auction.is_void:
            return DealSummary(game=game, kind="void", held_over=self.held_over)
        taker_team = self.taker & 1
        capot: int = -1
        if self.winners & 0b0101 == self.winners:
            capot = 0
        elif self.winners & 0b1010 == self.winners:
            capot = 1
        rules = self.rules
        if capot >= 0:
            points = [0, 0]
            points[capot] = rules.capot_total(self.trump)
        else:
            points = list(self.points)
            points[self.leader & 1] += DIX_DE_DER
        contract: int | str | None = None
        multiplier = 1
        if game != "belote":
            best = self.auction.best
            assert best is not None
            contract = best.value if best.kind == "value" else best.kind
            multiplier = self.auction.multiplier
        return DealSummary(
            game=game,
            taker=TEAMS[taker_team],
            trump=self.trump,
            points=(points[0], points[1]),
            contract=contract,
            coinche=multiplier,
            capot=TEAMS[capot] if capot >= 0 else None,
            generale=self.winners == 1 << self.taker,
            declarations=self.declaration_points(),
            belote=self.belote_count(),
            held_over=self.held_over,
        )

    def score(self) -> DealScore:
        """The finished deal scored by :func:`rebelote.scoring.score_deal`, with its lines."""
        return score_deal(self.summary(), self.rules)

    # -- observation ---------------------------------------------------------------------------
    def observation(self, seat: int) -> Observation:
        """What ``seat`` knows: its hand and everything public, never another hidden card
        (:func:`rebelote.observation.observe`)."""
        return observe(self, seat)

    def determinize(self, seat: int, rng: random.Random) -> DealState:
        """A deal consistent with everything ``seat`` knows, the hidden cards dealt at random
        (:meth:`from_observation` of the seat's observation)."""
        return DealState.from_observation(observe(self, seat), rng)

    @staticmethod
    def from_observation(observation: Observation, rng: random.Random, tries: int = 200,
                         draws: FittedDeals | None = None, rejection: bool = False
                         ) -> DealState:
        """A full deal consistent with ``observation`` (what a bot holds), the hidden cards
        dealt at random, with the same auction and cards played. Where another seat announced
        declarations, drawn uniformly among the deals that fit them
        (:class:`rebelote.determinize.FittedDeals`; ``draws``: the observation's, if the
        caller keeps it, else :func:`~rebelote.determinize.fitted_deals`'s). Otherwise, or with
        ``rejection`` (the reference), or if those draws fail, by the rejection sampler
        (:func:`rebelote.determinize.deals`): the first deal whose replay the seat sees as
        ``observation``, else the last one tried (announcements too rare to match in
        ``tries`` deals)."""
        if not rejection and announced_play(observation):
            fitted = draws or fitted_deals(observation)
            for _ in range(tries):
                got = fitted(rng)
                if got is None:
                    break
                state = DealState.replayed(observation, *got)
                if observe(state, observation.seat) == observation:
                    return state
        fallback: DealState | None = None
        for hands, stock in deals(observation, rng, tries):
            state = DealState.replayed(observation, hands, stock)
            if observe(state, observation.seat) == observation:
                return state
            fallback = state
        assert fallback is not None, "deals() raises when no deal fits"
        return fallback

    def redealt(self, start: Sequence[Mask]) -> DealState:
        """This state of the play of an auction game (no stock) with the hands ``start``
        dealt instead, the same calls and cards: each seat that declared declaring the best
        set of its new hand, each that declined declining. What :meth:`replayed` makes of the
        same calls and cards on ``start`` when that deal gives the seats the same public
        facts (the same announcements, a deal that fits the same observation), without the
        replay: the search's worlds of one observation, put in the first one replayed."""
        (rules, dealer, hands, auction, stock, turned, phase, p, trump, taker, leader, trick,
         win, tricks, points, winners, old, declared, best, belote, held_over, scores,
         playable) = self
        if phase != PLAY or stock:
            raise IllegalActionError("redealt", "the play of an auction game")
        now = (start[0] & ~(old[0] & ~hands[0]), start[1] & ~(old[1] & ~hands[1]),
               start[2] & ~(old[2] & ~hands[2]), start[3] & ~(old[3] & ~hands[3]))
        if rules.declarations:
            best = (best[0] if start[0] == old[0] else best_declarations(start[0], trump),
                    best[1] if start[1] == old[1] else best_declarations(start[1], trump),
                    best[2] if start[2] == old[2] else best_declarations(start[2], trump),
                    best[3] if start[3] == old[3] else best_declarations(start[3], trump))
            declared = tuple(None if d is None else best[s] if d else ()
                             for s, d in enumerate(declared))
        if now[p] != hands[p]:  # the player's cards: its legal ones again
            playable = legal_mask(now[p], trick, win, trump, rules.overtrump_partner,
                                  rules.must_undertrump)
        return _new(DealState, (
            rules, dealer, now, auction, stock, turned, phase, p, trump, taker, leader, trick,
            win, tricks, points, winners, (start[0], start[1], start[2], start[3]), declared,
            best, belote, held_over, scores, playable))

    @staticmethod
    def replayed(obs: Observation, hands: Sequence[Mask], stock: Sequence[int] = ()
                 ) -> DealState:
        """The deal of ``hands`` (and the belote ``stock``) with the calls and cards of
        ``obs`` played again, each seat declaring as it did (a seat that announced nothing
        declines its declarations)."""
        state = DealState.from_hands(obs.rules, obs.dealer, hands, obs.turned, stock,
                                     obs.held_over, obs.scores)
        for _, bid in obs.auction:
            state = state.apply(bid)
        announced = {s for s, _ in obs.announced}
        me = obs.seat
        for _, trick_cards in (*obs.tricks, (obs.leader, obs.trick)):
            for c in trick_cards:
                p = state.player
                if state.declared[p] is None and state.best[p]:
                    silent = obs.own_declared == () if p == me else p not in announced
                    if silent:
                        state = state.apply(NO_DECLARATION)
                state = state.apply(PLAYS[c])
        if obs.own_declared == () and state.phase == PLAY and state.declared[me] is None:
            state = state.apply(NO_DECLARATION)  # declined, its first card still to come
        return state


#: The cards of the last belote stock seen by :meth:`DealState.auction_hands` (the stock is
#: the same tuple object in all of a deal's states): a pair replaced in one assignment, so
#: that threads sharing it read a stock with its own mask.
_after_stock: tuple[tuple[int, ...], Mask] = ((), 0)
