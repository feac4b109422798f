"""The tuned bidder: the heuristic's coinche and contrée auction with its hand-set choices made
parameters (:class:`BidParams`), chosen on many cheap duplicate deals played against the
heuristic (the heuristic's card play on both sides) and measured on others (README, "The tuned
bidder").

Cards, belote takes and the hand evaluation (:func:`~rebelote.bots.heuristic.contract_points`)
are the heuristic's; only the calls of coinche and contrée change. What the tuning found
(:data:`CHOSEN`): **open at the cheapest value** instead of the value the hand is worth, and
count on the hand 5 points more than the heuristic does. A made contract pays its value once,
a failed one costs the whole deal and its value to the defence, so a jump to the hand's value
buys little and risks much; the bidder then competes over the opponents up to 10 points
beyond its evaluation and bids no-trump and all-trump on 20 points more than the heuristic's
evaluation of them.

:func:`duplicate_results` plays the same duplicate deals as ``bench/strength.py`` (the
arena's deals of a seed), the bidder at ``params`` against the heuristic, fast enough for
thousands of deals a minute: ``scripts/tune_bidder.py`` runs it for candidate parameters.

>>> import random
>>> from rebelote.cards import cards_mask, parse_cards
>>> from rebelote.deal import DealState
>>> from rebelote.rules import Rules
>>> hands = [["JH", "9H", "AH", "TH", "AS", "AD", "7C", "8C"],
...          ["8H", "7H", "8S", "9S", "9D", "TD", "9C", "TC"],
...          ["QH", "KH", "TS", "JS", "JD", "QD", "JC", "QC"],
...          ["7S", "QS", "KS", "7D", "8D", "KD", "KC", "AC"]]
>>> state = DealState.from_hands(Rules.preset("official", "coinche"), 3,
...                              [cards_mask(parse_cards(h)) for h in hands])
>>> str(make_tuned().act(state.observation(0), random.Random(0)))   # the heuristic: 130 hearts
'80 hearts'
"""

from __future__ import annotations

import random
from dataclasses import dataclass, fields, replace
from typing import Final

from rebelote.actions import Action
from rebelote.auction import COINCHE, PASS, SURCOINCHE, Bid
from rebelote.bots.heuristic import (
    HeuristicBot,
    _floor10,
    _support,
    _value_bid,
    coinche_worthy,
)
from rebelote.deal import DealState
from rebelote.observation import Observation
from rebelote.rules import Rules


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
        kinds = {f.name: str(f.type) for f in fields(self)}
        changes: dict[str, object] = {}
        for part in filter(None, (p.strip() for p in text.replace(";", ",").split(","))):
            name, sep, value = part.partition("=")
            name, value = name.strip(), value.strip().lower()
            if not sep or name not in kinds:
                raise ValueError(f"a tuned bidder's parameter is name=value "
                                 f"({', '.join(kinds)}), not {part!r}")
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
                raise ValueError(f"a tuned bidder's {name} is {kind}, not {value!r}") from None
        return replace(self, **changes)  # type: ignore[arg-type]

    def text(self) -> str:
        """The parameters that differ from the heuristic's, as :meth:`with_text` reads them."""
        base = BidParams()
        return ";".join(f"{f.name}={_show(getattr(self, f.name))}" for f in fields(self)
                        if getattr(self, f.name) != getattr(base, f.name))


def _show(value: object) -> str:
    if isinstance(value, bool):
        return str(int(value))
    if isinstance(value, float) and value == int(value):
        return str(int(value))
    return str(value)


#: The parameters chosen on the tuning deals (seeds 101, coinche, and 102, contrée; the rounds
#: and their figures: README, "The tuned bidder").
CHOSEN: Final = BidParams(margin=-5.0, jump=False, compete=10.0, over_partner=10.0,
                          plain_offset=20.0)


class TunedBidder(HeuristicBot):
    """:class:`HeuristicBot` whose coinche and contrée calls follow :class:`BidParams`
    (with ``BidParams()`` it makes the heuristic's calls)."""

    name = "tuned"

    def __init__(self, params: BidParams | None = None) -> None:
        self.params = params or BidParams()
        evaluate = None
        if self.params.learned:
            from rebelote.bots.learned import LearnedEvaluation, shipped_model

            evaluate = LearnedEvaluation(shipped_model())
        super().__init__(bid_margin=self.params.margin,
                         coinche_trumps=self.params.coinche_trumps, evaluate=evaluate)

    def _bid_coinche(self, obs: Observation) -> Action:
        p = self.params
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
            pts = self.evaluate(hand, contract.trump, obs.rules.declarations)
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
            pts = self.evaluate(hand, trump, obs.rules.declarations) - margin
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
            pts = self.evaluate(hand, mine.trump, obs.rules.declarations) - margin
            if current + 10 <= min(160, _floor10(pts + p.compete)):
                bid = _value_bid(legal, current + 10, mine.trump)
                if bid is not None:
                    return bid
        return PASS


def make_tuned(level: str | None = None) -> TunedBidder:
    """The tuned bidder (:data:`CHOSEN`); a level changes parameters from there
    (``tuned:margin=0;compete=0``), and ``tuned:heuristic`` makes the heuristic's calls."""
    if level is not None and level.strip() == "heuristic":
        return TunedBidder(BidParams())
    return TunedBidder(CHOSEN if level is None else CHOSEN.with_text(level))


# -- tuning --------------------------------------------------------------------------------------
def duplicate_results(params: BidParams, game: str, preset: str, seed: int,
                      indices: range) -> list[float]:
    """For each deal number of ``indices``, the bidder at ``params`` against the heuristic: its
    mark minus the heuristic's, the mean of the two plays with the teams swapped. The deals,
    seats and results are the arena's (``bench/strength.py --a tuned:... --b heuristic``
    gives the same numbers), only faster: no timing, no records."""
    rules = Rules.preset(preset, game)
    a = TunedBidder(params)
    b = HeuristicBot()
    out: list[float] = []
    for index in indices:
        start = DealState.new(rules, index % 4, rng=random.Random(f"arena:{seed}:deal:{index}"))
        total = 0
        for a_side in (0, 1):
            bots = [a if s % 2 == a_side else b for s in range(4)]
            rngs = [random.Random(f"arena:{seed}:deal:{index}:{a_side}:{s}") for s in range(4)]
            state = start
            while not state.is_terminal:
                seat = state.current_player
                state = state.apply(bots[seat].act(state.observation(seat), rngs[seat]))
            total += state.returns()[a_side]
        out.append(total / 2)
    return out


__all__ = ["CHOSEN", "BidParams", "TunedBidder", "duplicate_results", "make_tuned"]
