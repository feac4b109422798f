"""rebelote: Belote and Coinche, exactly.

The core (cards, rules, scoring, match, auction, deal, record) is pure: no IO, no clock, and
randomness only through an injected ``random.Random`` or seed.
"""

__version__ = "0.1.0"
