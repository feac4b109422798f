"""Shared by every test module: the PostgreSQL tests run one after another on one worker, and
under xdist the long tests start first.

The PostgreSQL tests share one server, and some of them act on every connection of that
server (the listener test cuts every ``LISTEN``): run side by side on two workers, one test
would cut the other's listener. ``scripts/test.sh`` runs pytest with ``--dist loadgroup``,
which keeps a group on one worker and spreads the other tests as before.

xdist hands the tests to its two workers in collection order, a few at a time, each worker
asking for more as it finishes. In file order the browser tests (``tests/test_web_*``,
``test_table_browser``...) come last: a long test handed out near the end keeps one worker busy
while the other has nothing left. Under xdist the tests marked ``slow`` (the packaging
test, a minute on its own) come first, then those marked ``browser``, then the rest, each part
in file order (a module's tests stay together, so its module-scoped server starts once per
worker): the short tests fill both workers at the end. A serial run keeps file order.

``browser`` is the worker's chromium (:class:`web_fixtures.Chromium`), one for every browser
test module: launched when a test first asks for it, closed after a test when the next one
needs none (Playwright's synchronous API holds an event loop that a test running its own
could not run beside). The browser tests run together, so a worker launches it about twice.
Each test opens its own contexts (its own cookies); those it leaves open are closed after it.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from web_fixtures import Chromium

_CHROMIUM = Chromium()


@pytest.fixture
def browser() -> Any:
    """The worker's chromium (Playwright), shared by every test that asks for it."""
    return _CHROMIUM.get()


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_teardown(item: pytest.Item, nextitem: pytest.Item | None) -> Iterator[None]:
    yield  # the test's fixtures first (they may close contexts of the browser)
    if "browser" in getattr(item, "fixturenames", ()):
        _CHROMIUM.close_contexts()  # each test's own: none outlives it
    if nextitem is None or "browser" not in getattr(nextitem, "fixturenames", ()):
        _CHROMIUM.close()


def _weight(item: pytest.Item) -> int:
    """0 for the longest tests (``slow``), 1 for the browser tests, 2 for the rest."""
    if item.get_closest_marker("slow") is not None:
        return 0
    return 1 if item.get_closest_marker("browser") is not None else 2


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    for item in items:
        if item.get_closest_marker("postgres") is not None:
            item.add_marker(pytest.mark.xdist_group("postgres"))
    if hasattr(config, "workerinput"):  # an xdist worker: every worker sorts alike (stable)
        items.sort(key=_weight)
