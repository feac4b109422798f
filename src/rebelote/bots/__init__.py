"""Bots, found by a spec string in a registry: ``make_bot("heuristic")``, ``make_bot("pimc:fast")``.

A spec is a bot's name, then optionally ``:`` and a level (:func:`parse_bot_spec`, the one
place specs are read). Every command that takes bots (``rebelote deal --bots``, ``rebelote
arena --a --b``, the play table) goes through :func:`make_bot`. ``engine:<command>`` (and
``engine-events:<command>``) seats an outside program that speaks the line protocol
(:mod:`rebelote.bots.external`); the command keeps its case and spaces. The play table never
starts one (:func:`is_engine_spec` tells them apart).

>>> known_bots()[:3]
['heuristic', 'learned', 'net']
>>> str(parse_bot_spec(" Heuristic "))
'heuristic'
>>> make_bot("nobody")
Traceback (most recent call last):
...
ValueError: unknown bot 'nobody' (known bots: heuristic, learned, net, pimc, random, tuned)
>>> str(parse_bot_spec("engine: python3 My Bot.py"))
'engine:python3 My Bot.py'
>>> make_bot("random:fast")
Traceback (most recent call last):
...
ValueError: bot 'random' has no levels (write just 'random')
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Final

from rebelote.bots.base import Bot
from rebelote.bots.external import (
    DEFAULT_TIMEOUT,
    ENGINE_NAMES,
    EngineBot,
    EngineError,
    check_command,
)
from rebelote.bots.heuristic import HeuristicBot
from rebelote.bots.pimc import LEVELS, PimcBot, endgame_budget
from rebelote.bots.random_bot import RandomBot

if TYPE_CHECKING:  # NumPy's module, imported when a net is first made
    from rebelote.bots.net import NetLevel

#: Makes a bot: called with no argument for a spec without a level, with the level's text
#: otherwise (it raises :class:`ValueError` for a level it does not know).
BotFactory = Callable[..., Bot]


@dataclass(frozen=True, slots=True)
class _Entry:
    factory: BotFactory
    levels: tuple[str, ...]


_REGISTRY: dict[str, _Entry] = {}


@dataclass(frozen=True, slots=True)
class BotSpec:
    """A bot by name and level: ``heuristic``, ``pimc:fast``. ``str()`` gives the spec back."""

    name: str
    level: str | None = None

    def __str__(self) -> str:
        return self.name if self.level is None else f"{self.name}:{self.level}"


def parse_bot_spec(text: object) -> BotSpec:
    """Read ``name`` or ``name:level`` (case and spaces ignored); :class:`ValueError` naming the
    known bots and levels otherwise."""
    if not isinstance(text, str) or not text.strip():
        raise ValueError(f"a bot is a name like 'heuristic' or 'pimc:fast', not {text!r}")
    head, sep, command = text.strip().partition(":")
    if head.strip().lower() in ENGINE_NAMES:
        if not sep:
            raise ValueError(f"bot {head.strip().lower()!r}: a command after ':' "
                             "(engine:python3 mybot.py)")
        check_command(command)
        return BotSpec(head.strip().lower(), command.strip())
    name, sep, level = text.strip().lower().partition(":")
    name, level = name.strip(), level.strip()
    entry = _REGISTRY.get(name)
    if entry is None:
        raise ValueError(f"unknown bot {name!r} (known bots: {', '.join(known_bots())})")
    if not sep:
        return BotSpec(name)
    if not entry.levels:
        raise ValueError(f"bot {name!r} has no levels (write just {name!r})")
    if not level:
        raise ValueError(f"bot {name!r}: a level after ':' ({', '.join(entry.levels)})")
    return BotSpec(name, level)


def register_bot(name: str, factory: BotFactory, levels: Sequence[str] = ()) -> None:
    """Make a bot known by ``name``. ``factory()`` makes it at its default level and
    ``factory(level)`` at a level; ``levels`` are the named levels shown to users (the
    factory may accept more forms, such as a budget, and raises :class:`ValueError` for a
    level it does not know)."""
    key = name.strip().lower()
    if not key or ":" in key or "," in key:
        raise ValueError(f"a bot name is one word without ':' or ',', not {name!r} (bad name)")
    _REGISTRY[key] = _Entry(factory, tuple(levels))


def known_bots() -> list[str]:
    """The names of the known bots."""
    return sorted(_REGISTRY)


def bot_levels(name: str) -> tuple[str, ...]:
    """The named levels of a known bot (empty for a bot without levels, and an outside one)."""
    spec = parse_bot_spec(name)
    return () if spec.name in ENGINE_NAMES else _REGISTRY[spec.name].levels


def known_specs() -> list[str]:
    """Every name and every ``name:level`` the registry knows, for help texts."""
    out: list[str] = []
    for name in known_bots():
        out.append(name)
        out.extend(f"{name}:{level}" for level in _REGISTRY[name].levels)
    return out


def is_engine_spec(spec: object) -> bool:
    """Whether ``spec`` names an outside program (``engine:...``), which only the command line
    and the library start, never a server.

    >>> is_engine_spec("Engine:./bot"), is_engine_spec("pimc:fast")
    (True, False)
    """
    if isinstance(spec, BotSpec):
        return spec.name in ENGINE_NAMES
    return isinstance(spec, str) and spec.strip().partition(":")[0].strip().lower() in ENGINE_NAMES


def make_bot(spec: str | BotSpec, engine_timeout: float | None = None) -> Bot:
    """A new bot from its spec; :class:`ValueError` naming the known bots or levels otherwise.
    ``engine_timeout``: the seconds an outside bot may take for each answer (10 by default)."""
    if not isinstance(spec, BotSpec):
        spec = parse_bot_spec(spec)
    if spec.name in ENGINE_NAMES:
        assert spec.level is not None
        timeout = DEFAULT_TIMEOUT if engine_timeout is None else engine_timeout
        return EngineBot(spec.level, timeout=timeout, events=spec.name == ENGINE_NAMES[1])
    entry = _REGISTRY.get(spec.name)
    if entry is None:
        raise ValueError(f"unknown bot {spec.name!r} (known bots: {', '.join(known_bots())})")
    if spec.level is None:
        return entry.factory()
    try:
        return entry.factory(spec.level)
    except ValueError as e:
        known = ", ".join(entry.levels)
        raise ValueError(f"bot {spec.name!r}: unknown level {spec.level!r} (levels: {known})"
                         f": {e}") from None


register_bot("random", RandomBot)
register_bot("heuristic", HeuristicBot)
register_bot("pimc", PimcBot, levels=tuple(LEVELS))


def _make_learned(level: str | None = None) -> Bot:
    """The learned bidder in context (:func:`rebelote.bots.contextual.make_contextual`; a
    level ``name=value;...`` changes its choices), or the hand-only one before it
    (:func:`rebelote.bots.learned.make_learned`: ``learned:hand``, ``learned:M`` a margin),
    imported when first made: they load NumPy, which costs more than 3000 random deals of
    ``rebelote deal``."""
    if level is not None and (level.strip() == "hand" or level.strip().isdigit()):
        from rebelote.bots.learned import make_learned

        return make_learned(None if level.strip() == "hand" else level)
    from rebelote.bots.contextual import make_contextual

    return make_contextual(level)


register_bot("learned", _make_learned, levels=("hand",))


def _make_tuned(level: str | None = None) -> Bot:
    """The tuned bidder (:func:`rebelote.bots.tuned.make_tuned`)."""
    from rebelote.bots.tuned import make_tuned

    return make_tuned(level)


register_bot("tuned", _make_tuned, levels=("heuristic",))


def _make_net(level: str | None = None) -> Bot:
    """The learned player (:class:`rebelote.bots.net.NetBot`, the shipped weights, its last
    six cards searched over 24 counted worlds, :func:`rebelote.bots.pimc.endgame_budget`; a
    level ``pass=MARKS`` adds marks to its pass (``over=MARKS`` more when an opponent holds the
    contract), ``endgame=K;worlds=W`` searches from K cards
    in hand over W worlds a card, ``endgame=0`` is the network alone:
    :func:`rebelote.bots.net.make_net`), imported when first made, like the learned bidder.
    ``net:endgame`` names the default setting in full
    (:data:`rebelote.bots.net.ENDGAME_LEVEL`)."""
    from rebelote.bots.net import make_net

    return make_net(level, search=_endgame_search)


def _endgame_search(level: NetLevel) -> Bot:
    """The learned player's endgame: the search player on a counted budget, the level's
    worlds and their weights (:func:`rebelote.bots.pimc.endgame_budget`)."""
    return PimcBot(budget=endgame_budget(level.worlds, level.alpha, level.infer, level.pool,
                                         level.model, level.every))


register_bot("net", _make_net, levels=("pass=0", "endgame"))


# -- levels for people ---------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class PlayerLevel:
    """A level the play table offers a person: a stable ``key`` (ASCII, stored with a table),
    the registry ``spec`` that plays it, and its name and one-line explanation in each page
    language (``names["fr"]``, ``about["en"]``). The spec behind a key may change as the bots
    get stronger; the key does not."""

    key: str
    spec: str
    names: Mapping[str, str]
    about: Mapping[str, str]
    #: the specs this level played before (tables made then keep them, and are named by it)
    former: tuple[str, ...] = ()

    def name(self, lang: str) -> str:
        return self.names.get(lang, self.names["en"])

    def explain(self, lang: str) -> str:
        return self.about.get(lang, self.about["en"])


#: The levels offered to people, weakest first (their measured strength: docs/levels.md).
PLAYER_LEVELS: Final[tuple[PlayerLevel, ...]] = (
    PlayerLevel(
        "debutant", "heuristic",
        {"fr": "débutant", "en": "beginner"},
        {"fr": "Joue d'après des règles simples de club, sans calculer\u00a0; "
               "répond aussitôt.",
         "en": "Plays by simple club rules without calculating; answers at once."}),
    PlayerLevel(
        "club", "net",
        {"fr": "club", "en": "club"},
        {"fr": "Joue d'instinct, appris sur des milliers de donnes, et calcule ses six "
               "dernières cartes\u00a0; répond aussitôt.",
         "en": "Plays by instinct, learned from thousands of deals, and calculates its last "
               "six cards; answers at once."},
        former=("pimc:fast+tuned", "pimc:fast")),
    PlayerLevel(
        "fort", "pimc:default+tuned",
        {"fr": "fort", "en": "strong"},
        {"fr": "Calcule autant de donnes qu'un quart de seconde le permet, à chaque carte.",
         "en": "Calculates as many deals as a quarter of a second allows, at each card."},
        former=("pimc",)),
    PlayerLevel(
        "expert", "pimc:expert+learned",
        {"fr": "expert", "en": "expert"},
        {"fr": "Calcule 48 donnes par carte, les plus vraisemblables d'après le jeu des "
               "autres\u00a0: le plus fort, et le plus lent à répondre.",
         "en": "Calculates 48 deals a card, the likeliest from how the others played: the "
               "strongest, and the slowest to answer."},
        former=("pimc:expert+tuned", "pimc:expert", "pimc:strong")),
)

#: The level a new table's bots play at: the strongest that answers a person in 300 ms at the
#: median and 1 s at worst with four tables playing at once (docs/levels.md).
DEFAULT_LEVEL: Final = "fort"


def player_levels() -> tuple[PlayerLevel, ...]:
    """The levels offered to people, weakest first."""
    return PLAYER_LEVELS


def player_level(key: object) -> PlayerLevel:
    """The level of ``key`` (case and spaces ignored, ``débutant`` read as ``debutant``);
    :class:`ValueError` naming the levels otherwise.

    >>> player_level("Débutant").spec
    'heuristic'
    >>> player_level("master")
    Traceback (most recent call last):
    ...
    ValueError: unknown level 'master' (levels: debutant, club, fort, expert)
    """
    text = key.strip().lower().replace("é", "e") if isinstance(key, str) else ""
    for level in PLAYER_LEVELS:
        if level.key == text:
            return level
    raise ValueError(f"unknown level {key!r} (levels: "
                     f"{', '.join(lv.key for lv in PLAYER_LEVELS)})")


def level_spec(text: object) -> str | None:
    """The registry spec of the level for people ``text`` names (as :func:`player_level` reads
    it), ``None`` when it names none: the half that ``rebelote play --bots``, a table's bots
    and the benches share before reading ``text`` as a registry spec.

    >>> level_spec("Débutant"), level_spec("pimc:fast")
    ('heuristic', None)
    """
    try:
        return player_level(text).spec
    except ValueError:
        return None


def spec_of(text: str, option: str) -> str:
    """The registry spec of a command line's bot ``text`` given to ``option``: a level for
    people's (:func:`level_spec`: ``fort`` plays ``pimc:default+tuned``), else ``text`` read as
    a spec (:func:`parse_bot_spec`, ``engine:COMMAND`` kept as typed). ``rebelote deal
    --bots`` and ``rebelote arena --a --b`` read their bots through it; a :class:`ValueError`
    naming ``option``, the levels and the known bots otherwise.

    >>> spec_of(" Fort ", "--bots"), spec_of("pimc:fast", "--bots")
    ('pimc:default+tuned', 'pimc:fast')
    >>> spec_of("master", "--bots")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: --bots: 'master' is neither a level (debutant, club, fort, expert) nor a bot: ...
    """
    spec = level_spec(text)
    if spec is not None:
        return spec
    try:
        return str(parse_bot_spec(text))
    except ValueError as e:
        levels = ", ".join(level.key for level in PLAYER_LEVELS)
        shown = text.strip() if isinstance(text, str) else text
        raise ValueError(f"{option}: {shown!r} is neither a level ({levels}) nor a bot: "
                         f"{e}") from None


def level_of_spec(spec: str) -> PlayerLevel | None:
    """The level for people that ``spec`` plays (``pimc:fast`` is ``club``), ``None`` for a
    spec no level uses (``random``).

    >>> level_of_spec("heuristic").key, level_of_spec("random")
    ('debutant', None)
    """
    return next((level for level in PLAYER_LEVELS
                 if spec == level.spec or spec in level.former), None)


__all__ = [
    "DEFAULT_LEVEL",
    "PLAYER_LEVELS",
    "Bot",
    "BotSpec",
    "EngineBot",
    "EngineError",
    "HeuristicBot",
    "PimcBot",
    "PlayerLevel",
    "RandomBot",
    "bot_levels",
    "is_engine_spec",
    "known_bots",
    "known_specs",
    "level_of_spec",
    "level_spec",
    "make_bot",
    "parse_bot_spec",
    "player_level",
    "player_levels",
    "register_bot",
    "spec_of",
]
