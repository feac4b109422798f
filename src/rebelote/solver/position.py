"""A double-dummy position: every hand, the trump mode, the trick in progress and the history
that still matters (card points and tricks already won by each team).

>>> from rebelote.cards import HEARTS, cards_mask, parse_cards
>>> from rebelote.rules import Rules
>>> hands = [cards_mask(parse_cards(h)) for h in (["JH"], ["9H"], ["TS", "8H"], ["8S", "7H"])]
>>> pos = Position.make(hands, HEARTS, leader=0, trick=parse_cards(["KS", "QS"]),
...                     points=(101, 0), tricks=(6, 0))
>>> pos.player_to_move(Rules.preset("official", "coinche"))
2
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from rebelote.cards import SEATS, Card, Mask, card_str
from rebelote.errors import InputError
from rebelote.rules import CAPOT_LAST_TRICK, DIX_DE_DER, Rules, card_values, seat_step

# a capot is worth card points + 100 (CAPOT_LAST_TRICK): the dix de der (10) and 90 more
CAPOT_EXTRA: Final = CAPOT_LAST_TRICK - DIX_DE_DER


class PositionError(InputError):
    """A position that cannot arise in a deal: ``field`` names what is wrong (``hands.E``,
    ``tricks``), ``reason`` the rule it breaks."""


#: How the seat index (0..3 = N E S W) moves from one player to the next: the rules' one home
#: of the direction of play.


@dataclass(frozen=True, slots=True)
class Position:
    """Seats are 0..3 = N E S W; ``hands`` are 32-bit masks (bit ``card`` set), ``trick`` the
    cards of the trick in progress in the order played, ``leader`` the seat that led it (or
    leads the next trick when it is empty). ``points`` and ``tricks``: card points and tricks
    already won by NS and EW (both zero at the first lead)."""

    hands: tuple[Mask, Mask, Mask, Mask]
    trump: int
    leader: int
    trick: tuple[Card, ...] = ()
    points: tuple[int, int] = (0, 0)
    tricks: tuple[int, int] = (0, 0)

    @staticmethod
    def make(hands: Sequence[Mask], trump: int, leader: int, trick: Sequence[Card] = (),
             points: Sequence[int] = (0, 0), tricks: Sequence[int] = (0, 0),
             rules: Rules | None = None) -> Position:
        """A checked position: a clear :class:`PositionError` naming the field otherwise."""
        if len(hands) != 4:
            raise PositionError("hands", "four hands, N E S W")
        if len(points) != 2 or len(tricks) != 2:
            raise PositionError("points" if len(points) != 2 else "tricks",
                                "one number for NS and one for EW")
        pos = Position((hands[0], hands[1], hands[2], hands[3]), trump, leader, tuple(trick),
                       (points[0], points[1]), (tricks[0], tricks[1]))
        pos.check(rules or Rules())
        return pos

    def player_to_move(self, rules: Rules) -> int:
        return (self.leader + seat_step(rules) * len(self.trick)) % 4

    def check(self, rules: Rules) -> None:
        """Raise :class:`PositionError` unless the position can arise in a deal."""
        if not (isinstance(self.trump, int) and 0 <= self.trump < 6):
            raise PositionError("trump", f"{self.trump!r} is not a trump mode (0..5)")
        if not (isinstance(self.leader, int) and 0 <= self.leader < 4):
            raise PositionError("leader", f"{self.leader!r} is not a seat (0..3)")
        seen = 0
        for seat, hand in enumerate(self.hands):
            if not (isinstance(hand, int) and 0 <= hand < 1 << 32):
                raise PositionError(f"hands.{SEATS[seat]}", "not a 32-bit mask of cards")
            if hand & seen:
                raise PositionError(f"hands.{SEATS[seat]}", "a card is in two hands")
            seen |= hand
        if len(self.trick) > 3:
            raise PositionError("trick",
                                "at most three cards are played before the next player")
        for card in self.trick:
            if not (isinstance(card, int) and 0 <= card < 32):
                raise PositionError("trick", f"{card!r} is not a card")
            if seen >> card & 1:
                raise PositionError("trick",
                                    f"{card_str(card)} is played twice or still in a hand")
            seen |= 1 << card
        step = seat_step(rules)
        played = {(self.leader + step * i) % 4 for i in range(len(self.trick))}
        to_play = [s for s in range(4) if s not in played]
        left = self.hands[to_play[0]].bit_count()
        for s in range(4):
            want = left - 1 if s in played else left
            if self.hands[s].bit_count() != want:
                raise PositionError(
                    f"hands.{SEATS[s]}", f"{self.hands[s].bit_count()} cards where {want} are due "
                    f"(every seat holds as many cards, less one for those who played on the "
                    f"trick)")
        if left < 1:
            raise PositionError("hands", "no card left to play")
        done = 8 - left
        if any(not isinstance(t, int) or t < 0 for t in self.tricks) or sum(self.tricks) != done:
            raise PositionError(
                "tricks", f"{done} tricks are over (8 less the cards of a hand), "
                f"the tricks won by NS and EW must add up to it")
        values = card_values(self.trump, rules.no_trump_aces, rules.all_trump_scale)
        gone = sum(values[c] for c in range(32) if not seen >> c & 1)
        if any(not isinstance(p, int) or p < 0 for p in self.points) or sum(self.points) != gone:
            raise PositionError(
                "points", f"the cards of the tricks over are worth {gone}; the card points won "
                f"by NS and EW must add up to it")
        for team in (0, 1):
            if self.tricks[team] == 0 and self.points[team]:
                raise PositionError("points", f"{('NS', 'EW')[team]} won points but no trick")
