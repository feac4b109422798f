"""Errors shared by the core and its edges."""

from __future__ import annotations


class InputError(ValueError):
    """Bad input, with the field it is about: ``points: 97 + 70 = 167, a deal has 162``."""

    def __init__(self, field: str, message: str) -> None:
        self.field = field
        self.reason = message
        super().__init__(f"{field}: {message}" if field else message)

    def within(self, prefix: str) -> InputError:
        """The same error about a field inside ``prefix`` (``deals[2]``)."""
        field = f"{prefix}.{self.field}" if self.field else prefix
        return InputError(field, self.reason)
