"""One word for each outcome wherever a player reads it (the counter, the play table, the PDF
points table), and a table's result card and sheet say who took and in which trump, in Belote
as in Coinche (issue 18, item 4)."""

from __future__ import annotations

import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from rebelote.sheets import points_table_pdf
from rebelote.sheets.labels import text as label_text
from rebelote.web import i18n
from rebelote.web.app import create_app
from rebelote.web.table import words


@pytest.mark.parametrize("lang", ["fr", "en"])
@pytest.mark.parametrize("outcome", ["made", "failed", "litige"])
def test_each_outcome_has_one_word_everywhere(lang: str, outcome: str) -> None:
    counter = label_text(lang, f"outcome.{outcome}")  # the counter's badges, sheets and files
    table = words.tr(lang, outcome)  # the table's result card and sheet
    assert counter == table, (counter, table)
    if outcome != "litige":  # the result card's contract line ("Contrat 90 de Nous : chute")
        line = i18n.gettext(lang, i18n.CONTRACT_RESULTS[outcome == "made"])
        assert line == counter, (line, counter)


@pytest.mark.skipif(not shutil.which("pdftotext"), reason="pdftotext (poppler-utils) is absent")
def test_the_points_table_says_chute_as_the_counter_does(tmp_path: Path) -> None:
    pdf = tmp_path / "points.pdf"
    pdf.write_bytes(points_table_pdf("fr"))
    text = subprocess.run(["pdftotext", "-layout", str(pdf), "-"], capture_output=True,
                          text=True, check=True).stdout
    assert "Chute" in text
    assert "Chuté" not in text and " chuté " not in text.replace("\n", " ")


@pytest.fixture()
def client(tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(create_app(f"sqlite:///{tmp_path / 'tables.db'}")) as c:
        yield c


def _play_one_deal(client: TestClient, game: str) -> tuple[str, dict[str, Any]]:
    """A table where South takes what it may and plays its first legal card, the bots at once,
    to the end of its first deal (a deal that was passed is played again)."""
    r = client.post("/api/tables", json={"game": game, "bots": "heuristic", "target": 3000})
    assert r.status_code == 201, r.text
    t = r.json()
    token, tid = t["token"], t["id"]
    head = {"Authorization": f"Bearer {token}"}
    view = t
    while not (view["last_result"] and view["sheet"] and view["sheet"][-1]["taker"]):
        legal = view["legal"]
        pick = next((a for a in legal if a in ("take", "80 hearts", "hearts")),
                    next((a for a in legal if a != "no-declaration"), None))
        assert pick is not None, view
        r = client.post(f"/api/tables/{tid}/actions", json={"action": pick}, headers=head)
        assert r.status_code == 200, r.text
        view = r.json()
    return tid, head


@pytest.mark.parametrize("game", ["belote", "coinche"])
def test_the_result_card_and_the_sheet_say_who_took_and_in_which_trump(
        client: TestClient, game: str) -> None:
    tid, head = _play_one_deal(client, game)
    view = client.get(f"/api/tables/{tid}", headers=head).json()
    row = view["sheet"][-1]
    assert row["taker"] in ("S", "N", "E", "W") and row["trump"], row
    html = client.get(f"/tables/{tid}/fragment", headers=head).text
    took = html.split('id="result-took">', 1)[1].split("</p>", 1)[0]
    who = {"S": "Vous", "N": "Partenaire", "E": "Est", "W": "Ouest"}[row["taker"]]
    trump = words.tr("fr", row["trump"])
    assert f"pris par {who}" in took and trump in took, took
    assert ("Atout" if game == "belote" else "Contrat") in took, took
    sheet = html.split('id="sheet"', 1)[1]
    assert f"{trump}" in sheet and who in sheet, sheet
