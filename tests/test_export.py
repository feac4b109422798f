"""CSV export and import of a game: what match_to_csv writes, match_from_csv reads back."""

from __future__ import annotations

import doctest
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

import rebelote.export
from rebelote.errors import InputError
from rebelote.export import columns, match_from_csv, match_to_csv
from rebelote.match import Match
from rebelote.rules import ALL_TRUMP, CONTRACTS, NO_TRUMP, TRUMP_NAMES, Rules, card_values
from rebelote.summary import DealSummary

VECTORS = Path(__file__).parent / "vectors" / "seed-games.jsonl"
# Declarations one team can score: tierces, cinquante, cent, carrés and sums of them.
DECLARATION_SUMS = (20, 40, 50, 70, 100, 120, 150, 170, 200, 220, 250, 300)
SEED_GAMES = [json.loads(line) for line in VECTORS.read_text(encoding="utf-8").splitlines()]


def seed_game(name: str) -> Match:
    return next(Match.from_json(v["input"]) for v in SEED_GAMES if v["id"] == name)


def rows_of(text: str) -> list[list[str]]:
    return [line.split(",") for line in text.splitlines()]


# -- round trips ------------------------------------------------------------------------------
@pytest.mark.parametrize("vector", SEED_GAMES, ids=lambda v: v["id"])
@pytest.mark.parametrize("lang", ["fr", "en"])
def test_the_seed_games_round_trip(vector: dict[str, Any], lang: str) -> None:
    match = Match.from_json(vector["input"])
    back = match_from_csv(match_to_csv(match, lang))
    assert back == match
    assert back.result() == match.result()


def test_one_row_per_deal_with_a_header() -> None:
    match = seed_game("belote-five-deals")
    rows = rows_of(match_to_csv(match, "fr"))
    header = rows.index(columns("fr"))
    deals = rows[header + 1:]
    assert [row[0] for row in deals] == ["1", "2", "3", "4", "5"]
    last = dict(zip(columns("fr"), deals[-1], strict=True))
    assert (last["Total NS"], last["Total EW"]) == ("906", "124")
    assert last["Capot"] == "NS" and last["Issue"] == "réussi"
    second = dict(zip(columns("fr"), deals[1], strict=True))
    assert (second["Preneur"], second["Atout"], second["Issue"]) == ("EW", "cœur", "litige")
    assert (second["Marque NS"], second["Marque EW"]) == ("91", "0")


def test_the_english_file_has_english_headers_and_words() -> None:
    match = seed_game("coinche-belote-alone-does-not-win")
    text = match_to_csv(match, "en")
    assert "Deal,Taker,Trump,Contract,Coinche,Points NS" in text
    assert "Start,990,500" in text
    assert ",failed," in text and ",made," in text and ",spades," in text


def test_void_adjust_coinche_and_options_round_trip() -> None:
    rules = Rules.preset("house", "coinche").replace(rounding="nearest", generale_value=400)
    match = Match(rules, target=501, teams=("Les \"As\", Paris", "Eux; autres"),
                  start=(10, -20))
    for obj in (
        {"trump": "no-trump", "taker": "EW", "contract": 100, "coinche": "surcoinche",
         "points": {"NS": 40, "EW": 90}},
        {"void": True},
        {"adjust": {"NS": 50, "EW": -10}},
        {"trump": "all-trump", "taker": "NS", "contract": "generale", "points": {"NS": 252},
         "capot": "NS", "generale": True, "belote": {"NS": 2, "EW": 1},
         "declarations": {"NS": 150}},
        {"trump": "clubs", "taker": "NS", "contract": "capot", "coinche": "coinche",
         "points": {"NS": 100, "EW": 62}},
    ):
        deal = (DealSummary.from_json(obj, rules) if "void" not in obj and "adjust" not in obj
                else DealSummary.from_json({**obj}, rules))
        match = match.add(deal)
    for lang in ("fr", "en"):
        back = match_from_csv(match_to_csv(match, lang))
        assert back == match
        assert back.result() == match.result()


def test_a_belote_litige_reserve_brought_in_round_trips() -> None:
    rules = Rules.preset("official", "belote")
    match = Match(rules).add(DealSummary(game="belote", taker="NS", points=(90, 72),
                                         held_over=81))
    assert match_from_csv(match_to_csv(match)) == match


def test_semicolons_and_a_byte_order_mark_are_read() -> None:
    match = seed_game("belote-five-deals")
    text = "\ufeff" + match_to_csv(match).replace(",", ";")
    assert match_from_csv(text) == match


def test_the_game_lines_take_french_and_english_words() -> None:
    match = seed_game("belote-five-deals")
    text = match_to_csv(match).replace("Partie,belote", "Partie,Belote classique")
    assert match_from_csv(text.replace("Règles,official", "Règles,maison")).rules.name == "house"
    assert match_from_csv(text.replace("Règles,official", "Rules,Official")) == match


def test_marks_and_totals_are_recomputed_not_read() -> None:
    match = seed_game("belote-five-deals")
    text = match_to_csv(match).replace("118,64,118,64", "1,2,3,4")
    assert match_from_csv(text).result().totals == (906, 124)


# -- random games -------------------------------------------------------------------------------
@st.composite
def deal_json(draw: st.DrawFn, game: str) -> dict[str, Any]:
    """A deal summary that the engine accepts: real trick points, declarations and belotes."""
    kind = draw(st.sampled_from(["deal"] * 8 + ["void", "adjust"]))
    if kind == "void":
        return {"void": True}
    if kind == "adjust":
        return {"adjust": {"NS": draw(st.integers(-100, 300)), "EW": draw(st.integers(0, 300))}}
    trump = draw(st.integers(0, 5))
    values = card_values(trump)
    ns_cards = draw(st.integers(0, (1 << 32) - 1))
    ns_points = sum(v for c, v in enumerate(values) if ns_cards >> c & 1)
    if ns_cards == (1 << 32) - 1:
        last = "NS"
    elif ns_cards == 0:
        last = "EW"
    else:
        last = draw(st.sampled_from(["NS", "EW"]))
    obj: dict[str, Any] = {"trump": TRUMP_NAMES[trump], "taker": draw(st.sampled_from(
        ["NS", "EW"])), "cards": {"NS": ns_points}, "last_trick": last}
    if ns_cards in (0, (1 << 32) - 1):
        obj["capot"] = last
        obj["cards"] = {last: sum(values)}
    decl = draw(st.sampled_from([0, *DECLARATION_SUMS]))
    if decl:
        obj["declarations"] = {draw(st.sampled_from(["NS", "EW"])): decl}
    if trump == ALL_TRUMP:
        obj["belote"] = {"NS": draw(st.integers(0, 2)), "EW": draw(st.integers(0, 2))}
    elif trump != NO_TRUMP and draw(st.booleans()):
        obj["belote"] = draw(st.sampled_from(["NS", "EW"]))
    if game == "coinche":
        obj["contract"] = draw(st.sampled_from([*CONTRACTS, "capot", "generale"]))
        obj["coinche"] = draw(st.sampled_from(["none", "coinche", "surcoinche"]))
        if obj["contract"] == "generale" and obj.get("capot") == obj["taker"]:
            obj["generale"] = draw(st.booleans())
    return obj


@st.composite
def matches(draw: st.DrawFn) -> Match:
    game = draw(st.sampled_from(["belote", "coinche"]))
    name = draw(st.sampled_from(["official", "house"]))
    teams = (draw(st.text(min_size=1, max_size=12).filter(str.strip)),
             draw(st.text(min_size=1, max_size=12).filter(str.strip)))
    obj = {"game": game, "rules": name, "target": draw(st.sampled_from([501, 1000, 1500, 777])),
           "teams": {"NS": teams[0], "EW": teams[1]},
           "start": {"NS": draw(st.integers(0, 900)), "EW": draw(st.integers(0, 900))},
           "deals": draw(st.lists(deal_json(game), max_size=14))}
    try:
        match = Match.from_json(obj)
        match.result()
    except InputError:
        assume(False)
        raise
    return match


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(matches(), st.sampled_from(["fr", "en"]))
def test_random_games_round_trip_through_csv(match: Match, lang: str) -> None:
    text = match_to_csv(match, lang)
    back = match_from_csv(text)
    assert back == match
    assert back.result() == match.result()
    assert match_to_csv(back, lang) == text


# -- errors -------------------------------------------------------------------------------------
def _with_cell(text: str, row: int, column: str, value: str) -> str:
    """The CSV ``text`` with the cell of ``row`` (1-based) under header ``column`` replaced."""
    lines = text.splitlines()
    header = next(line.split(",") for line in lines if line.startswith(("Donne,", "Deal,")))
    cells = lines[row - 1].split(",")
    cells[header.index(column)] = value
    lines[row - 1] = ",".join(cells)
    return "\n".join(lines) + "\n"


BAD_CELLS = [
    (8, "Points NS", "abc", "row 8, column Points NS", "not a whole number"),
    (8, "Points NS", "99", "row 8, column Points NS / Points EW", "163"),
    (9, "Preneur", "NE", "row 9, column Preneur", "not a team"),
    (9, "Preneur", "", "row 9, column Preneur", "missing"),
    (10, "Atout", "rouge", "row 10, column Atout", "not a trump"),
    (10, "Contrat", "100", "row 10, column Contrat", "belote has no contract"),
    (11, "Annonces NS", "35", "row 11, column Annonces NS", "not a sum of declarations"),
    (11, "Annonces EW", "20", "row 11, column Annonces NS / Annonces EW", "only one team"),
    (12, "Capot", "EW", "row 12, column Points NS / Points EW", "capot"),
    (12, "Générale", "peut-être", "row 12, column Générale", "oui"),
    (12, "Belote NS", "2", "row 12, column Belote NS / Belote EW", "at most 1"),
]


@pytest.mark.parametrize(("row", "column", "value", "where", "why"), BAD_CELLS,
                         ids=[f"{c[1]}={c[2]}" for c in BAD_CELLS])
def test_a_bad_cell_is_named_by_row_and_column(row: int, column: str, value: str, where: str,
                                               why: str) -> None:
    text = _with_cell(match_to_csv(seed_game("belote-five-deals")), row, column, value)
    with pytest.raises(InputError) as error:
        match_from_csv(text)
    assert error.value.field == where
    assert why in str(error.value)


def test_bad_files_are_sentences_naming_where() -> None:
    good = match_to_csv(seed_game("belote-five-deals"))
    cases = [
        ("", "csv", "no header row"),
        (good.replace("Partie,belote\r\n", ""), "csv", "no game line"),
        (good.replace("Partie,belote", "Partie,tarot"), "row 1", "not a game"),
        (good.replace("Objectif,1000", "Objectif,mille"), "row 3, column 2",
         "not a whole number"),
        (good.replace("Équipes,Nous,Eux", "Équipes,Nous"), "row 4", "two team names"),
        (good.replace("Issue,", "Humeur,"), "row 7, column 15", "not a column"),
        (good.replace("Départ,0,0", "Arbitre,Paul"), "row 5, column 1", "neither"),
        (good.replace("réussi,118,64,118,64", "réussi,118,64,118,64,extra"),
         "row 8, column 20", "under no header"),
        ('Partie,belote\n\nDonne,Preneur\n1,"NS\n', "csv", "not CSV"),
        (good.replace("Partie,belote", "Partie,coinche"), "row 8, column Contrat", "missing"),
    ]
    for text, where, why in cases:
        with pytest.raises(InputError) as error:
            match_from_csv(text)
        assert error.value.field == where, (where, str(error.value))
        assert why in str(error.value), str(error.value)


def test_an_unknown_language_is_refused() -> None:
    with pytest.raises(InputError) as error:
        match_to_csv(seed_game("belote-five-deals"), lang="de")
    assert error.value.field == "lang"


# -- the command line ---------------------------------------------------------------------------
def run(*args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "rebelote.cli", *args], input=stdin,
                          capture_output=True, text=True, check=False, encoding="utf-8")


def test_cli_export_then_import_gives_the_game_back(tmp_path: Path) -> None:
    match = seed_game("belote-five-deals")
    game = tmp_path / "game.json"
    game.write_text(json.dumps(match.to_json()), encoding="utf-8")
    exported = run("export", str(game), "--csv", "--lang", "en")
    assert exported.returncode == 0, exported.stderr
    assert exported.stdout.startswith("Game,belote")
    csv_file = tmp_path / "game.csv"
    csv_file.write_text(exported.stdout, encoding="utf-8", newline="")
    imported = run("import", str(csv_file))
    assert imported.returncode == 0, imported.stderr
    assert Match.from_json(json.loads(imported.stdout)) == match
    scored = run("score", stdin=imported.stdout)
    assert json.loads(scored.stdout)["totals"] == {"NS": 906, "EW": 124}


def test_cli_export_writes_json_by_default_and_reads_stdin() -> None:
    match = seed_game("coinche-belote-alone-does-not-win")
    proc = run("export", "-", stdin=json.dumps(match.to_json()))
    assert proc.returncode == 0
    assert Match.from_json(json.loads(proc.stdout)) == match


def test_cli_import_names_the_row_and_column(tmp_path: Path) -> None:
    bad = match_to_csv(seed_game("belote-five-deals")).replace("98,64", "98,65")
    proc = run("import", "-", stdin=bad)
    assert proc.returncode == 1
    assert "row 8, column Points NS / Points EW: 98 + 65 = 163" in proc.stderr
    assert "Traceback" not in proc.stderr and proc.stdout == ""


def test_cli_export_errors() -> None:
    assert run("export", "/no/such/game.json", "--csv").returncode == 2
    proc = run("export", "-", "--csv", stdin="{not json")
    assert proc.returncode == 1 and "not JSON" in proc.stderr
    assert run("export", "-", "--lang", "de", stdin="{}").returncode == 2


def test_the_examples_in_the_docstring_run() -> None:
    assert doctest.testmod(rebelote.export).failed == 0
