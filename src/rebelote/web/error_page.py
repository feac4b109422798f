"""The short HTML page of an error met by a page's form or link, in the request's language:
used by the error map (:mod:`rebelote.web.errors`) and by the middleware's own refusals
(:mod:`rebelote.web.security`: a body too large, too many requests), which sit below it."""

from __future__ import annotations

from collections.abc import Mapping
from html import escape
from typing import Final

from fastapi.responses import HTMLResponse

from rebelote.web.i18n import DEFAULT_LANG, _, error_text, gettext

#: The heading of an error page, by status (gettext's English, translated by the catalogs).
_HEADINGS: Final[Mapping[int, str]] = {
    400: _("The request was not understood"), 403: _("Not allowed"), 404: _("Not found"),
    405: _("Not allowed"), 408: _("Too slow"), 409: _("Refused: the game has moved on"),
    413: _("Too large"), 415: _("Not understood"), 422: _("Input refused"),
    429: _("Too many requests"), 503: _("Unavailable for a moment"),
}
_ELSE: Final = _("Something went wrong")
_HOME: Final = _("Back to the home page")


def error_page(status: int, message: str, headers: Mapping[str, str] | None = None,
               lang: str = DEFAULT_LANG) -> HTMLResponse:
    """A short HTML page in ``lang`` for an error met by a page's form or link: a heading
    saying what happened, the message (in French when the catalogs know its sentence, else in
    English and marked so), a way home."""
    field, sep, reason = message.partition(": ")
    said = error_text(field, reason, lang) if sep and " " not in field else message
    untranslated = lang != "en" and said.endswith(reason if sep else message)
    if untranslated:  # the core's English sentence as it is, marked as English
        said = message
    heading = gettext(lang, _HEADINGS.get(status, _ELSE))
    home = gettext(lang, _HOME)
    marked = ' lang="en"' if untranslated else ""
    html = (f'<!doctype html><html lang="{lang}"><head><meta charset="utf-8">'
            f'<meta name="viewport" content="width=device-width, initial-scale=1">'
            f'<link rel="stylesheet" href="/static/style.css"><title>{status} · '
            f'{escape(heading)} · Rebelote</title></head><body><main class="page">'
            f'<section class="card"><h1>{escape(heading)}</h1>'
            f'<p class="error" role="alert"{marked}>'
            f'{escape(said)}</p><p><a href="/">{escape(home)}</a></p></section></main>'
            f'</body></html>')
    return HTMLResponse(html, status_code=status, headers=headers)
