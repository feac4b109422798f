"""bench/judge.py, the decision judge: each chosen card's exact double-dummy cost."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from program_loader import load_program
from rebelote.actions import Play
from rebelote.bots import make_bot
from rebelote.deal import DealState
from rebelote.observation import Observation
from rebelote.rules import Rules, parse_rules
from rebelote.solver import position_of_state, solve

judge = load_program("bench/judge.py")
RULES = Rules.preset("official", "coinche")
#: The true deal of the test, read by the cheating bots below (only a test can cheat).
TRUE: dict[str, DealState] = {}


class _Cheat:
    """Plays the true deal's best (``worst=False``) or worst card: the judge's extremes."""

    def __init__(self, worst: bool) -> None:
        self.name = "worst" if worst else "oracle"
        self.worst = worst

    def act(self, obs: Observation, rng: random.Random) -> Play:
        values = solve(position_of_state(TRUE["state"]), RULES)
        pick = min if self.worst else max
        card = pick(sorted(values), key=lambda c: values[c])
        return Play(card)


def test_the_best_card_costs_nothing_and_the_worst_its_gap() -> None:
    rules = RULES
    # drive one deal by the heuristic and judge both cheats at each card
    state = DealState.new(rules, 0, rng=random.Random("arena:1:deal:0"))
    driver = make_bot("heuristic")
    rng = random.Random(0)
    seen = 0
    while not state.is_terminal:
        if judge.has_choice(state) and all(isinstance(a, Play) for a in state.legal_actions()):
            TRUE["state"] = state
            costs, marks = judge.true_costs(state)
            assert min(costs.values()) == 0 and min(marks.values()) == 0
            best, _ = judge.choose_card(_Cheat(False), state, rng)
            worst, _ = judge.choose_card(_Cheat(True), state, rng)
            assert costs[best] == 0
            values = solve(position_of_state(state), rules)
            assert costs[worst] == max(values.values()) - min(values.values())
            seen += 1
        state = state.apply(driver.act(state.observation(state.player), rng))
    assert seen >= 8


def test_a_paired_run_summarizes_by_phase_and_side() -> None:
    rows = []
    for d in judge.judge_deal(RULES, 1, 0, ["heuristic", "pimc:2"], "heuristic"):
        rows.append({"driver": "heuristic", "deal": 0, **d.__dict__})
    s = judge.summarize(rows)
    assert set(s["bots"]) == {"heuristic", "pimc:2"}
    h = s["bots"]["heuristic"]
    assert h["all"]["decisions"] == s["bots"]["pimc:2"]["all"]["decisions"] > 8
    assert sum(h[p]["decisions"] for p in judge.PHASES if p in h) == h["all"]["decisions"]
    assert h["all"]["cost"][0] >= 0
    assert "pimc:2" in s["versus_first"] and s["base"] == "heuristic"
    # paired with another base: the same difference, the other way
    other = judge.summarize(rows, base="pimc:2")
    assert other["base"] == "pimc:2" and list(other["versus_first"]) == ["heuristic"]
    there, back = s["versus_first"]["pimc:2"], other["versus_first"]["heuristic"]
    assert there["cost"][0] == pytest.approx(-back["cost"][0], abs=1e-3)
    with pytest.raises(ValueError, match="--base 'nope'"):
        judge.summarize(rows, base="nope")


def test_the_ratio_interval() -> None:
    mean, low, high = judge.ratio_ci([2.0, 4.0, 6.0], [1, 2, 3])
    assert mean == 2.0 and low == high == 2.0
    mean, low, high = judge.ratio_ci([1.0, 5.0], [1, 1])
    assert mean == 3.0 and low < 3.0 < high


def test_budget_fields_make_a_measured_search_player() -> None:
    from rebelote.bots.pimc import PimcBot, budget_of

    bot = judge.make_judged("pimc:16[auction_alpha=0;infer=0.35;by_cards=32-8;tie_break=1]")
    assert isinstance(bot, PimcBot)
    b = bot.budget
    assert (b.worlds, b.auction_alpha, b.infer, b.by_cards, b.tie_break) == (
        16, 0.0, 0.35, (32, 8), True)
    assert judge.make_judged("pimc:fast[]").budget == budget_of("fast")  # type: ignore[attr-defined]
    assert judge.make_judged("club").name == "net"
    for bad in ("pimc:16[nothing=1]", "heuristic[infer=1]", "pimc:16[infer]"):
        with pytest.raises(ValueError, match="pimc"):
            judge.make_judged(bad)


def test_a_colver_driver_plays_colvers_deals_and_judges_ours() -> None:
    pytest.importorskip("colver", reason="colver (the yardstick) is not installed")
    decisions = judge.judge_deal(RULES, 2, 0, ["heuristic", "pimc:2"], "colver:heuristic")
    names = ("colver:heuristic", "heuristic", "pimc:2")
    by_bot = {b: [d for d in decisions if d.bot == b] for b in names}
    # colver's own cards are judged too, first at each position: the match's other side
    assert len(by_bot["colver:heuristic"]) == len(by_bot["heuristic"]) \
        == len(by_bot["pimc:2"]) > 8
    assert [d.bot for d in decisions[:3]] == list(names)
    assert all(d.ms >= 0 for d in by_bot["colver:heuristic"])
    assert all(d.cost >= 0 and d.mark_cost >= 0 for d in decisions)
    # the same deal, driver and bots give the same decisions (colver seeded by the deal)
    again = judge.judge_deal(RULES, 2, 0, ["heuristic", "pimc:2"], "colver:heuristic")
    assert [(d.bot, d.cost, d.phase) for d in again] == [(d.bot, d.cost, d.phase)
                                                          for d in decisions]


def test_a_pool_and_a_cluster_judge_the_same_cards_in_the_same_order(tmp_path: Path) -> None:
    distributed = pytest.importorskip("distributed")
    args = ["--bots", "heuristic,pimc:2", "--deals", "3", "--seed", "6", "--json"]

    def run(*extra: str) -> list[tuple[object, ...]]:
        out = tmp_path / f"run{len(list(tmp_path.iterdir()))}.jsonl"
        judge.main([*args, "--out", str(out), *extra])
        rows = [json.loads(line) for line in out.read_text().splitlines()]
        return [(r["deal"], r["bot"], r["phase"], r["side"], r["cost"], r["mark_cost"])
                for r in rows]  # all but the time a card

    alone = run()
    assert {r[0] for r in alone} == {0, 1, 2} and len(alone) > 30
    assert run("--workers", "2") == alone
    with distributed.LocalCluster(n_workers=1, threads_per_worker=2, processes=False,
                                  dashboard_address=":0") as cluster:
        assert run("--scheduler", cluster.scheduler_address) == alone


def test_the_judged_bots_draw_common_random_numbers() -> None:
    # the same budget under two names: the same worlds at every decision, so the same cards
    decisions = judge.judge_deal(RULES, 4, 1, ["pimc:3", "pimc:3[min_worlds=3]"], "heuristic")
    a = [d.cost for d in decisions if d.bot == "pimc:3"]
    b = [d.cost for d in decisions if d.bot == "pimc:3[min_worlds=3]"]
    assert len(a) == len(b) > 8 and a == b


def test_a_whole_rule_set_is_judged_by_its_own_rules(tmp_path: Path) -> None:
    out = tmp_path / "judge.jsonl"
    judge.main(["--bots", "heuristic", "--deals", "1", "--seed", "3", "--json",
                "--rules", "contree:ffb-ludique,rounding=none", "--out", str(out)])
    rows = [json.loads(line) for line in out.read_text().splitlines()]
    assert rows and {r["game"] for r in rows} == {"contree"}
    assert {r["rules"] for r in rows} == {
        parse_rules("contree:ffb-ludique,rounding=none").to_text()}


def _positions(seeds: range) -> list[DealState]:
    """Every position with a choice of card of heuristic deals (the judge's driver)."""
    out = []
    for seed in seeds:
        state = DealState.new(RULES, seed % 4, rng=random.Random(f"arena:9:deal:{seed}"))
        bot, rng = make_bot("heuristic"), random.Random(seed)
        while not state.is_terminal:
            if judge.has_choice(state) and all(isinstance(a, Play)
                                               for a in state.legal_actions()):
                out.append(state)
            state = state.apply(bot.act(state.observation(state.player), rng))
    return out


def test_blunder_kinds_name_what_a_player_sees() -> None:
    from rebelote.cards import suit_of

    ruffs = leads = 0
    for state in _positions(range(30)):
        trump, seat = state.trump, state.player
        cards = [c for c in range(32) if state.playable >> c & 1]
        trick = state.trick
        if trick and 0 <= trump < 4:
            winner = (state.leader + state.win) % 4  # clockwise: the official direction
            led = suit_of(trick[0])
            trumps = [c for c in cards if suit_of(c) == trump]
            plain = [c for c in cards if suit_of(c) != trump]
            if winner == (seat + 2) % 4 and led != trump and trumps and plain:
                # the partner is winning, a trump and a plain card may be played
                assert judge.blunder_kind(state, trumps[0]) == "trumps partner's trick"
                assert judge.blunder_kind(state, plain[0]) == "other"
                ruffs += 1
        if not trick and not state.tricks and 0 <= trump < 4:
            fourth = (seat + 3) % 4
            for c in cards:
                ranks = {x % 8 for x in range(32) if state.hands[fourth] >> x & 1
                         and suit_of(x) == suit_of(c)}
                into = suit_of(c) != trump and {7, 3} <= ranks  # the ace and the ten
                assert (judge.blunder_kind(state, c) == "leads into a tenace") == into
                leads += into
    assert ruffs >= 3 and leads >= 1


def test_a_lead_is_a_trump_lead_or_another_lead_never_other() -> None:
    """The leads that are none of the first kinds: a trump led in a suit contract while
    holding a plain card is ``leads trumps``, a plain suit an opponent is void in and can
    trump ``leads into a ruff``, another ``other lead``; ``other`` is a card following."""
    from rebelote.cards import suit_of

    trumps = plains = ruffs = 0
    for state in _positions(range(30)):
        if state.trick or not 0 <= state.trump < 4:
            continue
        trump, seat = state.trump, state.player
        hand = state.hands[seat]
        partner = [cards[0] for leader, cards in state.tricks if leader == (seat + 2) % 4]
        holds = partner and any(suit_of(c) == suit_of(partner[-1]) for c in range(32)
                                if hand >> c & 1)
        for c in range(32):
            if not state.playable >> c & 1:
                continue
            kind = judge.blunder_kind(state, c)
            assert kind != "other"
            if kind in ("leaves partner's suit", "leads into a tenace"):
                continue
            mixed = any(suit_of(x) != trump for x in range(32) if hand >> x & 1)
            is_trump = suit_of(c) == trump
            cut = not is_trump and any(
                not any(suit_of(x) == suit_of(c) for x in range(32) if state.hands[o] >> x & 1)
                and any(suit_of(x) == trump for x in range(32) if state.hands[o] >> x & 1)
                for o in ((seat + 1) % 4, (seat + 3) % 4))
            assert kind == ("leads trumps" if is_trump and mixed else
                            "leads into a ruff" if cut else "other lead")
            trumps += kind == "leads trumps"
            plains += kind == "other lead"
            ruffs += kind == "leads into a ruff"
            assert not (holds and not is_trump and suit_of(c) != suit_of(partner[-1])
                        and suit_of(partner[-1]) != trump)
    assert trumps >= 3 and plains >= 3 and ruffs >= 1


def test_the_summary_counts_blunders_and_their_kinds() -> None:
    rows = []
    state = DealState.new(RULES, 0, rng=random.Random("arena:1:deal:3"))
    driver, rng = make_bot("heuristic"), random.Random(0)
    while not state.is_terminal:
        if judge.has_choice(state) and all(isinstance(a, Play) for a in state.legal_actions()):
            TRUE["state"] = state
            costs, marks = judge.true_costs(state)
            for bot in (_Cheat(False), _Cheat(True)):
                card, _ = judge.choose_card(bot, state, rng)
                d = judge.decision(bot.name, state, card, costs, marks, 0.0)
                assert (d.kind is not None) == (costs[card] >= judge.BLUNDER)
                rows.append({"driver": "heuristic", "deal": 0, **d.__dict__})
        state = state.apply(driver.act(state.observation(state.player), rng))
    s = judge.summarize(rows)
    assert s["bots"]["oracle"]["blunders"]["share"][0] == 0.0
    assert s["bots"]["oracle"]["blunders"]["kinds"] == {}
    worst = s["bots"]["worst"]["blunders"]
    n = sum(1 for r in rows if r["bot"] == "worst" and r["cost"] >= judge.BLUNDER)
    assert n > 0 and sum(worst["kinds"].values()) == n
    assert worst["share"][0] == pytest.approx(n / s["bots"]["worst"]["all"]["decisions"],
                                              abs=1e-4)
    assert "blunders (cost >= 10)" in judge.report(s, {"mode": "paired"})


def test_trumps_judges_only_the_deals_of_those_contracts(tmp_path: Path,
                                                         capsys: pytest.CaptureFixture[str]
                                                         ) -> None:
    """``--trumps 4,5``: of the deals scanned, only those whose contract (the driver's
    auction) is in no-trump or all-trump are judged; :func:`contract_trump` is the trump of
    the deal the judge then plays."""
    trumps = [judge.contract_trump(RULES, 7, i, "tuned") for i in range(18)]
    assert {4, 5} & set(trumps) and set(trumps) - {4, 5}
    out = tmp_path / "j.jsonl"
    judge.main(["--bots", "heuristic", "--driver", "tuned", "--trumps", "4,5", "--seed", "7",
                "--deals", "18", "--out", str(out)])
    rows = [json.loads(x) for x in out.read_text().splitlines()]
    assert {r["deal"] for r in rows} == {i for i, t in enumerate(trumps) if t in (4, 5)}
    assert rows[0]["trumps"] == [4, 5]
    state = DealState.new(RULES, 10 % 4, rng=random.Random("arena:7:deal:10"))
    bots = [make_bot("tuned") for _ in range(4)]
    rngs = [random.Random(f"judge:7:10:tuned:{s}") for s in range(4)]
    while state.phase != judge.PLAY:
        state = state.apply(bots[state.player].act(state.observation(state.player),
                                                   rngs[state.player]))
    assert state.trump == trumps[10]
    capsys.readouterr()
    with pytest.raises(SystemExit):
        judge.main(["--bots", "heuristic", "--selfplay", "--trumps", "4", "--deals", "1"])
