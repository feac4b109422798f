"""The double-dummy solver: the compiled search held equal to the plain reference."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rebelote.cards import HEARTS, SPADES, card_str, cards_mask, parse_cards
from rebelote.errors import RebeloteError
from rebelote.rules import ALL_TRUMP, NO_TRUMP, Rules, card_values, legal_cards, trick_winner
from rebelote.solver import (
    COMPILED,
    Position,
    PositionError,
    best_value,
    solve,
    solve_counted,
    solve_reference,
    solve_values,
)

OFFICIAL = Rules.preset("official", "coinche")
RULE_SETS = [
    OFFICIAL,
    Rules.preset("official", "belote"),  # undertrump: must
    Rules.preset("house", "coinche"),  # no-trump aces 11
    OFFICIAL.replace(overtrump_partner=False, all_trump_scale="trump"),
    OFFICIAL.replace(direction="counterclockwise"),
]


def random_position(rng: random.Random, rules: Rules, left: int, trump: int | None = None,
                    on_trick: int | None = None) -> Position:
    """A deal played at random until ``left`` cards remain in the leader's hand, then 0..3
    cards of the next trick."""
    deck = list(range(32))
    rng.shuffle(deck)
    hands = [cards_mask(deck[8 * s: 8 * s + 8]) for s in range(4)]
    if trump is None:
        trump = rng.randrange(6)
    values = card_values(trump, rules.no_trump_aces, rules.all_trump_scale)
    step = 1 if rules.direction == "clockwise" else 3
    leader = rng.randrange(4)
    points = [0, 0]
    tricks = [0, 0]
    for _ in range(8 - left):
        trick: list[int] = []
        for i in range(4):
            seat = (leader + step * i) % 4
            card = rng.choice(_cards(legal_cards(hands[seat], trick, trump, rules)))
            hands[seat] &= ~(1 << card)
            trick.append(card)
        winner = (leader + step * trick_winner(trick, trump)) % 4
        points[winner & 1] += sum(values[c] for c in trick)
        tricks[winner & 1] += 1
        leader = winner
    trick = []
    for i in range(rng.randrange(4) if on_trick is None else on_trick):
        seat = (leader + step * i) % 4
        card = rng.choice(_cards(legal_cards(hands[seat], trick, trump, rules)))
        hands[seat] &= ~(1 << card)
        trick.append(card)
    return Position.make(hands, trump, leader, trick, points, tricks, rules)


def _cards(mask: int) -> list[int]:
    return [c for c in range(32) if mask >> c & 1]


def test_compiled_is_built() -> None:
    assert COMPILED, "the Cython search must be built by the package's install"


@pytest.mark.parametrize("left", [1, 2, 3, 4])
@pytest.mark.parametrize("rules", RULE_SETS, ids=lambda r: f"{r.name}-{r.game}-{r.direction}")
def test_compiled_equals_reference_end_games(left: int, rules: Rules) -> None:
    rng = random.Random(1000 * left + RULE_SETS.index(rules))
    for _ in range(60 if left < 4 else 25):
        pos = random_position(rng, rules, left)
        want = solve_reference(pos, rules)
        assert solve(pos, rules) == want, pos
        assert best_value(pos, rules) == max(want.values()), pos


def test_compiled_equals_reference_five_cards() -> None:
    rng = random.Random(5)
    for i in range(6):
        rules = RULE_SETS[i % len(RULE_SETS)]
        pos = random_position(rng, rules, 5)
        assert solve(pos, rules) == solve_reference(pos, rules), pos


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 2**32), st.integers(1, 4), st.sampled_from(RULE_SETS))
def test_compiled_equals_reference_hypothesis(seed: int, left: int, rules: Rules) -> None:
    pos = random_position(random.Random(seed), rules, left)
    assert solve(pos, rules) == solve_reference(pos, rules)


def test_capot_is_252_and_values_are_the_movers_team() -> None:
    hands = [cards_mask(parse_cards(h)) for h in (["JH", "AS"], ["9H", "AD"], ["TS", "8H"],
                                                   ["8S", "7H"])]
    pos = Position.make(hands, HEARTS, 0, points=(86, 0), tricks=(6, 0))
    assert {card_str(c): v for c, v in solve(pos, OFFICIAL).items()} == {"AS": 127, "JH": 252}
    lost_one = Position.make(hands, HEARTS, 0, points=(75, 11), tricks=(5, 1))
    assert {card_str(c): v for c, v in solve(lost_one, OFFICIAL).items()} == \
        {"AS": 116, "JH": 151}


def test_full_deal_values_are_consistent() -> None:
    """Full deals: every value is a possible final total, the best card's value is
    best_value's, and the whole deal's points are 162 or a capot's 252."""
    rng = random.Random(7)
    for trump in (SPADES, NO_TRUMP, ALL_TRUMP):
        pos = random_position(rng, OFFICIAL, 8, trump, on_trick=0)
        values, nodes = solve_counted(pos, OFFICIAL)
        assert nodes > 0
        assert set(values) == set(_cards(pos.hands[pos.leader]))
        assert all(0 <= v <= 162 or v == 252 for v in values.values())
        assert best_value(pos, OFFICIAL) == max(values.values())


def test_positions_are_checked() -> None:
    hands = [cards_mask(range(8 * s, 8 * s + 8)) for s in range(4)]
    with pytest.raises(PositionError, match="hands.E: a card is in two hands") as caught:
        Position.make([hands[0] | 1 << 8, hands[1], hands[2], hands[3]], 0, 0)
    assert isinstance(caught.value, RebeloteError)
    assert (caught.value.field, caught.value.reason) == ("hands.E", "a card is in two hands")
    with pytest.raises(PositionError, match="tricks"):
        Position.make(hands, 0, 0, tricks=(1, 0))
    with pytest.raises(PositionError, match="hands.N: 7 cards where 6 are due"):
        Position.make([hands[0] & ~1, hands[1] & ~(1 << 8), hands[2], hands[3] | 1 << 8], 0,
                      0, trick=[0])
    with pytest.raises(PositionError, match="points"):
        Position.make([hands[0] & ~1, hands[1], hands[2], hands[3]], 0, 0, points=(5, 0),
                      trick=[0])
    with pytest.raises(PositionError, match="trump"):
        solve_values(hands, 9, 0, OFFICIAL)
    ok = solve_values([hands[0] & ~1, hands[1], hands[2], hands[3]], 0, 0, OFFICIAL, trick=[0])
    assert set(ok) == set(range(8, 16))  # E holds no spade and no trump: any card


def test_docstring_examples() -> None:
    import doctest

    import rebelote.solver
    import rebelote.solver.position

    for module in (rebelote.solver, rebelote.solver.position):
        assert doctest.testmod(module).failed == 0


def test_positions_of_engine_states() -> None:
    """At every card of deals played by the engine, the solver's legal cards are the engine's,
    and a card that keeps the move in the team keeps its value."""
    from rebelote.actions import AUCTION
    from rebelote.deal import DealState
    from rebelote.solver import position_of_state

    rng = random.Random(4)
    for game in ("coinche", "belote"):
        rules = Rules.preset("official", game)
        state = DealState.new(rules, dealer=0, seed=rng.randrange(1000))
        first = True
        while state.phase == AUCTION:  # the first seat takes, the others pass
            legal = state.legal_actions()
            state = state.apply(legal[1] if first else legal[0])
            first = False
        checked = 0
        while not state.is_terminal:
            if state.hands[state.current_player].bit_count() <= 4:
                pos = position_of_state(state)
                pos.check(rules)
                values = solve(pos, rules)
                assert set(values) == {a.card for a in state.legal_actions()
                                       if hasattr(a, "card")}
                assert values == solve_reference(pos, rules)
                card = max(values, key=lambda c: values[c])
                nxt = state.apply(card_str(card))
                if not nxt.is_terminal and nxt.current_player & 1 == state.current_player & 1:
                    assert best_value(position_of_state(nxt), rules) == values[card]
                checked += 1
            actions = [a for a in state.legal_actions() if hasattr(a, "card")] or \
                state.legal_actions()
            state = state.apply(rng.choice(actions))
        assert checked >= 16


def random_end_game(rng: random.Random, rules: Rules, left: int) -> Position:
    """``left`` cards in each hand (less one for the 0..3 seats already on the trick, whose
    cards are legal), the other cards gone in tricks shared at random between the teams."""
    deck = list(range(32))
    rng.shuffle(deck)
    hands = [cards_mask(deck[left * s: left * s + left]) for s in range(4)]
    trump = rng.randrange(6)
    step = 1 if rules.direction == "clockwise" else 3
    leader = rng.randrange(4)
    trick: list[int] = []
    for i in range(rng.randrange(4)):
        seat = (leader + step * i) % 4
        card = rng.choice(_cards(legal_cards(hands[seat], trick, trump, rules)))
        hands[seat] &= ~(1 << card)
        trick.append(card)
    values = card_values(trump, rules.no_trump_aces, rules.all_trump_scale)
    gone = sum(values[c] for c in deck[4 * left:])
    done = 8 - left
    ns = rng.choice((0, done, rng.randint(0, done)))
    share = 0 if ns == 0 else gone if ns == done else rng.randint(0, gone)
    return Position.make(hands, trump, leader, trick, (share, gone - share), (ns, done - ns),
                         rules)


def test_compiled_equals_reference_on_20000_end_games() -> None:
    """Tens of thousands of positions of 1 to 3 cards a hand: every rule variant, every trump
    mode, any point of a trick, capots still possible or not."""
    rng = random.Random(20_000)
    compared = 0
    for i in range(20_000):
        rules = RULE_SETS[i % len(RULE_SETS)]
        pos = random_end_game(rng, rules, 1 + i % 3)
        want = solve_reference(pos, rules)
        assert solve(pos, rules) == want, pos
        assert best_value(pos, rules) == max(want.values()), pos
        compared += len(want)
    assert compared > 30_000


def test_solves_from_several_threads_are_the_solves_of_one() -> None:
    """Each thread has its own compiled solver (its context, its table): solves asked from
    several threads at once give the values they give one at a time."""
    import threading

    rng = random.Random(12)
    positions = [random_position(rng, OFFICIAL, 5, on_trick=rng.randrange(4)) for _ in range(24)]
    want = [solve(p, OFFICIAL) for p in positions]
    got: list[list[dict[int, int]]] = [[] for _ in range(4)]

    def work(k: int) -> None:
        for p in positions[k::4] * 3:
            got[k].append(solve(p, OFFICIAL))

    threads = [threading.Thread(target=work, args=(k,)) for k in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    for k in range(4):
        assert got[k] == want[k::4] * 3


def test_a_thread_solves_while_another_thread_s_long_solve_runs() -> None:
    """The solves of two threads are not serialised: while one thread solves a full deal (each
    card's value, 1.7 million nodes), another finishes small solves (a lock around the solver
    would keep them waiting until the long solve ends)."""
    import threading
    import time

    deal = random_position(random.Random(13), OFFICIAL, 8, trump=1, on_trick=0)
    rng = random.Random(5)
    small = [random_position(rng, OFFICIAL, 2) for _ in range(50)]
    want = [solve(p, OFFICIAL) for p in small]
    started = threading.Event()
    done = threading.Event()

    def long_solve() -> None:
        started.set()
        solve(deal, OFFICIAL)
        done.set()

    worker = threading.Thread(target=long_solve)
    worker.start()
    started.wait()
    time.sleep(0.01)  # the worker is in its search
    inside = 0
    while not done.is_set():
        for p, w in zip(small, want, strict=True):
            assert solve(p, OFFICIAL) == w
            inside += not done.is_set()
    worker.join()
    assert inside >= 5, inside
