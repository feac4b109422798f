"""The heuristic bot: bids and plays like a sound club player, from its observation only.

Bidding rests on a hand evaluation (:func:`hand_points`): the card points a taker's team can
expect with a trump mode, from the trump jack and nine, aces, guarded tens, length, short
suits, the belote and the declarations. Belote takes on the turned card (or names a suit in the
second round) when the evaluation reaches the half of the deal with a margin; coinche bids the
value the evaluation supports, raises a partner's suit with aces and trump honours, coinches a
contract the defence's evaluation says will fail and surcoinches a coinched contract it holds.

The play follows the usual craft (:class:`_SeatKnowledge` holds what the seat knows: the cards each
other seat may still hold, from the voids and refusals its plays revealed):

* the taker's side draws trumps while an opponent may hold one (the master trump first);
* lead masters (aces) when no opponent is known to cut them; otherwise lead low, never away
  from a guarded ten, never a suit an opponent cuts when another suit will do;
* on a partner's trick that nobody after can take, load points (the ten first);
* take a trick with the cheapest card that nobody after can beat; cut when it pays; else
  play the card that costs least (no points thrown away, tens kept guarded, masters and
  trumps kept).

>>> import random
>>> from rebelote.deal import DealState
>>> from rebelote.rules import Rules
>>> state = DealState.new(Rules.preset("official", "coinche"), dealer=0, seed=3)
>>> bot = HeuristicBot()
>>> while not state.is_terminal:
...     seat = state.current_player
...     state = state.apply(bot.act(state.observation(seat), random.Random(0)))
>>> state.is_terminal
True
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, fields, replace
from typing import Final, TypeVar

from rebelote.actions import AUCTION, NO_DECLARATION, PLAYS, Action, Play
from rebelote.auction import COINCHE, PASS, SURCOINCHE, TAKE, Bid
from rebelote.cards import (
    ACE,
    FULL_DECK,
    JACK,
    KING,
    NINE,
    QUEEN,
    SUIT_MASKS,
    TEN,
    Mask,
    iter_mask,
    rank_of,
    suit_of,
)
from rebelote.declarations import best_declarations
from rebelote.observation import Observation
from rebelote.rules import (
    ABOVE,
    ALL_TRUMP,
    BEATERS,
    BELOTE_POINTS,
    NO_TRUMP,
    card_powers,
    card_values,
)

# -- hand evaluation ---------------------------------------------------------------------------
#: What the partner's hand brings on average to a taker's team, in card points.
PARTNER_SHARE: Final = 24
#: The evaluation's margin over a contract before bidding it (its usual error is ~20 points).
BID_MARGIN: Final = 10
#: Belote: take when the evaluation reaches this (the taker must make more than 81).
BELOTE_TAKE: Final = 86
#: Coinche the opponents' suit contract with this many of their trumps (see coinche_worthy).
COINCHE_TRUMPS: Final = 4


def _has(hand: Mask, suit: int, rank: int) -> bool:
    return bool(hand >> (suit * 8 + rank) & 1)


def _suit_points(hand: Mask, trump: int, unknown: int = 0) -> float:
    """The card points the cards of a suit trump mode are worth to a taker (see
    :func:`hand_points`): ``unknown`` cards are still to come (belote) and add their average."""
    tm = SUIT_MASKS[trump]
    trumps = hand & tm
    n = trumps.bit_count()
    has_j, has_9 = _has(hand, trump, JACK), _has(hand, trump, NINE)
    has_a, has_t = _has(hand, trump, ACE), _has(hand, trump, TEN)
    pts = 0.0
    if has_j:
        pts += 30
    if has_9:
        pts += 22 if has_j or n >= 3 else 10
    if has_a:
        pts += 16 if (has_j and has_9) or n >= 4 else 9
    if has_t:
        pts += 12 if n >= 4 or (has_j and has_9) else 6
    if _has(hand, trump, KING) and _has(hand, trump, QUEEN):
        pts += 4
    pts += max(0, n - 3) * 10  # long trumps cut the defence's tricks
    for suit in range(4):
        if suit == trump:
            continue
        cards = hand & SUIT_MASKS[suit]
        k = cards.bit_count()
        a, t = _has(hand, suit, ACE), _has(hand, suit, TEN)
        if a:
            pts += 17 if k <= 4 else 12  # an ace takes its trick and what falls on it
        if t:
            pts += 12 if a else (5 if k >= 2 else 0)
        if a and t and _has(hand, suit, KING):
            pts += 4
        if n >= 3 and k == 0:
            pts += 8  # a void cuts
        elif n >= 3 and k == 1 and not a:
            pts += 3
    return pts + unknown * 6 + PARTNER_SHARE


def _plain_points(hand: Mask, trump: int, unknown: int = 0) -> float:
    """The evaluation of no-trump and all-trump: tricks come from masters and long suits."""
    pts = 0.0
    for suit in range(4):
        cards = hand & SUIT_MASKS[suit]
        k = cards.bit_count()
        if trump == NO_TRUMP:
            a, t, kg = _has(hand, suit, ACE), _has(hand, suit, TEN), _has(hand, suit, KING)
            if a:
                pts += 22
                if t:
                    pts += 12
                    if kg:
                        pts += 8
                if k >= 5:
                    pts += 10
            else:
                pts -= 8  # a suit the defence may run
                if t and k >= 3:
                    pts += 4
        else:
            j, nine, a = _has(hand, suit, JACK), _has(hand, suit, NINE), _has(hand, suit, ACE)
            if j:
                pts += 20
                if nine:
                    pts += 14
                    if a:
                        pts += 6
            elif nine and k >= 3:
                pts += 4
    return pts + unknown * 5 + PARTNER_SHARE - 6


def hand_points(hand: Mask, trump: int, unknown: int = 0) -> float:
    """The card points (of 162) a taker holding ``hand`` can expect for its team with
    ``trump``, the partner's average share included; declarations and belote apart (see
    :func:`contract_points`). ``unknown`` cards are still to be dealt (belote's auction).

    >>> from rebelote.cards import cards_mask, parse_cards
    >>> strong = cards_mask(parse_cards(["JH", "9H", "AH", "TH", "AS", "AD", "7C", "8C"]))
    >>> weak = cards_mask(parse_cards(["7H", "8H", "KS", "QS", "9D", "8D", "7C", "8C"]))
    >>> hand_points(strong, 1) > 130 > 80 > hand_points(weak, 1)
    True
    """
    if trump < 4:
        return _suit_points(hand, trump, unknown)
    return _plain_points(hand, trump, unknown)


def contract_points(hand: Mask, trump: int, declarations: bool = True) -> float:
    """:func:`hand_points` with the belote and (when the rules count them) most of the
    declarations the hand holds: what a coinche contract may be counted on."""
    pts = hand_points(hand, trump)
    if trump != NO_TRUMP:
        suits = range(4) if trump == ALL_TRUMP else (trump,)
        for s in suits:
            if _has(hand, s, KING) and _has(hand, s, QUEEN):
                pts += BELOTE_POINTS
                break
    if declarations:
        pts += 0.7 * sum(c.points for c in best_declarations(hand, trump))
    return pts


def coinche_worthy(hand: Mask, contract: Bid, trumps: int = COINCHE_TRUMPS) -> bool:
    """Does a defender holding ``hand`` coinche the opponents' ``contract``? Measured on
    3,000 deals of heuristic play: the one feature of a defender's hand that predicts the fall
    of a suit contract is its length in their trump (with 4 trumps, 74% of the contracts fell;
    with 3, 44%; with fewer, 27%, whatever the aces or the jack), and a coinche pays from about
    45%. No-trump and all-trump contracts are not coinched.

    >>> from rebelote.cards import cards_mask, parse_cards
    >>> from rebelote.auction import Bid
    >>> coinche_worthy(cards_mask(parse_cards(["7H", "8H", "QH", "KH", "AS", "7S", "8D", "9C"])),
    ...                Bid.parse("100 hearts"))
    True
    """
    if contract.kind != "value" or contract.trump >= 4:
        return False
    return (hand & SUIT_MASKS[contract.trump]).bit_count() >= trumps


def _floor10(x: float) -> int:
    return int(x // 10) * 10


# -- the coinche auction, its choices as parameters ---------------------------------------------
@dataclass(frozen=True, slots=True)
class BidParams:
    """The choices of the coinche auction; the defaults are the heuristic's."""

    #: card points below the evaluation a bid may reach (negative: above it)
    margin: float = 10.0
    #: the first bid says the hand's value (the heuristic) or is the cheapest legal value
    jump: bool = True
    #: with ``jump`` off, a first bid still says the hand's value from this value on (0: never)
    jump_above: int = 0
    #: later bids outbid the opponents up to the evaluation's value plus this
    compete: float = 0.0
    #: a partner's contract is raised by ``support_scale`` x the support less ``support_margin``
    support_scale: float = 1.0
    support_margin: float = 10.0
    #: over an opponents' bid that followed the partner's, raise the partner's suit by a step
    #: while its last bid plus the support (as a raise counts it) reaches the value
    support_compete: bool = False
    #: a bid of one's own over the partner's contract needs this much more than its value
    over_partner: float = 20.0
    #: coinche an opponents' suit contract holding this many of their trumps
    coinche_trumps: int = 4
    #: ... and with one trump fewer when their contract is at least this (0: never)
    coinche_high: int = 0
    #: surcoinche one's own coinched contract when the evaluation beats it by this
    surcoinche: float = 30.0
    #: added to the evaluation of no-trump and all-trump
    plain_offset: float = 0.0
    #: the margin of a seat whose three others all passed (the deal is void if it passes)
    last_margin: float | None = None
    #: the margin of a seat that opens (no contract yet) before its partner has spoken
    open_margin: float | None = None
    #: the suits evaluated by the learned bidder's model (:mod:`rebelote.bots.learned`)
    learned: bool = False

    def with_text(self, text: str) -> BidParams:
        """These parameters with some changed by ``name=value;name=value`` (``,`` too).

        >>> BidParams().with_text("margin=0; jump=0").margin
        0.0
        """
        return with_text(self, text, "a tuned bidder")

    def text(self) -> str:
        """The parameters that differ from the heuristic's, as :meth:`with_text` reads them."""
        base = BidParams()
        return ";".join(f"{f.name}={_show(getattr(self, f.name))}" for f in fields(self)
                        if getattr(self, f.name) != getattr(base, f.name))


P = TypeVar("P")


def with_text(params: P, text: str, what: str) -> P:
    """The parameters dataclass ``params`` with some fields changed by ``name=value;...``
    (``,`` too), each read by its type (``bool`` as 0/1/true/false, ``int``, ``float``, and
    ``none`` where the field may be ``None``); :class:`ValueError` naming ``what``'s field
    and its type otherwise. The tuned bidder's :class:`BidParams` and the learned bidder's
    parameters are read by it."""
    kinds = {f.name: str(f.type) for f in fields(params)}  # type: ignore[arg-type]
    changes: dict[str, object] = {}
    for part in filter(None, (p.strip() for p in text.replace(";", ",").split(","))):
        name, sep, value = part.partition("=")
        name, value = name.strip(), value.strip().lower()
        if not sep or name not in kinds:
            raise ValueError(f"{what}'s parameter is name=value ({', '.join(kinds)}), "
                             f"not {part!r}")
        kind = kinds[name]
        try:
            if kind == "bool":
                if value not in ("0", "1", "true", "false"):
                    raise ValueError(value)
                changes[name] = value in ("1", "true")
            elif kind == "int":
                changes[name] = int(value)
            elif value == "none" and "None" in kind:
                changes[name] = None
            else:
                changes[name] = float(value)
        except ValueError:
            raise ValueError(f"{what}'s {name} is {kind}, not {value!r}") from None
    return replace(params, **changes)  # type: ignore[type-var]


def _show(value: object) -> str:
    if isinstance(value, bool):
        return str(int(value))
    if isinstance(value, float) and value == int(value):
        return str(int(value))
    return str(value)


def coinche_call(obs: Observation, p: BidParams,
                 evaluate: Callable[[Mask, int, bool], float]) -> Action:
    """The coinche (and contrée) call of ``obs``'s seat by the choices ``p`` on the hand
    evaluation ``evaluate``: the heuristic's with ``BidParams()``, the tuned bidder's with
    :data:`rebelote.bots.tuned.CHOSEN`."""
    legal = obs.legal
    me = obs.seat
    partner = (me + 2) % 4
    hand = obs.hand
    contract = obs.contract
    bidder = -1
    for s, b in obs.auction:
        if b.is_contract:
            bidder = s
    kinds = {a.kind for a in legal if isinstance(a, Bid)}
    if SURCOINCHE.kind in kinds and contract is not None:
        pts = evaluate(hand, contract.trump, obs.rules.declarations)
        if bidder == me and pts >= contract.rank + p.surcoinche:
            return SURCOINCHE
        return PASS
    if obs.multiplier > 1:
        return PASS
    current = contract.rank if contract is not None else 0
    my_bids = [b for s, b in obs.auction if s == me and b.is_contract]
    partner_spoke = any(s == partner for s, _ in obs.auction)
    partner_bids = [b for s, b in obs.auction if s == partner and b.is_contract]
    if COINCHE.kind in kinds and contract is not None:
        trumps = p.coinche_trumps
        if p.coinche_high and contract.rank >= p.coinche_high:
            trumps -= 1
        if coinche_worthy(hand, contract, trumps):
            return COINCHE  # the opponents' contract, and the defence holds their trumps
    margin = p.margin
    if contract is None and len(obs.auction) == 3 and p.last_margin is not None:
        margin = p.last_margin
    elif contract is None and not partner_spoke and p.open_margin is not None:
        margin = p.open_margin
    # my own best contract
    best_value, best_trump = 0, -1
    for trump in range(6):
        pts = evaluate(hand, trump, obs.rules.declarations) - margin
        if trump >= 4:
            pts += p.plain_offset
        value = min(160, _floor10(pts))
        if value > best_value:
            best_value, best_trump = value, trump
    # support for the partner's contract
    if partner_bids and bidder == partner and contract is not None and not my_bids:
        raise_by = p.support_scale * _support(hand, contract.trump) - p.support_margin
        value = min(160, contract.rank + _floor10(raise_by))
        if value > current and value >= best_value - 10:
            return _value_bid(legal, value, contract.trump) or PASS
    if p.support_compete and partner_bids and contract is not None and not my_bids \
            and bidder != partner and bidder >= 0:
        mate = partner_bids[-1]
        raise_by = p.support_scale * _support(hand, mate.trump) - p.support_margin
        value = min(160, mate.rank + _floor10(raise_by))
        if current + 10 <= value and value >= best_value - 10:
            bid = _value_bid(legal, current + 10, mate.trump)
            if bid is not None:
                return bid
    partner_holds = bidder >= 0 and (bidder - me) % 2 == 0
    if best_trump >= 0 and best_value >= 80 and best_value > current and not (
            partner_holds and (my_bids or best_value < current + p.over_partner)):
        cheapest = max(80, current + 10)
        if my_bids or not (p.jump or (p.jump_above and best_value >= p.jump_above)):
            bid = _value_bid(legal, cheapest, best_trump)
            limit = best_value + (p.compete if my_bids else 0)
        else:  # the heuristic's first bid: the value the hand is worth
            bid = _value_bid(legal, best_value, best_trump)
            limit = best_value
        if bid is not None and bid.value <= limit:
            return bid
    elif my_bids and contract is not None and not partner_holds and p.compete > 0:
        # over the opponents in my own suit, up to its value and ``compete`` more
        mine = my_bids[-1]
        pts = evaluate(hand, mine.trump, obs.rules.declarations) - margin
        if current + 10 <= min(160, _floor10(pts + p.compete)):
            bid = _value_bid(legal, current + 10, mine.trump)
            if bid is not None:
                return bid
    return PASS


# -- the bot -----------------------------------------------------------------------------------
class HeuristicBot:
    """A rule-based player of both games; deterministic (it draws nothing from ``rng``)."""

    name: str = "heuristic"

    def __init__(self, bid_margin: float = BID_MARGIN, take: float = BELOTE_TAKE,
                 coinche_trumps: int = COINCHE_TRUMPS,
                 evaluate: Callable[[Mask, int, bool], float] | None = None,
                 bid_params: BidParams | None = None) -> None:
        self.take = take
        #: The coinche hand evaluation (hand, trump mode, declarations counted): what a
        #: contract may be counted on; :func:`contract_points` unless another is given (the
        #: learned bidder's, :mod:`rebelote.bots.learned`).
        self.evaluate = evaluate or contract_points
        #: The coinche auction's choices: ``bid_params`` (the tuned bidder's), else the
        #: heuristic's at ``bid_margin`` and ``coinche_trumps``.
        self.bid_params = bid_params or BidParams(
            margin=bid_margin, support_margin=bid_margin, coinche_trumps=coinche_trumps)

    def act(self, observation: Observation, rng: random.Random) -> Action:
        legal = observation.legal
        if not legal:
            raise ValueError("act: the observed seat has no action to take")
        if observation.phase == AUCTION:
            return self._bid(observation)
        cards = [a for a in legal if a is not NO_DECLARATION]
        if len(cards) == 1:
            return cards[0]
        mask = 0
        for a in cards:
            if isinstance(a, Play):
                mask |= 1 << a.card
        return PLAYS[play_choice(observation, mask)]

    # -- auction ------------------------------------------------------------------------------
    def _bid(self, obs: Observation) -> Action:
        if obs.rules.game == "belote":
            return self._bid_belote(obs)
        return self._bid_coinche(obs)

    def _bid_belote(self, obs: Observation) -> Action:
        legal = obs.legal
        hand = obs.hand
        turned_suit = suit_of(obs.turned)
        if TAKE in legal:
            pts = hand_points(hand | 1 << obs.turned, turned_suit, unknown=2)
            pts += BELOTE_POINTS * 0.5 if _belote_of(hand | 1 << obs.turned, turned_suit) else 0
            return TAKE if pts >= self.take else PASS
        best: tuple[float, Action] = (self.take - 0.5, PASS)
        hand |= 1 << obs.turned  # the taker gets the turned card in the second round too
        for bid in legal:
            if bid is PASS or not isinstance(bid, Bid):
                continue
            pts = hand_points(hand, bid.trump, unknown=2)
            if bid.trump < 4 and _belote_of(hand, bid.trump):
                pts += BELOTE_POINTS * 0.5
            if bid.trump >= 4:
                pts -= 6  # the turned card's suit is no help there either
            if pts > best[0]:
                best = (pts, bid)
        return best[1]

    def _bid_coinche(self, obs: Observation) -> Action:
        return coinche_call(obs, self.bid_params, self.evaluate)


def _belote_of(hand: Mask, trump: int) -> bool:
    return _has(hand, trump, KING) and _has(hand, trump, QUEEN)


def _support(hand: Mask, trump: int) -> int:
    """How many points a partner's contract in ``trump`` is worth raising (the bot then takes
    off its bid margin): 10 an outside ace, 10 each the trump jack, nine and a third trump."""
    raise_by = 0
    for suit in range(4):
        if suit == trump or trump >= 4:
            continue
        if _has(hand, suit, ACE):
            raise_by += 10
    if trump < 4:
        if _has(hand, trump, JACK):
            raise_by += 10
        if _has(hand, trump, NINE):
            raise_by += 10
        if (hand & SUIT_MASKS[trump]).bit_count() >= 3:
            raise_by += 10
    elif trump == NO_TRUMP:
        raise_by += 10 * sum(_has(hand, s, ACE) for s in range(4))
    else:
        raise_by += 10 * sum(_has(hand, s, JACK) for s in range(4))
    return raise_by


def _value_bid(legal: Sequence[Action], value: int, trump: int) -> Bid | None:
    for a in legal:
        if isinstance(a, Bid) and a.kind == "value" and a.value == value and a.trump == trump:
            return a
    return None


# -- the play ----------------------------------------------------------------------------------
def play_choice(obs: Observation, legal: Mask) -> int:
    """The heuristic's card among the cards of ``legal`` (two or more) for the seat of ``obs``
    in the play, as :meth:`HeuristicBot.act` chooses it; ``obs.legal`` is not read (a model of
    the players asks it of many hands in one position: ``legal`` is each hand's)."""
    return _SeatKnowledge(obs).choose(legal)


class _SeatKnowledge:
    """What a seat knows in the play, and its choice of card."""

    def __init__(self, obs: Observation) -> None:
        self.obs = obs
        rules = obs.rules
        self.me = me = obs.seat
        self.partner = (me + 2) % 4
        self.step = obs.step
        self.trump = trump = obs.trump
        self.powers = card_powers(trump)
        self.values = card_values(trump, rules.no_trump_aces, rules.all_trump_scale)
        self.above = ABOVE[trump]
        self.tm = SUIT_MASKS[trump] if trump < 4 else 0
        self.hand = obs.hand
        played = 0
        for _, cards in obs.tricks:
            for c in cards:
                played |= 1 << c
        for c in obs.trick:
            played |= 1 << c
        self.played = played
        self.unknown = FULL_DECK & ~played & ~obs.hand
        must, forbid = obs.constraints()
        self.possible = [(self.unknown & ~forbid[s]) | (must[s] & self.unknown)
                         for s in range(4)]
        self.possible[me] = 0
        self.ours = (obs.taker & 1) == (me & 1)
        self.opponents = ((me + 1) % 4, (me + 3) % 4)

    # -- facts ----------------------------------------------------------------------------------
    def is_trump(self, c: int) -> bool:
        return self.trump == ALL_TRUMP or (self.trump < 4 and suit_of(c) == self.trump)

    def is_master(self, c: int) -> bool:
        """No card still out of my hand beats ``c`` in its suit."""
        return not self.above[c] & self.unknown

    def void(self, s: int, suit: int) -> bool:
        """Is seat ``s`` known void in ``suit`` (by its plays, or no card of it is left out)?"""
        return not self.possible[s] & SUIT_MASKS[suit]

    def may_beat(self, s: int, card: int, led: int) -> bool:
        """Might seat ``s`` beat ``card`` (winning a trick led in ``led``)?"""
        poss = self.possible[s]
        if poss & self.above[card] and (suit_of(card) == led or self.is_trump(card)):
            return True
        if self.tm and not self.is_trump(card) and led != self.trump and poss & self.tm:
            # a cut: ``s`` must be void in the led suit
            return self.void(s, led)
        return False

    def later(self) -> list[int]:
        """The seats that play after me in this trick."""
        n = len(self.obs.trick)
        return [(self.me + k * self.step) % 4 for k in range(1, 4 - n)]

    def holds(self, winner_seat: int, card: int, led: int, after: Sequence[int]) -> bool:
        """Will ``card`` (played by ``winner_seat``) still win once ``after`` have played?"""
        return not any(self.may_beat(s, card, led) for s in after
                       if (s - winner_seat) % 2 == 1)

    def keep_cost(self, c: int) -> float:
        """What giving up ``c`` costs beyond its points: masters, trumps, a ten's guard."""
        cost = 0.0
        suit = suit_of(c)
        mine = self.hand & SUIT_MASKS[suit]
        if self.is_trump(c):
            cost += 12 + self.powers[c] % 8
        if self.is_master(c) and self.values[c] >= 10:
            cost += 10 + self.values[c] // 2  # a trick of its own to come
        rank = rank_of(c)
        if rank != TEN and rank != ACE and not self.is_trump(c):
            ten = suit * 8 + TEN
            if mine >> ten & 1 and self.unknown >> (suit * 8 + ACE) & 1 \
                    and mine.bit_count() == 2:
                cost += 9  # the last guard of a ten
        if rank == TEN and not self.is_master(c):
            cost += 4  # a ten waits for its ace to fall
        return cost

    # -- choice ---------------------------------------------------------------------------------
    def choose(self, legal: Mask) -> int:
        if not self.obs.trick:
            return self.lead(legal)
        return self.follow(legal)

    def lead(self, legal: Mask) -> int:
        tm = self.tm
        opp_trumps = any(self.possible[o] & tm for o in self.opponents) if tm else False
        my_trumps = legal & tm
        if tm and self.ours and opp_trumps and my_trumps:
            master = [c for c in iter_mask(my_trumps) if self.is_master(c)]
            taker = self.obs.taker == self.me
            if master:
                return max(master, key=lambda c: self.powers[c])
            if taker and my_trumps.bit_count() >= 2:
                return min(iter_mask(my_trumps), key=lambda c: self.powers[c])
        if self.trump == ALL_TRUMP or self.trump == NO_TRUMP or not opp_trumps:
            masters = [c for c in iter_mask(legal) if self.is_master(c)]
            if masters and (self.ours or not tm):
                return max(masters, key=lambda c: (self.values[c], self.powers[c]))
        # masters of a plain suit that no opponent is known to cut
        cash = [c for c in iter_mask(legal & ~tm) if self.is_master(c)
                and not (tm and any(self.void(o, suit_of(c)) and self.possible[o] & tm
                                    for o in self.opponents))]
        if cash:
            return max(cash, key=lambda c: (self.values[c], -(self.hand & SUIT_MASKS[suit_of(c)])
                                            .bit_count()))
        # a low lead
        best, best_cost = -1, 1e9
        for c in iter_mask(legal):
            suit = suit_of(c)
            cost = self.values[c] * 1.5 + self.keep_cost(c)
            if self.is_trump(c) and not self.ours:
                cost += 15
            if tm and not self.is_trump(c):
                for o in self.opponents:
                    if self.void(o, suit) and self.possible[o] & tm:
                        cost += 6 if not self.ours else 3
                if self.void(self.partner, suit) and self.possible[self.partner] & tm:
                    cost -= 8  # the partner cuts
            if self.possible[self.partner] & self.above[c] & SUIT_MASKS[suit]:
                cost -= 2  # the partner may hold the master
            cost -= 0.5 * (self.hand & SUIT_MASKS[suit]).bit_count()
            if cost < best_cost:
                best, best_cost = c, cost
        return best

    def follow(self, legal: Mask) -> int:
        obs = self.obs
        trick = obs.trick
        led = suit_of(trick[0])
        powers = self.powers
        trump = self.trump
        win_i = 0
        for i in range(1, len(trick)):
            if BEATERS[trump][trick[win_i]] >> trick[i] & 1:
                win_i = i
        winner_card = trick[win_i]
        winner_seat = (obs.leader + win_i * self.step) % 4
        after = self.later()
        points = sum(self.values[c] for c in trick)
        last_trick = len(obs.tricks) == 7
        if last_trick:
            points += 10
        values = self.values
        cards = list(iter_mask(legal))

        partner_wins = winner_seat == self.partner
        if partner_wins and self.holds(winner_seat, winner_card, led, after):
            # load points on the partner's trick
            return max(cards, key=lambda c: (values[c] - self.keep_cost(c), -powers[c]))
        winners = [c for c in cards if BEATERS[trump][winner_card] >> c & 1]
        safe = [c for c in winners if self.holds(self.me, c, led, after)]
        if safe and not partner_wins:
            def win_cost(c: int) -> float:
                return self.keep_cost(c) - values[c] + (6 if self.is_trump(c) else 0)
            if points + max(values[c] for c in safe) > 0 or not after or \
                    any(not self.is_trump(c) for c in safe):
                return min(safe, key=lambda c: (win_cost(c), powers[c]))
        if winners and not partner_wins and after and points >= 10 \
                and all(self.is_trump(c) for c in winners):
            # a cut that may be overcut: worth it with points on the table
            return min(winners, key=lambda c: powers[c])
        if partner_wins and safe and points >= 10:
            return min(safe, key=lambda c: (self.keep_cost(c) - values[c], powers[c]))
        # nothing to win: the card that costs least
        return min(cards, key=lambda c: (values[c] + self.keep_cost(c), powers[c]))


__all__ = ["HeuristicBot", "coinche_worthy", "contract_points", "hand_points", "play_choice"]
