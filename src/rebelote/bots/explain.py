"""Why a bot chose its action (*Pourquoi ce coup ?*): what it knew, each action it weighed
with its expected mark over the worlds and how many worlds, and the reason the chosen one won.

A bot records its explanation as it decides, into the list that :data:`EXPLAIN` holds while
someone asks (:func:`explained_act`); nobody asking, the bot records nothing and its search
does no extra work. The search player (:class:`rebelote.bots.pimc.PimcBot`) fills
:class:`Notes` as it solves its worlds and explains its card or call from them: no second
search that could disagree. The learned player (:class:`rebelote.bots.net.NetBot`) records
its network's preferences (:func:`net_explanation`: each legal action's share of the policy,
the value head's estimate), and its searched endgame the search's own explanation. A bot
that records nothing (random, heuristic, an outside program) gets a short explanation
(:func:`plain_explanation`: a forced move, a rule, a draw).

An :class:`Explanation` holds codes and figures, not sentences: :meth:`Explanation.to_json`
writes it in French or English (:data:`LANGS`), :meth:`Explanation.to_record` stores it
without a language and :meth:`Explanation.from_record` reads it back.

>>> import random
>>> from rebelote.bots import make_bot
>>> from rebelote.deal import DealState
>>> from rebelote.rules import Rules
>>> state = DealState.new(Rules.preset("official", "coinche"), dealer=0, seed=1)
>>> action, why = explained_act(make_bot("heuristic"), state.observation(1), random.Random(0))
>>> why.why, why.to_json("en")["why"]
('rule', 'A club rule, without searching.')
"""

from __future__ import annotations

import math
import random
from collections.abc import Iterable, Mapping, Sequence
from contextvars import ContextVar
from dataclasses import dataclass, field, replace
from typing import Any, Final

from rebelote.actions import AUCTION, Action, Play, parse_action
from rebelote.auction import Bid
from rebelote.cards import (
    ACE,
    FULL_DECK,
    JACK,
    NINE,
    SEATS,
    SUIT_MASKS,
    TEN,
    Mask,
    parse_card,
    rank_of,
    suit_of,
)
from rebelote.observation import Observation

__all__ = [
    "EXPLAIN",
    "LANGS",
    "LIKELY",
    "MOST_LIKELY",
    "NOT_BEST",
    "WHY",
    "Candidate",
    "Explanation",
    "Fact",
    "Notes",
    "explained_act",
    "joined",
    "knowledge",
    "net_explanation",
    "plain_explanation",
]

#: Set by whoever asks why (:func:`explained_act`): the list a bot appends its
#: :class:`Explanation` to. ``None`` (nobody asks): a bot records nothing.
EXPLAIN: Final[ContextVar[list[Explanation] | None]] = ContextVar("rebelote_bot_explain",
                                                                    default=None)

#: The languages an explanation is written in.
LANGS: Final = ("fr", "en")

#: Each reason's sentence, by code and language; ``{...}`` are the explanation's figures
#: (:attr:`Explanation.args`). French first, a non-breaking space before ``: ; %``.
WHY: Final[dict[str, dict[str, str]]] = {
    "forced": {"fr": "Seul coup permis.", "en": "The only legal move."},
    "best": {"fr": "Meilleure marque moyenne sur {worlds} donnes imaginées.",
             "en": "The best mean mark over {worlds} imagined deals."},
    "clear": {"fr": "Avance nette de {gap} points sur {second} après {worlds} donnes\u00a0: "
                    "la recherche s’est arrêtée là.",
              "en": "A clear lead of {gap} marks over {second} after {worlds} deals: the "
                    "search stopped there."},
    "points": {"fr": "Même marque que {others}\u00a0; les points de cartes que l’équipe "
                     "fait l’ont départagée.",
               "en": "The same mark as {others}; the card points the team makes broke "
                     "the tie."},
    "tie_rule": {"fr": "Même marque que {others}\u00a0; la règle de club a choisi "
                       "celle-ci.",
                 "en": "The same mark as {others}; the club rule chose this one."},
    "near_rule": {"fr": "À moins de {margin} points de {best}, la meilleure\u00a0: la carte "
                        "de la règle de club est jouée.",
                  "en": "Within {margin} marks of {best}, the best: the club rule's card "
                        "is played."},
    "tie_points": {"fr": "Même marque que {others}\u00a0; la moins chère en points est "
                         "jouée.",
                   "en": "The same mark as {others}; the one worth fewest card points is "
                         "played."},
    "tie_first": {"fr": "Même marque que {others}\u00a0; la première dans l’ordre des "
                        "cartes est jouée.",
                  "en": "The same mark as {others}; the first in the cards' order is "
                        "played."},
    "time": {"fr": "Pas le temps d’imaginer assez de donnes\u00a0: règle de club.",
             "en": "No time to imagine enough deals: a club rule."},
    "rule": {"fr": "Règle de club, sans calcul.", "en": "A club rule, without searching."},
    "random": {"fr": "Coup tiré au hasard parmi les coups permis.",
               "en": "A move drawn at random among the legal ones."},
    "outside": {"fr": "Choix d’un programme extérieur.", "en": "An outside program's choice."},
    "hopeless": {"fr": "Main trop loin de toute annonce\u00a0: passe sans calculer.",
                 "en": "A hand far from any bid: a pass without searching."},
    "anchor_kept": {"fr": "L’annonce de la règle de club\u00a0; aucune autre ne la bat de "
                          "{margin} points en moyenne.",
                    "en": "The club rule's call; no other beats it by {margin} marks on "
                          "average."},
    "anchor_left": {"fr": "Bat l’annonce de la règle de club ({prior}) de {gap} points en "
                          "moyenne.",
                    "en": "Beats the club rule's call ({prior}) by {gap} marks on average."},
    "call_best": {"fr": "Meilleure marque moyenne parmi les annonces qui réussissent assez "
                        "souvent.",
                  "en": "The best mean mark among the calls that succeed often enough."},
    "call_pass": {"fr": "Aucune annonce ne réussit assez souvent\u00a0: passe.",
                  "en": "No call succeeds often enough: a pass."},
    "net": {"fr": "Premier choix du réseau appris ({share}\u00a0% de sa préférence), sans "
                  "calcul\u00a0; l’écart de marque qu’il prévoit pour son équipe\u00a0: "
                  "{value}.",
            "en": "The learned network's first choice ({share}% of its preference), without "
                  "searching; the mark difference it expects for its team: {value}."},
}

#: The reasons whose chosen action need not have the best mark of its candidates.
NOT_BEST: Final = frozenset({"points", "tie_rule", "near_rule", "tie_points", "tie_first",
                             "time", "rule", "random", "outside", "hopeless", "anchor_kept",
                             "anchor_left", "call_pass", "forced", "net"})

_SEAT_NAMES: Final = {"fr": ("Nord", "Est", "Sud", "Ouest"),
                      "en": ("North", "East", "South", "West")}
_SUITS: Final = {"fr": ("pique", "cœur", "carreau", "trèfle"),
                 "en": ("spades", "hearts", "diamonds", "clubs")}
_RANKS: Final = {"fr": ("le sept", "le huit", "le neuf", "le dix", "le valet", "la dame",
                        "le roi", "l’as"),
                 "en": ("the seven", "the eight", "the nine", "the ten", "the jack",
                        "the queen", "the king", "the ace")}
_FACES: Final = {"fr": ("7", "8", "9", "10", "V", "D", "R", "A"),
                  "en": ("7", "8", "9", "10", "J", "Q", "K", "A")}
_SYMBOLS: Final = ("♠", "♥", "♦", "♣")
_FACTS: Final = {
    "hand": {"fr": "Sa main\u00a0: {cards}.", "en": "Its hand: {cards}."},
    "seen": {"fr": "{calls} entendue{s1}, {cards} vue{s2}.",
             "en": "{calls} heard, {cards} seen."},
    "void": {"fr": "{seat} n’a plus {suit}.", "en": "{seat} has no {suit} left."},
    "holds": {"fr": "{seat} a {card}.", "en": "{seat} holds {card}."},
    "likely": {"fr": "{seat} a sans doute {card} ({share}\u00a0% des donnes).",
               "en": "{seat} probably holds {card} ({share}% of the deals)."},
}
#: A hidden card is said likely at a seat that holds it in this share of the weighted worlds
#: or more (and not for sure); at most :data:`MOST_LIKELY` such cards are said.
LIKELY: Final = 0.75
MOST_LIKELY: Final = 3


@dataclass(frozen=True, slots=True)
class Candidate:
    """An action weighed: its expected mark for the seat's team (its mark minus the other
    team's, over the worlds; ``None``: not valued) and over how many worlds; ``share``: its
    probability under a learned policy (``None``: no policy weighed it)."""

    action: Action
    mark: float | None = None
    worlds: int = 0
    share: float | None = None


#: A fact the bot knew: (kind, seat, a card or a suit or a mask, a share of the worlds).
Fact = tuple[str, int, int, float]


@dataclass(frozen=True, slots=True)
class Explanation:
    """Why ``seat`` chose ``action``: the reason's code (:data:`WHY`) with its figures
    (``args``), the actions weighed (``candidates``) and what the bot knew (``facts``)."""

    seat: int
    action: Action
    why: str
    level: str = ""
    candidates: tuple[Candidate, ...] = ()
    facts: tuple[Fact, ...] = ()
    args: tuple[tuple[str, str], ...] = ()

    def why_text(self, lang: str = "fr") -> str:
        """The reason in ``lang`` (French by default)."""
        text = WHY[self.why][_lang(lang)]
        args = {k: _arg(v, lang) for k, v in self.args}
        return text.format_map(_Blank(args))

    def knew(self, lang: str = "fr") -> list[str]:
        """What the bot knew, one sentence a fact, in ``lang``."""
        return [_fact(f, _lang(lang)) for f in self.facts]

    def is_best(self) -> bool:
        """Whether the chosen action's mark is the best of its candidates' (to the tenth)."""
        marks = [c.mark for c in self.candidates if c.mark is not None]
        mine = next((c.mark for c in self.candidates if c.action == self.action), None)
        return mine is not None and all(mine >= m - 0.05 for m in marks)

    def to_json(self, lang: str = "fr") -> dict[str, Any]:
        """The explanation for people: ``action``, ``level``, ``candidates`` (each
        ``{"action", "mark", "worlds", "share"}``, ``share`` a learned policy's probability
        or ``None``), ``why`` and ``knew`` written in ``lang``."""
        return {
            "seat": SEATS[self.seat],
            "action": str(self.action),
            "level": self.level,
            "candidates": [{"action": str(c.action),
                            "mark": None if c.mark is None else round(c.mark, 1),
                            "worlds": c.worlds,
                            "share": None if c.share is None else round(c.share, 3)}
                           for c in self.candidates],
            "why": self.why_text(lang),
            "knew": self.knew(lang),
        }

    def to_record(self) -> dict[str, Any]:
        """The explanation as stored with a deal's record (codes and figures, no language)."""
        return {
            "seat": SEATS[self.seat], "action": str(self.action), "why": self.why,
            "level": self.level,
            "candidates": [[str(c.action), c.mark, c.worlds]
                           + ([] if c.share is None else [c.share]) for c in self.candidates],
            "facts": [list(f) for f in self.facts],
            "args": dict(self.args),
        }

    @staticmethod
    def from_record(obj: Mapping[str, Any]) -> Explanation:
        """:meth:`to_record` read back (:class:`ValueError` on a malformed one)."""
        try:
            why = str(obj["why"])
            if why not in WHY:
                raise ValueError(f"why: {why!r} is not a reason")
            return Explanation(
                seat=SEATS.index(obj["seat"]), action=parse_action(str(obj["action"])),
                why=why, level=str(obj.get("level", "")),
                candidates=tuple(_candidate(c) for c in obj.get("candidates", ())),
                facts=tuple((str(k), int(s), int(x), float(p))
                            for k, s, x, p in obj.get("facts", ())),
                args=tuple((str(k), str(v)) for k, v in dict(obj.get("args", {})).items()))
        except (KeyError, TypeError) as e:
            raise ValueError(f"explanation: {e}") from None


def _candidate(row: Sequence[Any]) -> Candidate:
    """A stored candidate: ``[action, mark, worlds]``, a policy's ``share`` fourth if any."""
    if len(row) not in (3, 4):
        raise ValueError(f"explanation: a candidate is [action, mark, worlds(, share)], "
                         f"not {list(row)!r}")
    a, m, w = row[:3]
    share = None if len(row) == 3 or row[3] is None else float(row[3])
    return Candidate(parse_action(str(a)), None if m is None else float(m), int(w), share)


class _Blank(dict[str, str]):
    def __missing__(self, key: str) -> str:
        return "?"


def _lang(lang: str) -> str:
    return lang if lang in LANGS else "fr"


def _arg(value: str, lang: str) -> str:
    """A figure of a reason: a number (a decimal comma in French), an action, or several
    actions joined by ``|``."""
    try:
        number = float(value)
    except ValueError:
        parts = [_action_text(p, lang) for p in value.split("|") if p]
        return (" et " if lang == "fr" else " and ").join(parts) if len(parts) <= 2 \
            else ", ".join(parts)
    text = f"{number:g}" if number == int(number) else f"{number:.1f}"
    if value.startswith("+") and number > 0:
        text = "+" + text
    elif number < 0:
        text = "\u2212" + text[1:]
    return text.replace(".", ",") if lang == "fr" else text


def _face(card: int, lang: str) -> str:
    """A card as printed on it: ``V♥``, ``10♠`` (``J♥`` in English)."""
    return _FACES[lang][rank_of(card)] + _SYMBOLS[suit_of(card)]


def _action_text(text: str, lang: str) -> str:
    """A card as printed on it (:func:`_face`), a call as written."""
    try:
        return _face(parse_card(text), lang)
    except ValueError:
        return text


def _card_words(card: int, lang: str, trump: int) -> str:
    rank = _RANKS[lang][rank_of(card)]
    if suit_of(card) == trump:
        return f"{rank} d’atout" if lang == "fr" else f"{rank} of trumps"
    suit = _SUITS[lang][suit_of(card)]
    return f"{rank} de {suit}" if lang == "fr" else f"{rank} of {suit}"


def _fact(fact: Fact, lang: str) -> str:
    kind, seat, x, share = fact
    text = _FACTS[kind][lang]
    seat_name = _SEAT_NAMES[lang][seat] if 0 <= seat < 4 else ""
    if kind == "hand":
        cards = " ".join(_face(c, lang) for c in range(32) if x >> c & 1)
        return text.format(cards=cards)
    if kind == "seen":
        if lang == "fr":
            return text.format(calls=f"{seat} annonce" + "s" * (seat > 1), s1="s" * (seat > 1),
                               cards=f"{x} carte" + "s" * (x > 1), s2="s" * (x > 1))
        return text.format(calls=f"{seat} call" + "s" * (seat != 1),
                           cards=f"{x} card" + "s" * (x != 1))
    if kind == "void":
        suit, trump = x & 7, x >> 3
        if suit == trump - 1:
            words = "d’atout" if lang == "fr" else "trumps"
        else:
            name = _SUITS[lang][suit]
            words = (f"de {name}" if name[0] not in "aeiouéè" else f"d’{name}") \
                if lang == "fr" else name
        return text.format(seat=seat_name, suit=words)
    card, trump = x & 31, (x >> 5) - 1
    words = _card_words(card, lang, trump)
    if kind == "holds":
        return text.format(seat=seat_name, card=words)
    return text.format(seat=seat_name, card=words, share=round(share * 100))


def knowledge(obs: Observation, holders: Sequence[Mapping[int, float]] | None = None,
              total: float = 0.0) -> tuple[Fact, ...]:
    """What the seat of ``obs`` knew: its hand, how many calls and cards it saw, each other
    seat's suits it knows empty (voids and refusals seen, while that suit's cards are still
    hidden from it) and the cards it knows a seat holds (a belote announced, a declaration
    shown); with ``holders`` (for each seat, each hidden card's weight over the worlds, of
    ``total``), the cards a seat holds in :data:`LIKELY` of the worlds or more."""
    facts: list[Fact] = [("hand", obs.seat, obs.hand, 1.0),
                         ("seen", len(obs.auction),
                          sum(len(t) for _, t in obs.tricks) + len(obs.trick), 1.0)]
    if obs.phase == AUCTION:
        return tuple(facts)
    must, forbid = obs.constraints()
    played = 0
    for _, t in obs.tricks:
        for c in t:
            played |= 1 << c
    for c in obs.trick:
        played |= 1 << c
    hidden = FULL_DECK & ~played & ~obs.hand
    trump = obs.trump if 0 <= obs.trump < 4 else -1
    for s in range(4):
        if s == obs.seat:
            continue
        for suit in range(4):
            left = hidden & SUIT_MASKS[suit]
            if left and left & ~forbid[s] == 0:
                facts.append(("void", s, suit | (trump + 1) << 3, 1.0))
        for c in range(32):
            if must[s] >> c & 1 and hidden >> c & 1:
                facts.append(("holds", s, c | (trump + 1) << 5, 1.0))
    if holders and total > 0.0:
        likely: list[tuple[float, int, int]] = []
        for s, cards in enumerate(holders):
            for c, w in cards.items():
                share = w / total
                if LIKELY <= share < 1.0 - 1e-9 and not must[s] >> c & 1 and _honour(c, trump):
                    likely.append((share, s, c))
        likely.sort(key=lambda t: (-t[0], t[2]))
        facts.extend(("likely", s, c | (trump + 1) << 5, round(share, 3))
                     for share, s, c in likely[:MOST_LIKELY])
    return tuple(facts)


def _honour(card: int, trump: int) -> bool:
    """The cards worth saying where they are: aces and tens, the jack and nine of trumps."""
    r = rank_of(card)
    return r in (ACE, TEN) or (suit_of(card) == trump and r in (JACK, NINE))


@dataclass(slots=True)
class Notes:
    """What a search writes down as it solves its worlds, for its explanation: the worlds
    solved, whether it stopped on a clear lead, each action's mark without the points' part
    and its count of worlds, and where the hidden cards were in the worlds (by weight)."""

    worlds: int = 0
    stopped: bool = False
    weights: float = 0.0
    pure: dict[int, float] = field(default_factory=dict)
    counts: dict[Action, int] = field(default_factory=dict)
    holders: list[dict[int, float]] = field(default_factory=lambda: [{}, {}, {}, {}])

    def world(self, hands: Sequence[Mask], seat: int, weight: float) -> None:
        """A world solved, of ``weight``, whose hidden ``hands`` (by seat) it records."""
        self.worlds += 1
        self.weights += weight
        for s in range(4):
            if s == seat:
                continue
            got = self.holders[s]
            h = hands[s]
            while h:
                low = h & -h
                c = low.bit_length() - 1
                got[c] = got.get(c, 0.0) + weight
                h ^= low


def plain_explanation(bot_name: str, obs: Observation, action: Action) -> Explanation:
    """The short explanation of a bot that recorded none: a forced move, a random draw, an
    outside program's choice, or a rule."""
    legal = [a for a in obs.legal if isinstance(a, (Bid, Play))]
    why = "forced" if len(legal) <= 1 else "random" if bot_name == "random" \
        else "outside" if bot_name == "engine" else "rule"
    return Explanation(obs.seat, action, why, candidates=(Candidate(action),),
                       facts=knowledge(obs))


def explained_act(bot: Any, obs: Observation, rng: random.Random, level: str = ""
                  ) -> tuple[Action, Explanation]:
    """``bot.act(obs, rng)`` (the same action, the same draws from ``rng``) and why: the
    explanation the bot recorded, else :func:`plain_explanation`; ``level``: the bot's spec
    as the explanation names it (its name by default)."""
    notes: list[Explanation] = []
    token = EXPLAIN.set(notes)
    try:
        action = bot.act(obs, rng)
    finally:
        EXPLAIN.reset(token)
    name = str(getattr(bot, "name", "bot"))
    got = next((e for e in reversed(notes) if e.action == action), None)
    if got is None:
        got = plain_explanation(name, obs, action)
    return action, replace(got, level=level or name)


#: The shares of a learned policy an explanation keeps: its likeliest actions, at most
#: :data:`SHOWN`, from :data:`LEAST_SHARE` of the policy up (and the chosen one always).
SHOWN: Final = 8
LEAST_SHARE: Final = 0.005


def net_explanation(obs: Observation, chosen: Action,
                    weighed: Sequence[tuple[Action, float]], value: float) -> Explanation:
    """Why a learned policy chose ``chosen`` (its action of the highest logit): ``weighed``,
    each legal action it scored with its logit, becomes each one's share of the softmax over
    them (likeliest first, the :data:`SHOWN` likeliest of :data:`LEAST_SHARE` or more kept,
    and the chosen one always); ``value``:
    the value head's estimate of the seat's team's mark minus the other's. Only what the
    seat knows: its observation's facts (:func:`knowledge`).

    >>> from rebelote.deal import DealState
    >>> from rebelote.rules import Rules
    >>> obs = DealState.new(Rules.preset("official", "coinche"), 0, seed=1).observation(1)
    >>> a, b = obs.legal[:2]
    >>> e = net_explanation(obs, a, [(a, 2.0), (b, 0.0)], 41.6)
    >>> [(str(c.action), round(c.share or 0, 3)) for c in e.candidates]
    [('pass', 0.881), ('80 spades', 0.119)]
    >>> e.args
    (('share', '88'), ('value', '+42'))
    >>> e.why_text("en")[-49:]
    'the mark difference it expects for its team: +42.'

    """
    top = max(logit for _, logit in weighed)
    exps = [(a, math.exp(logit - top)) for a, logit in weighed]
    total = sum(e for _, e in exps)
    shares = sorted(((a, e / total) for a, e in exps), key=lambda t: -t[1])
    # the chosen action has the highest logit: first of the shares (the first of equals, as
    # the policy's own choice), so kept whatever its share
    kept = [t for t in shares[:SHOWN] if t[1] >= LEAST_SHARE or t[0] == chosen]
    mine = next((p for a, p in shares if a == chosen), 0.0)
    return Explanation(obs.seat, chosen, "net",
                       candidates=tuple(Candidate(a, share=p) for a, p in kept),
                       facts=knowledge(obs),
                       args=(("share", f"{round(100 * mine)}"), ("value", f"{value:+.0f}")))


def joined(actions: Iterable[Action]) -> str:
    """Actions as one figure of a reason (:attr:`Explanation.args`)."""
    return "|".join(str(a) for a in actions)

