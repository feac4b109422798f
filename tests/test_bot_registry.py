"""Bots by name and level: one spec parser, levels passed to the factory, clear refusals."""

from __future__ import annotations

import random
import re

import pytest

from rebelote import bots
from rebelote.bots import (
    BotSpec,
    HeuristicBot,
    RandomBot,
    bot_levels,
    known_specs,
    make_bot,
    parse_bot_spec,
    register_bot,
)
from rebelote.commands._deal import parse_bots


class LevelBot(RandomBot):
    def __init__(self, level: str = "normal") -> None:
        if level not in ("normal", "fast", "strong") and not level.isdigit():
            raise ValueError(f"{level!r} is not a level or a budget")
        super().__init__()
        self.level = level


@pytest.fixture
def with_level_bot(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(bots, "_REGISTRY", dict(bots._REGISTRY))
    register_bot("levelled", LevelBot, levels=("fast", "strong"))


def test_specs_are_read_in_one_place() -> None:
    assert parse_bot_spec("heuristic") == BotSpec("heuristic")
    assert parse_bot_spec(" Random ") == BotSpec("random")
    assert str(BotSpec("pimc", "fast")) == "pimc:fast"
    assert isinstance(make_bot("heuristic"), HeuristicBot)
    assert isinstance(make_bot(BotSpec("random")), RandomBot)
    with pytest.raises(ValueError,
                       match="known bots: heuristic, learned, net, pimc, random, tuned"):
        parse_bot_spec("nobody:fast")
    with pytest.raises(ValueError, match="not ''"):
        parse_bot_spec("")


def test_levels_reach_the_factory(with_level_bot: None) -> None:
    bot = make_bot("levelled:strong")
    assert isinstance(bot, LevelBot) and bot.level == "strong"
    assert make_bot("LEVELLED").level == "normal"  # type: ignore[attr-defined]
    assert make_bot("levelled:64").level == "64"  # type: ignore[attr-defined]
    assert bot_levels("levelled") == ("fast", "strong")
    assert "levelled:fast" in known_specs() and "heuristic" in known_specs()
    with pytest.raises(ValueError, match=r"unknown level 'huge' \(levels: fast, strong\)"):
        make_bot("levelled:huge")
    with pytest.raises(ValueError, match="a level after ':'"):
        make_bot("levelled:")


def test_every_command_takes_specs(with_level_bot: None) -> None:
    players = parse_bots("heuristic,levelled:fast,random,heuristic")
    assert [type(p).__name__ for p in players] == ["HeuristicBot", "LevelBot", "RandomBot",
                                                   "HeuristicBot"]
    with pytest.raises(ValueError, match="bad name"):
        register_bot("bad:name", RandomBot)


def test_the_same_seed_gives_the_same_bot_choices() -> None:
    from rebelote.deal import DealState
    from rebelote.rules import Rules

    def run(spec: str) -> tuple[object, ...]:
        state = DealState.new(Rules.preset("official", "belote"), dealer=0, seed=5)
        bot, rng = make_bot(spec), random.Random(11)
        while not state.is_terminal:
            state = state.apply(bot.act(state.observation(state.current_player), rng))
        return state.tricks

    for spec in ("heuristic", "random"):
        assert run(spec) == run(spec)


def test_levels_for_people_are_registry_specs_named_in_both_languages() -> None:
    from rebelote.bots import DEFAULT_LEVEL, PLAYER_LEVELS, player_level

    assert [lv.key for lv in PLAYER_LEVELS] == ["debutant", "club", "fort", "expert"]
    for level in PLAYER_LEVELS:
        make_bot(level.spec)  # each one a spec the registry makes
        for lang in ("fr", "en"):
            assert level.name(lang) and level.explain(lang).endswith(".")
        # French typography: a no-break space before ; : ! ? (it was a plain one)
        assert not re.search(r"[^\u00a0][;:!?]", level.explain("fr")), level.key
        assert player_level(level.name("fr")) is level
    assert player_level("Débutant").name("fr") == "débutant"
    assert player_level(DEFAULT_LEVEL).key == DEFAULT_LEVEL
    with pytest.raises(ValueError, match="levels: debutant, club, fort, expert"):
        player_level("maître")
    # club is the learned player since 7 December (docs/levels.md); it was the search's 8
    # worlds a card, whose tables keep their spec and their name
    assert player_level("club").spec == "net"
    assert player_level("club").former == ("pimc:fast+tuned", "pimc:fast")
