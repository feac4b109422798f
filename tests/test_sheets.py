"""The printable sheets: the score sheet (blank and filled) and the points table.

PDFs are read back as text with ``pdftotext`` (Debian ``poppler-utils``); the tests that need it
are skipped, with the reason, on a machine without it. The structure tests (a PDF, the page
count) need nothing but the bytes.
"""

from __future__ import annotations

import doctest
import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import rebelote.sheets
import rebelote.sheets.labels
import rebelote.sheets.points_table
import rebelote.sheets.score_sheet
import rebelote.sheets.words
from rebelote.cards import ACE, HEARTS, JACK
from rebelote.catalogs import number as write_number
from rebelote.declarations import CARRE_POINTS, CARRE_POINTS_NO_TRUMP, sequence_points
from rebelote.errors import InputError
from rebelote.match import Match
from rebelote.rules import ALL_TRUMP, NO_TRUMP, Rules, card_values
from rebelote.scoring import score_deal
from rebelote.sheets import MAX_ROWS, MIN_ROWS, points_table_pdf, score_sheet_pdf
from rebelote.sheets.labels import LABELS
from rebelote.sheets.points_table import _examples
from rebelote.sheets.words import describe
from rebelote.summary import DealSummary

VECTORS = Path(__file__).parent / "vectors" / "seed-games.jsonl"
needs_pdftotext = pytest.mark.skipif(
    shutil.which("pdftotext") is None,
    reason="pdftotext is missing: install Debian's poppler-utils to read the PDFs back",
)


def seed_game(name: str) -> Match:
    for line in VECTORS.read_text(encoding="utf-8").splitlines():
        vector = json.loads(line)
        if vector["id"] == name:
            return Match.from_json(vector["input"])
    raise LookupError(name)


def page_count(pdf: bytes) -> int:
    match = re.search(rb"/Count (\d+)\s*/Kids", pdf)
    assert match is not None, "no page tree in the PDF"
    return int(match.group(1))


def pdf_text(pdf: bytes, tmp_path: Path) -> str:
    path = tmp_path / "sheet.pdf"
    path.write_bytes(pdf)
    out = subprocess.run(["pdftotext", "-layout", str(path), "-"], capture_output=True,
                         check=True, text=True)
    return out.stdout


def longer_game(deals: int) -> Match:
    """The belote counting guide's five deals, then made deals until the game has ``deals``
    deals."""
    match = seed_game("belote-five-deals")
    extra = DealSummary(game="belote", taker="EW", trump=HEARTS, points=(62, 100))
    while len(match.deals) < deals:
        match = match.add(extra)
    return match


# -- structure, without poppler ---------------------------------------------------------------
@pytest.mark.parametrize("game", ["belote", "coinche"])
@pytest.mark.parametrize("lang", ["fr", "en"])
def test_a_blank_sheet_is_a_one_page_pdf(game: str, lang: str) -> None:
    pdf = score_sheet_pdf(game, lang=lang)
    assert pdf.startswith(b"%PDF-")
    assert pdf.rstrip().endswith(b"%%EOF")
    assert page_count(pdf) == 1


@pytest.mark.parametrize("rows", [MIN_ROWS, 18, MAX_ROWS])
def test_a_sheet_has_12_to_24_lines(rows: int) -> None:
    assert page_count(score_sheet_pdf("coinche", rows=rows)) == 1


@pytest.mark.parametrize("rows", [11, 25, 0, -3, 18.5, "18", True, None])
def test_rows_outside_12_to_24_are_refused_naming_rows(rows: object) -> None:
    with pytest.raises(InputError) as error:
        score_sheet_pdf("belote", rows=rows)  # type: ignore[arg-type]
    assert error.value.field == "rows"
    assert "12 to 24" in str(error.value)


def test_more_deals_than_lines_go_on_over_more_pages() -> None:
    assert page_count(score_sheet_pdf("belote", match=longer_game(12), rows=12)) == 1
    assert page_count(score_sheet_pdf("belote", match=longer_game(13), rows=12)) == 2
    assert page_count(score_sheet_pdf("belote", match=longer_game(49), rows=12)) == 5


def test_the_points_table_is_a_pdf_in_both_languages() -> None:
    for lang in ("fr", "en"):
        pdf = points_table_pdf(lang)
        assert pdf.startswith(b"%PDF-")
        assert 1 <= page_count(pdf) <= 2


def test_the_same_sheet_gives_the_same_bytes() -> None:
    match = seed_game("belote-five-deals")
    assert score_sheet_pdf("belote", match=match) == score_sheet_pdf("belote", match=match)
    assert points_table_pdf("en") == points_table_pdf("en")


def test_bad_arguments_are_input_errors_naming_the_field() -> None:
    cases: list[tuple[dict[str, object], str]] = [
        ({"game": "tarot"}, "game"),
        ({"game": "belote", "lang": "de"}, "lang"),
        ({"game": "belote", "teams": ("Nous",)}, "teams"),
        ({"game": "belote", "teams": ("", "Eux")}, "teams.NS"),
        ({"game": "belote", "teams": ("Nous", "x" * 41)}, "teams.EW"),
        ({"game": "belote", "target": 0}, "target"),
        ({"game": "coinche", "match": seed_game("belote-five-deals")}, "game"),
    ]
    for kwargs, field in cases:
        with pytest.raises(InputError) as error:
            score_sheet_pdf(**kwargs)  # type: ignore[arg-type]
        assert error.value.field == field, kwargs
    with pytest.raises(InputError) as error:
        points_table_pdf("es")
    assert error.value.field == "lang"


def test_both_languages_have_the_same_labels() -> None:
    assert LABELS["fr"].keys() == LABELS["en"].keys()


# -- content, read back with pdftotext ---------------------------------------------------------
@needs_pdftotext
def test_a_blank_belote_sheet_names_the_teams_and_the_columns(tmp_path: Path) -> None:
    out = pdf_text(score_sheet_pdf("belote", ("Les Bleus", "Les Rouges"), lang="fr"), tmp_path)
    for word in ("Feuille de marque", "Belote classique", "Les Bleus", "Les Rouges", "Donne",
                 "Preneur", "Atout", "Marque", "Total", "Issue", "Totaux"):
        assert word in out
    assert "Contrat" not in out


@needs_pdftotext
def test_a_coinche_sheet_has_a_contract_column(tmp_path: Path) -> None:
    assert "Contrat" in pdf_text(score_sheet_pdf("coinche"), tmp_path)
    out = pdf_text(score_sheet_pdf("coinche", lang="en", target=1500), tmp_path)
    for word in ("Score sheet", "Contract", "Us", "Them", "Game to 1500", "Outcome"):
        assert word in out


@needs_pdftotext
def test_a_blank_sheet_numbers_its_lines(tmp_path: Path) -> None:
    out = pdf_text(score_sheet_pdf("belote", rows=MAX_ROWS), tmp_path)
    numbers = [int(line.split()[0]) for line in out.splitlines()
               if line.split() and line.split()[0].isdigit()]
    assert numbers == list(range(1, MAX_ROWS + 1))


@needs_pdftotext
def test_the_filled_sheet_shows_the_seed_games_totals(tmp_path: Path) -> None:
    match = seed_game("belote-five-deals")
    out = pdf_text(score_sheet_pdf("belote", match=match), tmp_path)
    lines = [line.split() for line in out.splitlines()]
    totals = next(line for line in lines if line and line[0] == "Totaux")
    assert totals == ["Totaux", "906", "124"]
    deal_lines = {line[0]: line for line in lines if line and line[0] in "12345"
                  and len(line) > 4}
    # deal, taker, trump, NS mark, NS total, EW mark, EW total, outcome
    # a deal with a belote: "réussi" over "belote" in the outcome's cell (pdftotext reads the
    # cell's first line on the line above the row's)
    assert deal_lines["1"] == ["1", "Nous", "♥", "118", "118", "64", "64", "belote"]
    assert lines[lines.index(deal_lines["1"]) - 1] == ["réussi"]
    assert deal_lines["5"][-3:] == ["capot", "·", "belote"]
    assert deal_lines["2"] == ["2", "Eux", "♥", "91", "209", "0", "64", "litige", "(91)"]
    assert deal_lines["4"][-1] == "chute"
    assert deal_lines["5"][3:7] == ["292", "906", "0", "124"]
    assert "Partie en 1000" in out
    assert "Pas encore de vainqueur" in out


@needs_pdftotext
def test_the_filled_sheet_names_the_winner(tmp_path: Path) -> None:
    match = seed_game("coinche-belote-alone-does-not-win")
    out = pdf_text(score_sheet_pdf("coinche", match=match, lang="en"), tmp_path)
    assert "Start" in out  # the game started at 990 / 500
    assert "Winner: Nous, after deal 2" in out
    assert "failed" in out and "made" in out
    assert "1,070" in out and "920" in out  # a thousand as English writes it


@needs_pdftotext
def test_the_sheet_writes_thousands_as_its_language_does(tmp_path: Path) -> None:
    match = seed_game("coinche-belote-alone-does-not-win")
    french = pdf_text(score_sheet_pdf("coinche", match=match, lang="fr"), tmp_path)
    english = pdf_text(score_sheet_pdf("coinche", match=match, lang="en"), tmp_path)
    assert re.search("1[\u202f\u00a0 ]070", french) and "1,070" not in french
    assert "1,070" in english and "1070" not in english


@needs_pdftotext
def test_a_coinche_sheet_shows_contract_and_coinche(tmp_path: Path) -> None:
    rules = Rules.preset("official", "coinche")
    match = Match(rules, teams=("Alice & Bob", "Carol & Dan")).add(
        DealSummary.from_json({"trump": "spades", "taker": "EW", "contract": 100,
                               "coinche": "coinche", "points": {"NS": 66, "EW": 96},
                               "belote": "EW", "declarations": {"EW": 20}}, rules))
    out = pdf_text(score_sheet_pdf("coinche", match=match), tmp_path)
    line = next(line.split() for line in out.splitlines() if line.split()[:1] == ["1"])
    assert line == ["1", "Carol", "&", "Dan", "♠", "100", "×2", "0", "0", "600", "600",
                    "belote"]  # under "réussi"


@needs_pdftotext
def test_a_long_game_brings_its_totals_forward(tmp_path: Path) -> None:
    match = longer_game(14)
    result = match.result()
    out = pdf_text(score_sheet_pdf("belote", match=match, rows=12), tmp_path)
    pages = out.split("\f")
    assert "Report" in pages[1]
    # The totals pass 1,000: French writes them with a narrow space between the thousands.
    carried = next(line for line in pages[1].splitlines() if "Report" in line)
    assert carried.split(None, 1)[1].split() == [
        *write_number(result.running[11][0], "fr").split("\u202f"),
        *write_number(result.running[11][1], "fr").split("\u202f")]
    final = next(line for line in pages[1].splitlines() if "Totaux" in line)
    assert result.totals == (1464, 1024)
    assert final.split() == ["Totaux", "1", "464", "1", "024"]


@needs_pdftotext
def test_the_points_table_shows_the_engine_values(tmp_path: Path) -> None:
    out = pdf_text(points_table_pdf("fr"), tmp_path)
    words = set(out.replace("/", " ").split())
    for number in ("162", "252", "20", "14", "19", "11", "10", "130", "220", "160", "250",
                   "150", "200", "50", "100", "62", "30", "38", "152"):
        assert number in words, number
    for word in ("Valet", "Tierce", "Cinquante", "Carré", "Belote-rebelote", "Dix de der",
                 "Litige", "Capot", "Coinché ×2", "Surcoinché ×4", "Arrondi"):
        assert word in out, word


@needs_pdftotext
def test_the_card_values_table_is_the_engines(tmp_path: Path) -> None:
    out = pdf_text(points_table_pdf("en"), tmp_path)
    rows = {line.split()[0]: line.split()[2:] for line in out.splitlines()
            if line.split()[:1] in (["Jack"], ["Nine"], ["Ace"], ["Ten"], ["King"], ["Queen"])}
    # columns: trump, plain, no-trump official, no-trump house, all-trump
    jack, nine, ace = 4, 2, 7
    assert rows["Jack"] == [str(v) for v in (
        card_values(0)[jack], card_values(HEARTS)[jack], card_values(NO_TRUMP, 19)[jack],
        card_values(NO_TRUMP, 11)[jack], card_values(ALL_TRUMP)[jack])]
    assert rows["Nine"][0] == "14" and rows["Ace"][2] == "19" and rows["Ace"][3] == "11"
    assert rows["Nine"][4] == str(card_values(ALL_TRUMP)[nine])
    assert rows["Ace"][0] == str(card_values(0)[ace])


@needs_pdftotext
def test_the_points_table_in_english(tmp_path: Path) -> None:
    out = pdf_text(points_table_pdf("en"), tmp_path)
    for word in ("Points table", "Card values", "No-trump", "All-trump", "Declarations",
                 "Scoring a deal", "Surcoinched ×4"):
        assert word in out, word


def test_the_points_tables_examples_are_the_seeds() -> None:
    marks = {case: score_deal(deal, rules).score for case, (deal, rules) in _examples().items()}
    assert marks["case.b.made"] == (118, 64)
    assert marks["case.b.failed"] == (212, 0)
    assert marks["case.b.litige"] == (91, 0)
    assert marks["case.b.capot"] == (292, 0)
    assert marks["case.c.made"] == (190, 70)
    assert marks["case.c.failed"] == (20, 290)
    assert marks["case.c.coinche"] == (600, 0)
    assert marks["case.c.surcoinche"] == (1000, 0)
    assert marks["case.c.capot"] == (390, 0)


def test_a_deal_in_one_line() -> None:
    deal, _ = _examples()["case.b.made"]
    assert describe("fr", deal) == "NS ♥\u00a0: NS 98 + belote, EW 64"
    deal, _ = _examples()["case.c.coinche"]
    assert describe("en", deal) == "NS 100 ♠ ×2: NS 96 + declarations 20 + belote, EW 66"


# -- the command line ---------------------------------------------------------------------------
def run(*args: str, stdin: str = "") -> subprocess.CompletedProcess[bytes]:
    return subprocess.run([sys.executable, "-m", "rebelote.cli", *args], input=stdin.encode(),
                          capture_output=True, check=False)


def test_cli_prints_a_blank_sheet(tmp_path: Path) -> None:
    out = tmp_path / "blank.pdf"
    proc = run("sheet", "--game", "coinche", "--rows", "24", "--ns", "A", "--ew", "B",
               "--lang", "en", "-o", str(out))
    assert proc.returncode == 0, proc.stderr
    assert out.read_bytes().startswith(b"%PDF-") and page_count(out.read_bytes()) == 1


@needs_pdftotext
def test_cli_fills_a_sheet_from_a_saved_game(tmp_path: Path) -> None:
    game = tmp_path / "game.json"
    game.write_text(json.dumps(seed_game("belote-five-deals").to_json()), encoding="utf-8")
    out = tmp_path / "game.pdf"
    proc = run("sheet", "--from", str(game), "--ns", "Les Bleus", "-o", str(out))
    assert proc.returncode == 0, proc.stderr
    text = pdf_text(out.read_bytes(), tmp_path)
    assert "Les Bleus" in text and "Eux" in text
    assert next(line.split() for line in text.splitlines()
                if "Totaux" in line) == ["Totaux", "906", "124"]


def test_cli_writes_the_points_table_to_standard_output() -> None:
    proc = run("points-table", "--lang", "en", "-o", "-")
    assert proc.returncode == 0
    assert proc.stdout.startswith(b"%PDF-")


@pytest.mark.parametrize(("args", "code", "message"), [
    (("sheet", "--rows", "30", "-o", "x.pdf"), 2, "rows: a sheet has 12 to 24 lines"),
    (("sheet", "--game", "tarot", "-o", "x.pdf"), 2, "game: 'tarot' is not a game"),
    (("sheet", "--from", "/no/such/game.json", "-o", "x.pdf"), 2, "cannot read"),
    (("points-table", "--lang", "de", "-o", "x.pdf"), 2, "lang: 'de'"),
])
def test_cli_errors_are_one_sentence(args: tuple[str, ...], code: int, message: str,
                                     tmp_path: Path) -> None:
    proc = subprocess.run([sys.executable, "-m", "rebelote.cli", *args], capture_output=True,
                          text=True, check=False, cwd=tmp_path)
    assert proc.returncode == code
    assert message in proc.stderr
    assert "Traceback" not in proc.stderr
    assert not (tmp_path / "x.pdf").exists()


def test_cli_names_the_field_of_a_bad_game(tmp_path: Path) -> None:
    game = tmp_path / "game.json"
    game.write_text('{"game": "belote", "deals": [{"taker": "NS", "points": {"NS": 200}}]}',
                    encoding="utf-8")
    proc = run("sheet", "--from", str(game), "-o", str(tmp_path / "x.pdf"))
    assert proc.returncode == 1
    assert b"deals[1].points.NS" in proc.stderr and b"Traceback" not in proc.stderr


def test_the_examples_in_the_docstrings_run() -> None:
    for module in (rebelote.sheets, rebelote.sheets.labels, rebelote.sheets.words,
                   rebelote.sheets.points_table, rebelote.sheets.score_sheet):
        result = doctest.testmod(module)
        assert result.failed == 0, module.__name__


@needs_pdftotext
def test_the_declarations_table_is_the_engines(tmp_path: Path) -> None:
    out = pdf_text(points_table_pdf("fr"), tmp_path)
    rows = {line.split("  ")[0].strip(): line.split()[-2:] for line in out.splitlines()
            if line.strip().startswith(("Carré", "Tierce", "Cinquante", "Cent "))}
    assert rows["Carré de valets"] == [str(CARRE_POINTS[JACK]), str(CARRE_POINTS_NO_TRUMP[JACK])]
    assert rows["Carré d’as"] == [str(CARRE_POINTS[ACE]), str(CARRE_POINTS_NO_TRUMP[ACE])]
    assert rows["Carré de neuf"] == ["150", "100"]
    assert rows["Carré de huit ou de sept"] == ["0", "0"]
    assert rows["Tierce (3 cartes qui se suivent)"] == ["20", "20"]
    assert rows["Cent (5 cartes ou plus)"] == [str(sequence_points(5))] * 2
