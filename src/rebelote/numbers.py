"""The one reader of whole numbers typed as text, for every field of every route and file.

Python's ``str.isdigit()`` says yes to ``"²"``, ``"①"`` and to 5,000 digits, which ``int()``
then refuses (or takes a while over); ``int()`` reads ``"١٢"`` and ``" 1_000 "``. A number typed
in a form, a query, a bid, a CSV cell or a header is read here instead: ASCII digits only, at most
:data:`MAX_DIGITS` of them, and a refusal is an :class:`~rebelote.errors.InputError` naming the
field (a 422 on the web, never a 500).

>>> is_digits("120"), is_digits("²"), is_digits("①"), is_digits("1" * 4301), is_digits("")
(True, False, False, False, False)
>>> whole_number(" 90 ", "contract")
90
>>> whole_number("² ", "target")
Traceback (most recent call last):
...
rebelote.errors.InputError: target: '²' is not a whole number (digits 0-9)
>>> whole_number("12", "pace", high=10)
Traceback (most recent call last):
...
rebelote.errors.InputError: pace: 12 is more than 10
>>> number_or_text("110"), number_or_text("capot"), number_or_text("²")
(110, 'capot', '²')
"""

from __future__ import annotations

from typing import Final

from rebelote.errors import InputError

#: The most digits a number may have (far past any score, target, version or byte count).
MAX_DIGITS: Final = 18


def is_digits(text: str, max_digits: int = MAX_DIGITS) -> bool:
    """``text`` is 1 to ``max_digits`` ASCII digits (nothing else: no sign, no space)."""
    return 0 < len(text) <= max_digits and text.isascii() and text.isdigit()


def whole_number(raw: object, field: str, *, low: int | None = None, high: int | None = None,
                 negative: bool = False, max_digits: int = MAX_DIGITS) -> int:
    """``raw`` (an ``int``, or text of ASCII digits with spaces around; a leading ``-`` if
    ``negative``) as an ``int`` from ``low`` to ``high``; an :class:`InputError` on ``field``
    saying why otherwise."""
    if isinstance(raw, bool):
        raise InputError(field, f"{raw!r} is not a whole number")
    if isinstance(raw, int):
        value = raw
    elif isinstance(raw, str):
        text = raw.strip()
        sign = -1 if negative and text.startswith("-") else 1
        digits = text[1:] if sign < 0 else text
        if not is_digits(digits, max_digits):
            shown = text if len(text) <= 24 else f"{text[:12]}… ({len(text)} characters)"
            if digits.isascii() and digits.isdigit():
                raise InputError(field, f"{shown} has more than {max_digits} digits")
            raise InputError(field, f"{shown!r} is not a whole number (digits 0-9)")
        value = sign * int(digits)
    else:
        raise InputError(field, f"{raw!r} is not a whole number")
    if low is not None and value < low:
        raise InputError(field, f"{value} is less than {low}")
    if high is not None and value > high:
        raise InputError(field, f"{value} is more than {high}")
    return value


def number_or_text(text: str, max_digits: int = MAX_DIGITS) -> int | str:
    """``text`` as an ``int`` if it is ASCII digits (:func:`is_digits`), with a leading ``-``
    or not, else ``text`` as typed (a field that also takes words, like a contract's
    ``capot``: its reader refuses what it does not know, naming the field).

    >>> number_or_text("-5"), number_or_text("-"), number_or_text("--5")
    (-5, '-', '--5')
    """
    stripped = text.strip()
    return int(stripped) if is_digits(stripped.removeprefix("-"), max_digits) else text


def optional_number(text: str | None, max_digits: int = MAX_DIGITS) -> int | None:
    """``text`` as an ``int`` if it is ASCII digits, else ``None`` (a hint the request may
    leave out or get wrong, such as a page's ``version`` or ``since``)."""
    if text is None:
        return None
    stripped = text.strip()
    return int(stripped) if is_digits(stripped, max_digits) else None


__all__ = ["MAX_DIGITS", "is_digits", "number_or_text", "optional_number", "whole_number"]
