"""The search player's budgets and levels: how many worlds a card and a call, the time
limits, the inference's and the tie-breaks' settings (:class:`Budget`), the named levels
(:data:`LEVELS`) and a level's name read (:func:`budget_of`).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Final

from rebelote.numbers import is_digits
from rebelote.observation import Observation


@dataclass(frozen=True, slots=True)
class Budget:
    """``worlds`` sampled for a card (at most), ``bid_worlds`` for a bid; ``seconds`` and
    ``bid_seconds`` time limits per decision (``None``: count only, reproducible). With a time
    limit, a world is solved only if the time it is expected to take (measured on the
    previous worlds of as many cards) fits in what is left; ``min_worlds`` is the least a card
    searches and ``bid_least`` the least a bid simulates (below them, the heuristic
    answers)."""

    worlds: int
    bid_worlds: int
    seconds: float | None = None
    min_worlds: int = 4
    bid_seconds: float | None = None
    bid_least: int = 12
    #: How calls are chosen in coinche (and contrée): ``anchored`` (the heuristic's call is
    #: the prior, the simulation departs from it only for a call whose simulated mean mark
    #: beats it by :data:`ANCHOR_MARGIN`, see :func:`anchored_call`), ``free`` (the call of
    #: the best simulated mark, :func:`choose_call`) or ``heuristic`` (the heuristic's calls,
    #: no simulation: to measure the card play alone). Belote always bids freely.
    bidding: str = "anchored"
    #: Inference from the play (:func:`play_weight`): each card another seat played where the
    #: heuristic (the model of the players) would have played another multiplies a world's
    #: weight by ``infer`` (0: off). Soft: a floor, never a filter.
    infer: float = 0.0
    #: With ``infer``: deal ``pool`` times ``worlds`` candidate worlds, weigh each (auction and
    #: play), and solve ``worlds`` of them drawn in proportion to their weights (importance
    #: resampling: the likely worlds are solved, not merely weighed). 1: weigh only. Counted
    #: budgets only (a time limit weighs only).
    pool: int = 1
    #: Stop drawing worlds for a card once the best card's lead over the second is clear: its
    #: weighted mean beats the second's by ``stop_z`` standard errors of the paired difference
    #: (or the two agree in every world), after ``stop_least`` worlds (0: never).
    stop_z: float = 0.0
    stop_least: int = 16
    #: The other way: once a card's worlds are solved, go on with up to ``extend`` more while
    #: the best card's lead over the second is under ``extend_z`` standard errors of their
    #: paired difference (a close decision; 0: never). The resampled worlds only (``infer``
    #: with ``pool``, counted): the extra worlds are drawn from the same weighed candidates,
    #: after the first ones, which are the same as without.
    extend: int = 0
    extend_z: float = 1.0
    #: Between cards of equal mean marks, play the heuristic's card if it is one of them, else
    #: the one worth fewest card points (off: the lowest card number).
    tie_break: bool = False
    #: With ``tie_break``: the heuristic's card is played when its mean mark is within this
    #: many marks of the best card's (0: only when equal), while the seat holds
    #: ``prior_least`` cards or more: the double-dummy worlds, which let every seat see every
    #: card, are least to be trusted over the model's card where they barely part the two.
    prior_margin: float = 0.0
    prior_least: int = 0
    #: Worlds a card scaled by the cards left: the count for a hand of 8, 7, 6, ... cards (the
    #: last entry for every smaller hand); empty: ``worlds`` at every card. The first tricks'
    #: worlds are the costly ones to solve and the ones where the hidden hands vary most.
    by_cards: tuple[int, ...] = ()
    #: Inference from the calls (:func:`call_weight`, auction games): each call another seat
    #: made where the heuristic, holding that seat's hand of the world, would have called
    #: otherwise multiplies a world's weight by ``call_infer`` (0: off). With ``infer``.
    call_infer: float = 0.0
    #: Stop weighing a world's play at this many cards the model does not explain (0: never):
    #: see :func:`play_weight`.
    infer_cut: int = 0
    #: Inference from the play only while the seat holds this many cards or more (the first
    #: tricks: later the worlds vary little and replaying the play costs more than solving).
    infer_least: int = 3
    #: The exponent on a world's weight from the auction (:func:`world_weight`) when a card
    #: is searched: 1 as it is, 0 every world alike (uniform worlds), between: softer.
    auction_alpha: float = 1.0
    #: The bidding system the other seats' calls are read by (auction games), when the table
    #: has told it, as a convention card does: a name of :data:`CALL_SYSTEMS`. Each call
    #: another seat made that the system, holding that seat's hand of the world, would not
    #: have made multiplies the world's weight by ``call_floor``. Empty: the heuristic's
    #: evaluation of the hand against the call (:class:`AuctionWeights`), for players whose
    #: system is unknown.
    calls: str = ""
    call_floor: float = 0.2
    #: Whose calls are the prior (``anchored``) or the calls (``bidding="heuristic"``), and the
    #: fallback when time runs out: ``heuristic``, ``tuned`` (the tuned bidder,
    #: :mod:`rebelote.bots.tuned`: the heuristic's cards, its own coinche calls) or
    #: ``learned`` (:mod:`rebelote.bots.contextual`: the same cards, calls by expected mark).
    bidder: str = "heuristic"
    #: Inference from the play by the learned model of card play
    #: (:mod:`rebelote.bots.playmodel`) instead of the heuristic's: each card another seat
    #: played weighs a world by its probability under the model there, no less than this
    #: floor (0: off), raised to ``play_temper`` (below 1: softer). With ``infer`` and ``pool``
    #: (the candidates it weighs); contracts in a suit (no-trump and all-trump keep the
    #: heuristic's model).
    play_model: float = 0.0
    play_temper: float = 1.0
    #: Inference from the play by the network's policy (:mod:`rebelote.bots.net`,
    #: :class:`rebelote.bots.pimc.inference.NetWeights`): each card another seat chose among
    #: several weighs a world by its probability under the policy, seeing what that seat saw
    #: there, no less than this floor (0: off), raised to ``net_temper``. In every contract of
    #: an auction game the learned model of the players does not weigh (all of them without
    #: ``play_model``; no-trump and all-trump with it), in place of the heuristic's model.
    #: With ``infer`` and ``pool``. ``net_calls``: the same for the other seats' calls (0:
    #: off), besides the auction's weight.
    net_weights: float = 0.0
    net_calls: float = 0.0
    net_temper: float = 1.0
    #: A card's mean mark plus this much a card point its team makes in the world (0: marks
    #: only): where the worlds agree on the outcome (a contract made or failed in all), the
    #: cards the marks leave equal are told apart by the points, in case the true deal is
    #: closer than the worlds said.
    points_eps: float = 0.0
    #: Weigh each world by the inverse of the chance the draws had of dealing it
    #: (:func:`rebelote.determinize.uniform_deal`): the worlds uniform over the deals that fit
    #: the observation, as the draws alone are not (they favour the deals that give the most
    #: constrained cards to the seats with the most room). The play of a game with nothing
    #: announced.
    uniform: bool = False
    #: The worlds as they were drawn before issue 35's change, the reference the benches
    #: time them against (``pimc:expert+learned[rejection=1]``, bench/worlds_draw.py): where
    #: another seat announced declarations, by the rejection sampler
    #: (:func:`rebelote.determinize.deals`: whole deals dealt at random until one fits the
    #: announcements, about 8 a world) instead of among the deals that fit
    #: (:class:`rebelote.determinize.FittedDeals`), and in a game with declarations every
    #: world replayed, not put in the first (:meth:`rebelote.deal.DealState.redealt`).
    rejection: bool = False
    #: When at most this many deals (or the card's count of worlds, if more) fit the
    #: observation, solve each of them once instead of drawing (0: never): the last tricks'
    #: few worlds, all of them, without the draws' noise.
    every_below: int = 0
    #: Strategy fusion at the seat's next card undone (0: off): while the seat holds this many
    #: cards or fewer (2 or more, the first trick's declarations past), each card is valued
    #: by playing the world on to the seat's next turn (the three cards between, each seat's
    #: double-dummy best in that world) and choosing the next card once for all the worlds
    #: that show the same three cards, as the seat will have to: the mean over those worlds
    #: of one card, not each world's best (the double-dummy leaf postponed by one decision of
    #: the seat's, as EPIMC does).
    postpone: int = 0
    #: With ``infer``: the factor of each of the partner's cards the model does not explain
    #: (below 0: ``infer``, as the other seats'; 1: the partner's cards weigh nothing). The
    #: partner is often another search player, whose cards the heuristic explains less well.
    partner_infer: float = -1.0
    #: With ``infer``: the floor of the play's inference when the seat's team defends (below
    #: 0: ``infer``; 0: the play not weighed in defence, the worlds drawn as without it).
    defence_infer: float = -1.0

    def infer_for(self, obs: Observation) -> float:
        """The floor of the play's inference for a card of ``obs`` (0: not weighed): ``infer``
        (``defence_infer`` in defence, if set) while the seat holds ``infer_least`` cards or
        more and :data:`INFER_LEAST`."""
        if obs.hand.bit_count() < max(INFER_LEAST, self.infer_least):
            return 0.0
        if self.defence_infer >= 0.0 and obs.taker >= 0 and (obs.taker & 1) != (obs.seat & 1):
            return self.defence_infer
        return self.infer

    def partner_of(self) -> float | None:
        """The factor of the partner's unexplained cards, ``None`` when it is ``infer``."""
        return None if self.partner_infer < 0.0 else self.partner_infer

    def card_worlds(self, cards: int) -> int:
        """The worlds a card with ``cards`` in hand searches (at most)."""
        if not self.by_cards:
            return self.worlds
        return self.by_cards[min(len(self.by_cards) - 1, max(0, 8 - cards))]


#: The seat must hold at least this many cards for the play to be weighed: later, the worlds
#: are few and nearly fixed by the cards gone, and replaying the deal costs more than solving.
INFER_LEAST: Final = 3


#: The named levels: ``pimc`` is ``default`` (time-limited, for play against a human),
#: ``fast`` and ``strong`` count worlds only (reproducible, for the arena). ``pimc:N`` is N
#: worlds a card and 2N a bid, counted.
LEVELS: Final = {
    # a quarter of a second a card; tie-breaks and the points between cards of equal marks
    # (the judge: 6-7% cheaper a card in coinche and belote, docs/search.md)
    "default": Budget(worlds=32, bid_worlds=24, seconds=0.25, min_worlds=3, bid_seconds=0.6,
                      bid_least=12, tie_break=True, points_eps=0.01),
    "fast": Budget(worlds=8, bid_worlds=16),
    "strong": Budget(worlds=48, bid_worlds=32),
    # the card play of ``fast`` with the heuristic's calls, and ``fast``'s free simulation
    # of every call: the two measurements that anchored bidding was built on
    "cards": Budget(worlds=8, bid_worlds=16, bidding="heuristic"),
    "free": Budget(worlds=8, bid_worlds=16, bidding="free"),
    # inference from the play (play_weight): ``fast`` and ``strong`` with their worlds weighed
    "infer": Budget(worlds=8, bid_worlds=16, infer=0.35, pool=3, tie_break=True),
    # 48 worlds drawn from 480 by how well the heuristic explains the other seats' cards
    # (a sharp floor), early stop and tie-breaks: the judge's lowest cost (docs/judge.md); uniform
    # over the deals that fit, every one of them when 64 or fewer fit, the points parting
    # cards of equal marks (docs/versus-colver.md, "What was tried next"); in a suit contract
    # the candidates weighed by the learned model of the players' cards, no less than 0.05 a
    # card (docs/versus-colver.md, "`expert` with the learned model of the players")
    "expert": Budget(worlds=48, bid_worlds=32, infer=0.1, pool=10, stop_z=2.5,
                     tie_break=True, points_eps=0.01, uniform=True, every_below=64,
                     play_model=0.05),
    # the match against colver's IS-DD with 20 worlds a card at no more time a card
    # (docs/versus-colver.md): worlds by the cards in hand, drawn from 10 times as many by the
    # play's inference (floor 0.1) while 6 cards or more are in hand, the auction's weight
    # softened (colver's bidder is not ours), uniform over the deals that fit, every one of
    # them when 64 or fewer fit, the points telling apart cards of equal marks, tie-breaks
    "match": Budget(worlds=64, bid_worlds=32, by_cards=(64, 48, 24, 12, 8), infer=0.1,
                    pool=10, infer_least=6, auction_alpha=0.5, tie_break=True,
                    points_eps=0.01, uniform=True, every_below=64),
}


def endgame_budget(worlds: int, auction_alpha: float = 1.0, infer: float = 0.0, pool: int = 1,
                   play_model: float = 0.0, every_below: int = 0) -> Budget:
    """The counted search of the learned player's last cards (``net:endgame=K;worlds=W``,
    :class:`rebelote.bots.net.NetBot`): ``worlds`` a card, no time limit (the same card on
    every machine, from the ``rng``), ties broken as ``default`` does (the heuristic's card,
    then the points); it never bids (the calls stay the network's). ``auction_alpha``: the
    exponent on a world's weight from the auction (:attr:`Budget.auction_alpha`,
    ``net:alpha=A``); ``infer``, ``pool`` and ``play_model``: the worlds drawn from ``pool``
    times as many, weighed by the play (:attr:`Budget.infer`, ``net:infer=F;pool=N;model=F``);
    ``every_below``: every deal that fits solved once when so few fit (``net:every=N``)."""
    if not 1 <= worlds <= 10_000:
        raise ValueError(f"worlds: a whole number 1..10000, not {worlds!r}")
    if not 0.0 <= auction_alpha <= 1.0:
        raise ValueError(f"auction_alpha: a number 0..1, not {auction_alpha!r}")
    if not (0.0 <= infer <= 1.0 and 0.0 <= play_model <= 1.0):
        raise ValueError(f"infer, play_model: floors 0..1, not {infer!r}, {play_model!r}")
    if not (1 <= pool <= 100 and 0 <= every_below <= 10_000):
        raise ValueError(f"pool 1..100, every_below 0..10000, not {pool!r}, {every_below!r}")
    return Budget(worlds=worlds, bid_worlds=1, min_worlds=1, tie_break=True, points_eps=0.01,
                  auction_alpha=auction_alpha, infer=infer, pool=pool, play_model=play_model,
                  every_below=every_below)


#: A level's suffix that makes the tuned bidder's calls the prior (``pimc:fast+tuned``).
TUNED_SUFFIX: Final = "+tuned"
#: ... and the learned bidder's (:mod:`rebelote.bots.contextual`, ``pimc:fast+learned``).
LEARNED_SUFFIX: Final = "+learned"


def budget_of(level: str | None) -> Budget:
    """The budget of a level name or a count of worlds, with ``+tuned`` the tuned bidder's
    calls for the heuristic's (``pimc:cards+tuned``, ``pimc:fast+tuned``); :class:`ValueError`
    otherwise."""
    if level is None:
        return LEVELS["default"]
    key = level.strip().lower()
    if key.endswith(TUNED_SUFFIX) and key != TUNED_SUFFIX:
        return replace(budget_of(key[:-len(TUNED_SUFFIX)]), bidder="tuned")
    if key.endswith(LEARNED_SUFFIX) and key != LEARNED_SUFFIX:
        return replace(budget_of(key[:-len(LEARNED_SUFFIX)]), bidder="learned")
    if key in LEVELS:
        return LEVELS[key]
    if is_digits(key) and 1 <= int(key) <= 10_000:
        n = int(key)
        return Budget(worlds=n, bid_worlds=max(1, 2 * n), min_worlds=min(4, n))
    counts = key.split("-")
    if 1 < len(counts) <= 7 and all(is_digits(c) and 1 <= int(c) <= 10_000 for c in counts):
        by = tuple(int(c) for c in counts)
        return Budget(worlds=by[0], bid_worlds=max(1, 2 * by[0]), min_worlds=min(4, *by),
                      tie_break=True, by_cards=by)
    raise ValueError(f"a pimc level is one of {', '.join(LEVELS)}, a count of worlds 1..10000 "
                     f"or counts by cards in hand (8-7-...: 64-32-16), any of them followed by "
                     f"+tuned or +learned (the tuned or the learned bidder's calls), not "
                     f"{level!r}")
