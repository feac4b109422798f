"""The double-dummy solver in plain Python: the reference the compiled search is held to.

It reads like the rules: every legal card is tried at every turn (no pruning, no ordering);
the only shortcut is a memo of the positions at the start of a trick, which are fully known by
the cards still out, the leader and whether the counted team has won every trick so far. It
is exact and slow: the tests use it on end-games (four or five cards a hand), the compiled
search (:mod:`rebelote.solver._search`) is diffed against it there.

Values are **final card points** of one team, the team of the player to move at the root:
points already won, plus the cards of the tricks still to play, plus the dix de der (10) for
the last trick, or the capot total (card points + 100) when that team takes every trick. Its
opponents play to make that number as small as they can.
"""

from __future__ import annotations

from rebelote.cards import Card, Mask, iter_mask
from rebelote.rules import DIX_DE_DER, Rules, card_values, legal_mask, seat_step, trick_winner
from rebelote.solver.position import CAPOT_EXTRA, Position


def solve_reference(position: Position, rules: Rules) -> dict[Card, int]:
    """Each legal card of the player to move, and the final card points of its team under
    perfect play by all four (every hand visible)."""
    ctx = _Context(position, rules)
    mover = position.player_to_move(rules)
    me = mover & 1
    flag = position.tricks[1 - me] == 0
    base = position.points[me]
    hands = list(position.hands)
    trick = list(position.trick)
    out: dict[Card, int] = {}
    legal = ctx.legal(hands[mover], trick)
    for card in iter_mask(legal):
        hands[mover] &= ~(1 << card)
        trick.append(card)
        out[card] = base + ctx.after_card(hands, trick, position.leader, flag, me)
        trick.pop()
        hands[mover] |= 1 << card
    return out


class _Context:
    def __init__(self, position: Position, rules: Rules) -> None:
        self.trump = position.trump
        self.step = seat_step(rules)
        self.overtrump_partner = rules.overtrump_partner
        self.must_undertrump = rules.must_undertrump
        self.values = card_values(position.trump, rules.no_trump_aces, rules.all_trump_scale)
        self.memo: dict[tuple[tuple[Mask, ...], int, bool], int] = {}

    def legal(self, hand: Mask, trick: list[Card]) -> Mask:
        win = trick_winner(trick, self.trump) if trick else 0
        return legal_mask(hand, trick, win, self.trump, self.overtrump_partner,
                          self.must_undertrump)

    def after_card(self, hands: list[Mask], trick: list[Card], leader: int, flag: bool,
                   me: int) -> int:
        """The points ``me`` wins from here on: the trick in progress (its cards included)
        and every later trick."""
        step = self.step
        if len(trick) == 4:
            winner = (leader + step * trick_winner(trick, self.trump)) % 4
            points = sum(self.values[c] for c in trick)
            last = not any(hands)
            won = (winner & 1) == me
            flag = flag and won
            if last:
                points += DIX_DE_DER
                if flag:
                    points += CAPOT_EXTRA
            gained = points if won else 0
            if last:
                return gained
            return gained + self.trick_start(hands, winner, flag, me)
        seat = (leader + step * len(trick)) % 4
        best: int | None = None
        for card in iter_mask(self.legal(hands[seat], trick)):
            hands[seat] &= ~(1 << card)
            trick.append(card)
            v = self.after_card(hands, trick, leader, flag, me)
            trick.pop()
            hands[seat] |= 1 << card
            if best is None or ((seat & 1) == me and v > best) or ((seat & 1) != me and v < best):
                best = v
        assert best is not None  # a player with cards always has a legal one
        return best

    def trick_start(self, hands: list[Mask], leader: int, flag: bool, me: int) -> int:
        key = (tuple(hands), leader, flag)
        got = self.memo.get(key)
        if got is None:
            got = self.after_card(hands, [], leader, flag, me)
            self.memo[key] = got
        return got
