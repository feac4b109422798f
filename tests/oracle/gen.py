"""Random *valid* inputs: deal summaries, games and trick positions.

Every generator takes a ``random.Random`` (a seeded one for plain loops, or the one Hypothesis
draws with ``st.randoms(use_true_random=False)`` so that failures shrink) and returns the JSON
object of docs/interfaces.md. Summaries respect the constraints of a real table: trick points are
those of a real split of the cards (or, now and then, any number that adds up, a tie or an exact
contract on purpose), declarations that count belong to one team and are sums of real values,
belotes only where a trump has a king and queen, contracts 80..160 / capot / générale in coinche,
a held-over litige reserve only in belote.
"""

from __future__ import annotations

import functools
import random
from typing import Any

from hypothesis import strategies as st

from oracle import play
from oracle.scoring import (
    SUIT_TRUMPS,
    TEAMS,
    TRUMPS,
    capot_total,
    card_total,
    deal_total,
    default_preset,
    other,
    rules_of,
)

GAMES = ("belote", "coinche", "contree")
# The rule sets of each game ("official" in contrée is the ffb preset).
PRESETS = {
    "belote": ("official", "house"),
    "coinche": ("official", "house"),
    "contree": ("ffb", "ffb-ludique", "cannes-2016", "annonces", "exact", "official"),
}
# The ways of counting of the auction games and their values (oracle.conventions).
COUNTING_CHOICES: dict[str, tuple[Any, ...]] = {
    "counting": ("made_plus_bid", "made", "bid"),
    "failure_base": (160, 162, 0),
    "coinche_form": ("whole", "contract", "flat", "base"),
    "surcoinche": (4, 3),
    "belote_prenable": (True, False),
    "belote_multiplied": (True, False),
    "must_outscore": (True, False),
    "capot_bid": ("contract", "prime"),
    "capot_value": (250, 270),
    "capot_unbid": (252, 250),
    "capot_failed": ("formula", "prime"),
    "rounding_scope": ("mark", "points"),
    "last_deal_exact": (True, False),
    "target_rule": ("reach", "exceed"),
}

SEQUENCE_VALUES = (20, 20, 20, 50, 50, 100)  # tierce, cinquante, cent
CARRE_VALUES = (100, 100, 100, 100, 150, 200)  # four ranks at 100, one at 150, one at 200


def random_declarations(rng: random.Random) -> int:
    """The points of a team's declarations: a few sequences and carrés of different ranks."""
    carres = rng.sample(range(len(CARRE_VALUES)), rng.choice([0, 0, 0, 1, 1, 2]))
    n_seq = rng.choice([1, 1, 1, 2, 2, 3]) if not carres else rng.choice([0, 0, 1])
    return sum(CARRE_VALUES[i] for i in carres) + sum(
        rng.choice(SEQUENCE_VALUES) for _ in range(n_seq))


@functools.cache
def possible_card_points(trump: str, no_trump_aces: int, all_trump_scale: str) -> frozenset[int]:
    """Every number of card points some set of the 32 cards is worth."""
    opts = {"no_trump_aces": no_trump_aces, "all_trump_scale": all_trump_scale}
    sums = {0}
    for card in play.DECK:
        v = play.card_value(card, trump, opts)
        sums |= {s + v for s in sums}
    return frozenset(sums)


def random_options(rng: random.Random, game: str) -> dict[str, Any]:
    """A random set of rule-set options (docs/rules.md section 9), often empty."""
    opts: dict[str, Any] = {}
    if rng.random() < 0.5:
        return opts
    if rng.random() < 0.3:
        opts["rounding"] = rng.choice(["nearest", "six_up", "none"])
    if rng.random() < 0.25:
        opts["belote_counts_for_contract"] = rng.random() < 0.5
    if rng.random() < 0.25:
        opts["no_trump_aces"] = rng.choice([19, 11])
    if rng.random() < 0.25:
        opts["all_trump_scale"] = rng.choice(["reduced", "trump"])
    if game != "belote":
        for key, values in COUNTING_CHOICES.items():
            if rng.random() < 0.15:
                opts[key] = rng.choice(values)
        if game == "contree" and rng.random() < 0.1:
            opts["declarations"] = True
        if rng.random() < 0.2:
            opts["generale"] = rng.random() < 0.5
        if rng.random() < 0.2:
            opts["generale_value"] = rng.choice([400, 500, 600, 1000])
        if rng.random() < 0.2:
            opts["coinche_capot"] = rng.random() < 0.5
    else:
        if rng.random() < 0.25:
            opts["litige"] = rng.choice(["hold", "defense"])
        if rng.random() < 0.2:
            opts["declarations"] = rng.random() < 0.5
    if rng.random() < 0.2:
        opts["belote_alone_wins"] = rng.random() < 0.5
    return opts


def _team_dict(rng: random.Random, values: dict[str, int]) -> dict[str, int]:
    keys = list(values)
    rng.shuffle(keys)
    return {k: values[k] for k in keys}


def _card_split(rng: random.Random, trump: str, opts: dict[str, Any]) -> int:
    """The card points of a random set of 4..28 cards (a team's tricks in a real deal)."""
    deck = list(play.DECK)
    rng.shuffle(deck)
    n = 4 * rng.randint(1, 7)
    return sum(play.card_value(c, trump, opts) for c in deck[:n])


def random_summary(rng: random.Random, game: str | None = None, *, in_game: bool = False,
                   opts_in: dict[str, Any] | None = None, name: str | None = None,
                   ) -> dict[str, Any]:
    """A valid deal summary; with ``in_game`` one without ``game``/``rules``/``held_over``.

    ``opts_in`` and ``name`` are the game's options and rule set when ``in_game``.
    """
    game = game or rng.choice(GAMES)
    if in_game:
        options = opts_in or {}
        rules_name = name or default_preset(game)
    else:
        options = random_options(rng, game)
        rules_name = rng.choice(PRESETS[game])
    full = rules_of({"game": game, "rules": rules_name, "options": options})
    out: dict[str, Any] = {}
    if not in_game:
        out["game"] = game
        if rules_name != default_preset(game) or rng.random() < 0.5:
            out["rules"] = rules_name
        if options or rng.random() < 0.2:
            out["options"] = options
    trump = rng.choice([*SUIT_TRUMPS, *SUIT_TRUMPS, "no-trump", "all-trump"])
    taker = rng.choice(TEAMS)
    defense = other(taker)
    out["trump"] = trump
    out["taker"] = taker

    # The contract first: a capot bid makes a capot likelier.
    contract: Any = None
    if game != "belote":
        r = rng.random()
        if r < 0.08:
            contract = "capot"
        elif r < 0.12 and full["generale"]:
            contract = "generale"
        else:
            contract = rng.choice(range(80, 170, 10))
        out["contract"] = contract
        coinche = rng.choices(["none", "coinche", "surcoinche"], [6, 3, 1])[0]
        if contract in ("capot", "generale") and not full["coinche_capot"]:
            coinche = "none"
        if coinche != "none" or rng.random() < 0.3:
            out["coinche"] = coinche

    r = rng.random()
    big = contract in ("capot", "generale")
    capot = taker if r < (0.5 if big else 0.08) else defense if r > 0.96 else None
    if capot is not None or rng.random() < 0.2:
        out["capot"] = capot
    generale = capot == taker and (contract == "generale" or rng.random() < 0.3) \
        and rng.random() < 0.8
    if game != "belote" and (generale or rng.random() < 0.1):
        out["generale"] = generale

    # Declarations that count: one team's, a sum of real declaration values.
    decl = {"NS": 0, "EW": 0}
    if full["declarations"] and rng.random() < 0.45:
        team = rng.choice(TEAMS)
        decl[team] = random_declarations(rng)
        out["declarations"] = {team: decl[team]}
    elif rng.random() < 0.05:
        out["declarations"] = {}

    # Belote: one team in a suit, up to four (at most two a team here... any split) in all-trump.
    bel = {"NS": 0, "EW": 0}
    if trump in SUIT_TRUMPS and rng.random() < 0.35:
        team = rng.choice(TEAMS)
        bel[team] = 1
        out["belote"] = team
    elif trump == "all-trump" and rng.random() < 0.5:
        n = rng.randint(1, 4)
        for _ in range(n):
            bel[rng.choice(TEAMS)] += 1
        if n == 1 and rng.random() < 0.5:
            out["belote"] = "NS" if bel["NS"] else "EW"
        else:
            out["belote"] = {t: v for t, v in bel.items() if v or rng.random() < 0.5}

    # Trick points.
    total_cards = card_total(trump, full)
    if capot is not None:
        pts = {capot: capot_total(trump, full), other(capot): 0}
        cards = {capot: total_cards, other(capot): 0}
        last = capot
    else:
        r = rng.random()
        dt = deal_total(trump, full)
        if r < 0.15:  # a tie of totals, when it can be reached
            twice = dt + decl[defense] + 20 * bel[defense] - decl[taker] - 20 * bel[taker]
            p = twice // 2 if twice % 2 == 0 and 10 <= twice // 2 <= dt - 10 else None
        elif r < 0.3 and game != "belote" and isinstance(contract, int):
            p = contract + rng.choice([-1, 0, 0, 1]) - decl[taker] - 20 * bel[taker]
            p = p if 10 <= p <= dt - 10 else None
        elif r < 0.4:
            p = rng.randint(10, dt - 10)
        else:
            p = None
        last = rng.choice(TEAMS)
        possible = possible_card_points(trump, full["no_trump_aces"], full["all_trump_scale"])
        if p is not None and p - (10 if last == taker else 0) not in possible:
            p = None
        if p is None:
            c = _card_split(rng, trump, full)
            cards = {taker: c, defense: total_cards - c}
        else:
            cards = {taker: p - (10 if last == taker else 0)}
            cards[defense] = total_cards - cards[taker]
        pts = {t: cards[t] + (10 if t == last else 0) for t in TEAMS}
    form = rng.random()
    if form < 0.5:
        out["points"] = _team_dict(rng, pts)
    elif form < 0.65:
        out["points"] = {taker: pts[taker]}
    elif form < 0.7:
        out["points"] = {defense: pts[defense]}
    elif form < 0.9:
        out["cards"] = _team_dict(rng, cards)
        out["last_trick"] = last
    else:
        out["cards"] = {taker: cards[taker]}
        out["last_trick"] = last
    # Points of 252 say capot by themselves: the field may be left out.
    given = out.get("points", {})
    if capot is not None and capot in given and rng.random() < 0.3:
        del out["capot"]
    if game == "belote" and not in_game and rng.random() < 0.15:
        out["held_over"] = rng.choice([0, 71, 81, 91, 65, 130])
    return out


def random_line(rng: random.Random, game: str | None = None) -> dict[str, Any]:
    """A standalone line of ``rebelote score``: mostly deal summaries, some void and adjust."""
    r = rng.random()
    if r < 0.03:
        return {"void": True}
    if r < 0.06:
        return {"adjust": {rng.choice(TEAMS): rng.choice([20, 50, 100, 150])}}
    return random_summary(rng, game)


def random_game(rng: random.Random, game: str | None = None, max_deals: int = 12,
                ) -> dict[str, Any]:
    """A valid game: target, maybe a start near it, a list of deals, voids and adjustments."""
    game = game or rng.choice(GAMES)
    options = random_options(rng, game)
    if rng.random() < 0.3:
        options["belote_alone_wins"] = rng.random() < 0.3
    name = rng.choice(PRESETS[game])
    target = rng.choice([501, 1000, 1500, 2000, 300, 700])
    out: dict[str, Any] = {"game": game}
    if name != default_preset(game) or rng.random() < 0.5:
        out["rules"] = name
    if options:
        out["options"] = options
    r = rng.random()
    if r < 0.7:
        out["target"] = target
    elif r < 0.85:  # the target as a rule-set option (docs/rules.md section 9)
        options["target"] = target
        out["options"] = options
    else:
        target = rules_of(out)["target"]
    if rng.random() < 0.3:
        out["teams"] = {"NS": "Nous", "EW": "Eux"}
    if rng.random() < 0.5:
        near = rng.random() < 0.7
        out["start"] = {t: max(0, target - rng.randint(1, 60 if near else target)) for t in TEAMS}
        if rng.random() < 0.2:
            del out["start"][rng.choice(TEAMS)]
    deals: list[dict[str, Any]] = []
    for _ in range(rng.randint(1, max_deals)):
        r = rng.random()
        if r < 0.06:
            deals.append({"void": True})
        elif r < 0.1:
            deals.append({"adjust": {rng.choice(TEAMS): rng.choice([20, 50, 100])}})
        else:
            deals.append(random_summary(rng, game, in_game=True, opts_in=options, name=name))
    out["deals"] = deals
    return out


def play_random_deal(rng: random.Random, trump: str, opts: dict[str, Any],
                     ) -> tuple[dict[str, list[str]], list[tuple[str, list[str]]]]:
    """Deal the 32 cards and play eight tricks of random legal cards (oracle's rules).

    Returns the hands as dealt and the tricks as (leader, cards in play order).
    """
    deck = list(play.DECK)
    rng.shuffle(deck)
    dealt = {s: deck[8 * i: 8 * i + 8] for i, s in enumerate(play.CLOCKWISE)}
    hands = {s: list(h) for s, h in dealt.items()}
    leader = rng.choice(play.CLOCKWISE)
    tricks: list[tuple[str, list[str]]] = []
    for _ in range(8):
        seat = leader
        cards: list[str] = []
        seats: list[str] = []
        for _ in range(4):
            card = rng.choice(sorted(play.legal_cards(hands[seat], cards, trump, opts)))
            hands[seat].remove(card)
            cards.append(card)
            seats.append(seat)
            seat = play.next_seat(seat, opts)
        tricks.append((leader, cards))
        leader = seats[play.trick_winner(cards, trump)]
    return dealt, tricks


def random_played_summary(rng: random.Random, game: str | None = None) -> dict[str, Any]:
    """The summary a counter would write after a deal really played out with random legal cards:
    card points and last trick (or points), capot and générale, belotes from the hands."""
    game = game or rng.choice(GAMES)
    name = rng.choice(PRESETS[game])
    options = random_options(rng, game)
    full = rules_of({"game": game, "rules": name, "options": options})
    trump = rng.choice([*SUIT_TRUMPS, "no-trump", "all-trump"])
    dealt, tricks = play_random_deal(rng, trump, full)
    taker_seat = rng.choice(play.CLOCKWISE)
    taker = "NS" if taker_seat in "NS" else "EW"
    cards = {"NS": 0, "EW": 0}
    winners: list[str] = []
    for leader, trick in tricks:
        order = [leader]
        while len(order) < 4:
            order.append(play.next_seat(order[-1], full))
        seat = order[play.trick_winner(trick, trump)]
        winners.append(seat)
        cards["NS" if seat in "NS" else "EW"] += play.trick_points(trick, trump, full)
    teams = {"NS" if s in "NS" else "EW" for s in winners}
    last = "NS" if winners[-1] in "NS" else "EW"
    capot = next(iter(teams)) if len(teams) == 1 else None
    out: dict[str, Any] = {"game": game, "rules": name, "options": options, "trump": trump,
                           "taker": taker}
    if game != "belote":
        out["contract"] = rng.choice([*range(80, 170, 10), "capot"])
        if rng.random() < 0.3 and (out["contract"] != "capot" or full["coinche_capot"]):
            out["coinche"] = rng.choice(["coinche", "surcoinche"])
        if capot == taker and set(winners) == {taker_seat}:
            out["generale"] = True
    if trump in SUIT_TRUMPS or trump == "all-trump":
        belotes = {"NS": 0, "EW": 0}
        for seat, hand in dealt.items():
            for s in (play.SUITS if trump == "all-trump" else play.trump_suit(trump) or ""):
                if "K" + s in hand and "Q" + s in hand:
                    belotes["NS" if seat in "NS" else "EW"] += 1
        if trump == "all-trump" and any(belotes.values()):
            out["belote"] = belotes
        elif any(belotes.values()):
            out["belote"] = "NS" if belotes["NS"] else "EW"
    if capot is not None:
        out["capot"] = capot
    if rng.random() < 0.5:
        out["cards"] = cards
        out["last_trick"] = last
    else:
        bonus = 100 if capot else 10
        out["points"] = {t: cards[t] + (bonus if t == last else 0) for t in TEAMS}
    return out


def _capot_deal(rng: random.Random, game: str, taker: str, capot: str,
                belote: str | None) -> dict[str, Any]:
    """A deal in a suit where ``capot`` wins every trick."""
    deal: dict[str, Any] = {"trump": rng.choice(SUIT_TRUMPS), "taker": taker}
    if game != "belote":
        deal["contract"] = rng.choice(range(80, 170, 10))
    deal["capot"] = capot
    deal["points"] = {capot: 252, other(capot): 0}
    if belote:
        deal["belote"] = belote
    return deal


def random_belote_alone_game(rng: random.Random, game: str | None = None) -> dict[str, Any]:
    """A game where a team near the target marks only its belote: it failed as takers, or the
    other team was capot; later deals where that team again wins no trick, voids, adjustments,
    and ordinary deals. docs/rules.md section 7: it has not won until it wins a trick later.
    """
    game = game or rng.choice(GAMES)
    name = rng.choice(PRESETS[game])
    options = {"belote_alone_wins": rng.random() < 0.2} if rng.random() < 0.5 else {}
    target = rng.choice([501, 1000, 1500, 2000])
    x = rng.choice(TEAMS)
    y = other(x)
    out: dict[str, Any] = {"game": game, "rules": name, "target": target}
    if options:
        out["options"] = options
    out["start"] = {x: target - rng.randint(1, 20), y: max(0, target - rng.randint(300, 900))}
    first: dict[str, Any]
    kind = rng.random()
    if kind < 0.5:  # the team fails as takers and keeps its belote
        first = {"trump": rng.choice(SUIT_TRUMPS), "taker": x}
        if game != "belote":
            first["contract"] = rng.choice(range(80, 170, 10))
        p = rng.choice([0, 2, 10, 14, 20, 23, 30, 44, 51])
        first["points"] = {x: p, y: 162 - p}
        first["belote"] = x
    elif kind < 0.75:  # the other team takes and is capot; the team has its belote
        first = _capot_deal(rng, game, y, y, x)
    else:  # the team takes and the defense is capot
        first = _capot_deal(rng, game, x, y, x)
    deals = [first]
    for _ in range(rng.randint(0, 6)):
        r = rng.random()
        if r < 0.3:
            deals.append(_capot_deal(rng, game, rng.choice(TEAMS), y,
                                     x if rng.random() < 0.5 else None))
        elif r < 0.4:
            deals.append({"void": True})
        elif r < 0.5:
            deals.append({"adjust": {rng.choice(TEAMS): rng.choice([20, 50])}})
        else:
            deals.append(random_summary(rng, game, in_game=True, opts_in=options, name=name))
    out["deals"] = deals
    return out


def random_position(rng: random.Random, game: str | None = None, full_trick: bool = False,
                    ) -> dict[str, Any]:
    """A position reachable by legal play: a hand and a partial trick (or a full trick)."""
    game = game or rng.choice(GAMES)
    options: dict[str, Any] = {}
    if rng.random() < 0.5:
        if rng.random() < 0.5:
            options["direction"] = rng.choice(["clockwise", "counterclockwise"])
        if rng.random() < 0.5:
            options["undertrump"] = rng.choice(["must", "may"])
        if rng.random() < 0.5:
            options["overtrump_partner"] = rng.random() < 0.5
        if rng.random() < 0.2:
            options["no_trump_aces"] = rng.choice([19, 11])
        if rng.random() < 0.2:
            options["all_trump_scale"] = rng.choice(["reduced", "trump"])
    name = rng.choice(PRESETS[game])
    full = rules_of({"game": game, "rules": name, "options": options})
    trump = rng.choice(TRUMPS)
    deck = list(play.DECK)
    rng.shuffle(deck)
    hands = {s: deck[8 * i: 8 * i + 8] for i, s in enumerate(play.CLOCKWISE)}
    leader = rng.choice(play.CLOCKWISE)
    for _ in range(rng.randint(0, 7)):
        seat = leader
        trick: list[str] = []
        seats: list[str] = []
        for _ in range(4):
            card = rng.choice(sorted(play.legal_cards(hands[seat], trick, trump, full)))
            hands[seat].remove(card)
            trick.append(card)
            seats.append(seat)
            seat = play.next_seat(seat, full)
        leader = seats[play.trick_winner(trick, trump)]
    n = 4 if full_trick else rng.randint(0, 3)
    seat = leader
    trick_pairs: list[list[str]] = []
    trick = []
    for _ in range(n):
        card = rng.choice(sorted(play.legal_cards(hands[seat], trick, trump, full)))
        hands[seat].remove(card)
        trick.append(card)
        trick_pairs.append([seat, card])
        seat = play.next_seat(seat, full)
    out: dict[str, Any] = {"game": game, "rules": name}
    if options or rng.random() < 0.2:
        out["options"] = options
    out["trump"] = trump
    if not full_trick:
        hand = list(hands[seat])
        rng.shuffle(hand)
        out["hand"] = hand
    out["trick"] = trick_pairs
    return out


# -- Hypothesis strategies: the same generators, driven by Hypothesis's shrinking random. -------
def summaries(game: str | None = None) -> st.SearchStrategy[dict[str, Any]]:
    return st.randoms(use_true_random=False).map(lambda r: random_summary(r, game))


def lines() -> st.SearchStrategy[dict[str, Any]]:
    return st.randoms(use_true_random=False).map(random_line)


def games(game: str | None = None) -> st.SearchStrategy[dict[str, Any]]:
    return st.randoms(use_true_random=False).map(lambda r: random_game(r, game))


def positions(full_trick: bool = False) -> st.SearchStrategy[dict[str, Any]]:
    return st.randoms(use_true_random=False).map(
        lambda r: random_position(r, full_trick=full_trick))
