"""Sharing a rule set: its link and its QR code (docs/counting.md, "The text form").

A table's house rules travel as the rule set's short text form (:meth:`Rules.to_text`) in the
``rules`` query parameter of a page that starts something: the counter's new game (``/``) reads
it today, and any other page that opens with a rule set (the play table's new table) reads it
the same way with :func:`rules_from_query` and links to itself with :func:`rules_path`.

>>> from rebelote.rules import Rules
>>> rules = Rules.preset("cannes-2016", "contree").replace(surcoinche=4)
>>> rules_path(rules)
'/?rules=contree%3Acannes-2016%2Csurcoinche%3D4'
>>> rules_from_query("contree:cannes-2016,surcoinche=4") == (rules, None)
True
>>> rules_from_query("contree:nope")[1]
"rules: 'nope' is not a rule set of contree (ffb, ffb-ludique, cannes-2016, annonces, exact)"

This module imports nothing of the web's pages, so that the counter's and the table's routes can
both use it.
"""

from __future__ import annotations

import io
from typing import Any, Final
from urllib.parse import urlencode

from rebelote.errors import RulesError
from rebelote.rules import Rules, parse_rules

#: The query parameter that carries a rule set's text form.
RULES_PARAM: Final = "rules"
#: The longest text form read from a link (the longest real one is far shorter).
MAX_RULES_TEXT: Final = 600


def rules_path(rules: Rules, path: str = "/") -> str:
    """The link (a path with its query) that opens ``path`` with ``rules``."""
    return f"{path}?{urlencode({RULES_PARAM: rules.to_text()})}"


def rules_from_query(raw: str | None) -> tuple[Rules | None, str | None]:
    """The rule set a shared link carries, or ``None`` and why it cannot be read (``None, None``
    when the link carries none)."""
    if not raw:
        return None, None
    if len(raw) > MAX_RULES_TEXT:
        return None, f"rules: longer than {MAX_RULES_TEXT} characters"
    try:
        return parse_rules(raw), None
    except RulesError as e:
        return None, str(e)


def rules_body(rules: Rules) -> dict[str, Any]:
    """The ``game``, ``rules``, ``target`` and ``options`` (the changed ones, when any) of a
    new game or table that plays ``rules``: the body both ``POST`` routes take.

    >>> rules_body(Rules.preset("ffb", "contree").replace(surcoinche=3, target=1500))
    {'game': 'contree', 'rules': 'ffb', 'target': 1500, 'options': {'surcoinche': 3}}
    """
    body: dict[str, Any] = {"game": rules.game, "rules": rules.name, "target": rules.target}
    options = {k: v for k, v in rules.changed_options().items() if k != "target"}
    if options:
        body["options"] = options
    return body


def qr_svg(text: str, title: str) -> bytes:
    """The QR code of ``text`` as an SVG image (dark on white, with a quiet zone)."""
    import segno

    out = io.BytesIO()
    segno.make(text, error="m").save(out, kind="svg", scale=4, border=2, title=title,
                                      xmldecl=False, svgns=True)
    return out.getvalue()
