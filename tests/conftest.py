"""Shared by every test module: the xdist groups kept on one worker, the order the tests are
handed out in, the worker's chromium, and (``REBELOTE_TEST_CPU``) each test's CPU.

The PostgreSQL tests share one server, and some of them act on every connection of that
server (the listener test cuts every ``LISTEN``): run side by side on two workers, one test
would cut the other's listener. ``scripts/test.sh`` runs pytest with ``--dist loadgroup``,
which keeps a group (``xdist_group``) on one worker: the PostgreSQL tests, the attacker's
checks on the main server, those on servers of their own, the table journeys, the proxies.
xdist 3.8 names the group in a test's id the way pytest 8 read it; under pytest 9 the id is
named again here (:func:`_name_group`), else every test is a group of its own.

xdist hands the groups and the other tests out in the order of the collection (``scripts/
test.sh`` passes ``--no-loadscope-reorder``: by default the largest groups go first, and the
three groups that mostly wait, begun together, left a core idle while the browser tests
waited), each worker asking for more as it finishes. Under xdist the order is
:func:`_order`'s: the attacker's checks on the main server, the tests marked ``slow`` (the
packaging build), the table journeys, then the browser tests with the other waiting groups
among them, then the rest, each part in file order: the short tests fill the workers at the
end. A serial run keeps file order. xdist hands the tests out one by one, so a module's tests
that share a module-scoped fixture (a server, kept pages, deals explained) form a group named
after the module (:func:`_uses_module_fixture`): else each worker that ran one made it again.

``browser`` is the worker's chromium (:class:`web_fixtures.Chromium`), one for every browser
test module: launched when a test first asks for it, closed after a test when the next one
needs none (Playwright's synchronous API holds an event loop that a test running its own
could not run beside). The browser tests run together, so a worker launches it a few times.
Each test opens its own contexts (its own cookies); those it leaves open are closed after it,
but for ``kept_page``'s: a page per screen size kept for a module's tests that need no fresh
cookies nor storage (a context costs a renderer of its own).
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from typing import Any

import pytest

from web_fixtures import Chromium

_CHROMIUM = Chromium()


@pytest.fixture
def browser() -> Any:
    """The worker's chromium (Playwright), shared by every test that asks for it."""
    return _CHROMIUM.get()


@pytest.fixture(scope="module")
def kept_page() -> Iterator[Any]:
    """``kept_page(viewport)``: a page of the worker's chromium kept for the module's tests
    of that size (:meth:`web_fixtures.Chromium.kept_page`), for tests that need no fresh
    cookies nor storage; closed at the module's end."""
    yield _CHROMIUM.kept_page
    _CHROMIUM.drop_kept()


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_teardown(item: pytest.Item, nextitem: pytest.Item | None) -> Iterator[None]:
    yield  # the test's fixtures first (they may close contexts of the browser)
    if "browser" in getattr(item, "fixturenames", ()):
        _CHROMIUM.close_contexts()  # each test's own: none outlives it
    if nextitem is None or "browser" not in getattr(nextitem, "fixturenames", ()):
        _CHROMIUM.close()


#: The xdist groups whose tests mostly wait (a server's timeout, a restart, a client's pace):
#: the attacker's checks and the PostgreSQL tests. Begun together, the three left a core idle
#: while the tests that keep one busy (the browsers, the packaging build) waited their turn.
WAITING_FIRST = "attack-main"
WAITING_LATER = ("postgres", "attack-own", "proxies")


def _group(item: pytest.Item) -> str | None:
    mark = item.get_closest_marker("xdist_group")
    return None if mark is None else str(mark.args[0] if mark.args else mark.kwargs["name"])


def _uses_module_fixture(item: pytest.Item) -> bool:
    """Whether the test asks for a module-scoped fixture (a server, a kept page, deals
    explained): a module's tests that do, if more than one, form a group of their own (named
    after the module), so that the fixture is made once, not once on each worker that ran one
    of them (xdist hands the other tests out one by one: two or three servers a module)."""
    info = getattr(item, "_fixtureinfo", None)
    return info is not None and any(
        d.scope == "module" for defs in info.name2fixturedefs.values() for d in defs)


def _order(items: list[pytest.Item]) -> list[pytest.Item]:
    """The order xdist hands the tests out in (scripts/test.sh runs ``--dist loadgroup
    --no-loadscope-reorder``): the attacker's checks on the main server (the longest group),
    the ``slow`` tests, the table journeys, then the browser tests with the other waiting
    groups among them (one begins as a worker comes free, beside the browsers), then the
    rest, each part in file order (a module's tests stay together)."""
    first = [i for i in items if _group(i) == WAITING_FIRST]
    slow = [i for i in items if i.get_closest_marker("slow") is not None and _group(i) is None]
    journeys = [i for i in items if _group(i) == "journey-table"]
    waiting = [[i for i in items if _group(i) == g] for g in WAITING_LATER]
    placed = {id(i) for part in (first, slow, journeys, *waiting) for i in part}
    browsers = [i for i in items if id(i) not in placed
                and i.get_closest_marker("browser") is not None]
    placed |= {id(i) for i in browsers}
    rest = [i for i in items if id(i) not in placed]
    out = first + slow + journeys
    third = len(browsers) // 3
    out += browsers[:third] + waiting[0] + browsers[third:2 * third] + waiting[1] + waiting[2]
    return out + browsers[2 * third:] + rest


@pytest.hookimpl(wrapper=True)
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]
                                  ) -> Iterator[None]:
    for item in items:
        if item.get_closest_marker("postgres") is not None:
            item.add_marker(pytest.mark.xdist_group("postgres"))
    sharing: dict[str, list[pytest.Item]] = {}
    for item in items:
        if _group(item) is None and _uses_module_fixture(item):
            sharing.setdefault(item.path.stem, []).append(item)
    for name, tests in sharing.items():
        for item in tests if len(tests) > 1 else ():
            item.add_marker(pytest.mark.xdist_group(name))
    if hasattr(config, "workerinput"):  # an xdist worker: every worker sorts alike
        items[:] = _order(items)
    yield  # xdist's own hook (last) names each test's group in its id, as pytest 8 read it
    if getattr(config.option, "loadgroup", False):
        for item in items:
            _name_group(item)


def _name_group(item: pytest.Item) -> None:
    """The test's id ends with ``@group`` (its ``xdist_group``), which ``--dist loadgroup``
    reads to send a group's tests to one worker. xdist 3.8 writes it into ``item._nodeid``,
    which pytest 9 no longer reads (the id is ``item._id``): every test was its own group,
    the PostgreSQL tests ran side by side on three workers, and each worker that ran one of
    the attacker's checks or journeys started their servers again."""
    names = sorted({str(m.args[0] if m.args else m.kwargs.get("name", "default"))
                    for m in item.iter_markers("xdist_group")})
    if not names or item.nodeid.rpartition("]")[2].find("@") >= 0 or not hasattr(item, "_id"):
        return
    from _pytest.nodeid import NodeId

    item._id = NodeId.parse(f"{item.nodeid}@{'_'.join(names)}")


def _tree_cpu() -> float:
    """CPU seconds of this process, the children it reaped, and its live descendants (with
    what they reaped): servers, commands, chromium."""
    import resource

    import psutil

    total = 0.0
    for who in (resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN):
        r = resource.getrusage(who)
        total += r.ru_utime + r.ru_stime
    for p in psutil.Process().children(recursive=True):
        try:
            t = p.cpu_times()
        except psutil.Error:
            continue
        total += t.user + t.system + t.children_user + t.children_system
    return total


_CPU_LOG = os.environ.get("REBELOTE_TEST_CPU")


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item: pytest.Item, nextitem: pytest.Item | None) -> Iterator[None]:
    """With ``REBELOTE_TEST_CPU=FILE``, each test's CPU (setup, call and teardown, the
    processes it started included) is appended to FILE: ``seconds nodeid``. The worker's
    chromium is counted while it runs, but when it closes its CPU leaves the count (Playwright's
    driver does not reap it): the test after which it closes shows that much less, often below
    zero; add a browser module's tests up to that point, or time it alone."""
    if not _CPU_LOG:
        yield
        return
    before = _tree_cpu()
    yield
    with open(_CPU_LOG, "a") as f:
        f.write(f"{_tree_cpu() - before:.2f} {item.nodeid}\n")
