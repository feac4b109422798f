"""Random-simulation invariants of the engine over both games and both rule sets (Hypothesis).

Every deal: only legal actions are accepted, 8 tricks, card points plus the dix de der make the
deal's total (the capot total for a capot), records round-trip, an observation never holds
another seat's hidden card, and a determinized deal keeps everything the seat knows.
"""

from __future__ import annotations

import itertools
import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rebelote.actions import AUCTION, NO_DECLARATION, PLAY
from rebelote.bots import make_bot
from rebelote.cards import card_str
from rebelote.deal import DealState
from rebelote.errors import IllegalActionError
from rebelote.game import Game
from rebelote.record import record_of, replay_record
from rebelote.rules import Rules

GAMES = st.sampled_from(["belote", "coinche"])
NAMES = st.sampled_from(["official", "house"])
OPTIONS = st.fixed_dictionaries({}, optional={
    "direction": st.sampled_from(["clockwise", "counterclockwise"]),
    "undertrump": st.sampled_from(["must", "may"]),
    "overtrump_partner": st.booleans(),
    "declaration_tie": st.sampled_from(["nobody", "first"]),
    "belote_no_all_trump": st.booleans(),
    "coinche_capot": st.booleans(),
    "generale": st.booleans(),
    "declarations": st.booleans(),
    "all_trump_scale": st.sampled_from(["reduced", "trump"]),
})
BOT = make_bot("random")


def random_deal(rules: Rules, seed: int, dealer: int, take_rate: float = 0.5) -> DealState:
    """A deal played by random choices, with an auction that often ends in a contract."""
    rng = random.Random(seed)
    state = DealState.new(rules, dealer, rng=rng)
    while not state.is_terminal:
        legal = state.legal_actions()
        if state.phase == AUCTION and len(legal) > 1 and rng.random() < take_rate:
            action = rng.choice(legal[1:])
        elif state.phase == AUCTION:
            action = legal[0]
        else:
            action = rng.choice(legal)
        state = state.apply(action)
    return state


def hidden_leaks(state: DealState, seat: int) -> set[str]:
    """Cards of other seats' hands that show in ``seat``'s observation but are not public."""
    obs = state.observation(seat)
    text = json.dumps(obs.to_json())
    public = {card_str(c) for c in range(32) if any(combo.cards >> c & 1 for _, combo in obs.shown)}
    if obs.turned >= 0:
        public.add(card_str(obs.turned))
    leaks = set()
    for other in range(4):
        if other == seat:
            continue
        for c in range(32):
            name = card_str(c)
            if state.hands[other] >> c & 1 and f'"{name}"' in text and name not in public:
                leaks.add(name)
    return leaks


@settings(max_examples=60, deadline=None)
@given(game=GAMES, name=NAMES, options=OPTIONS, seed=st.integers(0, 10**6),
       dealer=st.integers(0, 3))
def test_deal_invariants(game: str, name: str, options: dict[str, object], seed: int,
                         dealer: int) -> None:
    rules = Rules.from_options(name, game, options)
    rng = random.Random(seed)
    state = DealState.new(rules, dealer, rng=rng)
    seen_cards = 0
    while not state.is_terminal:
        seat = state.current_player
        legal = state.legal_actions()
        assert legal and state.observation(seat).legal == tuple(legal)
        assert not hidden_leaks(state, seat)
        if state.phase == PLAY and rng.random() < 0.2:
            other = rng.randrange(4)
            d = state.determinize(other, random.Random(seed))
            assert d.observation(other) == state.observation(other)
            assert d.hands[other] == state.hands[other]
            assert sum(h.bit_count() for h in d.hands) == sum(h.bit_count() for h in state.hands)
        if state.phase == PLAY:  # a card outside the legal ones is refused
            illegal = state.hands[seat] & ~state.legal_cards()
            if illegal:
                with pytest.raises(IllegalActionError):
                    state.apply(card_str((illegal & -illegal).bit_length() - 1))
        action = BOT.act(state.observation(seat), rng) if rng.random() < 0.5 else \
            rng.choice(legal)
        state = state.apply(action)
        if state.phase != AUCTION:
            seen_cards = sum(len(c) for _, c in state.tricks) + len(state.trick)
    summary = state.summary()
    if state.is_void:
        assert state.tricks == () and summary.kind == "void"
        return
    assert len(state.tricks) == 8 and seen_cards == 32
    assert all(h == 0 for h in state.hands)
    total = rules.capot_total(state.trump) if summary.capot else rules.deal_total(state.trump)
    assert sum(summary.points) == total
    assert sum(state.points) == rules.card_total(state.trump)
    if summary.capot:
        assert summary.points[0 if summary.capot == "NS" else 1] == total
    rec = record_of(state)
    assert record_of(replay_record(json.loads(json.dumps(rec)))) == rec


@settings(max_examples=40, deadline=None)
@given(game=GAMES, name=NAMES, seed=st.integers(0, 10**6), dealer=st.integers(0, 3))
def test_playout_ends_in_a_consistent_deal(game: str, name: str, seed: int,
                                           dealer: int) -> None:
    rules = Rules.preset(name, game)
    rng = random.Random(seed)
    state = DealState.new(rules, dealer, rng=rng)
    while state.phase == AUCTION:
        legal = state.legal_actions()
        state = state.apply(legal[-1] if len(legal) > 1 and rng.random() < 0.5 else legal[0])
    if state.is_terminal:
        return
    done = state.playout(rng)
    summary = done.summary()
    total = rules.capot_total(done.trump) if summary.capot else rules.deal_total(done.trump)
    assert len(done.tricks) == 8 and sum(summary.points) == total
    assert all(h == 0 for h in done.hands) and done.is_terminal


@settings(max_examples=30, deadline=None)
@given(game=GAMES, name=NAMES, seed=st.integers(0, 10**6))
def test_swapping_the_teams_swaps_the_marks(game: str, name: str, seed: int) -> None:
    """Dealt one seat on (every hand moves to the next seat), the same deal gives the other
    team the same marks."""
    rules = Rules.preset(name, game)
    state = random_deal(rules, seed, 0)
    if state.is_void:
        return
    hands = state.start_hands if rules.game == "coinche" else None
    if hands is None:
        return  # belote's auction hands and stock make the shifted deal a different one
    shifted = DealState.from_hands(rules, 1, [hands[3], hands[0], hands[1], hands[2]])
    for seat, bid in state.auction.history:
        assert shifted.current_player == (seat + 1) % 4
        shifted = shifted.apply(bid)
    for _, cards in state.tricks:
        for c in cards:
            p = shifted.current_player
            if shifted.declared[p] is None and shifted.best[p] and \
                    state.declared[(p + 3) % 4] == ():
                shifted = shifted.apply(NO_DECLARATION)
            shifted = shifted.apply(card_str(c))
    ns, ew = state.score().score
    assert shifted.score().score == (ew, ns)


@settings(max_examples=10, deadline=None)
@given(game=GAMES, name=NAMES, seed=st.integers(0, 10**6))
def test_a_game_runs_to_its_target(game: str, name: str, seed: int) -> None:
    rules = Rules.preset(name, game)
    g = Game.new(rules, seed=seed, target=501)
    rng = random.Random(seed)
    while not g.is_terminal:
        seat = g.current_player
        g = g.apply(BOT.act(g.observation(seat), rng))
    result = g.result()
    assert g.winner is not None and result.totals[0 if g.winner == "NS" else 1] >= 501
    assert len(g.finished) == len(result.deals)
    dealers = [d.dealer for d in g.finished]
    assert all((b - a) % 4 == 1 for a, b in itertools.pairwise(dealers))
    assert g.returns() == ((1, -1, 1, -1) if g.winner == "NS" else (-1, 1, -1, 1))


@pytest.mark.parametrize("game", ["belote", "coinche"])
def test_determinize_a_finished_or_voided_deal(game: str) -> None:
    rules = Rules.preset("official", game)
    void = DealState.new(rules, 0, seed=1)
    while not void.is_terminal:
        void = void.apply("pass")
    played = random_deal(rules, 5, 2, take_rate=0.9)
    for state in (void, played):
        for seat in range(4):
            d = state.determinize(seat, random.Random(seat))
            assert d.is_terminal and d.observation(seat) == state.observation(seat)
