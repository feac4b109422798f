"""French as a French player writes it, checked over every catalog message and over the
sentences the pages build: a non-breaking space before ``: ; ! ?`` and inside « », a plural
form wherever a count meets a noun, and sentences that agree with any team's name."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from babel.messages.pofile import read_po

from rebelote import catalogs
from rebelote.rules import Rules
from rebelote.scoring import LineKey, MarkCase, score_deal
from rebelote.sheets.concours import ntr
from rebelote.summary import DealSummary
from rebelote.web import i18n
from rebelote.web.app import create_app
from web_fixtures import keyed_client

LOCALE = Path(__file__).resolve().parent.parent / "src" / "rebelote" / "locale"
CATALOGS = sorted((LOCALE / "fr" / "LC_MESSAGES").glob("*.po"))
NBSP = "\u00a0"  # the catalogs' one space before : ; ! ? and inside « » (U+202F is Babel's
# thousands separator, never this)


def _messages() -> list[tuple[str, Any]]:
    out = []
    for path in CATALOGS:
        with path.open("rb") as f:
            out += [(path.name, m) for m in read_po(f, locale="fr") if m.id]
    return out


MESSAGES = _messages()


def _forms(value: Any) -> list[str]:
    return [str(v) for v in value] if isinstance(value, (list, tuple)) else [str(value)]


def typography_faults(text: str) -> list[str]:
    """What ``text`` gets wrong of French typography (empty when it is right).

    >>> typography_faults("Contrat 90 : réussi ; « belote » ?")
    ['space before :', 'space before ;', 'space before ?', '« then a space', 'space then »']
    >>> typography_faults("Contrat 90\\u00a0: réussi. https://x.org/a?b 12:30 ×2")
    []
    """
    faults = []
    # a : ; ! ? that ends a clause (a space, the end, a closing mark after it): not a URL's
    # "https:", a query's "?", a time's "12:30"
    for found in re.finditer(r"(.)?([:;!?])(?=$|[\s\"»)\]}])", text):
        if found.group(1) != NBSP and not (found.group(1) or "").startswith(tuple("?!")):
            faults.append(f"space before {found.group(2)}")
    faults += ["« then a space" for i, c in enumerate(text)
               if c == "«" and text[i + 1:i + 2] != NBSP]
    faults += ["space then »" for i, c in enumerate(text) if c == "»" and text[i - 1:i] != NBSP]
    return faults


@pytest.mark.parametrize("path", CATALOGS, ids=lambda p: p.name)
def test_every_french_message_has_its_no_break_spaces(path: Path) -> None:
    with path.open("rb") as f:
        catalog = read_po(f, locale="fr")
    wrong = [(m.id, form, typography_faults(form)) for m in catalog if m.id
             for form in _forms(m.string) if typography_faults(form)]
    assert len(catalog) > 50  # the catalog was read (the smallest, the problems', has 73)
    assert wrong == []


#: The nouns a count is of, in the catalogs' English: "%(n)s deals", "%(done)s of %(n)s tables".
COUNTED = ("deals", "deal", "tables", "table", "parties", "partie", "points", "point",
           "teams", "team", "games", "game", "players", "player", "tricks", "trick", "won")
_COUNT = re.compile(r"(%\((\w+)\)s|\{(\w+)\})(?: of (?:%\(\w+\)s|\{\w+\}))? (" +
                    "|".join(COUNTED) + r")\b")
#: Counts that are a rule's constant, never 0 or 1 (the points of a deal, 130 to 162; a
#: correction's bound, 5,000): their noun is always plural.
CONSTANT_COUNTS: frozenset[str] = frozenset({
    "%(field)s: %(v)s is more than the %(n)s points of a deal.",
    "%(field)s: %(a)s + %(b)s = %(v)s, but a deal has %(n)s points.",
    "%(field)s: %(v)s is more than a correction can mark (±%(n)s points).",
    # the points a litige holds over are half a deal's, 81 at least
    "Litige on the last deal: its %(points)s points go to %(team)s, the team that did not "
    "take (the concours's rule).",
    "Litige on the last deal: its %(points)s points go to nobody (the concours's rule).",
})


#: Placeholders that name someone ("%(team)s won all eight tricks", "%(who)s deals"): no count.
NAMES = frozenset({"team", "teams", "who", "taker", "defense", "name", "ns", "ew", "card",
                   "bid", "field", "turn", "a", "b"})


def counts(message: str) -> list[str]:
    """The placeholders of ``message`` (English) that count a noun.

    >>> counts("The partie is over: %(n)s deals played."), counts("Deal %(n)s")
    (['n'], [])
    >>> counts("%(done)s of %(n)s tables done"), counts("Game to {target} points")
    (['done'], ['target'])
    """
    return [name for m in _COUNT.finditer(message)
            if (name := m.group(2) or m.group(3)) not in NAMES]


def test_every_count_that_meets_a_noun_is_a_plural_form() -> None:
    singular = [(name, m.id) for name, m in MESSAGES
                if isinstance(m.id, str) and counts(m.id) and m.id not in CONSTANT_COUNTS]
    assert singular == []
    plural = [m for _, m in MESSAGES if not isinstance(m.id, str)]
    assert len(plural) >= 10
    assert [m.id for m in plural if not all(_forms(m.string))] == []  # every form filled


@pytest.mark.parametrize(("n", "said"), [(0, "0 donne"), (1, "1 donne"), (2, "2 donnes"),
                                         (12, "12 donnes")])
def test_a_count_takes_french_s_singular_at_0_and_1(n: int, said: str) -> None:
    assert catalogs.ngettext("fr", "%(n)s deal", "%(n)s deals", n) % {"n": n} == said
    assert catalogs.ngettext("en", "%(n)s deal", "%(n)s deals", n) % {"n": n} == \
        f"{n} deal{'s' if n != 1 else ''}"


def test_the_sentences_the_walk_found_singular() -> None:
    # "1 donnes jouées", "1 tables sur 2", "après 1 parties sur 4" (issue 33, item 10)
    over = catalogs.ngettext("fr", "The partie is over: %(n)s deal played.",
                             "The partie is over: %(n)s deals played.", 1) % {"n": 1}
    assert over == f"La partie est terminée{NBSP}: 1 donne jouée."
    done = ntr("fr", "%(done)s of %(n)s tables has its result.",
               "%(done)s of %(n)s tables have their result.", 1) % {"done": 1, "n": 2}
    assert done == "1 table sur 2 a son résultat."
    after = ntr("fr", "after %(k)s of %(n)s parties", "after %(k)s of %(n)s parties", 1)
    assert after % {"k": 1, "n": 4} == "après 1 partie sur 4"
    assert ntr("fr", "%(n)s partie", "%(n)s parties", 3) % {"n": 3} == "3 parties"
    assert ntr("en", "%(n)s partie", "%(n)s parties", 1) % {"n": 1} == "1 partie"


# -- sentences with the teams' names ----------------------------------------------------------
BELOTE = Rules.preset("official", "belote")
COINCHE = Rules.preset("official", "coinche")
DEALS: list[tuple[Rules, dict[str, Any]]] = [
    (BELOTE, {"taker": "NS", "points": {"NS": 98}, "belote": "NS"}),
    (BELOTE, {"taker": "EW", "points": {"EW": 60}, "declarations": {"EW": 20}}),
    (BELOTE, {"taker": "NS", "points": {"NS": 81}}),
    (BELOTE, {"taker": "EW", "points": {"EW": 100}, "held_over": 81}),
    (BELOTE, {"taker": "NS", "points": {"NS": 252}, "capot": "NS", "belote": "EW"}),
    (BELOTE.replace(litige="defense"), {"taker": "NS", "points": {"NS": 81}}),
    (BELOTE, {"void": True, "held_over": 81}),
    (BELOTE, {"adjust": {"NS": 20}}),
    (COINCHE, {"taker": "NS", "contract": 90, "points": {"NS": 97}}),
    (COINCHE, {"taker": "EW", "contract": 100, "coinche": "coinche", "points": {"EW": 120},
               "belote": "EW"}),
    (COINCHE, {"taker": "NS", "contract": 120, "coinche": "coinche", "points": {"NS": 97},
               "belote": "EW", "declarations": {"NS": 20}}),
    (COINCHE, {"taker": "NS", "contract": 120, "points": {"NS": 97}, "belote": "EW"}),
    (COINCHE, {"taker": "NS", "contract": "capot", "points": {"NS": 252}, "capot": "NS"}),
    (COINCHE, {"taker": "NS", "contract": "capot", "coinche": "coinche", "points": {"NS": 252},
               "capot": "NS"}),
    (COINCHE, {"taker": "NS", "contract": "generale", "points": {"NS": 252},
               "capot": "NS", "generale": True}),
    (Rules.preset("annonces", "contree"), {"taker": "EW", "contract": 100, "points": {"EW": 120}}),
    (Rules.preset("annonces", "contree"), {"taker": "EW", "contract": 100, "points": {"EW": 50}}),
]
TEAM_NAMES = [("Nous", "Eux"), ("Les As", "Eux"), ("Nous", "Les As"), ("Les As", "Les Rois")]
#: A team's name right before a verb of the result card's sentences: "Nous marque", "Eux a
#: montré", "Les As garde".
VERBS = r"(marque|marquent|a |ont |garde|gardent|gagne|prend|dedans|capot|fait)"


def _cards() -> list[tuple[DealSummary, Any]]:
    out = []
    for rules, obj in DEALS:
        summary = DealSummary.from_json(obj, rules)
        out.append((summary, score_deal(summary, rules)))
    return out


CARDS = _cards()


def test_the_deals_cover_every_kind_of_line() -> None:
    keys = {line.key for _, score in CARDS for line in score.lines}
    cases = {MarkCase(str(dict(line.args)["case"])) for _, score in CARDS
             for line in score.lines if line.key == LineKey.MARK}
    assert keys >= set(LineKey) - {LineKey.SCORE, LineKey.LAST_DEAL_EXACT}
    assert cases >= set(MarkCase) - {MarkCase.CAPOT_PRIME}


@pytest.mark.parametrize("teams", TEAM_NAMES, ids="/".join)
@pytest.mark.parametrize("lang", ["fr", "en"])
def test_result_card_sentences_agree_with_any_team_name(teams: tuple[str, str],
                                                        lang: str) -> None:
    said = i18n.said_teams(teams, lang)
    for summary, score in CARDS:
        for line in score.lines:
            text = i18n.sentence(i18n.line_text(line, lang, summary, said))
            assert "%(" not in text
            for name in teams:
                # a name is never the subject or object of a sentence as it is: "Nous
                # marque", "va à Les As"; it is said as "notre équipe" or "l’équipe « Les As »"
                assert not re.search(rf"(^|[\s(]){re.escape(name)} {VERBS}", text), text
                assert not re.search(rf"\b(de|à|par) {re.escape(name)}\b", text), text
                if lang == "fr" and name in text:
                    assert f"«{NBSP}{name}{NBSP}»" in text, text
            if lang == "fr":
                assert typography_faults(text) == [], text


def test_a_coinched_belote_reads_as_twenty_doubled() -> None:
    # "(160 + annonces 0 + contrat 100) × 2 + belote 40 = 560" read as a belote worth 40
    summary, score = CARDS[9]
    said = i18n.said_teams(("Nous", "Eux"), "fr")
    texts = [i18n.line_text(line, "fr", summary, said) for line in score.lines]
    mark = next(t for t in texts if "coinché" in t)
    assert "× 2 + belote 20 × 2 = 560" in mark, mark
    assert "belote 40" not in mark


@pytest.fixture
def client(tmp_path: Path) -> Iterator[Any]:
    with keyed_client(create_app(f"sqlite:///{tmp_path / 'french.sqlite3'}")) as c:
        yield c


def test_the_counter_says_the_winner_and_the_rules_line_whatever_the_names(
        client: Any) -> None:
    r = client.post("/games", data={"game": "belote", "rules": "official", "target": "301",
                                    "team_NS": "Les As", "team_EW": "Eux"},
                    follow_redirects=True)
    gid = re.search(r'data-game="([0-9a-f]+)"', r.text)
    assert gid, r.text[:300]
    page = ""
    for _ in range(2):
        page = client.post(f"/games/{gid.group(1)}/deals", headers={"HX-Request": "true"},
                           data={"trump": "hearts", "taker": "NS", "capot": "taker"}).text
    assert f"Victoire{NBSP}: Les As" in page
    assert "Les As gagne" not in page
    meta = re.search(r'<p class="board-meta">(.*?)</p>', page, re.S)
    assert meta
    words = re.sub(r"<[^>]+>", "", meta.group(1))
    assert re.search(r"règles officielles · en 301", " ".join(words.split())), words
