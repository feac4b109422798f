"""Rule sets, card values and orders, legal cards and trick winners (RULES.md sections 2, 3, 9).

A :class:`Rules` value holds every option of a rule set. The presets ``official`` and ``house``
are found by name for each game, and any option can be changed:

>>> rules = Rules.preset("official", "coinche")
>>> rules.rounding, rules.undertrump, rules.replace(undertrump="must").undertrump
('nearest', 'may', 'must')
>>> Rules.preset("house", "coinche").deal_total(NO_TRUMP)
130

The play rules work on plain ints: a card is 0..31, a hand a 32-bit mask (see :mod:`cards`).

>>> from rebelote.cards import parse_card, cards_mask, mask_cards, card_str
>>> hand = cards_mask([parse_card("JH"), parse_card("KD")])
>>> trick = [parse_card(c) for c in ("AS", "TS", "7S")]
>>> [card_str(c) for c in mask_cards(legal_cards(hand, trick, HEARTS, rules))]
['JH']
>>> full = [*trick, parse_card("JH")]
>>> trick_winner(full, HEARTS), trick_points(full, HEARTS)
(3, 41)
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any, Final, Literal, get_args

from rebelote.cards import SEATS, SUIT_MASKS, SUIT_NAMES, Card, Mask, Seat, suit_of
from rebelote.errors import IllegalActionError as IllegalActionError
from rebelote.errors import RulesError as RulesError

Game = Literal["belote", "coinche"]
GAMES: Final[tuple[Game, ...]] = ("belote", "coinche")

# Trump modes: a suit 0..3, no-trump or all-trump.
TrumpMode = int
SPADES, HEARTS, DIAMONDS, CLUBS, NO_TRUMP, ALL_TRUMP = range(6)
TRUMP_NAMES: Final = (*SUIT_NAMES, "no-trump", "all-trump")
_TRUMP_ALIASES: Final = {
    **{name: i for i, name in enumerate(TRUMP_NAMES)},
    "s": 0, "h": 1, "d": 2, "c": 3, "♠": 0, "♥": 1, "♦": 2, "♣": 3,
    "pique": 0, "coeur": 1, "cœur": 1, "carreau": 2, "trefle": 3, "trèfle": 3,
    "notrump": 4, "no_trump": 4, "nt": 4, "sans-atout": 4, "sa": 4,
    "alltrump": 5, "all_trump": 5, "at": 5, "tout-atout": 5, "ta": 5,
}

Direction = Literal["clockwise", "counterclockwise"]
Undertrump = Literal["must", "may"]
DeclarationTie = Literal["nobody", "first"]
AllTrumpScale = Literal["reduced", "trump"]
Rounding = Literal["nearest", "none"]
Litige = Literal["hold", "defense"]

# Values by rank index 7 8 9 T J Q K A.
TRUMP_VALUES: Final = (0, 0, 14, 10, 20, 3, 4, 11)
PLAIN_VALUES: Final = (0, 0, 0, 10, 2, 3, 4, 11)
ALL_TRUMP_REDUCED: Final = (0, 0, 9, 5, 14, 1, 3, 6)
# Strength by rank index, higher is stronger.
TRUMP_ORDER: Final = (0, 1, 6, 4, 7, 2, 3, 5)  # J 9 A 10 K Q 8 7
PLAIN_ORDER: Final = (0, 1, 2, 6, 3, 4, 5, 7)  # A 10 K Q J 9 8 7
#: The last trick's bonus (dix de der), and what the last trick is worth in a capot.
DIX_DE_DER: Final = 10
CAPOT_LAST_TRICK: Final = 100
#: The belote-rebelote: the king and queen of trump in one hand.
BELOTE_POINTS: Final = 20
#: The values of a coinche contract: 80, 90, ..., 160; a capot contract is worth 250.
CONTRACTS: Final = tuple(range(80, 161, 10))
CAPOT_VALUE: Final = 250


def seat_step(rules: Rules) -> int:
    """How a seat index (0..3, N E S W) moves to the next player: +1 clockwise, +3 the other
    way (option ``direction``). The one home of the direction of play."""
    return 1 if rules.direction == "clockwise" else 3


def seats_from(first: int, step: int) -> tuple[int, int, int, int]:
    """The seat indexes from ``first`` in the direction of play given by ``step``."""
    return (first, (first + step) % 4, (first + 2 * step) % 4, (first + 3 * step) % 4)


def seat_order(rules: Rules) -> tuple[Seat, ...]:
    """The seats in the direction of play, from N: N E S W clockwise, N W S E otherwise."""
    return tuple(SEATS[s] for s in seats_from(0, seat_step(rules)))


def next_seat(seat: Seat, rules: Rules) -> Seat:
    """The seat that plays after ``seat`` (docs/rules.md section 3, option ``direction``)."""
    return SEATS[(SEATS.index(seat) + seat_step(rules)) % 4]


def parse_trump(text: object) -> TrumpMode:
    """``'hearts'``, ``'no-trump'``, ``'all-trump'`` (and a few aliases) to a trump mode."""
    if isinstance(text, str):
        mode = _TRUMP_ALIASES.get(text.strip().lower())
        if mode is not None:
            return mode
    raise RulesError(
        "", f"{text!r} is not a trump: spades, hearts, diamonds, clubs, no-trump or all-trump"
    )


def trump_name(mode: TrumpMode) -> str:
    return TRUMP_NAMES[mode]


def round_mark(points: int) -> int:
    """Round to the nearest ten, 5 up: 85 -> 90, 84 -> 80, 187 -> 190."""
    return (points + 5) // 10 * 10 if points >= 0 else -((-points + 4) // 10 * 10)


@dataclass(frozen=True, slots=True)
class Rules:
    """A rule set: every option of RULES.md section 9, for one game.

    Build one with :meth:`preset` and change options with :meth:`replace`.
    """

    game: Game = "coinche"
    name: str = "official"
    direction: Direction = "clockwise"
    undertrump: Undertrump = "may"
    overtrump_partner: bool = True
    declarations: bool = True
    belote_counts_for_contract: bool = True
    declaration_tie: DeclarationTie = "nobody"
    all_trump_scale: AllTrumpScale = "reduced"
    no_trump_aces: Literal[19, 11] = 19
    rounding: Rounding = "nearest"
    generale: bool = True
    generale_value: int = 500
    coinche_capot: bool = True
    belote_no_all_trump: bool = False
    litige: Litige = "hold"
    belote_alone_wins: bool = False
    target: int = 1000

    def __post_init__(self) -> None:
        for f in dataclasses.fields(self):
            _check_option(f.name, getattr(self, f.name))

    @staticmethod
    def preset(name: str = "official", game: str = "coinche") -> Rules:
        """The rule set ``official`` or ``house`` of ``game`` (``belote`` or ``coinche``)."""
        if game not in GAMES:
            raise RulesError("game", f"{game!r} is not a game (belote, coinche)")
        if name not in PRESET_NAMES:
            raise RulesError("rules", f"{name!r} is not a rule set ({', '.join(PRESET_NAMES)})")
        return _preset(name, game)

    @staticmethod
    def from_options(
        name: str = "official", game: str = "coinche", options: Mapping[str, Any] | None = None
    ) -> Rules:
        """A preset with ``options`` (a JSON object of option names and values) applied."""
        rules = Rules.preset(name, game)
        if options is None:
            return rules
        if not isinstance(options, Mapping):
            raise RulesError("options", "must be an object of rule options")
        return rules.replace(**dict(options))

    def replace(self, **changes: Any) -> Rules:
        """A copy with some options changed; an unknown option or a wrong value is an error."""
        for key, value in changes.items():
            if key not in OPTION_NAMES:
                raise RulesError(
                    f"options.{key}", f"unknown rule option (known: {', '.join(OPTION_NAMES)})"
                )
            _check_option(key, value)
        return dataclasses.replace(self, **changes)

    def options(self) -> dict[str, Any]:
        """Every option as a JSON-ready object."""
        return {f.name: getattr(self, f.name) for f in dataclasses.fields(self)
                if f.name not in ("game", "name")}

    def changed_options(self) -> dict[str, Any]:
        """The options that differ from this rule set's preset."""
        base = Rules.preset(self.name if self.name in PRESET_NAMES else "official", self.game)
        return {k: v for k, v in self.options().items() if getattr(base, k) != v}

    # -- totals ------------------------------------------------------------------------------
    def card_total(self, trump: TrumpMode) -> int:
        """The points in the 32 cards: 152, 120 in house no-trump, 248 on the trump scale."""
        return sum(card_values(trump, self.no_trump_aces, self.all_trump_scale))

    def deal_total(self, trump: TrumpMode) -> int:
        """Card points plus the dix de der: 162 (house no-trump 130)."""
        return self.card_total(trump) + DIX_DE_DER

    def capot_total(self, trump: TrumpMode) -> int:
        """Card points plus 100 for the last trick: 252 (house no-trump 220)."""
        return self.card_total(trump) + CAPOT_LAST_TRICK

    def fall_base(self, trump: TrumpMode) -> int:
        """The deal total rounded to ten, as a coinche mark counts it: 160 (house no-trump 130)."""
        return round_mark(self.deal_total(trump))

    def capot_base(self, trump: TrumpMode) -> int:
        """The capot total rounded to ten: 250 (house no-trump 220)."""
        return round_mark(self.capot_total(trump))

    @property
    def must_undertrump(self) -> bool:
        return self.undertrump == "must"


_CHOICES: Final[dict[str, tuple[Any, ...]]] = {
    "game": GAMES,
    "direction": get_args(Direction),
    "undertrump": get_args(Undertrump),
    "declaration_tie": get_args(DeclarationTie),
    "all_trump_scale": get_args(AllTrumpScale),
    "no_trump_aces": (19, 11),
    "rounding": get_args(Rounding),
    "litige": get_args(Litige),
}
_BOOLS: Final = frozenset({
    "overtrump_partner", "declarations", "belote_counts_for_contract", "generale",
    "coinche_capot", "belote_no_all_trump", "belote_alone_wins",
})
OPTION_NAMES: Final = tuple(
    f.name for f in dataclasses.fields(Rules) if f.name not in ("game", "name")
)
PRESET_NAMES: Final = ("official", "house")


def _check_option(key: str, value: Any) -> None:
    if key in _CHOICES:
        choices = _CHOICES[key]
        if isinstance(value, bool) or value not in choices:
            shown = ", ".join(str(c) for c in choices)
            raise RulesError(f"options.{key}", f"{value!r} is not one of {shown}")
    elif key in _BOOLS:
        if not isinstance(value, bool):
            raise RulesError(f"options.{key}", f"must be true or false, not {value!r}")
    elif key == "target":
        if isinstance(value, bool) or not isinstance(value, int) or value <= 0:
            raise RulesError("options.target", f"must be a positive whole number, not {value!r}")
    elif key == "generale_value":
        if isinstance(value, bool) or not isinstance(value, int) or value <= 0 or value % 10:
            raise RulesError(
                "options.generale_value", f"must be a positive multiple of ten, not {value!r}"
            )
    elif key == "name" and not isinstance(value, str):
        raise RulesError("rules", f"{value!r} is not a rule set name")


@cache
def _preset(name: str, game: str) -> Rules:
    belote = game == "belote"
    return Rules(
        game=game,  # type: ignore[arg-type]
        name=name,
        undertrump="must" if belote else "may",
        rounding="none" if belote or name == "house" else "nearest",
        no_trump_aces=11 if name == "house" else 19,
    )


# -- card tables -------------------------------------------------------------------------------
@cache
def card_values(trump: TrumpMode, no_trump_aces: int = 19, all_trump_scale: str = "reduced"
                ) -> tuple[int, ...]:
    """The value of each of the 32 cards in a trump mode."""
    out: list[int] = []
    for suit in range(4):
        if trump == ALL_TRUMP:
            row = TRUMP_VALUES if all_trump_scale == "trump" else ALL_TRUMP_REDUCED
        elif trump == suit:
            row = TRUMP_VALUES
        elif trump == NO_TRUMP:
            row = (*PLAIN_VALUES[:7], no_trump_aces)
        else:
            row = PLAIN_VALUES
        out.extend(row)
    return tuple(out)


@cache
def card_powers(trump: TrumpMode) -> tuple[int, ...]:
    """The strength of each card in a trump mode: trumps 8..15, other cards 0..7 in suit order."""
    out: list[int] = []
    for suit in range(4):
        if trump == ALL_TRUMP:
            out.extend(TRUMP_ORDER)
        elif trump == suit:
            out.extend(8 + p for p in TRUMP_ORDER)
        else:
            out.extend(PLAIN_ORDER)
    return tuple(out)


def _values_for(trump: TrumpMode, rules: Rules | None) -> tuple[int, ...]:
    if rules is None:
        return card_values(trump)
    return card_values(trump, rules.no_trump_aces, rules.all_trump_scale)


def card_value(card: Card, trump: TrumpMode, rules: Rules | None = None) -> int:
    return _values_for(trump, rules)[card]


def trick_points(trick: Sequence[Card], trump: TrumpMode, rules: Rules | None = None) -> int:
    """The card points of a trick (without the dix de der)."""
    values = _values_for(trump, rules)
    return sum(values[c] for c in trick)


@cache
def above_masks(trump: TrumpMode) -> tuple[Mask, ...]:
    """For each card, the mask of the cards of its suit that beat it in a trump mode."""
    powers = card_powers(trump)
    out: list[Mask] = []
    for c in range(32):
        first = c & ~7
        out.append(sum(1 << x for x in range(first, first + 8) if powers[x] > powers[c]))
    return tuple(out)


ABOVE: Final = tuple(above_masks(t) for t in range(6))


@cache
def beater_masks(trump: TrumpMode) -> tuple[Mask, ...]:
    """For each card winning a trick, the cards that would beat it: the higher cards of its
    suit, and every trump if it is not a trump (it is then of the suit led). The one rule of
    who wins a trick: :func:`trick_winner` and the engine read it."""
    above = above_masks(trump)
    return tuple(above[c] | (SUIT_MASKS[trump] if trump < 4 and suit_of(c) != trump else 0)
                 for c in range(32))


#: ``BEATERS[trump][best]``: the cards that beat ``best``, the card winning a trick.
BEATERS: Final = tuple(beater_masks(t) for t in range(6))


def trick_winner(trick: Sequence[Card], trump: TrumpMode) -> int:
    """The index in ``trick`` (play order) of the card that wins it so far.

    The highest trump wins; without trump, the highest card of the led suit (:data:`BEATERS`).
    """
    if not trick:
        raise IllegalActionError("trick", "an empty trick has no winner")
    beaters = BEATERS[trump]
    best = 0
    for i in range(1, len(trick)):
        if beaters[trick[best]] >> trick[i] & 1:
            best = i
    return best


def legal_mask(hand: Mask, trick: Sequence[Card], win: int, trump: TrumpMode,
               overtrump_partner: bool, must_undertrump: bool) -> Mask:
    """The rule of legal cards on plain values, for hot loops: ``win`` indexes the card winning
    ``trick`` so far, and the two options are given as flags. :func:`legal_cards` is the same
    with a :class:`Rules`."""
    n = len(trick)
    if not n:
        return hand
    led = trick[0] >> 3
    follow = hand & SUIT_MASKS[led]
    if trump == NO_TRUMP:
        return follow or hand
    partner_winning = n >= 2 and win == n - 2
    if trump == ALL_TRUMP:
        if not follow:
            return hand
        if partner_winning and not overtrump_partner:
            return follow
        return (follow & ABOVE[trump][trick[win]]) or follow
    if follow:
        if led != trump or (partner_winning and not overtrump_partner):
            return follow
        return (follow & ABOVE[trump][trick[win]]) or follow
    if partner_winning:
        return hand
    trumps = hand & SUIT_MASKS[trump]
    if not trumps:
        return hand
    winning = trick[win]
    if winning >> 3 != trump:
        return trumps
    higher = trumps & ABOVE[trump][winning]
    if higher:
        return higher
    return trumps if must_undertrump else hand


def legal_cards(hand: Mask, trick: Sequence[Card], trump: TrumpMode, rules: Rules,
                win: int | None = None) -> Mask:
    """The cards of ``hand`` the next player may play on ``trick`` (RULES.md section 3).

    1. Follow the led suit if you can; on a trump lead, go higher than the best trump if you
       can (even over your partner, unless ``overtrump_partner`` is off).
    2. Void: if your partner is winning, any card; otherwise trump, and overtrump a trump
       already in the trick if you can.
    3. Void, an opponent winning with a trump you cannot beat: a lower trump if
       ``undertrump`` is ``must``, any card if ``may``.

    All-trump: follow suit and go higher if you can, void any card. No-trump: follow suit,
    void any card. ``win``, the index of the card winning the trick so far, may be given by a
    caller that keeps it.
    """
    if win is None:
        win = trick_winner(trick, trump) if trick else 0
    return legal_mask(hand, trick, win, trump, rules.overtrump_partner,
                      rules.undertrump == "must")


def why_illegal(card: Card, hand: Mask, trick: Sequence[Card], trump: TrumpMode, rules: Rules
                ) -> str | None:
    """``None`` if ``card`` may be played, else the rule that forbids it, as a sentence."""
    from rebelote.cards import card_str

    name = card_str(card)
    if not hand >> card & 1:
        return f"{name} is not in the hand"
    allowed = legal_cards(hand, trick, trump, rules)
    if allowed >> card & 1:
        return None
    led = trick[0] >> 3
    follow = hand & SUIT_MASKS[led]
    if follow:
        if card >> 3 != led:
            return f"{name}: must follow {SUIT_NAMES[led]}"
        return f"{name}: must play higher than the best {SUIT_NAMES[led]} in the trick"
    if trump < 4:
        trumps = hand & SUIT_MASKS[trump]
        if card >> 3 != trump:
            return f"{name}: void in {SUIT_NAMES[led]}, must trump (the opponents are winning)"
        if allowed & trumps:
            return f"{name}: must overtrump"
    return f"{name}: not allowed here"
