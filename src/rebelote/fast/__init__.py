"""The engine's fast paths, fenced: look-up tables derived from the rules, and the random
playout of a deal.

Everything here is derived from the one source of each rule (:mod:`rebelote.rules`: legal cards,
who wins a trick, card values) and checked against it by the tests; raw bit arithmetic on
cards (``card >> 3``, ``card & 7``) is allowed here and nowhere else in the core. The compiled
modules of the solver (``*.pyx``) live beside these plain-Python ones.
"""

from __future__ import annotations

__all__: list[str] = []
