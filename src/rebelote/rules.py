"""Rule sets, card values and orders, legal cards and trick winners (docs/rules.md sections 2,
3, 9).

A :class:`Rules` value holds every option of a rule set. The presets (``official`` and ``house``
for belote and coinche; ``ffb``, ``ffb-ludique``, ``cannes-2016``, ``annonces`` and ``exact``
for contrée) are rows of one table, :data:`PRESETS`, found by name for each game, and any option
can be changed:

>>> rules = Rules.preset("official", "coinche")
>>> rules.rounding, rules.undertrump, rules.replace(undertrump="must").undertrump
('nearest', 'may', 'must')
>>> Rules.preset("house", "coinche").deal_total(NO_TRUMP)
130

The play rules work on plain ints: a card is 0..31, a hand a 32-bit mask (see :mod:`cards`).

>>> from rebelote.cards import HEARTS, card_str, cards_mask, mask_cards, parse_card
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

from rebelote.cards import (
    SEATS,
    SUIT_MASKS,
    SUIT_NAMES,
    Card,
    Mask,
    Seat,
    card_str,
    suit_of,
)
from rebelote.errors import IllegalActionError as IllegalActionError
from rebelote.errors import RulesError as RulesError

__all__ = [
    "ABOVE",
    "ALL_TRUMP",
    "ALL_TRUMP_REDUCED",
    "AUCTION_GAMES",
    "BEATERS",
    "BELOTE_POINTS",
    "CAPOT_LAST_TRICK",
    "CAPOT_PRIME",
    "CAPOT_VALUE",
    "CONTRACTS",
    "DEFAULT_PRESETS",
    "DIX_DE_DER",
    "GAMES",
    "NO_TRUMP",
    "OPTION_NAMES",
    "PLAIN_ORDER",
    "PLAIN_VALUES",
    "PRESETS",
    "PRESET_NAMES",
    "TRUMP_NAMES",
    "TRUMP_ORDER",
    "TRUMP_VALUES",
    "AllTrumpScale",
    "CapotBid",
    "CapotFailed",
    "CapotUnbid",
    "CapotValue",
    "CoincheForm",
    "Counting",
    "DeclarationTie",
    "Direction",
    "FailureBase",
    "Game",
    "Litige",
    "Rounding",
    "RoundingScope",
    "Rules",
    "Surcoinche",
    "TargetRule",
    "TrumpMode",
    "Undertrump",
    "above_masks",
    "beater_masks",
    "card_powers",
    "card_values",
    "legal_cards",
    "legal_mask",
    "next_seat",
    "parse_rules",
    "parse_trump",
    "preset_name",
    "round_mark",
    "seat_step",
    "seats_from",
    "trick_points",
    "trick_winner",
    "trump_name",
    "why_illegal",
]


Game = Literal["belote", "coinche", "contree"]
GAMES: Final[tuple[Game, ...]] = ("belote", "coinche", "contree")
# The games played with an auction of contracts (coinche and contrée).
AUCTION_GAMES: Final[frozenset[str]] = frozenset({"coinche", "contree"})

# Trump modes: a suit 0..3, no-trump or all-trump.
TrumpMode = int
# The four suits are the trump modes 0..3 (cards.SPADES...); then no-trump and all-trump.
NO_TRUMP: Final = 4
ALL_TRUMP: Final = 5
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
Rounding = Literal["nearest", "six_up", "none"]
Litige = Literal["hold", "defense"]
# The ways of counting of the auction games (docs/rules.md, "Ways of counting").
Counting = Literal["made_plus_bid", "made", "bid"]
FailureBase = Literal[160, 162, 0]
CoincheForm = Literal["whole", "contract", "flat", "base"]
Surcoinche = Literal[4, 3]
CapotBid = Literal["contract", "prime"]
CapotValue = Literal[250, 270]
CapotUnbid = Literal[252, 250]
CapotFailed = Literal["formula", "prime"]
RoundingScope = Literal["mark", "points"]
TargetRule = Literal["reach", "exceed"]
CAPOT_PRIME: Final = 500  # a bid capot as a prime (option capot_bid = prime), × the coinche

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


def round_mark(points: int, rounding: str = "nearest") -> int:
    """Round to the nearest ten: ``nearest`` 5 up (85 -> 90, 84 -> 80, 187 -> 190), ``six_up``
    (85 -> 80, 86 -> 90), ``none`` leaves the points as they are. Negative points round as
    their opposite."""
    if rounding == "none":
        return points
    up = 5 if rounding == "nearest" else 4
    return (points + up) // 10 * 10 if points >= 0 else -((-points + up) // 10 * 10)


@dataclass(frozen=True, slots=True)
class Rules:
    """A rule set: every option of docs/rules.md section 9, for one game.

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
    # The ways of counting of coinche and contrée (the source documents' coinche values by default).
    counting: Counting = "made_plus_bid"
    failure_base: FailureBase = 160
    coinche_form: CoincheForm = "whole"
    surcoinche: Surcoinche = 4
    belote_prenable: bool = False
    belote_multiplied: bool = True
    must_outscore: bool = True
    capot_bid: CapotBid = "contract"
    capot_value: CapotValue = 250
    capot_unbid: CapotUnbid = 252
    capot_failed: CapotFailed = "formula"
    rounding_scope: RoundingScope = "mark"
    last_deal_exact: bool = False
    target_rule: TargetRule = "reach"

    def __post_init__(self) -> None:
        for f in dataclasses.fields(self):
            _check_option(f.name, getattr(self, f.name))

    @staticmethod
    def preset(name: str | None = None, game: str = "coinche") -> Rules:
        """The rule set ``name`` of ``game`` (a row of :data:`PRESETS`); ``None`` is the game's
        default (``official``; ``ffb`` for contrée, where ``official`` also names ``ffb``)."""
        if game not in GAMES:
            raise RulesError("game", f"{game!r} is not a game ({', '.join(GAMES)})")
        name = preset_name(name, game)
        return _preset(name, game)

    @staticmethod
    def from_options(
        name: str | None = None, game: str = "coinche", options: Mapping[str, Any] | None = None
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
        name = self.name if self.name in PRESETS[self.game] else None
        base = Rules.preset(name, self.game)
        return {k: v for k, v in self.options().items() if getattr(base, k) != v}

    @property
    def has_auction(self) -> bool:
        """Coinche and contrée: contracts 80..160, capot (and générale), coinche."""
        return self.game in AUCTION_GAMES

    def to_text(self) -> str:
        """The short text form: ``game:preset`` and the changed options (:func:`parse_rules`).

        >>> Rules.preset("ffb", "contree").replace(rounding="none", target=1500).to_text()
        'contree:ffb,rounding=none,target=1500'
        """
        parts = [f"{self.game}:{self.name}"]
        for key, value in self.changed_options().items():
            shown = ("on" if value else "off") if isinstance(value, bool) else str(value)
            parts.append(f"{key}={shown}")
        return ",".join(parts)

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
        """What a failed (or coinched) contract's deal is worth, by the option ``failure_base``:
        160, the deal total rounded to ten (house no-trump 130); 162, the deal total exact;
        0, nothing (the contract alone)."""
        if self.failure_base == 0:
            return 0
        total = self.deal_total(trump)
        return round_mark(total) if self.failure_base == 160 else total

    def capot_base(self, trump: TrumpMode) -> int:
        """The same for a capot: 250 (the capot total rounded), 252 (exact) or 0."""
        if self.failure_base == 0:
            return 0
        total = self.capot_total(trump)
        return round_mark(total) if self.failure_base == 160 else total

    def unbid_capot(self, trump: TrumpMode) -> int:
        """The points of a capot the takers did not bid (option ``capot_unbid``): 252, the capot
        total, or 250, the capot total rounded to ten (house no-trump 220 either way)."""
        total = self.capot_total(trump)
        return total if self.capot_unbid == 252 else round_mark(total)

    def coinche_multiplier(self, coinche: int) -> int:
        """The multiplier of a contract coinched (2) or surcoinched (option ``surcoinche``)."""
        return self.surcoinche if coinche == 4 else coinche

    @property
    def must_undertrump(self) -> bool:
        """Option ``undertrump``: a player who cannot overtrump the opponents must still trump
        (``legal_mask``'s flag, read by the engine, the observation and the playouts)."""
        return self.undertrump == "must"


#: The values of each option that has a list of them (for forms and the option reader).
OPTION_CHOICES: Final[dict[str, tuple[Any, ...]]] = {
    "game": GAMES,
    "direction": get_args(Direction),
    "undertrump": get_args(Undertrump),
    "declaration_tie": get_args(DeclarationTie),
    "all_trump_scale": get_args(AllTrumpScale),
    "no_trump_aces": (19, 11),
    "rounding": get_args(Rounding),
    "litige": get_args(Litige),
    "counting": get_args(Counting),
    "failure_base": get_args(FailureBase),
    "coinche_form": get_args(CoincheForm),
    "surcoinche": get_args(Surcoinche),
    "capot_bid": get_args(CapotBid),
    "capot_value": get_args(CapotValue),
    "capot_unbid": get_args(CapotUnbid),
    "capot_failed": get_args(CapotFailed),
    "rounding_scope": get_args(RoundingScope),
    "target_rule": get_args(TargetRule),
}
BOOL_OPTIONS: Final = frozenset({
    "overtrump_partner", "declarations", "belote_counts_for_contract", "generale",
    "coinche_capot", "belote_no_all_trump", "belote_alone_wins", "belote_prenable",
    "belote_multiplied", "must_outscore", "last_deal_exact",
})
OPTION_NAMES: Final = tuple(
    f.name for f in dataclasses.fields(Rules) if f.name not in ("game", "name")
)

# -- presets: one table of data ----------------------------------------------------------------
# Each row names the options that differ from the defaults of :class:`Rules` (the source documents'
# official coinche). Contrée's rows come from the survey of real tables' conventions
# (docs/rules.md, "Contrée presets").
_FFB: Final[Mapping[str, Any]] = {
    "declarations": False, "generale": False, "must_outscore": False, "belote_prenable": True,
    "belote_multiplied": False, "capot_bid": "prime", "capot_failed": "prime", "target": 2000,
}
PRESETS: Final[Mapping[str, Mapping[str, Mapping[str, Any]]]] = {
    "belote": {
        "official": {"undertrump": "must", "rounding": "none"},
        "house": {"undertrump": "must", "rounding": "none", "no_trump_aces": 11},
    },
    "coinche": {
        "official": {},
        "house": {"rounding": "none", "no_trump_aces": 11},
    },
    "contree": {
        # FFB 2016 score table: made pts + C + own belote, the defense its points; failed
        # 160 + C + all belote; coinched 320 + 2C, surcoinched 640 + 4C, belote outside; capot
        # bid 500, coinched 1000 / 2000, unbid 252; rounded 5 up; 2000.
        "ffb": {**_FFB},
        # FFB "Équipe Ludique": 160 + 2C, 160 + 3C; capot a 250 contract; 6 up; last deal exact.
        "ffb-ludique": {**_FFB, "coinche_form": "contract", "surcoinche": 3,
                        "capot_bid": "contract", "capot_failed": "formula",
                        "rounding": "six_up", "last_deal_exact": True},
        # Championnat de France, Cannes 2016: 162 + 2C, 162 + 3C; capot bid 270; 6 up; last
        # deal exact; 2001.
        "cannes-2016": {**_FFB, "failure_base": 162, "coinche_form": "contract",
                        "surcoinche": 3, "capot_bid": "contract", "capot_value": 270,
                        "capot_failed": "formula", "rounding": "six_up",
                        "last_deal_exact": True, "target": 2001},
        # Points annoncés: the winner of the deal marks the contract only (× the coinche).
        "annonces": {**_FFB, "counting": "bid", "failure_base": 0, "capot_bid": "contract",
                     "capot_failed": "formula", "rounding": "none", "target": 1000},
        # As ffb, counted exactly (no rounding).
        "exact": {**_FFB, "rounding": "none"},
    },
}
DEFAULT_PRESETS: Final[Mapping[str, str]] = {"belote": "official", "coinche": "official",
                                             "contree": "ffb"}
_PRESET_ALIASES: Final[Mapping[tuple[str, str], str]] = {("contree", "official"): "ffb"}
PRESET_NAMES: Final = tuple(dict.fromkeys(n for rows in PRESETS.values() for n in rows))


def preset_name(name: str | None, game: str) -> str:
    """The preset ``name`` of ``game`` as the table names it; ``None`` is the game's default."""
    if name is None:
        return DEFAULT_PRESETS[game]
    name = _PRESET_ALIASES.get((game, name), name)
    if not isinstance(name, str) or name not in PRESETS[game]:
        names = ", ".join(PRESETS[game])
        raise RulesError("rules", f"{name!r} is not a rule set of {game} ({names})")
    return name


def parse_rules(text: str) -> Rules:
    """A rule set from its short text form (:meth:`Rules.to_text`): ``game:preset`` then
    ``option=value`` pairs, by commas. ``on``/``off`` (or ``true``/``false``) for yes-no options.

    >>> parse_rules("contree:cannes-2016,surcoinche=4").surcoinche
    4
    """
    if not isinstance(text, str) or not text.strip():
        raise RulesError("rules", "empty; write game:preset, like contree:ffb")
    head, *pairs = [p.strip() for p in text.strip().split(",")]
    game, _, name = head.partition(":")
    game = game.strip().lower()
    if game not in GAMES:
        raise RulesError("game", f"{game!r} is not a game ({', '.join(GAMES)})")
    changes: dict[str, Any] = {}
    for pair in pairs:
        if not pair:
            continue
        key, eq, raw = pair.partition("=")
        key = key.strip()
        if not eq:
            raise RulesError(f"options.{key}", f"write {key}=value")
        if key not in OPTION_NAMES:
            raise RulesError(
                f"options.{key}", f"unknown rule option (known: {', '.join(OPTION_NAMES)})")
        changes[key] = option_from_text(key, raw.strip())
    return Rules.preset(name.strip() or None, game).replace(**changes)


def option_from_text(key: str, raw: str) -> Any:
    """An option's value from text: a yes-no, a whole number or a word, as the option takes."""
    if key in BOOL_OPTIONS:
        word = raw.lower()
        if word in ("on", "true", "yes", "1"):
            return True
        if word in ("off", "false", "no", "0"):
            return False
        raise RulesError(f"options.{key}", f"{raw!r} is not on or off")
    choices = OPTION_CHOICES.get(key, ())
    if key in ("target", "generale_value") or any(isinstance(c, int) for c in choices):
        try:
            return int(raw)
        except ValueError:
            raise RulesError(f"options.{key}", f"{raw!r} is not a whole number") from None
    return raw


def _check_option(key: str, value: Any) -> None:
    if key in OPTION_CHOICES:
        choices = OPTION_CHOICES[key]
        if isinstance(value, bool) or value not in choices:
            shown = ", ".join(str(c) for c in choices)
            raise RulesError(f"options.{key}", f"{value!r} is not one of {shown}")
    elif key in BOOL_OPTIONS:
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
    return Rules(game=game, name=name, **PRESETS[game][name])  # type: ignore[arg-type]


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
    # The hot path of the engine: suits as raw ``card >> 3`` (cards.suit_of), as in rebelote.fast.
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
    """The cards of ``hand`` the next player may play on ``trick`` (docs/rules.md section 3).

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
    return legal_mask(hand, trick, win, trump, rules.overtrump_partner, rules.must_undertrump)


def why_illegal(card: Card, hand: Mask, trick: Sequence[Card], trump: TrumpMode, rules: Rules
                ) -> str | None:
    """``None`` if ``card`` may be played, else the rule that forbids it, as a sentence."""
    name = card_str(card)
    if not hand >> card & 1:
        return f"{name} is not in the hand"
    allowed = legal_cards(hand, trick, trump, rules)
    if allowed >> card & 1:
        return None
    led = suit_of(trick[0])
    follow = hand & SUIT_MASKS[led]
    if follow:
        if suit_of(card) != led:
            return f"{name}: must follow {SUIT_NAMES[led]}"
        return f"{name}: must play higher than the best {SUIT_NAMES[led]} in the trick"
    if trump < 4:
        trumps = hand & SUIT_MASKS[trump]
        if suit_of(card) != trump:
            return f"{name}: void in {SUIT_NAMES[led]}, must trump (the opponents are winning)"
        if allowed & trumps:
            return f"{name}: must overtrump"
    return f"{name}: not allowed here"
