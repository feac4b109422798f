"""Analysis of a finished deal with the double-dummy solver: each card's cost against the best
card, in card points and in the deal's mark; the API and the page that show it. Without the
solver in the build, the route says so (404 naming it)."""

from __future__ import annotations

import itertools
import random
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from rebelote.actions import PLAYS
from rebelote.bots import make_bot
from rebelote.cards import cards_mask, mask_cards
from rebelote.deal import DealState
from rebelote.rules import Rules
from rebelote.table.analysis import analyse, solver_available
from rebelote.web.app import create_app


def played_states(game: str, seed: int, name: str = "official") -> list[DealState]:
    """Every state of a deal the random bots played to its end (not void)."""
    rules = Rules.preset(name, game)
    rng = random.Random(seed)
    bot = make_bot("random")
    while True:
        states = [DealState.new(rules, 0, rng=rng)]
        while not states[-1].is_terminal:
            state = states[-1]
            states.append(state.apply(bot.act(state.observation(state.current_player), rng)))
        if not states[-1].is_void:
            return states


def played_deal(game: str, seed: int, name: str = "official") -> DealState:
    return played_states(game, seed, name)[-1]


@pytest.mark.skipif(not solver_available(), reason="rebelote.solver is not in this build")
@pytest.mark.parametrize("game", ["belote", "coinche"])
def test_each_card_is_valued_against_the_best(game: str) -> None:
    state = played_deal(game, 4)
    cards = analyse(state)
    assert len(cards) == 32
    for item in cards:
        assert item["best"] == max(item["values"].values())
        assert item["value"] == item["values"][item["card"]]
        assert item["cost"] == item["best"] - item["value"] >= 0
        if item["cost"] == 0:  # save a capot: a card worth 0 like the best, but capot
            assert item["mark_cost"] == 0 or item["value"] == 0
    # random bots: some card cost something, and the mark cost has the cost's sign
    assert any(item["cost"] > 0 for item in cards)
    assert all(item["mark_cost"] >= 0 for item in cards)
    last = cards[-1]  # no choice is left: its value is what its team really made
    team = "NESW".index(last["seat"]) & 1
    assert last["value"] == state.summary().points[team]


@pytest.mark.skipif(not solver_available(), reason="rebelote.solver is not in this build")
@pytest.mark.parametrize(("name", "game", "seed"), [("official", "belote", 7),
                                                    ("official", "coinche", 8),
                                                    ("house", "coinche", 9)])
def test_the_last_four_tricks_agree_with_the_plain_solver(name: str, game: str,
                                                          seed: int) -> None:
    """The analysis' values of every card of the last four tricks are the plain reference
    solver's, on the position rebuilt from the deal's own tricks; the cost in the mark of the
    last three tricks' cards is the brute force's (:func:`_brute_mark_costs`)."""
    from rebelote.cards import SEATS, parse_card
    from rebelote.rules import trick_points
    from rebelote.solver import Position, solve_reference

    rules = Rules.preset(name, game)
    states = played_states(game, seed, name)
    state = states[-1]
    cards = analyse(state)
    # and the cost in the mark of the last three tricks' cards is the brute force's
    assert _brute_mark_costs(states[-13:]) == [item["mark_cost"] for item in cards[-12:]]
    hands = list(state.start_hands)
    points, won = [0, 0], [0, 0]
    for number, (leader, trick) in enumerate(state.tricks, start=1):
        for i, card in enumerate(trick):
            seat = (leader + i * state.step) % 4
            if number >= 5:
                item = cards[(number - 1) * 4 + i]
                assert SEATS.index(item["seat"]) == seat
                assert parse_card(item["card"]) == card
                pos = Position.make(hands, state.trump, leader, trick[:i], points, won, rules)
                want = solve_reference(pos, rules)
                assert {parse_card(c): v for c, v in item["values"].items()} == want
            hands[seat] &= ~(1 << card)
        winner = state.tricks[number][0] if number < 8 else state.leader
        points[winner & 1] += trick_points(trick, state.trump, rules)
        won[winner & 1] += 1


@pytest.fixture()
def client(tmp_path: Path) -> TestClient:
    return TestClient(create_app(f"sqlite:///{tmp_path / 'a.db'}"))


def test_the_analysis_route_and_page(client: TestClient) -> None:
    t = client.post("/api/tables", json={"game": "coinche", "bots": "random"}).json()
    headers = {"Authorization": f"Bearer {t['token']}"}
    view = t
    rng = random.Random(1)
    while not view["last_result"] or view["last_result"]["outcome"] == "void":
        legal = view["legal"]
        action = "80 hearts" if "80 hearts" in legal else rng.choice(
            [a for a in legal if a != "no-declaration"])
        view = client.post(f"/api/tables/{t['id']}/actions", headers=headers,
                           json={"action": action}).json()
    n = view["last_result"]["deal"]
    r = client.get(f"/api/tables/{t['id']}/deals/{n}/analysis", headers=headers)
    unfinished = client.get(f"/api/tables/{t['id']}/deals/{n + 5}/analysis", headers=headers)
    assert unfinished.status_code == 404 and "not finished" in unfinished.json()["error"]
    assert client.get(f"/api/tables/{t['id']}/deals/{n}/analysis").status_code == 403
    if not solver_available():
        assert r.status_code == 404 and "solver" in r.json()["error"]
        return
    assert r.status_code == 200 and len(r.json()["cards"]) == 32
    client.cookies.set("rebelote_keys", f"{t['id']}.{t['token']}")
    page = client.get(f"/tables/{t['id']}/deals/{n}/analysis")
    assert page.status_code == 200 and 'id="analysis"' in page.text
    assert page.text.count("<tr") >= 33


@pytest.mark.skipif(not solver_available(), reason="rebelote.solver is not in this build")
def test_a_long_solve_never_stalls_the_other_tables(tmp_path: Path) -> None:
    """While another thread solves full deals one after another (as an analysis does, which
    can take seconds), a table of quick bots plays on (they never wait on the solver, and the
    search lets the event loop run), and a table of searching bots plays on too (each thread
    has its own solver; a move the search cannot make within the bots' time limit is the
    heuristic's)."""
    with TestClient(create_app(f"sqlite:///{tmp_path / 'b.db'}")) as client:  # one loop
        _play_while_deals_are_solved(client)


def _play_while_deals_are_solved(client: TestClient) -> None:
    import threading

    import rebelote.solver as solver

    client.app.state.tables.bot_timeout = 0.3  # type: ignore[attr-defined]
    tables = {bots: client.post("/api/tables", json={"game": "coinche", "bots": bots}).json()
              for bots in ("heuristic", "pimc:fast")}
    played: dict[str, list[dict[str, object]]] = {bots: [] for bots in tables}

    def play(bots: str) -> None:
        t = tables[bots]
        view = t
        for _ in range(3):
            if view["over"]:
                break
            legal = [a for a in view["legal"] if a != "no-declaration"]
            r = client.post(f"/api/tables/{t['id']}/actions", json={"action": legal[0]},
                            headers={"Authorization": f"Bearer {t['token']}"})
            assert r.status_code == 200, r.text
            view = r.json()
            played[bots].append(view)

    stop = threading.Event()

    def analyse_deals() -> None:  # an analysis's full-deal solves, one after another
        rng = random.Random(3)
        rules = Rules.preset("official", "coinche")
        while not stop.is_set():
            deck = list(range(32))
            rng.shuffle(deck)
            hands = tuple(cards_mask(deck[8 * s: 8 * s + 8]) for s in range(4))
            solver.solve(solver.Position(hands, rng.randrange(4), 0), rules)

    analysis = threading.Thread(target=analyse_deals)
    analysis.start()
    try:
        threads = [threading.Thread(target=play, args=(bots,)) for bots in tables]
        for th in threads:
            th.start()
        for th in threads:
            th.join(timeout=30)
        assert not any(th.is_alive() for th in threads), "a table waited on the solver"
    finally:
        stop.set()
        analysis.join()
    for bots, views in played.items():
        assert views, bots
        assert all(v["turn"] == "S" or v["over"] for v in views), bots


@pytest.mark.parametrize("game", ["belote", "coinche"])
def test_a_final_value_of_zero_is_scored_with_or_without_the_other_team_s_capot(
        game: str) -> None:
    """The solver counts card points: 0 for a team is the other team's capot, or tricks of
    cards worth nothing (every point to the other team, no capot). The analysis tells the two
    apart (the tests below); the mark of each is the deal scored with it."""
    import dataclasses

    from rebelote.scoring import score_deal
    from rebelote.table.analysis import _margin

    state = played_deal(game, 11)
    rules, summary = state.rules, state.summary()
    total = rules.deal_total(state.trump)
    capot_total = rules.capot_total(state.trump)
    differ = []
    for team in (0, 1):
        def margin(points: tuple[int, int], capot: str | None, team: int = team) -> int:
            changed = dataclasses.replace(summary, points=points, capot=capot,
                                          generale=summary.generale and capot == summary.taker)
            marks = score_deal(changed, rules).score
            return marks[team] - marks[1 - team]

        other = ("NS", "EW")[1 - team]
        beaten = (0, capot_total) if team == 0 else (capot_total, 0)
        shut_out = (0, total) if team == 0 else (total, 0)
        assert _margin(state, team, 0, beaten=True) == margin(beaten, other)
        assert _margin(state, team, 0) == margin(shut_out, None)
        differ.append(_margin(state, team, 0) != _margin(state, team, 0, beaten=True))
    assert any(differ)  # a capot is worth more than every point (to one team at least)


# -- a final value of 0 read exactly: the other team's capot, or a trick of cards worth nothing

def _minimax_margin(state: DealState, team: int) -> int:
    """Brute force: every card of every player tried to the end of the deal, the team to
    maximise and the other to minimise the team's mark minus the other's, as the engine scores
    each finished deal (capot from the tricks really taken, not from card points)."""
    if state.is_terminal:
        marks = state.score().score
        return marks[team] - marks[1 - team]
    got = [_minimax_margin(state.apply(PLAYS[c]), team) for c in mask_cards(state.legal_cards())]
    return max(got) if state.current_player & 1 == team else min(got)


def _brute_mark_costs(states: list[DealState]) -> list[int]:
    """For the state before each card (and the card played there), the card's cost in the
    mark by :func:`_minimax_margin`: the best card's margin minus the played card's."""
    out = []
    for before, after in itertools.pairwise(states):
        team = before.current_player & 1
        played = next(c for c in mask_cards(before.legal_cards())
                      if before.apply(PLAYS[c]) == after)
        margins = {c: _minimax_margin(before.apply(PLAYS[c]), team)
                   for c in mask_cards(before.legal_cards())}
        out.append(max(margins.values()) - margins[played])
    return out


# Official coinche, NS take 80 hearts; N leads and NS win the first six tricks. At the seventh,
# N leads the 8 of clubs and E can win it with the 9 (a trick of cards worth nothing: 8C 9C 7D
# and W's card) or play the 7 and let NS make every trick. In deal "A", W keeps the ace of
# diamonds and can throw it on E's 9 (EW can make 11 points); in deal "B", W has only cards
# worth nothing left, and E's 9 of clubs is EW's only way out of the capot: worth 0 points.
_DEALS = {
    "A": ("JH 9H AH TH AS KD 8C TC", "TD JS QS KS TS 9C 7C 7S",
          "KH QH 8H 7H AC 9D 7D JD", "QD JC QC KC 9S AD 8D 8S",
          "JH TD 7H QD 9H JS 8H JC AH QS QH QC TH KS KH KC AS TS AC 9S KD 7S 9D 8D"),
    "B": ("JH 9H AH TH AS KD 8C TC", "AD TD JS QS TS 9C 7C 7S",
          "KH QH 8H 7H AC 9D 7D JD", "8D JC QC KC KS QD 9S 8S",
          "JH AD 7H 8D 9H TD 8H JC AH JS QH QC TH QS KH KC AS TS AC KS KD 7S 9D QD"),
}
_ENDINGS = {("A", "9C"): "8C 9C 7D 8S 7C JD AD TC", ("A", "7C"): "8C 7C 7D 8S TC 9C JD AD",
            ("B", "9C"): "8C 9C 7D 9S 7C JD 8S TC", ("B", "7C"): "8C 7C 7D 9S TC 9C JD 8S"}


def _constructed(deal: str, seventh: str, ending: str = "") -> list[DealState]:
    """The states of a constructed deal from the first card to the end (the last two tricks
    by ``seventh``, E's card at the seventh trick, or ``ending``)."""
    from rebelote.cards import cards_mask, parse_cards

    *hands, first = _DEALS[deal]
    rules = Rules.preset("official", "coinche")
    state = DealState.from_hands(rules, 3, [cards_mask(parse_cards(h.split())) for h in hands])
    for bid in ("80 hearts", "pass", "pass", "pass"):
        state = state.apply(bid)
    states = [state]
    for card in (first + " " + (ending or _ENDINGS[(deal, seventh)])).split():
        states.append(states[-1].apply(card))
    assert states[-1].is_terminal
    return states


def _margin_of(state: DealState, team: int) -> int:
    marks = state.score().score
    return marks[team] - marks[1 - team]


@pytest.mark.skipif(not solver_available(), reason="rebelote.solver is not in this build")
@pytest.mark.parametrize(("deal", "seventh"), sorted(_ENDINGS))
def test_a_value_of_0_is_a_capot_only_when_the_other_team_takes_every_trick(
        deal: str, seventh: str) -> None:
    """The mark cost of each card of the last three tricks is the brute force's, which plays
    every card to the end and lets the engine score each finished deal (capot from the tricks,
    not from the card points)."""
    states = _constructed(deal, seventh)
    cards = analyse(states[-1])
    assert _brute_mark_costs(states[-13:]) == [item["mark_cost"] for item in cards[-12:]]
    last = states[-1]
    assert last.summary().capot == ("NS" if seventh == "7C" else None)
    seventh_e = cards[6 * 4 + 1]
    assert (seventh_e["seat"], seventh_e["card"]) == ("E", seventh)
    assert seventh_e["values"]["7C"] == 0  # after the 7 EW make nothing: NS make capot
    if deal == "A":
        # W can throw the ace of diamonds on E's 9: EW's best is 11
        assert seventh_e["values"]["9C"] == 11
        if seventh == "9C":  # W threw the 8 of spades, not the ace: 0 points, but no capot
            w = cards[6 * 4 + 3]
            assert (w["card"], w["value"], w["best"]) == ("8S", 0, 11)
            ace = _constructed("A", "9C", "8C 9C 7D AD 7C JD 8S TC")[-1]
            assert ace.summary().points == (151, 11) and last.summary().points == (162, 0)
            assert w["mark_cost"] == _margin_of(ace, 1) - _margin_of(last, 1) > 0
    else:
        # E's 9 of clubs takes a trick worth nothing: 0 points either way, a capot apart
        assert seventh_e["values"]["9C"] == 0 and seventh_e["cost"] == 0
        if seventh == "7C":
            spared = _constructed("B", "9C")[-1]  # the rest of that deal is perfect play
            assert seventh_e["mark_cost"] == _margin_of(spared, 1) - _margin_of(last, 1) > 0
        else:
            assert seventh_e["mark_cost"] == 0


@pytest.mark.skipif(not solver_available(), reason="rebelote.solver is not in this build")
def test_the_page_marks_a_card_that_cost_only_a_capot() -> None:
    """E's 7 of clubs in deal "B" cost 0 card points and the capot: its row is marked as a
    costly card, and the cost in the mark counts in E's total."""
    import re

    from rebelote.web.table.pages import analysis_rows, templates

    cards = analyse(_constructed("B", "7C")[-1])
    rows, totals = analysis_rows(cards, 2)  # as S sees it
    html = templates.environment("fr").get_template("table/analysis.html").render(
        path="/", cards=rows, n=1, table_id="t", totals=totals, error=None)
    seven = next(r for r in rows if r["card"] == "7C")
    assert seven["cost"] == 0 and seven["mark_cost"] > 0 and seven["costly"]
    assert totals["E"][1] >= seven["mark_cost"]
    row = next(r for r in re.findall(r"<tr[^>]*>.*?</tr>", html, flags=re.S)
               if 'aria-label="sept de trèfle"' in r)
    assert row.startswith('<tr class="costly">')
    assert re.findall(r"<td>(-?\d+)</td>", row)[-2:] == ["0", str(seven["mark_cost"])]
    assert sum(r["costly"] for r in rows) == sum(bool(c["cost"] or c["mark_cost"])
                                                 for c in cards)


@pytest.mark.skipif(not solver_available(), reason="rebelote.solver is not in this build")
def test_the_page_shows_the_four_hands_and_says_what_each_number_is() -> None:
    """The analysis page (issue 18, item 7): the four hands as play began, and per player the
    costliest card in the mark, not a sum of per-card costs that ran to several times what the
    deal was worth; a legend says what each column is."""
    import re

    from rebelote.web.table.pages import analysis_hands, analysis_rows, templates

    states = _constructed("B", "7C")
    deal = states[-1]
    cards = analyse(deal)
    rows, totals = analysis_rows(cards, 2)
    hands = analysis_hands(deal, 2)
    assert sorted(hands) == ["E", "N", "S", "W"] and all(len(h) == 8 for h in hands.values())
    assert set().union(*map(set, hands.values())) == {c for c in
                                                      (r["card"] for r in rows)}
    for seat, (points, worst, costly) in totals.items():
        mine = [r for r in rows if r["rel"] == seat]
        assert points == sum(r["cost"] for r in mine)
        assert worst == max(r["mark_cost"] for r in mine)
        assert costly == sum(r["costly"] for r in mine)
    html = templates.environment("fr").get_template("table/analysis.html").render(
        path="/", cards=rows, n=1, table_id="t", totals=totals, hands=hands, error=None)
    listed = re.findall(r'<li><strong>([^<]+)</strong>(.*?)</li>', html, flags=re.S)
    assert [who for who, _ in listed] == ["Vous", "Ouest", "Partenaire", "Est"]
    assert all(len(re.findall(r'role="img"', cells)) == 8 for _, cells in listed)
    assert "Carte la plus coûteuse en marque" in html
    assert "ne s’additionnent pas" in html and 'id="legend"' in html
