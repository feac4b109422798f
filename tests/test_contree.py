"""Contrée and the ways of counting (issue 11): the presets as data, one test per option value,
the rule set's text form, and the engine playing contrée.

The survey's worked example under every convention is in ``vectors/contree-conventions.jsonl``
(``test_vectors.py``); here each option is moved alone, away from the example's figures.
"""

from __future__ import annotations

import json
import random
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rebelote.actions import AUCTION
from rebelote.bots import make_bot
from rebelote.cli import app
from rebelote.deal import DealState
from rebelote.errors import InputError, RulesError
from rebelote.export import match_from_csv, match_to_csv
from rebelote.game import Game
from rebelote.jsonio import answer_score
from rebelote.match import Match
from rebelote.record import record_of, replay_record
from rebelote.rules import OPTION_CHOICES, OPTION_NAMES, PRESETS, Rules, parse_rules, round_mark
from rebelote.sheets import points_table_pdf, score_sheet_pdf
from rebelote.sheets.labels import text
from rebelote.sheets.points_table import counting_examples
from rebelote.sheets.rule_words import counting_rows, rules_name
from record_checker import check

MADE = {"trump": "hearts", "taker": "NS", "contract": 100, "points": {"NS": 110, "EW": 52},
        "belote": "NS"}
FAILED = {"trump": "hearts", "taker": "NS", "contract": 100, "points": {"NS": 70, "EW": 92},
          "belote": "NS"}


def score(deal: dict[str, Any], rules: str = "ffb", **options: Any) -> tuple[str, int, int]:
    obj: dict[str, Any] = {"game": "contree", "rules": rules, **deal}
    if options:
        obj["options"] = options
    got = answer_score(obj)
    assert "error" not in got, got
    return got["outcome"], got["score"]["NS"], got["score"]["EW"]


def field_of(obj: dict[str, Any]) -> str:
    """The field a refused summary's error names."""
    with pytest.raises(InputError) as e:
        answer_score(obj)
    return e.value.field


# -- presets -----------------------------------------------------------------------------------
def test_presets_are_rows_of_one_table() -> None:
    assert set(PRESETS["contree"]) >= {"ffb", "ffb-ludique", "cannes-2016", "annonces", "exact"}
    for game, rows in PRESETS.items():
        for name, row in rows.items():
            rules = Rules.preset(name, game)
            assert rules.game == game and rules.name == name
            assert all(getattr(rules, k) == v for k, v in row.items())
            assert set(row) <= set(OPTION_NAMES)


def test_official_and_house_keep_their_meaning() -> None:
    coinche = Rules.preset("official", "coinche")
    assert (coinche.counting, coinche.failure_base, coinche.coinche_form, coinche.surcoinche,
            coinche.belote_prenable, coinche.belote_multiplied, coinche.must_outscore,
            coinche.rounding, coinche.target) == (
        "made_plus_bid", 160, "whole", 4, False, True, True, "nearest", 1000)
    assert Rules.preset("house", "coinche").rounding == "none"
    assert Rules.preset("official", "belote").rounding == "none"


def test_contree_is_ffb_by_default_without_declarations_or_generale() -> None:
    rules = Rules.preset(None, "contree")
    assert rules.name == "ffb" and Rules.preset("official", "contree") == rules
    assert (rules.declarations, rules.generale, rules.belote_prenable, rules.must_outscore,
            rules.target) == (False, False, True, False, 2000)
    assert Rules.preset("cannes-2016", "contree").target == 2001


def test_a_preset_of_another_game_is_refused_by_name() -> None:
    with pytest.raises(RulesError, match="'house' is not a rule set of contree"):
        Rules.preset("house", "contree")
    with pytest.raises(RulesError, match="'ffb' is not a rule set of coinche"):
        Rules.preset("ffb", "coinche")
    assert field_of({"game": "contree", "rules": "house", **MADE}) == "rules"


# -- contrée's own rules -------------------------------------------------------------------------
def test_the_contract_alone_decides_success() -> None:
    # 70 + 20 belote = 90 reaches a contract of 90, though the defense has 92.
    deal = {**FAILED, "contract": 90}
    assert score(deal) == ("made", 180, 90)
    assert score(deal, must_outscore=True)[0] == "failed"
    tie = {"trump": "hearts", "taker": "NS", "contract": 80, "points": {"NS": 81, "EW": 81}}
    assert score(tie)[0] == "made"


def test_declarations_are_refused_in_contree() -> None:
    assert field_of({"game": "contree", **MADE, "declarations": {"NS": 20}}) == "declarations"
    assert score({**MADE, "declarations": {"NS": 20}}, declarations=True)[1] == 250


def test_generale_is_off_unless_the_rule_set_says_so() -> None:
    gen = {"trump": "hearts", "taker": "NS", "contract": "generale", "capot": "NS",
           "generale": True}
    assert field_of({"game": "contree", **gen}) == "contract"
    assert score(gen, generale=True)[0] == "made"


def test_belote_prenable_goes_to_the_defense_on_a_fall() -> None:
    assert score(FAILED)[1:] == (0, 280)
    assert score(FAILED, belote_prenable=False)[1:] == (20, 260)
    # The defense's own belote is its own either way.
    theirs = {**FAILED, "belote": "EW", "points": {"NS": 90, "EW": 72}}
    assert score(theirs)[1:] == (0, 280)


# -- one test per option value -------------------------------------------------------------------
def test_counting() -> None:
    assert score(MADE, counting="made_plus_bid")[1:] == (230, 50)
    assert score(MADE, counting="made")[1:] == (130, 50)
    assert score(MADE, counting="bid")[1:] == (100, 0)
    assert score(FAILED, counting="bid", failure_base=0)[1:] == (0, 100)


def test_failure_base() -> None:
    assert score(FAILED, failure_base=160, rounding="none")[2] == 280
    assert score(FAILED, failure_base=162, rounding="none")[2] == 282
    assert score(FAILED, failure_base=0, rounding="none")[2] == 120


@pytest.mark.parametrize(("form", "coinched", "surcoinched"), [
    ("whole", 540, 1060), ("contract", 380, 580), ("flat", 340, 660), ("base", 440, 760)])
def test_coinche_form(form: str, coinched: int, surcoinched: int) -> None:
    assert score({**MADE, "coinche": "coinche"}, coinche_form=form)[1] == coinched
    assert score({**MADE, "coinche": "surcoinche"}, coinche_form=form)[1] == surcoinched


def test_surcoinche() -> None:
    assert score({**MADE, "coinche": "surcoinche"}, surcoinche=4)[1] == 1060
    assert score({**MADE, "coinche": "surcoinche"}, surcoinche=3)[1] == 800


def test_belote_multiplied() -> None:
    assert score({**MADE, "coinche": "coinche"}, belote_multiplied=False)[1] == 540
    assert score({**MADE, "coinche": "coinche"}, belote_multiplied=True)[1] == 560


def test_belote_counts_for_contract() -> None:
    # 90 card points + 20 belote = 110 against 100: made only when the belote counts.
    deal = {**MADE, "points": {"NS": 90, "EW": 72}}
    assert score(deal, belote_counts_for_contract=True)[0] == "made"
    assert score(deal, belote_counts_for_contract=False)[0] == "failed"


def test_must_outscore() -> None:
    deal = {"trump": "hearts", "taker": "NS", "contract": 80, "points": {"NS": 81, "EW": 81}}
    assert score(deal, must_outscore=False)[0] == "made"
    assert score(deal, must_outscore=True)[0] == "failed"


CAPOT = {"trump": "hearts", "taker": "NS", "contract": "capot", "capot": "NS", "belote": "NS"}
CAPOT_FAILED = {"trump": "hearts", "taker": "NS", "contract": "capot",
                "points": {"NS": 150, "EW": 12}}


def test_capot_bid() -> None:
    assert score(CAPOT, capot_bid="prime")[1:] == (520, 0)
    assert score({**CAPOT, "coinche": "coinche"}, capot_bid="prime")[1:] == (1020, 0)
    assert score({**CAPOT, "coinche": "surcoinche"}, capot_bid="prime")[1:] == (2020, 0)
    # A 250 contract: 252 + belote 20 + 250 = 522 -> 520.
    assert score(CAPOT, capot_bid="contract")[1:] == (520, 0)
    assert score(CAPOT, capot_bid="contract", rounding="none")[1:] == (522, 0)


def test_capot_value() -> None:
    assert score(CAPOT, capot_bid="contract", capot_value=250, rounding="none")[1] == 522
    assert score(CAPOT, capot_bid="contract", capot_value=270, rounding="none")[1] == 542


def test_capot_unbid() -> None:
    deal = {**MADE, "capot": "NS", "points": {"NS": 252, "EW": 0}}
    assert score(deal, capot_unbid=252, rounding="none")[1] == 252 + 20 + 100
    assert score(deal, capot_unbid=250, rounding="none")[1] == 250 + 20 + 100


def test_capot_failed() -> None:
    assert score(CAPOT_FAILED, capot_failed="prime")[1:] == (0, 500)
    assert score(CAPOT_FAILED, capot_bid="contract", capot_failed="formula")[1:] == (0, 410)
    assert score({**CAPOT_FAILED, "coinche": "coinche"}, capot_failed="prime")[2] == 1000


def test_rounding() -> None:
    deal = {"trump": "hearts", "taker": "NS", "contract": 80, "points": {"NS": 85, "EW": 77}}
    assert score(deal, rounding="nearest")[1:] == (170, 80)
    assert score(deal, rounding="six_up")[1:] == (160, 80)
    assert score(deal, rounding="none")[1:] == (165, 77)
    assert [round_mark(x, "six_up") for x in (84, 85, 86, -85)] == [80, 80, 90, -80]
    assert [round_mark(x, "nearest") for x in (84, 85, 86)] == [80, 90, 90]


def test_rounding_scope() -> None:
    # 162 + 3C: the whole mark 462 -> 460; the points first: 160 + 300 = 460. Under the
    # whole form the two differ: (162 + 100) × 3 = 786 -> 790, (160 + 100) × 3 = 780.
    deal = {**MADE, "belote": None, "coinche": "surcoinche"}
    opts = {"failure_base": 162, "surcoinche": 3}
    assert score(deal, rounding_scope="mark", **opts)[1] == 790
    assert score(deal, rounding_scope="points", **opts)[1] == 780


def _game(rules: str, start: tuple[int, int], deals: list[dict[str, Any]],
          **options: Any) -> dict[str, Any]:
    obj: dict[str, Any] = {"game": "contree", "rules": rules,
                           "start": {"NS": start[0], "EW": start[1]}, "deals": deals}
    if options:
        obj["options"] = options
    return Match.from_json(obj).result().to_json()


def test_last_deal_exact() -> None:
    exact = _game("ffb", (1800, 0), [MADE], last_deal_exact=True)
    assert exact["deals"][0]["score"] == {"NS": 230, "EW": 52}
    rounded = _game("ffb", (1800, 0), [MADE], last_deal_exact=False)
    assert rounded["deals"][0]["score"] == {"NS": 230, "EW": 50}
    # Not the last deal: rounded either way.
    assert _game("ffb", (0, 0), [MADE], last_deal_exact=True)["deals"][0]["score"] == {
        "NS": 230, "EW": 50}


def test_last_deal_exact_keeps_rounding_from_winning_the_game() -> None:
    # The defense of 1950 marks 52 exactly (2002 > 2000) or 50 rounded (2000): under
    # "exceed" only the exact count would end the game; the deal is counted exactly.
    r = _game("ffb", (0, 1950), [MADE], last_deal_exact=True, target_rule="exceed")
    assert r["deals"][0]["score"] == {"NS": 230, "EW": 52} and r["winner"] == "EW"
    # A defense that would win only by rounding up does not.
    deal = {**MADE, "points": {"NS": 106, "EW": 56}}
    r = _game("ffb", (0, 1941), [deal], last_deal_exact=True)
    assert r["deals"][0]["score"]["EW"] == 56 and r["winner"] is None
    assert _game("ffb", (0, 1941), [deal])["winner"] == "EW"


def test_target_rule() -> None:
    assert _game("ffb", (1770, 0), [MADE], target_rule="reach")["winner"] == "NS"
    assert _game("ffb", (1770, 0), [MADE], target_rule="exceed")["winner"] is None
    assert _game("ffb", (1771, 0), [MADE], target_rule="exceed")["winner"] == "NS"


def test_every_option_value_is_accepted_and_a_wrong_one_named() -> None:
    for key, values in OPTION_CHOICES.items():
        if key == "game":
            continue
        for value in values:
            assert getattr(Rules.preset("ffb", "contree").replace(**{key: value}), key) == value
    with pytest.raises(InputError) as e:
        answer_score({"game": "contree", **MADE, "options": {"coinche_form": "double"}})
    assert e.value.field == "options.coinche_form"
    assert "whole, contract, flat, base" in e.value.reason


# -- the text form -------------------------------------------------------------------------------
def test_the_text_form_names_the_preset_and_the_changed_options() -> None:
    assert Rules.preset("ffb", "contree").to_text() == "contree:ffb"
    rules = Rules.preset("cannes-2016", "contree").replace(surcoinche=4, belote_prenable=False)
    assert rules.to_text() == "contree:cannes-2016,surcoinche=4,belote_prenable=off"
    assert parse_rules(rules.to_text()) == rules
    assert parse_rules("coinche:house") == Rules.preset("house", "coinche")
    assert parse_rules("contree:") == Rules.preset("ffb", "contree")


OPTION_VALUES = st.fixed_dictionaries({}, optional={
    **{k: st.sampled_from(v) for k, v in OPTION_CHOICES.items() if k != "game"},
    **{k: st.booleans() for k in ("declarations", "generale", "belote_prenable",
                                  "belote_multiplied", "must_outscore", "last_deal_exact",
                                  "overtrump_partner", "belote_alone_wins")},
    "target": st.integers(1, 5000),
})


@settings(max_examples=200, deadline=None)
@given(game=st.sampled_from(sorted(PRESETS)), data=st.data(), options=OPTION_VALUES)
def test_the_text_form_round_trips(game: str, data: st.DataObject,
                                   options: dict[str, Any]) -> None:
    name = data.draw(st.sampled_from(sorted(PRESETS[game])))
    rules = Rules.preset(name, game).replace(**options)
    assert parse_rules(rules.to_text()) == rules


@pytest.mark.parametrize(("text", "field"), [
    ("", "rules"), ("tarot:ffb", "game"), ("contree:house", "rules"),
    ("contree:ffb,rounding", "options.rounding"), ("contree:ffb,speed=3", "options.speed"),
    ("contree:ffb,target=many", "options.target"), ("contree:ffb,belote_prenable=maybe",
                                                    "options.belote_prenable"),
    ("contree:ffb,surcoinche=5", "options.surcoinche"),
])
def test_a_bad_text_form_names_the_field(text: str, field: str) -> None:
    with pytest.raises(RulesError) as e:
        parse_rules(text)
    # the error's field itself, not only its text: the edges answer with e.field
    assert e.value.field == field and str(e.value) == f"{field}: {e.value.reason}"


def test_a_summary_may_name_its_rules_by_text() -> None:
    got = answer_score({"rules": "contree:ffb,coinche_form=contract", **MADE,
                        "coinche": "coinche"})
    assert got["score"] == {"NS": 380, "EW": 0}
    assert field_of({"game": "coinche", "rules": "contree:ffb", **MADE}) == "rules"


def test_a_game_keeps_its_rule_set_through_json() -> None:
    obj = {"game": "contree", "rules": "cannes-2016", "options": {"surcoinche": 4},
           "deals": [MADE, {**MADE, "coinche": "surcoinche"}]}
    match = Match.from_json(obj)
    again = Match.from_json(json.loads(json.dumps(match.to_json())))
    assert again == match
    assert again.target == 2001 and again.rules.surcoinche == 4


def test_contree_summaries_refuse_a_litige_reserve() -> None:
    with pytest.raises(InputError, match="contree has no litige"):
        Match.from_json({"game": "contree", "deals": [{**MADE, "held_over": 20}]})


# -- the engine --------------------------------------------------------------------------------
BOT = make_bot("random")


@pytest.mark.parametrize("name", ["ffb", "ffb-ludique", "cannes-2016", "annonces", "exact"])
def test_bots_play_a_contree_game_to_its_target(name: str) -> None:
    rules = Rules.preset(name, "contree")
    g = Game.new(rules, seed=5, target=701)
    rng = random.Random(5)
    while not g.is_terminal:
        g = g.apply(BOT.act(g.observation(g.current_player), rng))
    result = g.result()
    assert g.winner is not None and max(result.totals) >= 701
    for state in g.finished:
        assert state.rules.game == "contree"
        assert all(d is None or d == () for d in state.declared)
        rec = record_of(state)
        assert record_of(replay_record(json.loads(json.dumps(rec)))) == rec


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 10**6))
def test_a_contree_auction_offers_contracts_but_no_generale(seed: int) -> None:
    state = DealState.new(Rules.preset("ffb", "contree"), 0, rng=random.Random(seed))
    assert state.phase == AUCTION
    words = {str(a) for a in state.legal_actions()}
    assert any("80" in w for w in words) and any("capot" in w for w in words)
    assert not any("generale" in w for w in words)


@pytest.mark.parametrize("rules", [*PRESETS["contree"], "contree:ffb,generale=on,coinche_form=base,"
                                   "belote_multiplied=on,rounding_scope=points"])
def test_bots_bid_play_and_score_contree_as_the_independent_checker_reads_it(rules: str) -> None:
    """Deals the bots play under each contrée rule set (no declarations, contracts, coinches,
    the belote prenable): every bid, card and score held to ``tests/record_checker.py``."""
    from typer.testing import CliRunner

    records = []
    for bots in ("heuristic", "random"):
        res = CliRunner().invoke(app, ["deal", "--game", "contree", "--rules", rules, "--bots",
                                       bots, "--count", "60", "--seed", "11"])
        assert res.exit_code == 0, res.output
        records += [json.loads(line) for line in res.output.splitlines()]
    assert len(records) == 120
    for rec in records:
        assert rec["game"] == "contree" and not rec["declarations"]
        assert check(rec) == rec["result"], rec
    outcomes = {rec["result"]["outcome"] for rec in records}
    assert {"made", "failed"} <= outcomes
    assert any(bid[1] in ("coinche", "surcoinche") for rec in records for bid in rec["auction"])


def test_the_cli_deals_contree_with_a_text_form() -> None:
    from typer.testing import CliRunner

    res = CliRunner().invoke(app, ["deal", "--rules", "contree:annonces,target=500",
                                   "--count", "2", "--seed", "3"])
    assert res.exit_code == 0, res.output
    records = [json.loads(line) for line in res.output.splitlines()]
    assert [r["game"] for r in records] == ["contree", "contree"]
    assert records[0]["rules"] == "annonces"


# -- the sheets --------------------------------------------------------------------------------
needs_pdftotext = pytest.mark.skipif(shutil.which("pdftotext") is None,
                                     reason="pdftotext is missing (Debian's poppler-utils)")


def pdf_text(pdf: bytes, tmp_path: Path) -> str:
    path = tmp_path / "sheet.pdf"
    path.write_bytes(pdf)
    out = subprocess.run(["pdftotext", "-layout", str(path), "-"], capture_output=True,
                         check=True, text=True)
    return out.stdout


def test_the_worked_example_of_the_points_table_is_scored_under_the_rules() -> None:
    assert counting_examples(Rules.preset("ffb", "contree")) == [
        ("table.counting.made", 230, 50), ("table.counting.coinched", 540, 0),
        ("table.counting.surcoinched", 1060, 0), ("table.counting.failed", 0, 280),
        ("table.counting.failed_coinched", 0, 540)]
    assert [row[1:] for row in counting_examples(Rules.preset("cannes-2016", "contree"))] == [
        (230, 50), (380, 0), (480, 0), (0, 280), (0, 380)]


def test_a_rule_set_is_named_with_what_it_changes() -> None:
    assert rules_name("fr", Rules.preset("ffb-ludique", "contree")) == \
        "FFB «\u00a0Équipe Ludique\u00a0»"
    changed = Rules.preset("ffb", "contree").replace(rounding="six_up", belote_prenable=False)
    assert rules_name("en", changed) == (
        "FFB (2016 table), changed: Rounding: to the ten, 6 up (85 → 80, 86 → 90), "
        "Belote prenable (to the defense on a fall): no")
    rows = dict(counting_rows("fr", Rules.preset("annonces", "contree")))
    assert rows["Comptage"] == "points annoncés seuls"
    assert rows["Capot demandé"] == "un contrat (250)"


@needs_pdftotext
@pytest.mark.parametrize("lang", ["fr", "en"])
def test_the_points_table_of_a_contree_rule_set(lang: str, tmp_path: Path) -> None:
    def words(lang: str, key: str, **args: object) -> str:  # pdftotext reads a no-break space
        return text(lang, key, **args).replace("\u00a0", " ")  # as a space

    rules = Rules.preset("cannes-2016", "contree")
    got = pdf_text(points_table_pdf(lang, rules), tmp_path)
    assert rules_name(lang, rules) in got
    for figure in ("230", "380", "480", "280"):
        assert figure in got
    assert words(lang, "opt.rounding.six_up") in got
    plain = pdf_text(points_table_pdf(lang), tmp_path)
    assert rules_name(lang, rules) not in plain
    # built from the rule set: its counting first, its belote without declarations, none of
    # the other games' cases
    preset = words(lang, "rules.cannes-2016")
    counting = words(lang, "table.counting", rules=preset)
    assert got.index(counting) < got.index(
        words(lang, "table.cards"))
    assert words(lang, "decl.prenable") in got.replace("\n", " ")
    assert words(lang, "decl.tierce") not in got and words(lang, "decl.tierce") in plain
    assert words(lang, "table.cases") not in got and words(lang, "table.cases") in plain
    taken = pdf_text(points_table_pdf(lang, rules.replace(belote_prenable=False)), tmp_path)
    assert words(lang, "decl.imprenable") in taken.replace("\n", " ")
    # a coinche rule set keeps its declarations and cases, and adds its counting
    coinche = pdf_text(points_table_pdf(lang, Rules.preset("house", "coinche")), tmp_path)
    assert words(lang, "decl.tierce") in coinche and words(lang, "table.cases") in coinche
    assert words(lang, "table.counting", rules=words(lang, "rules.house")) in coinche


@needs_pdftotext
def test_a_contree_score_sheet_names_its_preset_and_shows_the_marks(tmp_path: Path) -> None:
    match = Match.from_json({"game": "contree", "rules": "cannes-2016",
                             "options": {"surcoinche": 4}, "teams": {"NS": "Alix",
                                                                     "EW": "Baptiste"},
                             "deals": [MADE, {**MADE, "coinche": "surcoinche"}, FAILED]})
    got = pdf_text(score_sheet_pdf("contree", match=match), tmp_path)
    assert "Belote contrée" in got and "Championnat de France, Cannes 2016" in got
    assert "Surcoinche : × 4" in got  # pdftotext reads the no-break space as a space
    assert "100 ×4" in got and "Contrat" in got
    assert "230" in got and "580" in got and "280" in got


def test_a_contree_game_round_trips_through_csv_and_reads_french_names() -> None:
    match = Match.from_json({"game": "contree", "rules": "cannes-2016",
                             "options": {"surcoinche": 4},
                             "deals": [{**MADE, "coinche": "surcoinche"}, FAILED]})
    for lang in ("fr", "en"):
        assert match_from_csv(match_to_csv(match, lang=lang)) == match
    typed = ('Partie,Belote contrée\nRègles,"Championnat de France, Cannes 2016"\n'
             "Donne,Preneur,Atout,Contrat,Coinche,Points NS,Points EW\n1,NS,coeur,100,,110,52\n")
    got = match_from_csv(typed)
    assert (got.rules.game, got.rules.name, got.result().totals) == (
        "contree", "cannes-2016", (210, 50))


@needs_pdftotext
def test_the_points_table_command_takes_a_rule_set(tmp_path: Path) -> None:
    from typer.testing import CliRunner

    out = tmp_path / "points.pdf"
    res = CliRunner().invoke(app, ["points-table", "-o", str(out), "--rules",
                                   "contree:ffb-ludique,rounding=none"])
    assert res.exit_code == 0, res.output
    got = pdf_text(out.read_bytes(), tmp_path)
    assert "FFB, édition «\u00a0Équipe Ludique\u00a0»" in got or "Équipe Ludique" in got
    assert "Arrondi" in got and "au point près" in got
    for figure in ("230", "52", "380", "480", "280"):  # exact marks: the defense's 52 kept
        assert figure in got
    bad = CliRunner().invoke(app, ["points-table", "-o", str(out), "--rules", "contree:nope"])
    assert bad.exit_code == 2 and "rules: 'nope' is not a rule set of contree" in bad.output
