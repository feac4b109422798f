"""Deal summaries: what a counter at a real table knows of a deal, and reading one from JSON.

A :class:`DealSummary` holds who took, the trick points, capot, the declarations that count,
the belote, the contract and its coinche (pairs are (NS, EW)). :meth:`DealSummary.from_json`
reads the deal summary of docs/interfaces.md and checks it against the rules; every mistake is an
:class:`~rebelote.errors.InputError` naming the field. Scoring a summary is
:func:`rebelote.scoring.score_deal`'s job.

>>> rules = summary_rules({"game": "coinche"})
>>> s = DealSummary.from_json({"trump": "spades", "taker": "NS", "contract": 90,
...                            "points": {"NS": 97}}, rules)
>>> s.points, s.contract, s.contract_value(rules)
((97, 65), 90, 90)
>>> DealSummary.from_json({"trump": "spades", "taker": "NS", "contract": 95,
...                        "points": {"NS": 97}}, rules)
Traceback (most recent call last):
  ...
rebelote.errors.InputError: contract: 95 is not a contract: 80 to 160 by ten, "capot" or "generale"
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final, Literal

from rebelote.cards import HEARTS, TEAMS, Team, other_team
from rebelote.errors import InputError, RulesError
from rebelote.numbers import is_digits
from rebelote.rules import (
    ALL_TRUMP,
    CAPOT_LAST_TRICK,
    CAPOT_VALUE,
    CONTRACTS,
    DIX_DE_DER,
    GAMES,
    NO_TRUMP,
    TRUMP_NAMES,
    Game,
    Rules,
    TrumpMode,
    parse_rules,
    parse_trump,
)

__all__ = [
    "COINCHE_NAMES",
    "DealSummary",
    "Kind",
    "Pair",
    "is_declaration_total",
    "summaries_from_json",
    "summary_rules",
]

Kind = Literal["deal", "void", "adjust"]
Pair = tuple[int, int]

COINCHE_NAMES: Final = {1: "none", 2: "coinche", 4: "surcoinche"}
_COINCHE_WORDS: Final = {"none": 1, "coinche": 2, "surcoinche": 4, "contre": 2, "surcontre": 4}
_DEAL_KEYS: Final = frozenset({
    "game", "rules", "options", "trump", "taker", "contract", "coinche", "points", "cards",
    "last_trick", "capot", "generale", "declarations", "belote", "held_over", "void", "adjust",
    "id", "note",
})


@dataclass(frozen=True, slots=True)
class DealSummary:
    """What a counter at a real table knows of a deal. Pairs are (NS, EW)."""

    game: Game
    taker: Team | None = None
    trump: TrumpMode = HEARTS
    points: Pair = (0, 0)
    contract: int | str | None = None
    coinche: int = 1
    capot: Team | None = None
    generale: bool = False
    declarations: Pair = (0, 0)
    belote: Pair = (0, 0)
    held_over: int = 0
    kind: Kind = "deal"
    adjust: Pair = (0, 0)

    @classmethod
    def from_json(cls, obj: Mapping[str, Any], rules: Rules) -> DealSummary:
        """Read and check a deal summary (docs/interfaces.md); :class:`InputError` names the
        field."""
        return _parse_summary(obj, rules)

    @classmethod
    def void(cls, game: Game) -> DealSummary:
        return cls(game=game, kind="void")

    @classmethod
    def adjustment(cls, game: Game, ns: int, ew: int) -> DealSummary:
        return cls(game=game, kind="adjust", adjust=(ns, ew))

    @property
    def defense(self) -> Team | None:
        if self.taker is None:
            return None
        return other_team(self.taker)

    def contract_value(self, rules: Rules) -> int:
        """The value V of a contract: the bid, the capot's (option ``capot_value``: 250, or
        270), the générale's."""
        if self.contract == "capot":
            return rules.capot_value
        if self.contract == "generale":
            return rules.generale_value
        return int(self.contract or 0)

    def to_json(self) -> dict[str, Any]:
        """The deal summary of docs/interfaces.md, without ``game`` and ``rules``."""
        if self.kind == "void":
            out: dict[str, Any] = {"void": True}
            if self.held_over:
                out["held_over"] = self.held_over
            return out
        if self.kind == "adjust":
            return {"adjust": {"NS": self.adjust[0], "EW": self.adjust[1]}}
        out = {"trump": TRUMP_NAMES[self.trump], "taker": self.taker}
        if self.game != "belote":
            out["contract"] = self.contract
            out["coinche"] = COINCHE_NAMES[self.coinche]
        out["points"] = {"NS": self.points[0], "EW": self.points[1]}
        out["capot"] = self.capot
        if self.generale:
            out["generale"] = True
        decl = {t: v for t, v in zip(TEAMS, self.declarations, strict=True) if v}
        if decl:
            out["declarations"] = decl
        if self.belote != (0, 0):
            if sum(self.belote) == 1 and self.trump != ALL_TRUMP:
                out["belote"] = "NS" if self.belote[0] else "EW"
            else:
                out["belote"] = {t: n for t, n in zip(TEAMS, self.belote, strict=True) if n}
        if self.held_over:
            out["held_over"] = self.held_over
        return out


def summary_rules(obj: Mapping[str, Any], game: str | None = None) -> Rules:
    """The rule set named by an object's ``game``, ``rules`` and ``options``. ``rules`` is a
    preset's name or a rule set's text form (``contree:ffb,rounding=none``)."""
    games = ", ".join(GAMES)
    name = obj.get("rules")
    text = isinstance(name, str) and ":" in name
    if game is None:
        raw_game = obj.get("game")
        if raw_game is None:
            if text:
                raw_game = str(name).partition(":")[0].strip().lower()
            elif "void" in obj or "adjust" in obj:
                raw_game = "coinche"
            else:
                raise InputError("game", f"missing: {games}")
        if raw_game not in GAMES:
            raise InputError("game", f"{raw_game!r} is not a game: {games}")
        game = raw_game
    if name is not None and not isinstance(name, str):
        raise InputError("rules", f"{name!r} is not a rule set: a preset's name or a text "
                                  "form like contree:ffb,rounding=none")
    options = obj.get("options")
    if options is not None and not isinstance(options, Mapping):
        raise InputError("options", "must be an object of rule options")
    try:
        if text:
            rules = parse_rules(str(name))
            if rules.game != game:
                raise InputError("rules", f"{name!r} is a rule set of {rules.game}, and this "
                                          f"game is {game}")
            return rules.replace(**dict(options)) if options else rules
        return Rules.from_options(name, game, options)
    except RulesError as e:
        raise InputError(e.field, e.reason) from None


def _int(obj: Mapping[str, Any], key: str, value: Any, *, minimum: int | None = 0) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        if isinstance(value, float) and value.is_integer():
            value = int(value)
        else:
            raise InputError(key, f"must be a whole number, not {value!r}")
    if minimum is not None and value < minimum:
        raise InputError(key, f"must be {minimum} or more, not {value}")
    return int(value)


def _team(key: str, value: Any, *, optional: bool = False) -> Team | None:
    if value is None and optional:
        return None
    if isinstance(value, str) and value.strip().upper() in TEAMS:
        return value.strip().upper()  # type: ignore[return-value]
    raise InputError(key, f"{value!r} is not a team: NS or EW" + (" or null" if optional else ""))


def _team_pair(key: str, value: Any, *, minimum: int | None = 0) -> dict[Team, int]:
    if not isinstance(value, Mapping):
        raise InputError(key, f"must be an object of teams, like {{\"NS\": 20}}, not {value!r}")
    out: dict[Team, int] = {}
    for k, v in value.items():
        team = _team(f"{key}", k)
        assert team is not None
        out[team] = _int(value, f"{key}.{team}", v, minimum=minimum)
    return out


def is_declaration_total(points: int) -> bool:
    """Can declarations add up to ``points``? Sums of 20, 50, 100, 150 and 200 are every
    multiple of ten from 40 on, and 20 (so 10, 30 and 35 cannot be)."""
    return points == 0 or points == 20 or (points >= 40 and points % 10 == 0)


def _parse_summary(obj: Mapping[str, Any], rules: Rules) -> DealSummary:
    if not isinstance(obj, Mapping):
        raise InputError("", f"a deal summary is a JSON object, not {type(obj).__name__}")
    unknown = sorted(k for k in obj if k not in _DEAL_KEYS and not str(k).startswith("_"))
    if unknown:
        raise InputError(unknown[0], "unknown field (known: " + ", ".join(sorted(
            _DEAL_KEYS - {"id", "note"})) + ")")
    game = rules.game
    held = _int(obj, "held_over", obj.get("held_over", 0)) if "held_over" in obj else 0
    if held and game != "belote":
        raise InputError("held_over", f"{game} has no litige: nothing is held over")

    if "void" in obj:
        if obj["void"] is not True and obj["void"] is not False:
            raise InputError("void", f"must be true or false, not {obj['void']!r}")
        if obj["void"]:
            extra = sorted(set(obj) - {"void", "game", "rules", "options", "held_over", "id",
                                       "note"})
            if extra:
                raise InputError(extra[0], "a void deal carries nothing but its reserve")
            return DealSummary(game=game, kind="void", held_over=held)
    if "adjust" in obj:
        extra = sorted(set(obj) - {"adjust", "game", "rules", "options", "held_over", "id",
                                   "note", "void"})
        if extra:
            raise InputError(extra[0], "an adjustment line carries only the points it marks")
        adj = _team_pair("adjust", obj["adjust"], minimum=None)
        if not adj:
            raise InputError("adjust", "give the points of at least one team, like {\"NS\": 50}")
        return DealSummary(game=game, kind="adjust", held_over=held,
                           adjust=(adj.get("NS", 0), adj.get("EW", 0)))

    # trump
    if "trump" in obj and obj["trump"] is not None:
        try:
            trump = parse_trump(obj["trump"])
        except RulesError as e:
            raise InputError("trump", str(e)) from None
    else:
        trump = HEARTS  # any suit: a suit contract counts the same in every suit
    if "taker" not in obj or obj["taker"] is None:
        raise InputError("taker", "missing: the team that took, NS or EW")
    taker = _team("taker", obj["taker"])
    assert taker is not None

    # contract and coinche
    contract: int | str | None = None
    multiplier = 1
    if game == "belote":
        if obj.get("contract") is not None:
            raise InputError("contract", "belote has no contract: the taker takes the turned "
                                         "card (contracts are for coinche and contrée)")
        if obj.get("coinche") not in (None, "none"):
            raise InputError("coinche", "belote has no coinche (coinche is for coinche and "
                                        "contrée)")
    else:
        if obj.get("contract") is None:
            raise InputError("contract", "missing: 80 to 160 by ten, \"capot\" or \"generale\"")
        contract = _parse_contract(obj["contract"], rules)
        raw = obj.get("coinche", "none")
        if raw is None:
            raw = "none"
        if isinstance(raw, str) and raw.strip().lower() in _COINCHE_WORDS:
            multiplier = _COINCHE_WORDS[raw.strip().lower()]
        else:
            raise InputError("coinche", f"{raw!r} is not one of none, coinche, surcoinche")
        if multiplier > 1 and contract in ("capot", "generale") and not rules.coinche_capot:
            raise InputError("coinche", f"a {contract} contract cannot be coinched under these "
                                        "rules (option coinche_capot is off)")

    capot = _team("capot", obj.get("capot"), optional=True)
    generale = obj.get("generale", False)
    if generale is None:
        generale = False
    if not isinstance(generale, bool):
        raise InputError("generale", f"must be true or false, not {generale!r}")

    points, capot = _parse_points(obj, rules, trump, taker, capot)
    if generale and capot != taker:
        raise InputError("generale", "a générale is the taker alone winning every trick: "
                                     f"capot must be {taker}")

    # declarations
    decl = (0, 0)
    if obj.get("declarations") is not None:
        d = _team_pair("declarations", obj["declarations"])
        if d.get("NS", 0) and d.get("EW", 0):
            raise InputError("declarations", "only one team scores declarations, the one that "
                             "showed the strongest; got both NS and EW")
        for team, v in d.items():
            if not is_declaration_total(v):
                raise InputError(f"declarations.{team}", f"{v} is not a sum of declarations "
                                 "(tierce 20, cinquante 50, cent 100, carrés 100, 150, 200)")
        if any(d.values()) and not rules.declarations:
            raise InputError("declarations", "declarations are off in these rules "
                                             "(option declarations)")
        decl = (d.get("NS", 0), d.get("EW", 0))

    belote = _parse_belote(obj.get("belote"), trump)
    return DealSummary(
        game=game, taker=taker, trump=trump, points=points, contract=contract,
        coinche=multiplier, capot=capot, generale=generale, declarations=decl, belote=belote,
        held_over=held,
    )


def _parse_contract(raw: Any, rules: Rules) -> int | str:
    if isinstance(raw, str):
        word = raw.strip().lower().replace("é", "e")
        if word == "capot":  # "250" is read as the number below
            return "capot"
        if word == "generale":
            if not rules.generale:
                raise InputError("contract", "générale is off in these rules (option generale)")
            return "generale"
        if is_digits(word):
            raw = int(word)
        else:
            raise InputError("contract", f"{raw!r} is not a contract: 80 to 160 by ten, "
                                         "\"capot\" or \"generale\"")
    if isinstance(raw, bool) or not isinstance(raw, int):
        raise InputError("contract", f"{raw!r} is not a contract: 80 to 160 by ten, "
                                     "\"capot\" or \"generale\"")
    if raw == CAPOT_VALUE:
        return "capot"
    if raw not in CONTRACTS:
        raise InputError("contract", f"{raw} is not a contract: 80 to 160 by ten, "
                                     "\"capot\" or \"generale\"")
    return raw


def _parse_belote(raw: Any, trump: TrumpMode) -> Pair:
    if raw is None:
        return (0, 0)
    if isinstance(raw, str):
        team = _team("belote", raw)
        counts = {team: 1}
    elif isinstance(raw, Mapping):
        counts = {}
        for k, v in raw.items():
            team = _team("belote", k)
            assert team is not None
            counts[team] = _int(raw, f"belote.{team}", v)
    else:
        raise InputError("belote", f"{raw!r} is not a team (NS, EW) or counts like "
                                   "{\"NS\": 1, \"EW\": 2}")
    total = sum(counts.values())
    if total and trump == NO_TRUMP:
        raise InputError("belote", "there is no belote in no-trump")
    limit = 4 if trump == ALL_TRUMP else 1
    if total > limit:
        where = "all-trump (one per suit)" if trump == ALL_TRUMP else "a suit contract"
        raise InputError("belote", f"{total} belotes: at most {limit} in {where}")
    return (counts.get("NS", 0), counts.get("EW", 0))


def _parse_points(obj: Mapping[str, Any], rules: Rules, trump: TrumpMode, taker: Team,
                  capot: Team | None) -> tuple[Pair, Team | None]:
    deal_total = rules.deal_total(trump)
    capot_total = rules.capot_total(trump)
    card_total = rules.card_total(trump)
    has_points = obj.get("points") is not None
    has_cards = obj.get("cards") is not None
    if has_points and has_cards:
        raise InputError("points", "give either points (with the dix de der) or cards with "
                                   "last_trick, not both")
    if not has_points and not has_cards:
        if capot is not None:  # a capot says all the points: capot total / 0
            return ((capot_total, 0) if capot == "NS" else (0, capot_total)), capot
        raise InputError("points", "missing: the takers' trick points with the dix de der "
                                   "(or both teams'), or cards with last_trick")
    if has_cards:
        cards = _team_pair("cards", obj["cards"])
        if not cards:
            raise InputError("cards", "give the card points of at least one team")
        for team, v in cards.items():
            if v > card_total:
                raise InputError(f"cards.{team}", f"{v} is more than the {card_total} points "
                                                  "of the cards")
        if len(cards) == 2 and cards["NS"] + cards["EW"] != card_total:
            raise InputError("cards", f"{cards['NS']} + {cards['EW']} = "
                             f"{cards['NS'] + cards['EW']}, the cards hold {card_total}")
        known: Team = next(iter(cards))
        other = other_team(known)
        full = {known: cards[known], other: card_total - cards[known]}
        if obj.get("last_trick") is None and capot is None:
            raise InputError("last_trick", "missing: the team that won the last trick (NS or "
                                           "EW), which cards need")
        last = _team("last_trick", obj.get("last_trick"), optional=capot is not None)
        if capot is not None:
            if last is not None and last != capot:
                raise InputError("last_trick", f"{capot} is capot, so {capot} won the last trick")
            if full[capot] != card_total:
                raise InputError(f"cards.{capot}", f"{capot} is capot and holds all "
                                 f"{card_total} card points, not {full[capot]}")
            last = capot
        assert last is not None
        bonus = CAPOT_LAST_TRICK if capot is not None else DIX_DE_DER
        pts = {t: full[t] + (bonus if t == last else 0) for t in TEAMS}
        return (pts["NS"], pts["EW"]), capot

    given = _team_pair("points", obj["points"])
    if not given:
        raise InputError("points", "give the trick points of at least one team")
    if capot is not None:
        other_c = other_team(capot)
        if given.get(capot, capot_total) != capot_total or given.get(other_c, 0) != 0:
            shown = f"{given.get('NS', '?')} / {given.get('EW', '?')}"
            raise InputError("points", f"{capot} capot makes {capot_total} / 0 "
                             f"(NS / EW: {_capot_pair(capot, capot_total)}), not {shown}")
        return ((capot_total, 0) if capot == "NS" else (0, capot_total)), capot
    if len(given) == 2:
        ns, ew = given["NS"], given["EW"]
        if {ns, ew} == {capot_total, 0}:
            return (ns, ew), ("NS" if ns else "EW")
        if ns + ew != deal_total:
            raise InputError("points", f"{ns} + {ew} = {ns + ew}, a deal has {deal_total}"
                             f" ({capot_total} / 0 for a capot)")
    else:
        team = next(iter(given))
        v = given[team]
        if v == capot_total:
            pair = (v, 0) if team == "NS" else (0, v)
            return pair, team
        if v > deal_total:
            raise InputError(f"points.{team}", f"{v} is more than the {deal_total} of a deal"
                             f" ({capot_total} for a capot)")
        ns, ew = (v, deal_total - v) if team == "NS" else (deal_total - v, v)
    return (ns, ew), None


def _capot_pair(capot: Team, capot_total: int) -> str:
    return f"{capot_total} / 0" if capot == "NS" else f"0 / {capot_total}"


def summaries_from_json(deals: Sequence[Any], rules: Rules) -> list[DealSummary]:
    """Read a game's deals; errors name the deal (``deals[2].points``), counted from 1."""
    out: list[DealSummary] = []
    for i, obj in enumerate(deals, start=1):
        try:
            if not isinstance(obj, Mapping):
                raise InputError("", "a deal summary is a JSON object")
            for key in ("rules", "options"):
                if key in obj:
                    raise InputError(key, "a game's deals share the game's rules")
            if "game" in obj and obj["game"] != rules.game:
                raise InputError("game", f"this game is {rules.game}")
            out.append(DealSummary.from_json(obj, rules))
        except InputError as e:
            raise e.within(f"deals[{i}]") from None
    return out
