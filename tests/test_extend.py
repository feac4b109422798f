"""``Budget.extend``: a close decision goes on past its count of worlds, drawn from the same
weighed candidates; the first worlds are the same as without, cards apart by their points
alone are no close call."""

from __future__ import annotations

import random
from dataclasses import replace

from positions import taken_position
from rebelote.bots.explain import Notes
from rebelote.bots.pimc import budget_of
from rebelote.bots.pimc.marks import ALIKE, card_marks, close_call
from rebelote.deal import DealState
from rebelote.rules import parse_rules

RULES = parse_rules("coinche:official")


def _position(seed: int, trump: int, cards: int) -> DealState:
    return taken_position(RULES, seed, trump, cards)


def test_a_close_call_is_the_lead_over_the_next_card_that_differs() -> None:
    # cards 0 and 1 differ by their points' part alone; card 2 is close behind
    seen = [(1.0, {0: 10.0 + d, 1: 10.0 + d - 0.5, 2: 10.0 - d}) for d in (20.0, -15.0) * 8]
    total = {c: sum(m[c] for _, m in seen) for c in (0, 1, 2)}
    assert close_call(seen, total, 1.0)
    # card 2 far behind in every world: no close call
    far = [(w, {**m, 2: m[2] - 100.0}) for w, m in seen]
    assert not close_call(far, {c: sum(m[c] for _, m in far) for c in (0, 1, 2)}, 1.0)
    # only cards alike (less than ALIKE apart in every world): nothing to part
    alike = [(1.0, {0: 5.0, 1: 5.0 - ALIKE / 2})] * 8
    assert not close_call(alike, {0: 40.0, 1: 40.0 - 4 * ALIKE}, 1.0)


def test_extend_adds_worlds_to_close_calls_only_and_keeps_the_first_ones() -> None:
    """With ``extend_z`` 0 the lead is always clear enough: the marks are those without
    ``extend`` to the bit (the same first worlds, no more). With an ``extend_z`` no lead
    meets, a decision with cards that differ solves its ``extend`` more worlds."""
    base = replace(budget_of("expert"), worlds=12, stop_z=0.0, every_below=0)
    extended = 0
    for seed, trump in ((3, 4), (4, 1), (7, 0)):
        state = _position(seed, trump, 6)
        obs = state.observation(state.player)
        plain = card_marks(obs, random.Random(seed), base)
        never = card_marks(obs, random.Random(seed), replace(base, extend=8, extend_z=0.0))
        assert never == plain
        notes = Notes()
        always = card_marks(obs, random.Random(seed), replace(base, extend=8, extend_z=1e9),
                            notes=notes)
        assert notes.worlds in (12, 20)
        if notes.worlds == 20:
            extended += 1
            assert always != plain
    assert extended >= 2
