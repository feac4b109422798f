"""Every example written in the package's docstrings runs and says what it shows.

A few modules run their own doctests beside their tests; this one walks the whole package, so a
docstring's example cannot drift from the code unseen (two had: French typography's no-break
space before a colon, and a counter's statistics written before dedans marked 162)."""

from __future__ import annotations

import doctest
import importlib
import pkgutil

import pytest

import rebelote

#: Modules that only run inside another program (alembic's environment script).
NOT_IMPORTABLE = {"rebelote.store.migrations.env"}


def _modules() -> list[str]:
    return sorted(m.name for m in pkgutil.walk_packages(rebelote.__path__, "rebelote.")
                  if m.name not in NOT_IMPORTABLE and ".migrations.versions" not in m.name)


def test_every_module_is_walked() -> None:
    names = _modules()
    assert "rebelote.rules" in names and "rebelote.web.counter.stats" in names
    assert len(names) > 100


@pytest.mark.parametrize("name", _modules())
def test_the_examples_of(name: str) -> None:
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.failed == 0, f"{name}: {result.failed} of {result.attempted} examples failed"
