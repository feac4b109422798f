"""The play table, core side: whole games through :class:`Table`, moves refused, views that
hide what they must, records verified and tampered records refused."""

from __future__ import annotations

import doctest
import json
import random
import subprocess
import sys

import pytest

import rebelote.table.model
import rebelote.table.shuffle
import rebelote.table.view
import rebelote.web.table.words
from rebelote.actions import PLAY
from rebelote.bots import make_bot
from rebelote.cards import SEATS
from rebelote.errors import IllegalActionError, InputError
from rebelote.rules import Rules
from rebelote.table import (
    NotYourTurnError,
    Seat,
    Table,
    commitment,
    table_view,
    verify_record,
)
from table_helpers import cards_in, cards_in_html, counting_entropy, leaks


@pytest.mark.parametrize("module", [rebelote.table.model, rebelote.table.shuffle,
                                    rebelote.table.view, rebelote.web.table.words])
def test_doctests(module: object) -> None:
    assert doctest.testmod(module).failed == 0  # type: ignore[arg-type]


def play_game(game: str, rules: str = "official", target: int = 501, seed: int = 0,
              check_views: bool = False) -> Table:
    entropy = counting_entropy(seed * 1000)
    table = Table.new(Rules.preset(rules, game), target=target,
                      seats=[Seat.bot_seat("random")] * 4, entropy=entropy)
    bot = make_bot("random")
    rng = random.Random(seed)
    held: list[set[str]] = [set(), set(), set(), set()]
    deal = 0
    while not table.is_over:
        if check_views:
            if table.deal_number != deal:
                deal, held = table.deal_number, [set(), set(), set(), set()]
            for s in range(4):
                view = table_view(table, s)
                held[s] |= set(view["hand"])
                assert not leaks(view, held[s]), (s, leaks(view, held[s]))
                assert view["legal"] == ([] if table.turn != s else view["legal"])
        table = table.act(table.turn, table.bot_action(bot, rng), entropy)
    return table


@pytest.mark.parametrize("game", ["belote", "coinche"])
def test_a_whole_game_is_played_to_its_target_and_every_deal_verifies(game: str) -> None:
    table = play_game(game, target=1000, seed=3)
    result = table.replay.result
    assert table.winner is not None and max(result.totals) >= 1000
    assert len(table.replay.finished) == table.deal_number
    for n in range(1, table.deal_number + 1):
        rec = table.record(n)
        assert rec["commitment"] == commitment(rec["seed"], rec["salt"])
        assert verify_record(rec)["verified"] is True
    with pytest.raises(IllegalActionError, match="the game is over"):
        table.act(0, "pass")


def test_the_table_is_its_seeds_and_actions() -> None:
    table = play_game("coinche", target=501, seed=5)
    again = Table.from_json(json.loads(json.dumps(table.to_json())))
    assert again.replay.result == table.replay.result
    assert [table_view(again, s) for s in range(4)] == [table_view(table, s) for s in range(4)]


def test_out_of_turn_and_illegal_actions_change_nothing() -> None:
    table = Table.new(Rules.preset("official", "coinche"), seats=[Seat.bot_seat("random")] * 4,
                      entropy=counting_entropy())
    assert table.turn == 1  # N deals, E speaks first
    with pytest.raises(NotYourTurnError, match="it is E's turn, not S's"):
        table.act(2, "pass")
    with pytest.raises(IllegalActionError, match="not a trump"):
        table.act(1, "90 potatoes")
    table = table.act(1, "90 hearts")
    with pytest.raises(IllegalActionError):
        table.act(2, "80 spades")  # under the contract
    with pytest.raises(IllegalActionError):
        table.act(2, "surcoinche")  # only the takers surcoinche
    assert table.current.actions == ("90 hearts",)
    for _ in range(3):
        table = table.act(table.turn, "pass")
    hand = table_view(table, table.turn)["hand"]
    legal = table_view(table, table.turn)["legal"]
    assert table.deal.phase == PLAY and legal
    not_mine = next(c for c in ("AS", "7D", "JH", "9C", "KC") if c not in hand)
    with pytest.raises(IllegalActionError):
        table.act(table.turn, not_mine)
    assert len(table.current.actions) == 4


def test_passes_void_the_deal_and_the_next_dealer_deals() -> None:
    table = Table.new(Rules.preset("official", "belote"), seats=[Seat.bot_seat("random")] * 4,
                      entropy=counting_entropy())
    for _ in range(8):  # two rounds of passes in belote
        table = table.act(table.turn, "pass")
    assert table.deal_number == 2 and table.current.dealer == 1
    assert table.replay.result.deals[0].outcome == "void"
    assert verify_record(table.record(1))["verified"] is True


def test_views_never_show_a_card_their_seat_cannot_see() -> None:
    for game in ("belote", "coinche"):
        play_game(game, target=501, seed=11, check_views=True)


def test_views_are_turned_so_that_the_viewer_sits_south() -> None:
    table = Table.new(Rules.preset("official", "coinche"), seats=[Seat.bot_seat("random")] * 4,
                      entropy=counting_entropy())
    table = table.act(1, "80 hearts")  # East bids
    for viewer in range(4):
        view = table_view(table, viewer)
        assert view["seat"] == SEATS[viewer]
        assert view["seats"]["S"]["you"] is True
        assert view["auction"] == [[SEATS[(1 - viewer + 2) % 4], "80 hearts"]]
        assert view["hand"] and set(view["hand"]) == {
            c for c in cards_in(view) if c in view["hand"]}
    assert table_view(table, 2)["legal"] and not table_view(table, 0)["legal"]
    assert table_view(table, 1)["auction"][0][0] == "S"


def test_bots_get_the_observation_not_the_seed() -> None:
    seen: list[object] = []

    class Spy:
        name = "spy"

        def act(self, observation: object, rng: random.Random) -> object:
            seen.append(observation)
            return make_bot("random").act(observation, rng)  # type: ignore[arg-type]

    table = Table.new(Rules.preset("official", "coinche"), seats=[Seat.bot_seat("random")] * 4,
                      entropy=counting_entropy())
    table.act(1, table.bot_action(Spy(), random.Random(0)))  # type: ignore[arg-type]
    obs = seen[0]
    assert type(obs).__name__ == "Observation"
    assert table.current.seed not in repr(obs)


def _tampered(rec: dict[str, object], **changes: object) -> dict[str, object]:
    return {**json.loads(json.dumps(rec)), **changes}


def test_tampered_records_are_refused_naming_what_does_not_match() -> None:
    table = play_game("coinche", target=501, seed=2)
    rec = table.record(1)
    other = "f" * 32
    with pytest.raises(InputError, match="commitment"):
        verify_record(_tampered(rec, seed=other))
    with pytest.raises(InputError, match=r"hands\.N: the seed deals"):
        verify_record(_tampered(rec, seed=other, commitment=commitment(other, rec["salt"])))
    hands = json.loads(json.dumps(rec["hands"]))
    hands["N"][0], hands["E"][0] = hands["E"][0], hands["N"][0]
    with pytest.raises(InputError):
        verify_record(_tampered(rec, hands=hands))
    result = json.loads(json.dumps(rec["result"]))
    result["score"] = {"NS": 1, "EW": 2}
    with pytest.raises(InputError, match="result.score"):
        verify_record(_tampered(rec, result=result))
    with pytest.raises(InputError, match="salt"):
        verify_record({k: v for k, v in rec.items() if k != "salt"})


def test_belote_turned_card_is_checked() -> None:
    table = play_game("belote", target=501, seed=4)
    rec = next(table.record(n) for n in range(1, table.deal_number + 1)
               if table.record(n)["tricks"])
    wrong = next(c for c in ("7S", "8S", "9S") if c != rec["turned"])
    with pytest.raises(InputError, match="turned|hand"):
        verify_record(_tampered(rec, turned=wrong))


def test_rebelote_verify_command(tmp_path: object) -> None:
    table = play_game("coinche", target=501, seed=6)
    recs = [table.record(n) for n in range(1, table.deal_number + 1)]
    path = tmp_path / "records.jsonl"  # type: ignore[operator]
    path.write_text("".join(json.dumps(r) + "\n" for r in recs))
    run = subprocess.run([sys.executable, "-m", "rebelote.cli", "verify", str(path)],
                         capture_output=True, text=True, check=False)
    assert run.returncode == 0, run.stderr
    answers = [json.loads(line) for line in run.stdout.splitlines()]
    assert len(answers) == len(recs) and all(a["verified"] for a in answers)
    bad = _tampered(recs[0], salt="0" * 32)
    run = subprocess.run([sys.executable, "-m", "rebelote.cli", "verify", "-"],
                         input=json.dumps(bad) + "\n", capture_output=True, text=True,
                         check=False)
    assert run.returncode == 1
    assert json.loads(run.stdout)["error"].startswith("commitment:")
    run = subprocess.run([sys.executable, "-m", "rebelote.cli", "replay", str(path)],
                         capture_output=True, text=True, check=False)
    assert run.returncode == 0, run.stdout  # a table's records are deal records too


def test_the_leak_scan_sees_a_hidden_card() -> None:
    table = Table.new(Rules.preset("official", "coinche"), seats=[Seat.bot_seat("random")] * 4,
                      entropy=counting_entropy())
    view = table_view(table, 2)
    other = table_view(table, 0)["hand"][0]
    assert not leaks(view, set(view["hand"]))
    assert leaks({**view, "hint": f"North holds {other}"}, set(view["hand"])) == {other}
    said = '<span aria-label="Nord\u00a0: valet de cœur">V♥</span> 10♠ Q♦ <i>king of clubs</i>'
    assert cards_in_html(said) == {"JH", "TS", "QD", "KC"}
    assert cards_in_html("dix de der, 80 cœur, tout atout, coinche ×2") == set()


def test_every_word_of_the_table_pages_has_its_french_in_the_catalog() -> None:
    # The table's words are English in the templates and French in the gettext catalog
    # (context "table"), the one translation system of the pages, sheets and files.
    import re
    from importlib.resources import files

    from babel.messages.pofile import read_po

    from rebelote.web.table.words import (
        _BOT_SHORT,
        _RANK_EN,
        REFUSALS,
        SEAT_WORDS,
        tr,
    )

    po = files("rebelote") / "locale" / "fr" / "LC_MESSAGES" / "rebelote.po"
    with po.open("rb") as fp:
        french = {m.id: m.string for m in read_po(fp, locale="fr") if m.context == "table"}
    templates = files("rebelote") / "web" / "templates" / "table"
    used = {m.group(2) for page in templates.iterdir() if page.name.endswith(".html")
            for m in re.finditer(r"""\bt\((["'])(.+?)\1\)""", page.read_text("utf-8"))}
    used |= {*_RANK_EN.values(),
             *SEAT_WORDS.values(), "spades", "hearts", "diamonds", "clubs",
             *_BOT_SHORT.values(), *(sentence for _, sentence in REFUSALS), "your partner",
             "your team", "the other team", "you"}
    assert len(used) > 60
    missing = sorted(w for w in used if not french.get(w))
    assert not missing, missing
    assert all(tr("fr", w) == french[w] and tr("en", w) == w for w in used)
