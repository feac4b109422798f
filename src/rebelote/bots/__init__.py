"""Bots, found by a spec string in a registry: ``make_bot("heuristic")``, ``make_bot("pimc:fast")``.

A spec is a bot's name, then optionally ``:`` and a level (:func:`parse_bot_spec`, the one
place specs are read). Every command that takes bots (``rebelote deal --bots``, ``rebelote
arena --a --b``, the play table) goes through :func:`make_bot`.

>>> known_bots()[:2]
['heuristic', 'pimc']
>>> str(parse_bot_spec(" Heuristic "))
'heuristic'
>>> make_bot("nobody")
Traceback (most recent call last):
...
ValueError: unknown bot 'nobody' (known bots: heuristic, pimc, random)
>>> make_bot("random:fast")
Traceback (most recent call last):
...
ValueError: bot 'random' has no levels (write just 'random')
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from rebelote.bots.base import Bot
from rebelote.bots.heuristic import HeuristicBot
from rebelote.bots.pimc import LEVELS, PimcBot
from rebelote.bots.random_bot import RandomBot

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
    """The named levels of a known bot (empty for a bot without levels)."""
    return _REGISTRY[parse_bot_spec(name).name].levels


def known_specs() -> list[str]:
    """Every name and every ``name:level`` the registry knows, for help texts."""
    out: list[str] = []
    for name in known_bots():
        out.append(name)
        out.extend(f"{name}:{level}" for level in _REGISTRY[name].levels)
    return out


def make_bot(spec: str | BotSpec) -> Bot:
    """A new bot from its spec; :class:`ValueError` naming the known bots or levels otherwise."""
    if not isinstance(spec, BotSpec):
        spec = parse_bot_spec(spec)
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

__all__ = [
    "Bot",
    "BotSpec",
    "HeuristicBot",
    "PimcBot",
    "RandomBot",
    "bot_levels",
    "known_bots",
    "known_specs",
    "make_bot",
    "parse_bot_spec",
    "register_bot",
]
