"""Bots, found by name in a registry: ``make_bot("random")``.

>>> sorted(known_bots())
['random']
>>> make_bot("nobody")
Traceback (most recent call last):
...
ValueError: unknown bot 'nobody' (known bots: random)
"""

from __future__ import annotations

from collections.abc import Callable

from rebelote.bots.base import Bot
from rebelote.bots.random_bot import RandomBot

_REGISTRY: dict[str, Callable[[], Bot]] = {"random": RandomBot}


def register_bot(name: str, factory: Callable[[], Bot]) -> None:
    """Make a bot known by ``name`` (how the heuristic and pimc bots join)."""
    _REGISTRY[name] = factory


def known_bots() -> list[str]:
    """The names of the known bots."""
    return sorted(_REGISTRY)


def make_bot(name: str) -> Bot:
    """A new bot of that name; :class:`ValueError` listing the known names otherwise."""
    factory = _REGISTRY.get(name.strip().lower()) if isinstance(name, str) else None
    if factory is None:
        raise ValueError(f"unknown bot {name!r} (known bots: {', '.join(known_bots())})")
    return factory()


__all__ = ["Bot", "RandomBot", "known_bots", "make_bot", "register_bot"]
