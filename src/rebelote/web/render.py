"""The pages' one way to render a template: :class:`Templates`.

The templates of every product live in ``web/templates`` (the base page and the counter's at
its root, ``table/`` and ``concours/`` beside them), read with the gettext catalog of the
request's language installed. A product makes one :class:`Templates` with its own helpers
(the words and lists its templates call) and renders through it::

    templates = Templates(table_helpers)
    return templates.render(request, "table/page.html", invite=invite)

>>> from jinja2 import Environment
>>> def helpers(env: Environment, lang: str) -> None:
...     env.globals["hello"] = "Bonjour" if lang == "fr" else "Hello"
>>> templates = Templates(helpers)
>>> templates.environment("en").from_string("{{ hello }}{{ colon }} {{ 1234 | num }}").render()
'Hello: 1,234'
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from fastapi.responses import HTMLResponse
from jinja2 import Environment, PackageLoader, select_autoescape
from starlette.requests import Request

from rebelote import __version__, catalogs
from rebelote.web.i18n import request_lang

#: What a product adds to its templates' environment in a language (its globals, filters).
Helpers = Callable[[Environment, str], None]


def template_environment(lang: str) -> Environment:
    """The package's templates with the gettext catalog of ``lang`` installed, and what every
    page uses: ``lang``, ``version``, ``colon`` (French puts a space before a colon: "Donneur
    : Ouest", "Dealer: West") and the ``num`` filter (1 234, 1,234)."""
    env = Environment(
        loader=PackageLoader("rebelote.web", "templates"),
        autoescape=select_autoescape(["html"]),
        extensions=["jinja2.ext.i18n"],
        trim_blocks=True,
        lstrip_blocks=True,
    )
    env.install_gettext_translations(catalogs.translations(lang), newstyle=True)  # type: ignore[attr-defined]
    env.globals.update(lang=lang, version=__version__, colon=catalogs.colon(lang))
    env.filters["num"] = lambda value: catalogs.number(int(value), lang)
    return env


class Templates:
    """A product's templates: :func:`template_environment` with the product's ``helpers``,
    one environment per language (made once); ``headers`` go on every page it renders."""

    __slots__ = ("_environments", "_helpers", "headers")

    def __init__(self, helpers: Helpers, *, headers: Mapping[str, str] | None = None) -> None:
        self._helpers = helpers
        self._environments: dict[str, Environment] = {}
        self.headers = dict(headers or {})

    def environment(self, lang: str) -> Environment:
        """The environment of ``lang`` (made at its first use)."""
        env = self._environments.get(lang)
        if env is None:
            env = template_environment(lang)
            self._helpers(env, lang)
            self._environments[lang] = env
        return env

    def render(self, request: Request, name: str, status: int = 200, **context: Any
               ) -> HTMLResponse:
        """Template ``name`` in the request's language, with ``request``, its ``path`` and
        ``context``."""
        html = self.environment(request_lang(request)).get_template(name).render(
            request=request, path=request.url.path, **context)
        return HTMLResponse(html, status_code=status, headers=self.headers or None)


__all__ = ["Helpers", "Templates", "template_environment"]
