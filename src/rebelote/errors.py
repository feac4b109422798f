"""The errors of rebelote: one hierarchy, each error naming the field it is about.

Every error the core raises on bad input or a forbidden move is a :class:`RebeloteError` (a
:class:`ValueError`) with a ``field`` (``"points"``, ``"options.undertrump"``, ``"deals[2].taker"``;
empty when the message names what is wrong by itself) and a ``reason``. Its text is
``"field: reason"``: the edges (command line, web) answer it as it is. Raise it as
``RulesError("options.target", "must be a positive whole number")``; a single argument is a
message without a field.

>>> e = RulesError("options.undertrump", "'sometimes' is not one of must, may")
>>> str(e), e.field, isinstance(e, ValueError)
("options.undertrump: 'sometimes' is not one of must, may", 'options.undertrump', True)
>>> str(InputError("points", "missing").within("deals[2]"))
'deals[2].points: missing'
"""

from __future__ import annotations

from typing import Self

__all__ = ["CardError", "IllegalActionError", "InputError", "RebeloteError", "RulesError"]


class RebeloteError(ValueError):
    """An error of rebelote: ``field`` names what it is about (may be empty), ``reason`` says
    what is wrong and which rule says so."""

    def __init__(self, field: str, reason: str | None = None) -> None:
        if reason is None:  # one argument: a message that names what it is about by itself
            field, reason = "", field
        self.field = field
        self.reason = reason
        super().__init__(f"{field}: {reason}" if field else reason)

    def within(self, prefix: str) -> Self:
        """The same error about a field inside ``prefix`` (``deals[2]``)."""
        field = f"{prefix}.{self.field}" if self.field else prefix
        return type(self)(field, self.reason)


class InputError(RebeloteError):
    """Bad input, with the field it is about: ``points: 97 + 70 = 167, a deal has 162``."""


class RulesError(RebeloteError):
    """An option or a rule set that does not exist: ``options.target: must be a positive...``."""


class IllegalActionError(RebeloteError):
    """An action that the rules forbid; the reason names the rule."""


class CardError(RebeloteError):
    """A card, seat or team that cannot be read."""
