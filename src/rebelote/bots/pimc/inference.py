"""What the search infers from the calls and the cards: a world's weight from the auction
(:func:`world_weight`, :class:`AuctionWeights`, a bidding system's reading
:class:`SystemWeights`), from the play under the heuristic's model of the players
(:func:`play_weight`, :class:`PlayWeights`) or the learned model's factors, and from the
calls (:func:`call_weight`).
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence
from functools import lru_cache
from typing import Any, Final

from rebelote.actions import NO_DECLARATION, PLAY, PLAYS, Declare, Play
from rebelote.auction import PASS, Bid
from rebelote.bots.heuristic import HeuristicBot, contract_points, play_choice
from rebelote.bots.pimc.budget import INFER_LEAST, Budget
from rebelote.cards import Mask, suit_of
from rebelote.deal import DealState
from rebelote.observation import Observation
from rebelote.rules import AUCTION_GAMES, legal_mask

#: How sharply a bid or a pass weighs a world: a logistic of the evaluation's distance to the
#: threshold, in card points.
BID_SCALE: Final = 10.0
PASS_SCALE: Final = 14.0
#: The least weight a world keeps (the evaluation is a guess, not a rule).
FLOOR: Final = 0.02


def _logistic(x: float) -> float:
    return 1.0 / (1.0 + math.exp(-max(-50.0, min(50.0, x))))


def world_weight(world: DealState, obs: Observation) -> float:
    """How likely the world's hidden hands are to have made the calls the seat heard: each
    other seat's bid (its hand's evaluation should support the contract) and pass (it should
    not have supported one it could have called), multiplied. 1.0 with nothing to weigh.
    :class:`AuctionWeights` weighs many worlds of one observation."""
    return AuctionWeights(obs)(world)


class AuctionWeights:
    """:func:`world_weight` for the many worlds of one observation, to the bit: the calls to
    weigh are read once, and each call's factor is kept by the hand that made it (a seat's
    hand recurs from world to world once most of its cards are played)."""

    def __init__(self, obs: Observation) -> None:
        self.obs = obs
        self.rules = obs.rules
        self.turned = obs.turned
        #: each call weighed: its place in the auction, the seat, the call, the highest
        #: value bid before it
        self.calls = self._heard(obs)
        self.factors: dict[tuple[int, Mask], float] = {}

    def _heard(self, obs: Observation) -> list[tuple[int, int, Bid, int]]:
        calls: list[tuple[int, int, Bid, int]] = []
        best = 0
        for i, (seat, bid) in enumerate(obs.auction):
            if seat != obs.seat and self._weighs(bid, best):
                calls.append((i, seat, bid, best))
            if self.rules.game != "belote" and bid.kind == "value" \
                    and (seat == obs.seat or bid.trump >= 0):
                best = bid.value
        return calls

    def _weighs(self, bid: Bid, best: int) -> bool:
        if self.rules.game == "belote":
            if bid.kind in ("take", "suit"):
                trump = suit_of(self.turned) if bid.kind == "take" else bid.trump
                return trump < 4
            return bid == PASS and self.turned >= 0
        return (bid.kind == "value" and bid.trump >= 0) or (bid == PASS and best < 90)

    def __call__(self, world: DealState) -> float:
        if not self.calls:
            return 1.0
        hands = world.auction_hands()
        factors = self.factors
        weight = 1.0
        for i, seat, bid, best in self.calls:
            hand = hands[seat]
            f = factors.get((i, hand))
            if f is None:
                f = factors[(i, hand)] = self._factor(i, seat, bid, hand, best)
            weight *= f
        return weight

    def _factor(self, index: int, seat: int, bid: Bid, hand: Mask, best: int) -> float:
        rules = self.rules
        turned = self.turned
        if rules.game == "belote":
            if bid.kind in ("take", "suit"):
                trump = suit_of(turned) if bid.kind == "take" else bid.trump
                e = _evaluation(hand | 1 << turned, trump, rules.declarations)
                return max(FLOOR, _logistic((e - 76.0) / BID_SCALE))
            e = _evaluation(hand | 1 << turned, suit_of(turned), rules.declarations)
            return max(FLOOR, _logistic((96.0 - e) / PASS_SCALE))
        if bid.kind == "value":
            e = _evaluation(hand, bid.trump, rules.declarations)
            # a bid says "my hand and my partner's share make V" (the heuristic's reading)
            return max(FLOOR, _logistic((e - bid.value) / BID_SCALE))
        e = max(_evaluation(hand, t, rules.declarations) for t in range(4))
        return max(FLOOR, _logistic((100.0 - e) / PASS_SCALE))


#: A bidding system (:attr:`Budget.calls`): the call a seat holding ``hand`` (its eight cards)
#: makes at the ``index``-th call of the observation's auction, having heard the calls before it.
CallSystem = Callable[[Observation, int, int, Mask], Bid]
#: The bidding systems the search can read an auction by, by name: each a maker of a
#: :data:`CallSystem` (made once a decision). ``heuristic`` is built in; a bench or a program
#: adds others with :func:`register_call_system`.
CALL_SYSTEMS: dict[str, Callable[[], CallSystem]] = {}


def register_call_system(name: str, maker: Callable[[], CallSystem]) -> None:
    """Make the bidding system ``maker`` makes readable as ``Budget.calls=name``."""
    CALL_SYSTEMS[name.strip().lower()] = maker


def call_system(name: str) -> CallSystem:
    """The bidding system of a name (:data:`CALL_SYSTEMS`); :class:`ValueError` naming the
    known ones otherwise."""
    maker = CALL_SYSTEMS.get(name.strip().lower())
    if maker is None:
        raise ValueError(f"calls: {name!r} is not a bidding system the search knows "
                         f"({', '.join(sorted(CALL_SYSTEMS))})")
    return maker()


def hands_around(seat: int, hand: Mask) -> list[Mask]:
    """Four hands of a bidding system's question: ``hand`` at ``seat``, the rest of the deck
    dealt in order to the others (a bidder sees only its own hand: any filling will do)."""
    rest = [c for c in range(32) if not hand >> c & 1]
    others = iter(sum(1 << c for c in rest[k:k + 8]) for k in (0, 8, 16))
    return [hand if s == seat else next(others) for s in range(4)]


def bot_calls(bot: HeuristicBot) -> CallSystem:
    """A bot's calls as a bidding system: the seat dealt ``hand`` (:func:`hands_around`), the
    calls before it replayed."""
    def call(obs: Observation, index: int, seat: int, hand: Mask) -> Bid:
        state = DealState.from_hands(obs.rules, obs.dealer, hands_around(seat, hand),
                                     obs.turned, (), obs.held_over, obs.scores)
        for _seat, bid in obs.auction[:index]:
            state = state.apply(bid)
        got = bot.act(state.observation(seat), _NO_RNG)
        assert isinstance(got, Bid)
        return got
    return call


class SystemWeights(AuctionWeights):
    """A world's weight from the auction read by a bidding system (:attr:`Budget.calls`):
    ``floor`` for each call another seat made that the system, holding that seat's hand of
    the world, would not have made; 1.0 with nothing heard. Each call's factor is kept by the
    hand that made it, as :class:`AuctionWeights` does."""

    def __init__(self, obs: Observation, system: CallSystem, floor: float) -> None:
        self.system = system
        self.floor = floor
        super().__init__(obs)

    def _heard(self, obs: Observation) -> list[tuple[int, int, Bid, int]]:
        return [(i, seat, bid, 0) for i, (seat, bid) in enumerate(obs.auction)
                if seat != obs.seat]

    def _factor(self, index: int, seat: int, bid: Bid, hand: Mask, best: int) -> float:
        return 1.0 if self.system(self.obs, index, seat, hand) == bid else self.floor


_MODEL: Final = HeuristicBot()
_NO_RNG: Final = random.Random(0)  # the heuristic draws nothing from its rng


def play_weight(world: DealState, obs: Observation, floor: float, cut: int = 0,
                partner: float | None = None) -> float:
    """How likely the other seats' cards so far are in ``world`` under a soft model of the
    players: the deal is replayed from its first lead, and each card another seat chose among
    several where the heuristic bot, seeing what that seat saw, would have played another
    multiplies the weight by ``floor``. 1.0 with nothing to weigh. With ``cut`` (> 0) the
    replay stops at the ``cut``-th such card: the weight is then ``floor ** cut`` (a world
    the model explains that badly is as unlikely as any other such, and costs no more).
    ``partner``: the factor of the partner's cards (``floor`` when ``None``; 1.0: the
    partner's cards weigh nothing). :class:`PlayWeights` gives the same weights to many
    worlds of one observation at less cost."""
    if not _weighs_play(obs):
        return 1.0
    mate = (obs.seat + 2) % 4 if partner is not None else -1
    others = [s for s in range(4) if s != obs.seat]
    return _play_factor(_misses(world, obs, others, cut, mate), obs.seat, floor, partner)


def _weighs_play(obs: Observation) -> bool:
    """Whether :func:`play_weight` has cards to weigh: some are played and the seat holds
    :data:`INFER_LEAST` or more."""
    return bool(obs.tricks or obs.trick) and obs.hand.bit_count() >= INFER_LEAST


def _play_factor(misses: Sequence[int], me: int, floor: float, partner: float | None
                 ) -> float:
    """The weight of the other seats' unexplained cards ``misses`` (by seat): ``floor`` each,
    the partner's ``partner`` each unless ``None``."""
    mate = (me + 2) % 4
    counted = sum(m for s, m in enumerate(misses) if s != me and (partner is None or s != mate))
    weight = floor ** counted
    if partner is not None and misses[mate]:
        weight *= partner ** misses[mate]
    return weight


def _first_lead(world: DealState, obs: Observation) -> tuple[list[int], DealState]:
    """The cards played so far (``obs``'s, in order) and ``world`` at its first lead, where
    their replay starts."""
    cards = [c for _, t in obs.tricks for c in t]
    cards.extend(obs.trick)
    first = world.first
    return cards, world.replace(hands=world.start_hands, phase=PLAY, player=first,
                                leader=first, trick=(), win=0, tricks=(), points=(0, 0),
                                winners=0, declared=(None, None, None, None), belote=())


def _misses(world: DealState, obs: Observation, seats: Sequence[int], cut: int = 0,
            mate: int = -1) -> list[int]:
    """For each seat, how many of its cards so far in ``world`` the heuristic (seeing what the
    seat saw) would have played otherwise, where it had a choice; only ``seats`` are asked,
    the others count 0. With ``cut`` (> 0) the replay stops at the ``cut``-th such card of a
    seat other than ``mate``."""
    cards, state = _first_lead(world, obs)
    misses = [0, 0, 0, 0]
    counted = 0
    for card in cards:
        p = state.player
        if state.declared[p] is None and state.best[p] and world.declared[p] == ():
            state = state.apply(NO_DECLARATION)  # the seat declined its declaration
        if p in seats and state.playable & (state.playable - 1):
            seen = state.observation(p)
            got = _MODEL.act(seen, _NO_RNG)
            if isinstance(got, Declare):
                after = state.apply(got)
                got = _MODEL.act(after.observation(p), _NO_RNG)
            if not (isinstance(got, Play) and got.card == card):
                misses[p] += 1
                if p != mate:
                    counted += 1
                    if counted == cut:
                        break
        state = state.apply(PLAYS[card])
    return misses


def only_hands_differ(obs: Observation) -> bool:
    """Whether the worlds of ``obs`` differ in nothing but the hands: the play of an auction
    game without declarations (no announcement to fit, no stock), once a contract is
    played. Then the replay of the deal so far is the same in every world."""
    rules = obs.rules
    return obs.phase == PLAY and rules.game in AUCTION_GAMES and not rules.declarations \
        and obs.taker >= 0


class PlayWeights:
    """:func:`play_weight` (without a cut) for the many worlds of one observation, at less
    cost: the model sees only a seat's own hand and the table, so a seat's unexplained cards
    depend only on the hand it was dealt. Each seat's count is kept by that hand, and a world
    whose every hidden hand was met before is weighed without replaying the deal (the worlds
    of a decision share most of their hands, the more so the fewer cards are hidden). Where
    the worlds differ only in their hands (:func:`only_hands_differ`), the deal is replayed
    once: each move's observation is then the first world's with the world's hand put in."""

    def __init__(self, obs: Observation, floor: float, partner: float | None = None) -> None:
        self.obs = obs
        self.floor = floor
        self.partner = partner
        self.active = _weighs_play(obs)
        self.others = [s for s in range(4) if s != obs.seat]
        self.known: dict[tuple[int, Mask], int] = {}
        self.plain = only_hands_differ(obs)
        #: in the plain case, each move of another seat (:func:`_moves`)
        self.moves: list[tuple[int, Observation, Mask, int, int]] | None = None

    def __call__(self, world: DealState) -> float:
        if not self.active:
            return 1.0
        hands = world.start_hands
        known = self.known
        missing = [s for s in self.others if (s, hands[s]) not in known]
        if missing:
            got = self._plain(world, missing) if self.plain else \
                _misses(world, self.obs, missing)
            for s in missing:
                known[(s, hands[s])] = got[s]
        misses = [0, 0, 0, 0]
        for s in self.others:
            misses[s] = known[(s, hands[s])]
        return _play_factor(misses, self.obs.seat, self.floor, self.partner)

    def _plain(self, world: DealState, seats: Sequence[int]) -> list[int]:
        """:func:`_misses` of ``seats`` without replaying ``world``: the first world's
        observations, each with the seat's hand in ``world``, and the heuristic's card among
        that hand's legal cards (:func:`rebelote.bots.heuristic.play_choice`)."""
        if self.moves is None:
            self.moves = _moves(world, self.obs)
        rules = self.obs.rules
        trump = self.obs.trump
        ot, mu = rules.overtrump_partner, rules.must_undertrump
        start = world.start_hands
        misses = [0, 0, 0, 0]
        for p, seen, gone, card, win in self.moves:
            if p not in seats:
                continue
            hand = start[p] & ~gone
            legal = legal_mask(hand, seen.trick, win, trump, ot, mu)
            if not legal & (legal - 1):
                continue
            if play_choice(seen._replace(hand=hand, auction_hand=start[p]), legal) != card:
                misses[p] += 1
        return misses


def _moves(world: DealState, obs: Observation
           ) -> list[tuple[int, Observation, Mask, int, int]]:
    """The play so far replayed in ``world`` (an auction game without declarations): each
    move of a seat other than ``obs.seat``, its observation, the cards it had played before,
    the card it played and which of the trick's cards was winning it then."""
    cards, state = _first_lead(world, obs)
    gone = [0, 0, 0, 0]
    moves = []
    for card in cards:
        p = state.player
        if p != obs.seat:
            moves.append((p, state.observation(p), gone[p], card, state.win))
        gone[p] |= 1 << card
        state = state.apply(PLAYS[card])
    return moves


def call_weight(world: DealState, obs: Observation, floor: float) -> float:
    """How likely the other seats' calls are in ``world`` under the heuristic bot as the model
    of the bidders (auction games): the auction is replayed on the world's auction hands, and
    each call another seat made where the heuristic, seeing what that seat saw, would have
    made another multiplies the weight by ``floor``. 1.0 in belote or with nothing heard."""
    rules = obs.rules
    if rules.game not in AUCTION_GAMES or not obs.auction:
        return 1.0
    state = DealState.from_hands(rules, obs.dealer, world.auction_hands(), obs.turned, (),
                                 obs.held_over, obs.scores)
    me = obs.seat
    weight = 1.0
    for seat, bid in obs.auction:
        if seat != me:
            got = _CALL_MODEL.act(state.observation(seat), _NO_RNG)
            if got != bid:
                weight *= floor
        state = state.apply(bid)
    return weight


@lru_cache(maxsize=1 << 16)
def _evaluation(hand: Mask, trump: int, declarations: bool) -> float:
    """:func:`contract_points`, kept: a seat's auction hand recurs from world to world once
    most of its cards are played."""
    return contract_points(hand, trump, declarations)


#: The model of the bidders in :func:`call_weight`: the heuristic, its hand evaluations kept
#: (a seat's hand of a world is evaluated again at each of its calls).
_CALL_MODEL: Final = HeuristicBot(evaluate=_evaluation)
register_call_system("heuristic", lambda: bot_calls(_CALL_MODEL))


def _inference(obs: Observation, budget: Budget, infer: float
               ) -> Callable[[DealState], float]:
    """The weight of a world of ``obs`` from the inference: the other seats' cards under the
    heuristic's model (:func:`play_weight` with the floor ``infer``, by :class:`PlayWeights`
    when nothing cuts the replay; 0: not weighed here) and their calls (:func:`call_weight`,
    with ``budget.call_infer``)."""
    partner = budget.partner_of()
    plays: Callable[[DealState], float] | None = None
    if infer > 0.0:
        if budget.infer_cut:
            def plays(world: DealState) -> float:
                return play_weight(world, obs, infer, budget.infer_cut, partner)
        else:
            plays = PlayWeights(obs, infer, partner)
    calls = budget.call_infer

    def weight(world: DealState) -> float:
        w = 1.0 if plays is None else plays(world)
        if calls > 0.0:
            w *= call_weight(world, obs, calls)
        return w

    return weight


def _learned(obs: Observation, budget: Budget) -> bool:
    """Whether the learned model of card play weighs the play (a suit contract)."""
    return budget.play_model > 0.0 and 0 <= obs.trump < 4


def _model_factors(obs: Observation, worlds: Sequence[DealState], budget: Budget
                   ) -> list[float]:
    """Each world's likelihood of the other seats' cards under the learned model of card play
    (:mod:`rebelote.bots.playmodel`, floor ``budget.play_model``, to the power
    ``budget.play_temper``) where it weighs the play (:func:`_learned`), under the network's
    policy (:class:`NetWeights`, floors ``budget.net_weights`` and ``budget.net_calls``, to
    the power ``budget.net_temper``) where it does (:func:`_net_plays`, :func:`_net_calls`),
    relative to the likeliest world's."""
    import numpy as np

    from rebelote.bots.playmodel import play_log_weights, shipped_model

    logs = np.zeros(len(worlds))
    if _learned(obs, budget):
        logs += play_log_weights(obs, [w.start_hands for w in worlds], shipped_model(),
                                 budget.play_model) * budget.play_temper
    net_plays, net_calls = _net_plays(obs, budget), _net_calls(obs, budget)
    if (net_plays or net_calls) and worlds:
        net = NetWeights(obs, worlds[0], budget.net_weights if net_plays else 0.0,
                         budget.net_calls if net_calls else 0.0)
        logs += net.log_weights(worlds) * budget.net_temper
    top = float(logs.max())
    return [math.exp(float(x) - top) for x in logs]


def _net_plays(obs: Observation, budget: Budget) -> bool:
    """Whether the network's policy (:mod:`rebelote.bots.net`) weighs the play: ``net_weights``
    set, an auction game's play, and a contract the learned model of the players does not
    weigh (every contract without ``play_model``; no-trump and all-trump with it)."""
    return budget.net_weights > 0.0 and obs.phase == PLAY \
        and obs.rules.game in AUCTION_GAMES and obs.taker >= 0 \
        and not (budget.play_model > 0.0 and 0 <= obs.trump < 4)


def _net_calls(obs: Observation, budget: Budget) -> bool:
    """Whether the network's policy weighs the other seats' calls (``net_calls``, auction
    games)."""
    return budget.net_calls > 0.0 and obs.phase == PLAY \
        and obs.rules.game in AUCTION_GAMES and obs.taker >= 0


def _factored(obs: Observation, budget: Budget) -> bool:
    """Whether :func:`_model_factors` weighs the worlds (a learned model or the network)."""
    return _learned(obs, budget) or _net_plays(obs, budget) or _net_calls(obs, budget)


def _heuristic_off(obs: Observation, budget: Budget) -> bool:
    """Whether a learned model weighs the play in place of the heuristic's model."""
    return _learned(obs, budget) or _net_plays(obs, budget)


class NetWeights:
    """A world's likelihood of the other seats' actions under the network's policy
    (:mod:`rebelote.bots.net`): each card (``cards`` floor) and each call (``calls`` floor;
    0: not weighed) another seat chose among several multiplies the weight by its
    probability under the policy (a softmax over that seat's legal actions), seeing what
    that seat saw in the world, no less than the floor.

    The deal is replayed once, in a template world (any world that fits the observation):
    each move of another seat gives that seat's observation there. The observation's
    encoding holds the seat's own hand and public facts only, so in another world it is the
    template's with the hand of that world put in (:meth:`log_weights` puts it in the
    network's first layer directly). The deciding seat's observation is never altered; the
    template's hidden hands are never read (each is replaced by the weighed world's)."""

    def __init__(self, obs: Observation, template: DealState, cards: float,
                 calls: float = 0.0) -> None:
        import numpy as np

        from rebelote.bots.encoding import LAYOUT, action_index, card_map
        from rebelote.bots.net import features, legal_indices, shipped_model

        self.obs = obs
        self.cards = cards
        self.calls = calls
        model = shipped_model()
        self.model = model
        hand_at = 0
        for name, size in LAYOUT:
            if name == "hand":
                break
            hand_at += size
        rules = obs.rules
        self.ot, self.mu = rules.overtrump_partner, rules.must_undertrump
        #: each move weighed: (seat, the first layer without the hand, the hand's rows of
        #: the first layer (32 x hidden, by card), the cards played before by the seat (a
        #: card) or -1 (a call), the trick then, its winning card's place, the action's
        #: index, the legal indices of a call, each card's index in the action space)
        self.moves: list[tuple[int, Any, Any, int, tuple[int, ...], int, int,
                               list[int], list[int]]] = []
        me = obs.seat
        state = DealState.from_hands(rules, obs.dealer, template.start_hands, obs.turned, (),
                                     obs.held_over, obs.scores)
        w1, b1 = model["w1"], model["b1"]

        def record(p: int, action_i: int, gone: int, legal_calls: list[int]) -> None:
            seen = state.observation(p)
            x, suits = features(seen)
            x = x.copy()
            x[hand_at:hand_at + 32] = 0.0
            cmap = card_map(suits)
            rows = w1[[hand_at + cmap[c] for c in range(32)]]
            card_idx = [cmap[c] for c in range(32)]
            self.moves.append((p, x @ w1 + b1, rows, gone, state.trick, state.win,
                               action_i, legal_calls, card_idx))

        if calls > 0.0:
            for seat, bid in obs.auction:
                if seat != me and state.player == seat:
                    seen = state.observation(seat)
                    _, suits = features(seen)
                    legal = [i for i, _a in legal_indices(seen, suits)]
                    own = action_index(bid)
                    if len(legal) > 1 and own is not None and own in legal:
                        record(seat, own, -1, legal)
                state = state.apply(bid)
        else:
            for _, bid in obs.auction:
                state = state.apply(bid)
        announced = {s for s, _ in obs.announced}
        gone = [0, 0, 0, 0]
        for _, trick_cards in (*obs.tricks, (obs.leader, obs.trick)):
            for c in trick_cards:
                p = state.player
                if state.declared[p] is None and state.best[p]:
                    silent = obs.own_declared == () if p == me else p not in announced
                    if silent:
                        state = state.apply(NO_DECLARATION)
                if cards > 0.0 and p != me:
                    record(p, c, gone[p], [])
                gone[p] |= 1 << c
                state = state.apply(PLAYS[c])
        self._np = np

    def log_weights(self, worlds: Sequence[DealState]) -> Any:
        """Each world's log-likelihood of the other seats' moves (an array)."""
        np = self._np
        model = self.model
        w2, b2, wp, bp = model["w2"], model["b2"], model["wp"], model["bp"]
        n = len(worlds)
        out = np.zeros(n)
        if not self.moves or not n:
            return out
        trump = self.obs.trump
        shifts = np.arange(32, dtype=np.int64)[None, :]
        for p, h1, rows, gone, trick, win, action_i, legal_calls, card_idx in self.moves:
            hands = [w.start_hands[p] for w in worlds]
            uniq = sorted(set(hands))
            where = {h: k for k, h in enumerate(uniq)}
            if gone < 0:  # a call: the seat's hand then (an auction game: its eight cards)
                held = uniq
                floor = self.calls
            else:
                held = [h & ~gone for h in uniq]
                floor = self.cards
            bits = (np.asarray(held, dtype=np.int64)[:, None] >> shifts & 1
                    ).astype(np.float32)
            a1 = np.maximum(h1[None, :] + bits @ rows, 0.0)
            a2 = np.maximum(a1 @ w2 + b2, 0.0)
            if gone < 0:
                logits = a2 @ wp[:, legal_calls] + bp[legal_calls]
                legal = np.ones(logits.shape, dtype=bool)
                chosen = legal_calls.index(action_i)
                col = np.full(len(held), chosen)
            else:
                logits = a2 @ wp[:, card_idx] + bp[card_idx]  # by card number
                legal = (np.asarray([legal_mask(h, trick, win, trump, self.ot, self.mu)
                                     for h in held], dtype=np.int64)[:, None] >> shifts
                         & 1).astype(bool)
                col = np.full(len(held), action_i)
            choice = legal.sum(axis=1) > 1
            masked = np.where(legal, logits, -np.inf)
            top = masked.max(axis=1, keepdims=True)
            logp = masked - top - np.log(np.exp(masked - top).sum(axis=1, keepdims=True))
            got = logp[np.arange(len(held)), col]
            per = np.where(choice, np.maximum(got, math.log(floor)), 0.0)
            out += per[[where[h] for h in hands]]
        return out
