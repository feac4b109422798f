"""The concours core (issue 20): settings read with their fields named, registration, late
arrivals, withdrawals, corrections, swaps and redraws, the ranking against a plain reading of
the settings, the sheet check."""

from __future__ import annotations

import doctest
import functools
import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import rebelote.concours.concours
import rebelote.concours.phones
import rebelote.concours.settings
import rebelote.concours.sheet
from rebelote.concours import Concours, Settings, check_sheet, draw_key
from rebelote.errors import InputError, RebeloteError

BASE: dict[str, Any] = {"name": "Concours", "game": "belote", "parties": 4, "deals": 12}


def _new(**changes: Any) -> Concours:
    obj = {**BASE, "teams": [{"name": f"T{i}"} for i in range(1, 10)], **changes}
    return Concours.from_new(obj, seed="s")


@pytest.mark.parametrize(("change", "field"), [
    ({"name": ""}, "name"),
    ({"game": "tarot"}, "game"),
    ({"parties": 0}, "parties"),
    ({"parties": "4"}, "parties"),
    ({"deals": None}, "deals"),
    ({"target": -5}, "target"),
    ({"ranking": "elo"}, "ranking"),
    ({"exempt": "pot"}, "exempt"),
    ({"draw": "swiss"}, "draw"),
    ({"mode": "triplettes"}, "mode"),
    ({"withdrawal": "erase"}, "withdrawal"),
    ({"tiebreaks": ["best", "buchholz"]}, "tiebreaks[1]"),
    ({"tiebreaks": ["best", "best"]}, "tiebreaks[1]"),
    ({"seed": "a\tb"}, "seed"),
    ({"seed": ""}, "seed"),
    ({"seed": True}, "seed"),
    ({"options": {"undertrump": "sometimes"}}, "options.undertrump"),
    ({"rules": "contree:ffb"}, "rules"),
    ({"teams": [{"name": "A", "age": 3}]}, "teams[0].age"),
    ({"teams": [{"name": "A", "players": ["x"] * 5}]}, "teams[0].players"),
    ({"teams": "A, B"}, "teams"),
    ({"colour": "red"}, "colour"),
])
def test_bad_settings_name_their_field(change: dict[str, Any], field: str) -> None:
    with pytest.raises(RebeloteError) as e:
        _new(**change)
    assert e.value.field == field


def test_rules_presets_options_and_text_form() -> None:
    c = _new(game="contree", rules="cannes-2016", options={"rounding": "none"}, deals=None,
             target=2001)
    assert c.settings.rules.to_text() == "contree:cannes-2016,rounding=none"
    again = Concours.from_json(c.to_json())
    assert again == c
    c = _new(game=None, rules="coinche:house,undertrump=must")
    assert c.settings.game == "coinche" and c.settings.rules.undertrump == "must"


def _play(c: Concours, k: int, rng: random.Random) -> Concours:
    for t in c.parties[k - 1].tables:
        a = rng.randrange(0, 1945)
        c = c.record(k, t.number, [a, 1944 - a])
    return c


def test_late_arrival_withdrawal_correction() -> None:
    rng = random.Random(3)
    c = _new(withdrawal="last")
    c = _play(c.draw_next(), 1, rng)
    c = c.add_entry({"name": "Les Retardataires", "players": ["Jo", "Lu"], "paid": True})
    assert c.entries[-1].number == 10 and c.entries[-1].arrived == 1
    c = c.withdraw(4)
    with pytest.raises(RebeloteError, match="withdrew already"):
        c.withdraw(4)
    c = c.draw_next()
    placed = {n for t in c.parties[1].tables for n in t.entries} | set(c.parties[1].exempt)
    assert 10 in placed and 4 not in placed and len(placed) == 9
    assert c.parties[1].exempt and 1 not in [len(t.entries) for t in c.parties[1].tables]
    c = _play(c, 2, rng)
    assert c.standings()[-1].entry == 4  # ranked last: the "last" withdrawal rule
    # A correction re-ranks at once.
    t = c.parties[1].tables[0]
    a, b = t.entries
    before = {line.entry: line.points for line in c.standings()}
    old = t.result.scores if t.result else (0, 0)
    c = c.record(2, 1, {str(a): old[0] + 100, str(b): old[1]})
    after = {line.entry: line.points for line in c.standings()}
    assert after[a] == before[a] + 100 and after[b] == before[b]


def test_withdrawal_kept_keeps_its_points() -> None:
    c = _new(withdrawal="kept")
    c = c.draw_next()
    t = c.parties[0].tables[0]
    c = c.record(1, 1, [1900, 44])
    for x in c.parties[0].tables[1:]:
        c = c.record(1, x.number, [972, 972])
    c = c.withdraw(t.entries[0])
    assert c.standings()[0].entry == t.entries[0]


def test_swap_redraw_cancel_before_the_first_score() -> None:
    c = _new().draw_next()
    p = c.parties[0]
    a, b = p.tables[0].entries[0], p.exempt[0]
    swapped = c.swap(1, a, b)
    assert swapped.parties[0].exempt == (a,) and b in swapped.parties[0].tables[0].entries
    again = c.redraw(1)
    assert again.parties[0].attempt == 1 and again.parties[0] != p
    assert c.cancel(1).parties == ()
    started = c.record(1, 1, [1000, 944])
    for op in (lambda: started.swap(1, a, b), lambda: started.redraw(1),
               lambda: started.cancel(1)):
        with pytest.raises(RebeloteError, match="has a result"):
            op()
    with pytest.raises(RebeloteError, match="not over"):
        started.draw_next()


def test_scores_are_read_by_team_number() -> None:
    c = _new().draw_next()
    a, b = c.parties[0].tables[0].entries
    for bad, field in [({str(a): 1000}, f"scores.{b}"), ({str(a): 1, "99": 2}, "scores.99"),
                       ({str(a): -1, str(b): 3}, f"scores.{a}"), ("1000-944", "scores"),
                       ([1, 2, 3], "scores")]:
        with pytest.raises(RebeloteError) as e:
            c.record(1, 1, bad)
        assert e.value.field == field
    with pytest.raises(RebeloteError) as e:
        c.record(1, 9, [1, 2])
    assert e.value.field == "table"
    with pytest.raises(RebeloteError) as e:
        c.record(3, 1, [1, 2])
    assert e.value.field == "partie"


def test_exempt_rules() -> None:
    for rule, points, wins in [("half", 972, 0), ("win", 500, 1), ("none", 0, 0),
                               ("average", 1000, 0)]:
        c = _new(exempt=rule, exempt_score=500 if rule == "win" else None).draw_next()
        for t in c.parties[0].tables:
            c = c.record(1, t.number, [1200, 800])
        (out,) = c.parties[0].exempt
        line = next(x for x in c.standings() if x.entry == out)
        assert (line.points, line.wins, line.against, line.difference) == (points, wins, 0, 0)


def test_all_parties_then_no_more_but_more_can_be_added() -> None:
    rng = random.Random(1)
    c = _new(parties=2)
    for k in (1, 2):
        c = _play(c.draw_next(), k, rng)
    assert c.over
    with pytest.raises(RebeloteError, match="all drawn"):
        c.draw_next()
    c = c.set_parties(3).draw_next()
    assert len(c.parties) == 3
    with pytest.raises(RebeloteError):
        c.set_parties(2)


# -- the ranking, read plainly from the settings --------------------------------------------

def _plain_ranking(c: Concours) -> list[int]:
    """Read the settings as a person would: add up each team's parties, then compare two teams
    criterion by criterion in the announced order."""
    s = c.settings
    info: dict[int, dict[str, Any]] = {}
    for e in c.entries:
        info[e.number] = {"points": 0, "wins": 0, "against": 0, "table_points": 0,
                          "scores": [], "gone": e.withdrawn is not None}
    for p in c.parties:
        scored = [x for t in p.tables if t.result for x in t.result.scores]
        for t in p.tables:
            if t.result is None:
                continue
            (a,), (b,) = t.sides
            sa, sb = t.result.scores
            for me, mine, theirs in ((a, sa, sb), (b, sb, sa)):
                info[me]["points"] += mine
                info[me]["table_points"] += mine
                info[me]["against"] += theirs
                info[me]["scores"].append(mine)
                if mine > theirs:
                    info[me]["wins"] += 1
        for n in p.exempt:
            if s.exempt == "half":
                info[n]["points"] += s.deals * 81 if s.deals else (s.target or 0) // 2
            elif s.exempt == "average" and scored:
                info[n]["points"] += round(sum(scored) / len(scored) + 1e-9)
            elif s.exempt == "win":
                info[n]["points"] += s.exempt_score if s.exempt_score is not None \
                    else (s.deals or 0) * 81
                info[n]["wins"] += 1

    def better(x: int, y: int) -> int:
        """-1 when team x ranks above team y."""
        a, b = info[x], info[y]
        if s.withdrawal == "last" and a["gone"] != b["gone"]:
            return 1 if a["gone"] else -1
        criteria = (["wins"] if s.ranking == "wins" else []) + ["points", *s.tiebreaks]
        for what in criteria:
            if what in ("wins", "points"):
                va, vb = a[what], b[what]
            elif what == "difference":
                va, vb = a["table_points"] - a["against"], b["table_points"] - b["against"]
            elif what == "best":
                va, vb = max(a["scores"], default=0), max(b["scores"], default=0)
            elif what == "against":
                va, vb = -a["against"], -b["against"]
            else:
                va, vb = draw_key(s.seed, y), draw_key(s.seed, x)
            if va != vb:
                return -1 if va > vb else 1
        return -1 if x < y else 1

    return sorted(info, key=functools.cmp_to_key(better))


@settings(max_examples=150, deadline=None)
@given(teams=st.integers(4, 25), parties=st.integers(1, 5),
       ranking=st.sampled_from(["points", "wins"]),
       exempt=st.sampled_from(["half", "average", "win", "none"]),
       withdrawal=st.sampled_from(["kept", "last"]),
       tiebreaks=st.permutations(["difference", "best", "against", "draw"]),
       close=st.booleans(), rng=st.randoms(use_true_random=False))
def test_ranking_agrees_with_a_plain_reading(teams: int, parties: int, ranking: str,
                                             exempt: str, withdrawal: str,
                                             tiebreaks: list[str], close: bool,
                                             rng: random.Random) -> None:
    c = Concours.from_new({**BASE, "parties": parties, "ranking": ranking, "exempt": exempt,
                           "withdrawal": withdrawal, "tiebreaks": tiebreaks,
                           "teams": [f"T{i}" for i in range(teams)]}, seed="plain")
    for k in range(1, parties + 1):
        if k > 1 and rng.random() < 0.3 and len(c.active) > 4:
            c = c.withdraw(rng.choice(c.active).number)
        c = c.draw_next()
        for t in c.parties[-1].tables:
            if k == parties and rng.random() < 0.3:
                continue  # the last partie still being played
            # "close": few distinct scores, so that ties reach the tie-breaks.
            a = rng.choice([900, 972, 1044]) if close else rng.randrange(0, 1945)
            c = c.record(k, t.number, [a, 1944 - a])
    assert [line.entry for line in c.standings()] == _plain_ranking(c)


def test_sheet_check_where_the_rules_allow_it() -> None:
    plain = Settings.from_json({**BASE, "options": {"declarations": False}}, seed="s")
    assert check_sheet(plain, (1204, 740)) is not None
    assert check_sheet(plain, (1204, 740)).ok  # type: ignore[union-attr]
    bad = check_sheet(plain, (1200, 740))
    assert bad is not None and not bad.ok and "check the sheet" in bad.reason
    # 2 belotes and a capot: 1944 + 40 + 90.
    assert check_sheet(plain, (1300, 774), belotes=2, capots=1).ok  # type: ignore[union-attr]
    wrong = check_sheet(plain, (1300, 774), belotes=1, capots=1)
    assert wrong is not None and not wrong.ok and wrong.expected == 2054
    # Declarations, coinche, a target without a number of deals: no check.
    assert check_sheet(Settings.from_json(BASE, seed="s"), (1, 2)) is None
    assert check_sheet(Settings.from_json({**BASE, "game": "coinche"}, seed="s"), (1, 2)) is None
    target = Settings.from_json({**BASE, "options": {"declarations": False}, "deals": None,
                                 "target": 1000}, seed="s")
    assert check_sheet(target, (1000, 620)) is None
    assert check_sheet(target, (1000, 630), deals=10).ok is False  # type: ignore[union-attr]
    c = _new(options={"declarations": False}).draw_next()
    c = c.record(1, 1, [1204, 750], sheet={"deals": 12})
    assert c.view_json()["parties"][0]["tables"][0]["check"]["ok"] is False


def test_view_json_has_the_api_names() -> None:
    c = _new().draw_next()
    view = c.view_json()
    assert set(view["ranking"][0]) >= {"rank", "team", "name", "points", "wins", "against"}
    table = view["parties"][0]["tables"][0]
    assert set(table) >= {"table", "teams"} and all(isinstance(n, int) for n in table["teams"])


@pytest.mark.parametrize("module", [rebelote.concours.concours, rebelote.concours.settings,
                                    rebelote.concours.sheet, rebelote.concours.phones])
def test_doctests(module: Any) -> None:
    assert doctest.testmod(module).failed == 0


def test_a_phone_settles_until_its_partie_is_closed() -> None:
    """The concours follows a table's phone while the partie is open; once the next one is
    drawn the phone is refused; the organiser's correction keeps what the phone counted."""
    c = _new().draw_next()
    for t in c.parties[0].tables:
        c = c.settle(1, t.number, (100, 62))
    c = c.settle(1, 1, None)  # a deal undone on the phone: the result leaves
    assert c.parties[0].tables[0].result is None and not c.closed(1)
    c = c.settle(1, 1, (90, 72))
    corrected = c.record(1, 1, [95, 67])
    result = corrected.parties[0].tables[0].result
    assert result is not None and result.source == "corrected" and result.phone == (90, 72)
    assert corrected.settle(1, 1, (0, 162)) is corrected  # the organiser's word stands
    again = Concours.from_json(corrected.to_json())
    assert again.parties[0].tables[0].result == result
    c = c.draw_next()
    assert c.closed(1) and not c.closed(2)
    with pytest.raises(InputError, match="closed"):
        c.settle(1, 1, (162, 0))


def test_a_withdrawal_is_taken_back_before_the_next_draw() -> None:
    c = _new().withdraw(2)
    c = c.reinstate(2)
    assert c.entries[1].withdrawn is None
    c = c.withdraw(2).draw_next()
    with pytest.raises(InputError, match="register it again"):
        c.reinstate(2)
