"""A schema-driven fuzz of the whole API, the counter's and the play table's (schemathesis,
from ``/openapi.json``): no answer is a server error, and every answer matches the documented
schema (status, content type, body).

Each generated request is aimed at a real game or table (its id, view id and secret
substituted), so the fuzz reaches the scoring, the engine and the store, not only the 404 of a
random id. A table's writes go to a table of their own (a fuzzed release hands the seat back);
its finished deals' routes to a table whose first deal was played out.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import schemathesis
from hypothesis import HealthCheck, settings
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from rebelote.web.app import create_app
from rebelote.web.limits import Limits


def _app() -> Any:
    import tempfile

    folder = Path(tempfile.mkdtemp(prefix="rebelote-fuzz-"))
    # the fuzzer makes tables as a script does (hundreds from one address): above the
    # default burst of table creations (60), which would answer it 429
    return create_app(f"sqlite:///{folder / 'fuzz.sqlite3'}", limits=Limits(tables_burst=100_000))


#: One test of about 15 s of CPU now (its 49 operations are its subtests): handed out among
#: the first (``tests/conftest.py``, ``_order``), not among the short tests that end the run.
pytestmark = pytest.mark.slow

#: The app under fuzz, made by :func:`api_schema` when the test runs, on the one worker that
#: runs it (schemathesis's lazy schema: its 49 operations are subtests of the one test), not
#: at collection, which every xdist worker does: the app, its migrations and the 49 tests
#: built there took 1.4 s of CPU in each (the module alone collected in 3.4 s, now 2.0 s).
APP: Any = None
GAMES: dict[str, dict[str, Any]] = {}


#: The client that makes the games and tables the requests are aimed at: schemathesis's own
#: for :data:`APP`, in the same app's one startup as the fuzzed requests (a test client
#: started for each of them, its app's startup and shutdown, took a quarter of the test).
CLIENT: Any = None


@pytest.fixture(scope="module")
def api_schema() -> Iterator[Any]:
    global APP, CLIENT
    from schemathesis.python import asgi

    APP = _app()
    with asgi.get_client(APP) as CLIENT:
        yield schemathesis.openapi.from_asgi("/openapi.json", APP)


schema = schemathesis.pytest.from_fixture("api_schema")


@pytest.fixture(autouse=True)
def _node_id(request: pytest.FixtureRequest) -> None:
    """schemathesis 4's lazy schema names each operation's run in the test's ``_nodeid``,
    which pytest 9 no longer sets (nor reads: ``tests/conftest.py``, ``_name_group``)."""
    request.node._nodeid = request.node.nodeid


def _game(case: Any) -> dict[str, Any]:
    """A real game for this run, created once through the API."""
    if "belote" not in GAMES:
        game = CLIENT.post("/api/counter/games", json={"game": "belote"}).json()
        CLIENT.post(f"/api/counter/games/{game['id']}/deals",
                    json={"taker": "NS", "points": {"NS": 100}},
                    headers={"Authorization": f"Bearer {game['token']}"})
        GAMES["belote"] = game
    return GAMES["belote"]


def _table(finished: bool) -> dict[str, Any]:
    """A coinche table against random bots: a new one, or (``finished``) the one whose first
    deal was played out through the API, made once."""
    if finished and "finished" in GAMES:
        return GAMES["finished"]
    table = CLIENT.post("/api/tables", json={"game": "coinche", "bots": "random"}).json()
    view = table
    while finished and view["deal"] == 1 and not view["over"]:
        view = CLIENT.post(f"/api/tables/{table['id']}/actions",
                           json={"action": view["legal"][0]},
                           headers={"Authorization": f"Bearer {table['token']}"}).json()
    if finished:
        GAMES["finished"] = table
    return dict(table)


@schema.parametrize()
@settings(max_examples=15, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much,
                                 HealthCheck.function_scoped_fixture])
def test_the_api_never_fails_and_matches_its_schema(case: Any) -> None:
    game = _game(case)
    headers = dict(case.headers or {})
    if case.path_parameters and "table_id" in case.path_parameters:
        game = _table(finished="{n}" in case.path)
        case.path_parameters["table_id"] = game["id"]
        if "n" in case.path_parameters:
            case.path_parameters["n"] = 1  # the finished deal (other numbers: tests of 422)
        headers = {k: v for k, v in headers.items() if k.lower() != "authorization"}
        case.headers = dict(headers)
        headers["Authorization"] = f"Bearer {game['token']}"  # the seat's (wrong: 403 tests)
    if case.path_parameters:
        if "game_id" in case.path_parameters:
            case.path_parameters["game_id"] = game["id"]
        if "view_id" in case.path_parameters:
            case.path_parameters["view_id"] = game["view"]
    headers.setdefault("Authorization", f"Bearer {game['token']}")
    if case.method.upper() == "DELETE" and case.path == "/api/counter/games/{game_id}":
        headers["If-Match"] = '"0"'  # never forget the shared game: 409 is documented
    response = case.call(headers=headers)
    case.validate_response(response, checks=[
        not_a_server_error, status_code_conformance, content_type_conformance,
        response_schema_conformance,
    ])
