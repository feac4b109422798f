"""Pourquoi ce coup ? Each bot decision explained as the search decides it: what the bot knew,
the actions it weighed with their marks and worlds, why the chosen one won; ``rebelote
explain`` over the records ``rebelote deal`` writes."""

from __future__ import annotations

import io
import json
import random
import subprocess
import sys
from typing import Any

import pytest

from rebelote.actions import AUCTION, OVER
from rebelote.bots import make_bot
from rebelote.bots.explain import NOT_BEST, WHY, Explanation, explained_act
from rebelote.bots.pimc import Budget, PimcBot
from rebelote.cards import SEATS
from rebelote.commands._deal import deal_records
from rebelote.commands.explain import explain_lines
from rebelote.deal import DealState
from rebelote.rules import Rules, seat_step

COINCHE = Rules.preset("official", "coinche")
BELOTE = Rules.preset("official", "belote")
SMALL = "pimc:6"
BOTS = f"{SMALL},heuristic,{SMALL},random"


def records(seed: int, count: int, bots: str = BOTS, game: str = "coinche") -> str:
    from rebelote.commands._deal import parse_bots

    rules = COINCHE if game == "coinche" else BELOTE
    return "".join(json.dumps(r) + "\n"
                   for r in deal_records(rules, seed, count, parse_bots(bots)))


def explain(text: str, **kw: Any) -> tuple[int, list[dict[str, Any]]]:
    out = io.StringIO()
    code = explain_lines(io.StringIO(text), out, **kw)
    return code, [json.loads(line) for line in out.getvalue().splitlines()]


def test_explaining_changes_no_action_and_no_draw() -> None:
    """The same action and the same rng state after it, asked why or not: the auction and
    the first tricks of each bot; ``pimc:expert`` (whose calls simulate: 0.6 s each) makes two
    calls, then its cards from where the heuristic's auction ended."""
    auction_over = DealState.new(COINCHE, 0, seed=11)
    while auction_over.phase == AUCTION:
        auction_over = auction_over.apply(
            make_bot("heuristic").act(auction_over.observation(auction_over.player),
                                      random.Random(0)))
    for spec, start, moves in (("pimc:fast", None, 14), ("pimc:expert", None, 2),
                               ("pimc:expert", auction_over, 4), ("heuristic", None, 14),
                               ("random", None, 14)):
        state = start or DealState.new(COINCHE, 0, seed=11)
        i = 0
        while state.phase != OVER and i < moves:
            obs = state.observation(state.player)
            r1, r2 = random.Random(i), random.Random(i)
            plain = make_bot(spec).act(obs, r1)
            action, why = explained_act(make_bot(spec), obs, r2, spec)
            assert action == plain and r1.random() == r2.random(), (spec, i)
            assert why.action == action and why.level == spec
            state = state.apply(action)
            i += 1


@pytest.fixture(scope="module")
def explained() -> tuple[str, dict[str, tuple[int, list[dict[str, Any]]]]]:
    """Two deals of :data:`BOTS` (seed 4) and their explanations in French and in English:
    the tests below read the same ones (each explanation replays every search: 1 s of CPU)."""
    text = records(4, 2)
    return text, {lang: explain(text, seed=4, bots=BOTS, lang=lang) for lang in ("fr", "en")}


@pytest.fixture(scope="module")
def all_small() -> tuple[str, list[dict[str, Any]]]:
    """A deal of four :data:`SMALL` bots (seed 8), explained in English: East is seen void of
    trumps and the worlds name where honours probably are."""
    bots = f"{SMALL},{SMALL},{SMALL},{SMALL}"
    text = records(8, 1, bots)
    return text, explain(text, seed=8, bots=bots, lang="en")[1]


def test_every_decision_of_the_records_is_explained_with_its_action_among_the_candidates(
        explained: tuple[str, dict[str, tuple[int, list[dict[str, Any]]]]]) -> None:
    text, by_lang = explained
    code, lines = by_lang["fr"]
    assert code == 0
    recs = [json.loads(r) for r in text.splitlines()]
    for n, rec in enumerate(recs):
        mine = [x for x in lines if x["deal"] == n]
        calls = len(rec["auction"])
        cards = sum(len(t) - 1 for t in rec["tricks"])
        assert len(mine) == calls + cards
        assert [x["action"] for x in mine[:calls]] == [b for _, b in rec["auction"]]
        assert [x["seat"] for x in mine[:calls]] == [s for s, _ in rec["auction"]]
    for x in lines:
        assert set(x) == {"deal", "seat", "index", "action", "level", "candidates", "why",
                          "knew"}
        assert x["action"] in [c["action"] for c in x["candidates"]]
        assert x["level"] == BOTS.split(",")["NESW".index(x["seat"])]
        assert x["why"] and x["knew"][0].startswith("Sa main")
    searched = [x for x in lines if x["level"] == SMALL and len(x["candidates"]) > 1]
    assert searched and all(c["worlds"] > 0 for x in searched for c in x["candidates"]
                            if c["mark"] is not None)


def _reason(line: dict[str, Any]) -> str:
    for code, texts in WHY.items():
        head = texts["en"].split("{")[0]
        if line["why"].startswith(head):
            return code
    raise AssertionError(line["why"])


def test_the_chosen_action_is_the_best_of_its_candidates_or_the_sentence_says_why_not(
        explained: tuple[str, dict[str, tuple[int, list[dict[str, Any]]]]]) -> None:
    code, lines = explained[1]["en"]
    assert code == 0
    reasons = set()
    for x in lines:
        marks = [c["mark"] for c in x["candidates"] if c["mark"] is not None]
        mine = next(c["mark"] for c in x["candidates"] if c["action"] == x["action"])
        reason = _reason(x)
        reasons.add(reason)
        if mine is None or any(m > mine + 0.05 for m in marks):
            assert reason in NOT_BEST, x
    assert {"best", "forced", "rule", "random"} <= reasons


def test_french_and_english_say_the_same_decisions_in_their_words(
        explained: tuple[str, dict[str, tuple[int, list[dict[str, Any]]]]]) -> None:
    _, fr = explained[1]["fr"]
    _, en = explained[1]["en"]
    assert len(fr) == len(en)
    for a, b in zip(fr, en, strict=True):
        assert (a["action"], a["candidates"]) == (b["action"], b["candidates"])
        assert a["why"] != b["why"]
        assert a["knew"][0].startswith("Sa main\u00a0: ") and b["knew"][0].startswith(
            "Its hand: ")
        for sentence in [a["why"], *a["knew"]]:  # French typography: no bare space before :;
            assert " :" not in sentence and " ;" not in sentence and " %" not in sentence


def test_what_the_bot_knew_is_true_of_the_real_deal(
        all_small: tuple[str, list[dict[str, Any]]]) -> None:
    """Each seat said void of a suit holds none of it, each card said held is held: public
    facts, true in the deal played (the likely cards are only likely)."""
    text, lines = all_small
    recs = [json.loads(r) for r in text.splitlines()]
    words = {"spades": "S", "hearts": "H", "diamonds": "D", "clubs": "C"}
    checked = 0
    for x in lines:
        rec = recs[x["deal"]]
        played = [c for t in rec["tricks"] for c in t[1:]]
        seen = int(x["knew"][1].split(", ")[1].split()[0])
        gone = set(played[:seen])
        trump = next((b.split()[1] for _, b in reversed(rec["auction"])
                      if b.split()[0].isdigit()), None)
        for fact in x["knew"][2:]:
            seat = ["North", "East", "South", "West"].index(fact.split()[0])
            hand = set(rec["hands"]["NESW"[seat]]) - gone
            if " has no " in fact:
                suit = fact.split(" has no ")[1].split()[0]
                letter = words[trump] if suit == "trumps" else words[suit]
                assert all(c[1] != letter for c in hand), (fact, hand)
                checked += 1
            elif " holds the " in fact and "probably" not in fact:
                rank, _, suit = fact.split(" holds the ")[1].rstrip(".").split()[:3]
                letter = words[trump] if suit == "trumps" else words[suit]
                r = {"seven": "7", "eight": "8", "nine": "9", "ten": "T", "jack": "J",
                     "queen": "Q", "king": "K", "ace": "A"}[rank]
                assert r + letter in hand, (fact, hand)
                checked += 1
    assert checked >= 5


def test_a_void_seen_is_said_and_the_worlds_name_where_a_card_probably_is(
        all_small: tuple[str, list[dict[str, Any]]]) -> None:
    """East discarded on a trump lead: 'East has no trumps left'; the worlds' weights give the
    likely holders of the honours still hidden (in the deals above, else in other deals)."""
    found_void = found_likely = False
    for seed in (None, *range(20)):
        if seed is None:
            lines = all_small[1]
        else:
            text = records(seed, 1, f"{SMALL},{SMALL},{SMALL},{SMALL}")
            _, lines = explain(text, seed=seed, bots=f"{SMALL},{SMALL},{SMALL},{SMALL}",
                               lang="en")
        facts = [f for x in lines for f in x["knew"]]
        found_void |= any("has no trumps left" in f for f in facts)
        found_likely |= any("probably holds" in f for f in facts)
        if found_void and found_likely:
            break
    assert found_void and found_likely


def test_a_clear_lead_a_tie_and_points_are_said() -> None:
    bot = PimcBot(budget=Budget(worlds=48, bid_worlds=8, stop_z=2.5, tie_break=True,
                                points_eps=0.01))
    reasons: set[str] = set()
    for seed in (0, 3):  # each deal says the four; seed 3 also a tie broken on points
        state = DealState.new(COINCHE, seed, seed=seed)
        i = 0
        while state.phase != OVER:
            obs = state.observation(state.player)
            action, why = explained_act(bot, obs, random.Random(i))
            reasons.add(why.why)
            if why.why in ("best", "clear"):
                assert why.is_best()
            state = state.apply(action)
            i += 1
    assert {"clear", "tie_rule", "forced", "anchor_kept"} <= reasons


def test_an_explanation_is_stored_and_read_back() -> None:
    state = DealState.new(COINCHE, 0, seed=2)
    bot = make_bot("pimc:fast")
    while state.phase != OVER:
        obs = state.observation(state.player)
        action, why = explained_act(bot, obs, random.Random(0), "pimc:fast")
        back = Explanation.from_record(json.loads(json.dumps(why.to_record())))
        assert back.to_json("fr") == json.loads(json.dumps(why.to_json("fr")))
        state = state.apply(action)
    with pytest.raises(ValueError, match="why"):
        Explanation.from_record({"seat": "N", "action": "pass", "why": "nope"})


def test_stored_explanations_are_read_as_they_are() -> None:
    state = DealState.new(COINCHE, 0, seed=2)
    bot = make_bot("heuristic")
    stored = []
    i = 0
    while state.phase != OVER:
        obs = state.observation(state.player)
        action, why = explained_act(bot, obs, random.Random(0), "heuristic")
        stored.append({"index": i, **why.to_record()})
        state = state.apply(action)
        i += 1
    from rebelote.record import record_of

    rec = {**record_of(state), "explanations": stored}
    code, lines = explain(json.dumps(rec) + "\n", seat="W", lang="en")
    assert code == 0 and lines and {x["seat"] for x in lines} == {"W"}
    assert all(x["level"] == "heuristic" for x in lines)


def test_a_record_the_options_do_not_replay_is_refused_and_bad_options_exit_2(
        capsys: pytest.CaptureFixture[str]) -> None:
    text = records(3, 2, "heuristic")
    code, lines = explain(text, seed=4, bots="heuristic")
    assert code == 1 and len(lines) == 1 and "seed 4" in lines[0]["error"]
    assert explain(text, seed=3, bots="heuristic", lang="de")[0] == 2
    assert "--lang" in capsys.readouterr().err
    assert explain(text, seed=3, bots="heuristic", seat="X")[0] == 2
    code, lines = explain(text, seed=3, bots="heuristic", deal=1, seat="n")
    assert code == 0 and {(x["deal"], x["seat"]) for x in lines} == {(1, "N")}


def test_the_command_line_explains_the_records_rebelote_deal_wrote(tmp_path: Any) -> None:
    run = [sys.executable, "-m", "rebelote.cli"]
    made = subprocess.run([*run, "deal", "--game", "belote", "--seed", "9", "--count", "2",
                           "--bots", "pimc:4,heuristic,pimc:4,heuristic"],
                          capture_output=True, text=True, check=True)
    path = tmp_path / "records.jsonl"
    path.write_text(made.stdout)
    got = subprocess.run([*run, "explain", str(path), "--game", "belote", "--seed", "9",
                          "--bots", "pimc:4,heuristic,pimc:4,heuristic", "--deal", "1",
                          "--seat", "S", "--lang", "en"],
                         capture_output=True, text=True, check=False)
    assert got.returncode == 0, got.stderr
    lines = [json.loads(x) for x in got.stdout.splitlines()]
    assert lines and all(x["deal"] == 1 and x["seat"] == "S" for x in lines)
    rec = json.loads(made.stdout.splitlines()[1])
    step = seat_step(BELOTE)
    cards = [c for t in rec["tricks"] for i, c in enumerate(t[1:])
             if SEATS[(SEATS.index(t[0]) + i * step) % 4] == "S"]
    assert [x["action"] for x in lines if x["index"] >= len(rec["auction"])] == cards
    assert any(c["worlds"] == 4 for x in lines for c in x["candidates"])


def test_deal_explain_writes_the_same_records_holding_their_explanations(
        tmp_path: Any, explained: tuple[str, dict[str, tuple[int, list[dict[str, Any]]]]]
) -> None:
    """``rebelote deal --explain``: the same deals, each record with its bots' explanations,
    read by ``rebelote explain`` without the options and passed over by ``rebelote replay``;
    the same lines as replaying the plain records from their options."""
    run = [sys.executable, "-m", "rebelote.cli"]
    args = ["deal", "--seed", "4", "--count", "2", "--bots", BOTS]
    plain = subprocess.run([*run, *args], capture_output=True, text=True, check=True).stdout
    held = subprocess.run([*run, *args, "--explain"], capture_output=True, text=True,
                          check=True).stdout
    for a, b in zip(plain.splitlines(), held.splitlines(), strict=True):
        rec = json.loads(b)
        assert rec.pop("explanations") and rec == json.loads(a)
    path = tmp_path / "held.jsonl"
    path.write_text(held)
    replay = subprocess.run([*run, "replay", str(path)], capture_output=True, text=True,
                            check=False)
    assert replay.returncode == 0 and "error" not in replay.stdout
    got = subprocess.run([*run, "explain", str(path), "--lang", "en"], capture_output=True,
                         text=True, check=True).stdout
    assert plain == explained[0]  # the fixture's deals, their lines replayed from the options
    assert [json.loads(x) for x in got.splitlines()] == explained[1]["en"][1]
