"""Every refusal answers its status and a sentence naming the field and the rule, as JSON for
the API and as a short page for the pages' forms; never a traceback (web/errors.py)."""

from __future__ import annotations

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from rebelote.errors import CardError, IllegalActionError, InputError, RulesError
from rebelote.store import GameNotFoundError
from rebelote.store.concours import ConcoursNotFoundError
from rebelote.store.play_tables import TableConflictError, TableNotFoundError
from rebelote.table.model import InviteError
from rebelote.tableserver import SeatForbiddenError, TableFullError
from rebelote.web.error_page import error_page
from rebelote.web.errors import (
    REFUSALS,
    DealNotFoundError,
    ForbiddenError,
    GameBusyError,
    install_error_handlers,
)
from rebelote.web.security import UnsupportedMediaError

RAISED: dict[str, Exception] = {
    "input": InputError("points", "must be a number"),
    "rules": RulesError("target", "must be a positive whole number"),
    "card": CardError("card", "'1Z' is not a card"),
    "illegal": IllegalActionError("card", "S must follow hearts"),
    "forbidden": ForbiddenError("g1", None),
    "deal": DealNotFoundError(9, 4),
    "busy": GameBusyError("g1"),
    "media": UnsupportedMediaError("text/plain"),
    "seat": SeatForbiddenError("token: this is not the secret of a seat of this table"),
    "invite": InviteError("invite: this seat is kept for a friend: take it with its link"),
    "full": TableFullError("seat: every seat of this room is taken"),
    "moved": TableConflictError("t1", 3),
    "crash": ZeroDivisionError("division by zero"),
}
STATUS = {"input": 422, "rules": 422, "card": 422, "illegal": 409, "forbidden": 403,
          "deal": 404, "busy": 409, "media": 415, "seat": 403, "invite": 403, "full": 409,
          "moved": 409, "crash": 500}
#: The errors whose answer names what the path named, not the error's own text.
NOT_FOUND = {"game": (GameNotFoundError("g1"), "id: there is no saved game 'g1'"),
             "table": (TableNotFoundError("K7XP3QAB"), "id: there is no table 'K7XP3QAB'"),
             "concours": (ConcoursNotFoundError("c1"), "id: there is no concours 'c1'")}


@pytest.fixture(scope="module")
def client() -> TestClient:
    app = FastAPI()
    install_error_handlers(app)

    @app.get("/api/raise/{name}")  # the JSON API
    async def _api(name: str) -> None:
        raise RAISED[name] if name in RAISED else NOT_FOUND[name][0]

    @app.get("/raise/{name}")  # a page
    async def _page(name: str) -> None:
        raise RAISED[name]

    return TestClient(app, raise_server_exceptions=False)


@pytest.mark.parametrize("name", sorted(RAISED))
def test_each_refusal_answers_its_status_and_its_sentence(client: TestClient, name: str
                                                           ) -> None:
    r = client.get(f"/api/raise/{name}")
    assert r.status_code == STATUS[name]
    body = r.json()
    if name == "crash":  # no traceback, nothing of the error's text
        assert body == {"error": "server: an unexpected error happened; nothing was changed"}
    else:
        assert body == {"error": str(RAISED[name])}
        if name != "moved":  # "table t1 changed since version 3 (another move came first)..."
            assert str(RAISED[name]).split(":")[0] in (
                "points", "target", "card", "Authorization", "n", "id", "Content-Type", "token",
                "invite", "seat")


@pytest.mark.parametrize("name", sorted(NOT_FOUND))
def test_an_unknown_id_answers_404_naming_it(client: TestClient, name: str) -> None:
    r = client.get(f"/api/raise/{name}")
    assert (r.status_code, r.json()) == (404, {"error": NOT_FOUND[name][1]})


def test_a_page_gets_the_refusal_as_a_page_in_its_words(client: TestClient) -> None:
    r = client.get("/raise/input")
    assert r.status_code == 422
    assert r.headers["content-type"].startswith("text/html")
    assert '<html lang="fr">' in r.text and "<h1>Saisie refusée</h1>" in r.text
    # a sentence the catalogs do not know stays in English, marked so for screen readers
    assert 'role="alert" lang="en">points: must be a number</p>' in r.text
    assert "Retour à l’accueil" in r.text and "Project-Id-Version" not in r.text
    r = client.get("/raise/input?lang=en")
    assert '<html lang="en">' in r.text and "<h1>Input refused</h1>" in r.text
    assert 'role="alert">Points: must be a number</p>' in r.text


def test_a_page_gets_a_known_sentence_in_french() -> None:
    page = error_page(422, "points.EW: 170 is more than the 162 of a deal", lang="fr")
    assert 'role="alert">Points\u00a0: 170 dépasse les 162 points d’une donne.</p>' \
        in page.body.decode()
    page = error_page(404, "id: there is no table 'ABC'", lang="fr")
    assert "<h1>Introuvable</h1>" in page.body.decode()
    assert "Project-Id-Version" not in page.body.decode()  # gettext("") is the catalog's header


def test_the_most_specific_refusal_wins() -> None:
    # An illegal move is a RebeloteError too: it answers 409 (a conflict with the deal's
    # state), not the 422 of a malformed request, whatever the order of the table.
    kinds = list(REFUSALS)
    assert issubclass(IllegalActionError, kinds[0]) and IllegalActionError in kinds
    assert STATUS["illegal"] == REFUSALS[IllegalActionError].status == 409


@pytest.mark.parametrize("module", ["rebelote.secret", "rebelote.web.errors",
                                    "rebelote.web.render", "rebelote.web.security"])
def test_docstring_examples_run(module: str) -> None:
    import doctest
    import importlib

    result = doctest.testmod(importlib.import_module(module))
    assert result.failed == 0 and result.attempted > 0
