"""Result-card lines as a typed contract: every :class:`LineKey` and :class:`MarkCase` of the
core has a sentence, translated in every language, and the French page never shows the core's
English sentence (nor ``NS``/``EW``) for any deal of any rule set."""

from __future__ import annotations

import itertools
from typing import Any

import pytest

from rebelote.rules import GAMES, PRESETS, Rules
from rebelote.scoring import LineKey, MarkCase, score_deal
from rebelote.summary import DealSummary
from rebelote.web import i18n


def test_every_line_key_and_mark_case_has_a_sentence_in_every_language() -> None:
    assert set(i18n.LINES) == set(LineKey)
    assert set(i18n.MARKS) == set(MarkCase)
    sentences = [*i18n.LINES.values(), *i18n.MARKS.values(), i18n.HELD_OVER_TO_TEAM,
                 *i18n.CONTRACT_RESULTS, i18n.MADE_WITH_CONTRACT, i18n.CAPOT_WITH_CONTRACT,
                 i18n.FAILED_WITH_CONTRACT, i18n.FAILED_MULTIPLIED, i18n.UNEVEN,
                 i18n.GENERALE_WITH_CONTRACT]
    for lang in i18n.LANGS:
        for sentence in sentences:
            text = i18n.gettext(lang, sentence)
            assert text, (lang, sentence)
            if lang == "fr":
                assert text != sentence, f"no French for {sentence!r}"


def _deals(game: str) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    auction = game != "belote"
    for taker, coinche, capot, contract in itertools.product(
            ("NS", "EW"), ("none", "coinche", "surcoinche") if auction else ("none",),
            (None, "taker", "defense"),
            (80, 120, 160, "capot", "generale") if auction else (None,)):
        deal: dict[str, Any] = {"taker": taker, "trump": "hearts", "belote": taker,
                                "declarations": {"NS": 20, "EW": 50}}
        defense = "EW" if taker == "NS" else "NS"
        if auction:
            deal["contract"] = contract
            deal["coinche"] = coinche
        if capot == "taker":
            deal["capot"] = taker
            deal["points"] = {defense: 0}
            if contract == "generale":
                deal["generale"] = True
        elif capot == "defense":
            deal["capot"] = defense
            deal["points"] = {taker: 0}
        else:
            deal["points"] = {taker: 81}
        out.append(deal)
        out.append({**deal, "points": {taker: 130}} if capot is None else deal)
    out.append({"void": True})
    out.append({"adjust": {"NS": -20}})
    return out


@pytest.mark.parametrize(("game", "preset"), [(g, p) for g in GAMES for p in PRESETS[g]])
def test_the_french_page_has_a_french_line_for_every_deal(game: str, preset: str) -> None:
    rules = Rules.preset(preset, game)
    seen: set[str] = set()
    for obj in _deals(game):
        try:
            summary = DealSummary.from_json({**obj, "game": game}, rules)
        except ValueError:
            continue  # a deal these rules refuse (a générale where there is none...)
        for line in score_deal(summary, rules).lines:
            text = i18n.line_text(line, "fr", summary, ("Nous", "Eux"))
            assert text != line.text or not line.text, (preset, line)
            assert " NS" not in text and " EW" not in text, text
            assert "%(" not in text, text
            seen.add(str(dict(line.args).get("case", line.key)))
    assert seen


def test_a_coinched_deal_shows_its_sum() -> None:
    rules = Rules.preset("official", "coinche")
    deal = DealSummary.from_json({"game": "coinche", "taker": "NS", "contract": 110,
                                  "coinche": "coinche", "trump": "hearts",
                                  "points": {"NS": 120}, "declarations": {"NS": 20}}, rules)
    lines = [i18n.line_text(line, "fr", deal, ("Nous", "Eux"))
             for line in score_deal(deal, rules).lines]
    assert any("(160 + annonces 20 + contrat 110) × 2 = 580" in text for text in lines), lines


def test_capot_and_generale_cards_name_the_contract() -> None:
    rules = Rules.preset("official", "coinche")
    for contract, value in (("capot", "250"), ("generale", "500")):
        obj = {"game": "coinche", "taker": "EW", "contract": contract, "trump": "hearts",
               "capot": "EW", "points": {"NS": 0}}
        if contract == "generale":
            obj["generale"] = True
        deal = DealSummary.from_json(obj, rules)
        text = " ".join(i18n.line_text(line, "fr", deal, ("Nous", "Eux"))
                        for line in score_deal(deal, rules).lines)
        assert value in text and ("générale" if contract == "generale" else "capot") in text


def test_a_made_belote_contract_names_each_team_with_its_mark() -> None:
    # the result card's columns are the teams' (NS | EW): when EW took, the sentence must not
    # read as if the first mark were the first column's
    rules = Rules.preset("official", "belote")
    deal = DealSummary.from_json({"game": "belote", "taker": "EW", "trump": "hearts",
                                  "points": {"EW": 96}}, rules)
    lines = [i18n.line_text(line, lang, deal, ("Les Bleus", "Les Rouges"))
             for lang in ("fr", "en") for line in score_deal(deal, rules).lines]
    assert "Réussi\u00a0: chaque équipe marque son total (Les Rouges 96, Les Bleus 66)." \
        in lines, lines
    assert "Made: each team marks its total (Les Rouges 96, Les Bleus 66)." in lines, lines


def test_a_160_made_alone_is_a_capot_of_the_160_not_a_generale() -> None:
    # partner bid 160 no-trump and took all eight tricks alone: the deal's générale flag is set
    # (every trick by one player), but the contract was 160, not a générale
    rules = Rules.preset("official", "coinche")
    deal = DealSummary.from_json({"game": "coinche", "taker": "NS", "contract": 160,
                                  "trump": "no-trump", "capot": "NS", "generale": True,
                                  "points": {"EW": 0}, "declarations": {"NS": 200}}, rules)
    assert deal.generale
    for lang, words in (("fr", ("générale", "contrat 160 =")),
                        ("en", ("générale", "contract 160 ="))):
        text = " ".join(i18n.line_text(line, lang, deal, ("Nous", "Eux"))
                        for line in score_deal(deal, rules).lines)
        assert words[0] not in text, text
        assert words[1] in text and "  " not in text, text
