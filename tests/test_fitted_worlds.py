"""The worlds of a position with declarations announced, drawn without rejection
(:class:`rebelote.determinize.FittedDeals`): every deal drawn is one the engine replays to the
seat's observation, and the draws are uniform over those deals, as the plain rejection
sampler's (a uniform deal of the hidden cards, kept when the engine replays the observation
on it): against every deal that fits, listed (a chi-square test), and against the plain
sampler's draws where there are too many to list (the first trick)."""

from __future__ import annotations

import itertools
import math
import random
from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rebelote.actions import PLAY
from rebelote.bots import make_bot
from rebelote.cards import FULL_DECK, Mask, mask_cards
from rebelote.deal import DealState
from rebelote.determinize import FittedDeals, announced_play, deals, fitted_deals
from rebelote.observation import Observation, observe
from rebelote.rules import Rules, parse_rules

COINCHE = Rules.preset("official", "coinche")
BELOTE = Rules.preset("official", "belote")
#: a belote deal where a seat must undertrump; a coinche where a tie of declarations goes to
#: the first to speak
HOUSE = parse_rules("belote:house")
TIE_FIRST = parse_rules("coinche:official,declaration_tie=first")


def _position(rules: Rules, seed: int, cards: int) -> Observation | None:
    """The observation of the first seat to play while holding ``cards`` cards with a choice
    and another seat's declarations announced, the heuristic playing deal ``seed``; ``None``
    if there is none."""
    heuristic = make_bot("heuristic")
    state = DealState.new(rules, dealer=seed % 4, seed=seed)
    rng = random.Random(seed)
    while not state.is_terminal:
        obs = state.observation(state.player)
        if state.phase == PLAY and obs.hand.bit_count() < cards:
            return None
        if state.phase == PLAY and obs.hand.bit_count() == cards and len(obs.legal) > 1 \
                and announced_play(obs):
            return obs
        state = state.apply(heuristic.act(obs, rng))
    return None


def _fits(obs: Observation, start: list[Mask]) -> bool:
    """Whether the deal whose hands were ``start`` when the play began gives the seat the
    observation ``obs`` when the engine replays the calls and cards on it (the stock of a
    belote deal any that gives those hands)."""
    from rebelote.determinize import _deal_played

    try:  # a belote deal's turned card is the taker's, or no stock deals it
        hands, stock = _deal_played(obs, start, random.Random(0))
        return observe(DealState.replayed(obs, hands, stock), obs.seat) == obs
    except ValueError:  # IllegalActionError too: a card the hand cannot play
        return False


def _hidden(obs: Observation) -> tuple[list[int], list[Mask], dict[int, int]]:
    """The cards the seat does not see, the cards each seat played, and how many of the
    unseen cards each other seat held when the play began."""
    played = obs.played_by()
    gone = played[0] | played[1] | played[2] | played[3]
    hidden = mask_cards(FULL_DECK & ~(obs.hand | gone))
    need = {s: 8 - played[s].bit_count() for s in range(4) if s != obs.seat}
    return hidden, played, need


def _every_fit(obs: Observation) -> set[tuple[int, ...]]:
    """Every deal that fits, by brute force: each unseen card given to each other seat in
    every way with the right counts, kept when the engine replays it to ``obs``."""
    hidden, played, need = _hidden(obs)
    others = sorted(need)
    out: set[tuple[int, ...]] = set()
    for seats in itertools.product(others, repeat=len(hidden)):
        counts = Counter(seats)
        if any(counts[s] != need[s] for s in others):
            continue
        start = list(played)
        start[obs.seat] |= obs.hand
        for c, s in zip(hidden, seats, strict=True):
            start[s] |= 1 << c
        if _fits(obs, start):
            out.add(tuple(start))
    return out


def _plain(obs: Observation, rng: random.Random) -> tuple[int, ...]:
    """The plain rejection sampler: the unseen cards shuffled and dealt to the other seats
    in their counts, again until the engine replays the deal to ``obs``."""
    hidden, played, need = _hidden(obs)
    while True:
        rng.shuffle(hidden)
        start = list(played)
        start[obs.seat] |= obs.hand
        pos = 0
        for s, n in need.items():
            for c in hidden[pos:pos + n]:
                start[s] |= 1 << c
            pos += n
        if _fits(obs, start):
            return tuple(start)


def _chi2_limit(df: int, z: float = 3.72) -> float:
    """The chi-square statistic with ``df`` degrees of freedom that chance exceeds with
    probability 1e-4 (``z``: the normal quantile), by the Wilson-Hilferty approximation."""
    k = 2.0 / (9.0 * df)
    return df * (1.0 - k + z * math.sqrt(k)) ** 3


#: Positions of three cards a seat with declarations announced, listed by hand: the seat to
#: play, voids, belote, combos shown and announced kinds whose combos were not (the losing
#: team's), a choice among several combos of a kind, two seats' kinds at once.
LISTED = [(COINCHE, 4), (COINCHE, 8), (COINCHE, 12), (COINCHE, 38), (COINCHE, 51),
          (COINCHE, 94), (COINCHE, 171), (COINCHE, 181), (COINCHE, 288), (COINCHE, 2),
          (BELOTE, 7), (BELOTE, 8), (BELOTE, 66), (BELOTE, 69)]


@pytest.mark.parametrize(("rules", "seed"), LISTED)
def test_fitted_draws_are_uniform_over_the_deals_that_fit(rules: Rules, seed: int) -> None:
    obs = _position(rules, seed, 3)
    assert obs is not None
    every = _every_fit(obs)
    assert len(every) > 1
    draws = FittedDeals(obs)
    rng = random.Random(seed)
    n = min(30 * len(every), 12_000)
    count: Counter[tuple[int, ...]] = Counter()
    for _ in range(n):
        got = draws(rng)
        assert got is not None
        count[tuple(_start(obs, *got))] += 1
    assert set(count) <= every  # only deals that fit
    expected = n / len(every)
    chi2 = sum((count[d] - expected) ** 2 / expected for d in every)
    assert chi2 < _chi2_limit(len(every) - 1), (len(every), chi2)


def _start(obs: Observation, hands: list[Mask], stock: tuple[int, ...]) -> list[Mask]:
    """The hands of a deal when the play began (a belote deal's stock dealt out)."""
    if not stock:
        return hands
    state = DealState.replayed(obs, hands, stock)
    return list(state.start_hands)


@pytest.mark.parametrize(("rules", "seed", "cards"),
                         [(COINCHE, 4, 8), (COINCHE, 15, 8), (HOUSE, 3, 8), (TIE_FIRST, 6, 8)])
def test_fitted_draws_match_the_plain_sampler_where_too_many_to_list(
        rules: Rules, seed: int, cards: int) -> None:
    """In the first trick (a tierce or a cinquante announced, which one unknown): how often
    each seat holds each card, over the fitted draws and over the plain rejection sampler's,
    agree within chance (each card and seat: at most 4.5 standard errors of the difference
    apart)."""
    obs = _position(rules, seed, cards)
    assert obs is not None
    rng = random.Random(seed)
    draws = FittedDeals(obs)
    n_fit, n_plain = 4000, 800
    fit = Counter[tuple[int, int]]()
    for _ in range(n_fit):
        got = draws(rng)
        assert got is not None
        start = _start(obs, *got)
        assert _fits(obs, start)
        fit.update((c, s) for s in range(4) for c in mask_cards(start[s]))
    plain = Counter[tuple[int, int]]()
    for _ in range(n_plain):
        start2 = _plain(obs, rng)
        plain.update((c, s) for s in range(4) for c in mask_cards(start2[s]))
    hidden, _, need = _hidden(obs)
    for c in hidden:
        for s in need:
            p1, p2 = fit[c, s] / n_fit, plain[c, s] / n_plain
            p = (fit[c, s] + plain[c, s]) / (n_fit + n_plain)
            se = math.sqrt(max(p * (1 - p), 1e-9) * (1 / n_fit + 1 / n_plain))
            assert abs(p1 - p2) <= 4.5 * se, (c, s, p1, p2)


def test_positions_of_the_first_trick_have_choices() -> None:
    """The first trick's positions above are the hard case: the tierce may be any of many."""
    obs = _position(COINCHE, 4, 8)
    assert obs is not None and not obs.tricks
    assert len(FittedDeals(obs).choices) > 5


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.filter_too_much])
@given(seed=st.integers(0, 400), cards=st.integers(2, 8),
       rules=st.sampled_from([COINCHE, BELOTE, HOUSE, TIE_FIRST]))
def test_every_fitted_world_replays_to_the_observation(seed: int, cards: int,
                                                       rules: Rules) -> None:
    obs = _position(rules, seed, cards)
    if obs is None:
        return
    draws = fitted_deals(obs)
    rng = random.Random(seed)
    for _ in range(10):
        got = draws(rng)
        assert got is not None  # the true deal fits: some deal is always found
        state = DealState.replayed(obs, *got)
        assert observe(state, obs.seat) == obs
        world = DealState.from_observation(obs, rng, draws=draws)
        assert world.observation(obs.seat) == obs
        assert world.hands[obs.seat] == obs.hand


def test_the_rejection_sampler_is_kept_as_the_reference() -> None:
    """``rejection=True`` is the old draw: the same worlds from the same seed as the deals
    of :func:`rebelote.determinize.deals` replayed until one fits."""
    obs = _position(COINCHE, 4, 8)
    assert obs is not None
    a, b = random.Random(3), random.Random(3)
    for _ in range(5):
        world = DealState.from_observation(obs, a, rejection=True)
        for hands, stock in deals(obs, b):
            state = DealState.replayed(obs, hands, stock)
            if observe(state, obs.seat) == obs:
                break
        assert world == state


def test_no_choice_no_draw() -> None:
    """A position with nothing announced by another seat is not the fitted draws'."""
    state = DealState.new(COINCHE, dealer=0, seed=1)
    with pytest.raises(ValueError, match="declarations"):
        FittedDeals(state.observation(0))


ANNONCES = Rules.preset("annonces", "contree")


def _any_position(rules: Rules, seed: int, cards: int) -> Observation | None:
    """The observation of the first seat to play with a choice while holding ``cards``
    cards, the heuristic playing deal ``seed`` (declarations announced or not)."""
    heuristic = make_bot("heuristic")
    state = DealState.new(rules, dealer=seed % 4, seed=seed)
    rng = random.Random(seed)
    while not state.is_terminal:
        obs = state.observation(state.player)
        if state.phase == PLAY and obs.hand.bit_count() == cards and len(obs.legal) > 1:
            return obs
        state = state.apply(heuristic.act(obs, rng))
    return None


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 500), cards=st.integers(1, 8),
       rules=st.sampled_from([COINCHE, TIE_FIRST, ANNONCES, parse_rules("coinche:house")]))
def test_a_world_redealt_is_the_world_replayed(seed: int, cards: int, rules: Rules) -> None:
    """The search's worlds after the first (:meth:`DealState.redealt`: the first world with
    another deal that fits put in, each seat's best declarations with it) are the states the
    engine reaches by replaying the calls and cards on that deal, field for field."""
    obs = _any_position(rules, seed, cards)
    if obs is None:
        return
    rng = random.Random(seed)
    template = DealState.from_observation(obs, rng)
    assert template.observation(obs.seat) == obs
    for _ in range(8):
        if announced_play(obs):
            got = fitted_deals(obs)(rng)
            assert got is not None
            start = got[0]
        else:
            start = next(deals(obs, rng))[0]
        replayed = DealState.replayed(obs, start)
        assert replayed.observation(obs.seat) == obs
        assert template.redealt(start) == replayed


def test_the_search_worlds_fit_the_observation() -> None:
    """Every world :class:`rebelote.bots.pimc.Worlds` deals for a position with
    declarations announced (fitted draws, the first replayed, the others redealt) gives the
    seat its observation, and the reference (``rejection``) replays every one."""
    from rebelote.bots.pimc import Worlds

    for seed in (4, 15):
        obs = _position(COINCHE, seed, 8)
        assert obs is not None
        for rejection in (False, True):
            worlds = Worlds(obs, rejection=rejection)
            assert (worlds.fitted is None) == rejection
            rng = random.Random(seed)
            for _ in range(20):
                assert worlds.deal(rng).observation(obs.seat) == obs
            assert (worlds.template is not None) != rejection  # the reference replays
