"""Shared by every test module: the PostgreSQL tests run one after another on one worker.

They share one server, and some of them act on every connection of that server (the listener
test cuts every ``LISTEN``): run side by side on two workers, one test would cut the other's
listener. ``scripts/test.sh`` runs pytest with ``--dist loadgroup``, which keeps a group on one
worker and spreads the other tests as before.
"""

from __future__ import annotations

import pytest


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if item.get_closest_marker("postgres") is not None:
            item.add_marker(pytest.mark.xdist_group("postgres"))
