"""The learned player's endgame searched (``net:endgame=K;worlds=W``): from K cards in hand, each
card with a choice is the counted search's card (the search player on
:func:`rebelote.bots.pimc.endgame_budget`), the earlier cards and every call the network's."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

from rebelote.actions import AUCTION, PLAY, Action, Play
from rebelote.bots import HeuristicBot, make_bot
from rebelote.bots.net import (
    ENDGAME_CARDS,
    ENDGAME_LEVEL,
    ENDGAME_WORLDS,
    NetBot,
    NetLevel,
    parse_net_level,
)
from rebelote.bots.pimc import PimcBot, endgame_budget
from rebelote.deal import DealState
from rebelote.observation import Observation
from rebelote.rules import parse_rules


def positions(deals: int) -> Iterator[Observation]:
    """Every observation with more than one legal action of ``deals`` coinche deals driven
    by the heuristic (seeded)."""
    driver = HeuristicBot()
    for seed in range(deals):
        rng = random.Random(seed)
        state = DealState.new(parse_rules("coinche:official"), dealer=seed % 4, rng=rng)
        while not state.is_terminal:
            obs = state.observation(state.player)
            if len(obs.legal) > 1:
                yield obs
            state = state.apply(driver.act(obs, rng))


class Counting:
    """The real search player, counting the decisions asked of it."""

    name = "counting"

    def __init__(self, bot: PimcBot) -> None:
        self.bot, self.asked = bot, 0

    def act(self, observation: Observation, rng: random.Random) -> Action:
        self.asked += 1
        return self.bot.act(observation, rng)


def test_the_last_cards_are_the_counted_searchs_and_the_others_the_networks() -> None:
    """At K cards in hand or fewer a card with a choice is the counted search's card on the
    same observation and rng (the plain PimcBot of the same budget, the reference); above K,
    and every call, the network's (the search not asked)."""
    plain = NetBot()
    search = Counting(PimcBot(budget=endgame_budget(8)))
    bot = NetBot(endgame=3, search=search)
    reference = PimcBot(budget=endgame_budget(8))
    searched = played = calls = differs = 0
    for obs in positions(6):
        cards = sum(isinstance(a, Play) for a in obs.legal)
        asked = search.asked
        got = bot.act(obs, random.Random(11))
        if obs.phase == AUCTION:
            calls += 1
            assert got == plain.act(obs, random.Random(11))
            assert search.asked == asked
        elif obs.hand.bit_count() <= 3 and cards > 1:
            searched += 1
            assert search.asked == asked + 1
            want = reference.act(obs, random.Random(11))
            assert got == want
            differs += got != plain.act(obs, random.Random(11))
        else:
            assert obs.phase == PLAY
            played += 1
            assert got == plain.act(obs, random.Random(11))
            assert search.asked == asked
    assert searched >= 10 and played >= 20 and calls >= 10
    assert differs >= 1  # the search is not the network under another name


def test_the_endgame_is_reproducible_from_the_rng() -> None:
    bot = make_bot("net:endgame=4;worlds=8")
    again = make_bot("net:endgame=4;worlds=8")
    for obs in positions(3):
        if obs.phase == PLAY and obs.hand.bit_count() <= 4:
            assert bot.act(obs, random.Random(5)) == again.act(obs, random.Random(5))


def test_the_spec_reads_the_endgame_and_its_worlds() -> None:
    assert parse_net_level("endgame=5;worlds=32") == NetLevel(0.0, 5, 32)
    assert parse_net_level(" pass=30 ; endgame=4 ") == NetLevel(30.0, 4, ENDGAME_WORLDS)
    assert parse_net_level("pass=30") == NetLevel(30.0, ENDGAME_CARDS, ENDGAME_WORLDS)
    bot = make_bot("net:endgame=5;worlds=32")
    assert isinstance(bot, NetBot) and bot.endgame == 5
    assert isinstance(bot.search, PimcBot)
    assert bot.search.budget == endgame_budget(32) and bot.search.budget.seconds is None
    named = make_bot("net:endgame")
    assert isinstance(named, NetBot)
    assert (named.endgame, named.search.budget.worlds) == (  # type: ignore[union-attr]
        parse_net_level(ENDGAME_LEVEL).endgame, parse_net_level(ENDGAME_LEVEL).worlds)
    assert parse_net_level(ENDGAME_LEVEL) == NetLevel(0.0, ENDGAME_CARDS, ENDGAME_WORLDS)
    default = make_bot("net")  # net searches its endgame: the named level's setting
    assert isinstance(default, NetBot) and default.endgame == ENDGAME_CARDS == 6
    assert default.search.budget == endgame_budget(24)  # type: ignore[union-attr]
    off = make_bot("net:endgame=0")
    assert isinstance(off, NetBot) and off.endgame == 0 and off.search is None


@pytest.mark.parametrize(("spec", "says"), [
    ("net:endgame=9", "endgame: a whole number of cards in hand 0..8, not '9'"),
    ("net:endgame=-1", "endgame: a whole number of cards in hand 0..8"),
    ("net:endgame=x", "endgame: a whole number of cards in hand 0..8, not 'x'"),
    ("net:endgame=4;worlds=0", "worlds: a whole number of worlds 1..1000, not '0'"),
    ("net:endgame=4;worlds=1001", "worlds: a whole number of worlds 1..1000"),
    ("net:endgame=4;worlds=2.5", "worlds: a whole number of worlds"),
    ("net:endgame=4;endgame=5", "endgame: said twice"),
    ("net:endgames=4", "a level of net is pass=MARKS, endgame=K"),
    ("net:endgame=0;prior=3", "prior: a setting of the endgame's search, which endgame=0 "
                              "turns off"),
    ("net:worlds=8;endgame=0", "worlds: a setting of the endgame's search"),
    ("net:endgame", None),
    ("net:pass=30;endgame=0", None),
])
def test_a_bad_endgame_setting_is_named(spec: str, says: str | None) -> None:
    if says is None:
        make_bot(spec)
        return
    with pytest.raises(ValueError, match=None) as got:
        make_bot(spec)
    assert says in str(got.value)


def test_an_endgame_without_a_search_is_refused() -> None:
    with pytest.raises(ValueError, match="endgame: a search"):
        NetBot(endgame=3)
    with pytest.raises(ValueError, match="endgame: cards in hand 0..8"):
        NetBot(endgame=9, search=PimcBot(budget=endgame_budget(4)))
    with pytest.raises(ValueError, match="worlds: a whole number 1..10000"):
        endgame_budget(0)


def test_the_training_s_data_still_play_the_network_alone() -> None:
    """``net`` searches its endgame; the data levels that name ``net`` as their driver or
    playout (``search-cards``, ``dd:net``, ``net+calls``) play the network alone, as when they
    were made: the same seed, the same files."""
    from rebelote.bots import nettrain

    driver = nettrain._driver("net")
    assert isinstance(driver, NetBot) and driver.endgame == 0 and driver.search is None
    assert nettrain._driver("net:endgame") is not driver
    endgame = nettrain._driver("net:endgame")
    assert isinstance(endgame, NetBot) and endgame.endgame == ENDGAME_CARDS


def _policy_reference(obs: Observation, values: dict[int, float], prior: float, keep: float
                      ) -> int:
    """The card of ``net:prior=P;keep=M`` written plainly: the policy's log-probabilities over
    the legal cards (a softmax of the network's logits, by the permuted actions), each card's
    search mark plus ``prior`` times its own, the network's card unless beaten by more than
    ``keep``; ties to the network's card, then its higher logit."""
    from rebelote.bots.encoding import action_index, permute_action
    from rebelote.bots.net import features, forward, shipped_model

    x, suits = features(obs)
    row = forward(shipped_model(), x[None, :])[0][0].astype(float)
    cards = [a.card for a in obs.legal if isinstance(a, Play)]
    logit = {c: row[action_index(permute_action(Play(c), suits))] for c in cards}
    z = sum(pow(2.718281828459045, v) for v in logit.values())
    import math
    score = {c: values[c] + prior * (logit[c] - math.log(z)) for c in cards}
    own = max(cards, key=lambda c: logit[c])
    ranked = sorted(cards, key=lambda c: (score[c], c == own, logit[c]), reverse=True)
    best = ranked[0]
    return own if keep and score[best] - score[own] <= keep else best


def test_the_search_weighed_with_the_policy_is_its_plain_reference() -> None:
    """``net:prior=P`` and ``net:keep=M``: at the searched cards the card of the plain
    reference above, from the search's marks over the same worlds (``card_values`` with the
    same rng: the draws ``act`` makes); an unbounded ``keep`` is the network alone, and no
    weight at all is the search's own card."""
    plain = NetBot()
    search = PimcBot(budget=endgame_budget(8))
    searched = moved = 0
    for obs in positions(6):
        if obs.phase != PLAY or obs.hand.bit_count() > 4 \
                or sum(isinstance(a, Play) for a in obs.legal) < 2:
            continue
        searched += 1
        values = search.card_values(obs, random.Random(3))
        assert set(values) == {a.card for a in obs.legal if isinstance(a, Play)}
        for prior, keep in ((4.0, 0.0), (0.0, 6.0), (10.0, 3.0)):
            bot = NetBot(endgame=4, search=PimcBot(budget=endgame_budget(8)), prior=prior,
                         keep=keep)
            got = bot.act(obs, random.Random(3))
            assert got == Play(_policy_reference(obs, values, prior, keep))
            moved += got != search.act(obs, random.Random(3))
        stubborn = NetBot(endgame=4, search=PimcBot(budget=endgame_budget(8)), keep=1e9)
        assert stubborn.act(obs, random.Random(3)) == plain.act(obs, random.Random(3))
    assert searched >= 10 and moved >= 1  # the policy changes some cards


def test_the_policy_s_weight_is_read_and_checked() -> None:
    assert parse_net_level("prior=5;keep=10;alpha=0.5") == NetLevel(
        0.0, ENDGAME_CARDS, ENDGAME_WORLDS, 5.0, 10.0, 0.5)
    bot = make_bot("net:prior=5;alpha=0.5")
    assert isinstance(bot, NetBot) and (bot.prior, bot.keep) == (5.0, 0.0)
    assert bot.search.budget == endgame_budget(24, auction_alpha=0.5)  # type: ignore[union-attr]
    weighed = make_bot("net:infer=0.1;pool=4;model=0.05;every=64")
    assert isinstance(weighed, NetBot) and weighed.search.budget == endgame_budget(  # type: ignore[union-attr]
        24, infer=0.1, pool=4, play_model=0.05, every_below=64)
    for spec, says in (("net:prior=-1", "prior: a number of marks 0 or more, not '-1'"),
                       ("net:infer=2", "infer: a number 0..1, not '2'"),
                       ("net:pool=0", "pool: a whole number 1..100, not '0'"),
                       ("net:model=-0.1", "model: a number 0..1, not '-0.1'"),
                       ("net:every=1.5", "every: a whole number of deals 0..10000, not '1.5'"),
                       ("net:keep=x", "keep: a number of marks 0 or more, not 'x'"),
                       ("net:alpha=2", "alpha: a number 0..1, not '2'")):
        with pytest.raises(ValueError) as got:
            make_bot(spec)
        assert says in str(got.value)
    with pytest.raises(ValueError, match="prior, keep: a search that tells"):
        NetBot(endgame=4, search=HeuristicBot(), prior=2.0)
