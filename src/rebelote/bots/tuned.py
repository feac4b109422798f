"""The tuned bidder: the heuristic's coinche and contrée auction with its hand-set choices made
parameters (:class:`BidParams`), chosen on many cheap duplicate deals played against the
heuristic (the heuristic's card play on both sides) and measured on others
(docs/bidders.md, "The tuned bidder").

Cards, belote takes and the hand evaluation (:func:`~rebelote.bots.heuristic.contract_points`)
are the heuristic's; only the calls of coinche and contrée change. What the tuning found
(:data:`CHOSEN`): **open at the cheapest value** instead of the value the hand is worth, and
count on the hand 5 points more than the heuristic does. A made contract pays its value once,
a failed one costs the whole deal and its value to the defence, so a jump to the hand's value
buys little and risks much; the bidder then competes over the opponents up to 10 points
beyond its evaluation and bids no-trump and all-trump on 20 points more than the heuristic's
evaluation of them.

``scripts/tune_bidder.py`` plays candidate parameters against the heuristic on the arena's
duplicate deals of a seed (the same deals and results as ``bench/strength.py``), thousands of
deals a minute.

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

from typing import Final

from rebelote.bots.heuristic import BidParams, HeuristicBot

#: The parameters chosen on the tuning deals (seeds 101, coinche, and 102, contrée; the rounds
#: and their figures: docs/bidders.md, "The tuned bidder").
CHOSEN: Final = BidParams(margin=-5.0, jump=False, compete=10.0, over_partner=10.0,
                          plain_offset=20.0)


class TunedBidder(HeuristicBot):
    """:class:`HeuristicBot` whose coinche and contrée calls follow :class:`BidParams`
    (with ``BidParams()`` it makes the heuristic's calls)."""

    name = "tuned"

    def __init__(self, params: BidParams | None = None) -> None:
        params = params or BidParams()
        evaluate = None
        if params.learned:
            from rebelote.bots.learned import LearnedEvaluation, shipped_model

            evaluate = LearnedEvaluation(shipped_model())
        super().__init__(evaluate=evaluate, bid_params=params)


def make_tuned(level: str | None = None) -> TunedBidder:
    """The tuned bidder (:data:`CHOSEN`); a level changes parameters from there
    (``tuned:margin=0;compete=0``), and ``tuned:heuristic`` makes the heuristic's calls."""
    if level is not None and level.strip() == "heuristic":
        return TunedBidder(BidParams())
    return TunedBidder(CHOSEN if level is None else CHOSEN.with_text(level))


__all__ = ["CHOSEN", "TunedBidder", "make_tuned"]
