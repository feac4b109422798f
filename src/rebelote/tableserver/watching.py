"""The watch link and the teacher's view on the live table server (issue 34, item 5): the
changes a seat makes to them (:func:`link_change`, :func:`consent_change`), which link a
secret is (:func:`watcher_kind`) and what a seat's view says of them (:func:`watch_info`).
The views themselves are :mod:`rebelote.table.watching`'s."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any, Final, Literal

from rebelote.secret import new_secret, same_secret
from rebelote.table import Table
from rebelote.table.view import turn_seat
from rebelote.table.watching import DELAY_NAMES
from rebelote.tableserver.repo import Loaded

Link = Literal["watch", "teach"]
LINKS: Final = ("watch", "teach")


class WatchForbiddenError(PermissionError):
    """A watch or teacher link whose secret is not (or no longer) the table's."""


def watcher_kind(table: Table, key: str | None) -> Link:
    """Which of the table's links ``key`` is the secret of: ``watch`` (the public view) or
    ``teach`` (the teacher's view); :class:`WatchForbiddenError` for neither."""
    if same_secret(key, table.teach):
        return "teach"
    if same_secret(key, table.watch):
        return "watch"
    raise WatchForbiddenError(
        "key: this watch link is not this table's, or it was revoked: ask a player at the "
        "table for a new one")


def link_change(seat: int, link: Link, make: bool, delay: int | None = None
                ) -> Callable[[Loaded], Table | None]:
    """The change that makes (``make``: a new secret if there is none) or revokes a link, by
    the player at ``seat``; ``delay`` (the watch link's, the host only) changes how far behind
    watchers follow."""

    def change(loaded: Loaded) -> Table | None:
        table = loaded.table
        if delay is not None and delay != table.watch_delay:
            if not table.is_host(seat):
                raise WatchForbiddenError("delay: only the table's creator says how far behind "
                                      "watchers follow")
            table = dataclasses.replace(table, watch_delay=delay)
        secret = table.watch if link == "watch" else table.teach
        if make != bool(secret):
            new = new_secret() if make else ""
            table = dataclasses.replace(table, watch=new) if link == "watch" else \
                dataclasses.replace(table, teach=new)
            if link == "teach":  # a new teacher's link asks every player again
                for s, st in enumerate(table.seats):
                    if st.consent:
                        table = table.with_consent(s, False)
        if table is not loaded.table and "replay" in loaded.table.__dict__:
            table.__dict__["replay"] = loaded.table.__dict__["replay"]
        return table if table != loaded.table else None

    return change


def consent_change(seat: int, yes: bool) -> Callable[[Loaded], Table | None]:
    """The player at ``seat`` says yes or no to the teacher's view."""

    def change(loaded: Loaded) -> Table | None:
        if loaded.table.seats[seat].consent == yes:
            return None
        return loaded.table.with_consent(seat, yes)

    return change


def watch_info(loaded: Loaded, seat: int, watchers: int) -> dict[str, Any]:
    """What a seat's view says of the watchers: how many watch, the links (every seat may
    hand them on), how far behind they follow, and who said yes to the teacher's view."""
    table = loaded.table
    base = f"/w/{loaded.id}?key="
    return {
        "watchers": watchers,
        "link": base + table.watch if table.watch else None,
        "teacher_link": base + table.teach if table.teach else None,
        "delay": DELAY_NAMES.get(table.watch_delay, 1),
        "consent": {turn_seat(s, seat): st.consent for s, st in enumerate(table.seats)
                    if st.kind == "human"},
        "teaching": table.teaching,
    }


__all__ = ["LINKS", "Link", "WatchForbiddenError", "consent_change", "link_change",
           "watch_info", "watcher_kind"]
