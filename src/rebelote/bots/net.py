"""The learned player (``net``): a network distilled from our search that plays every call and
card of the three games in a fraction of a millisecond, with NumPy alone.

It reads the seat's observation through the one fixed encoding (:mod:`rebelote.bots.encoding`,
the contract's trump suit written first) and answers two heads from two layers of ReLU units:

* the **policy**, a logit for each of the 109 actions: the bot plays the legal action of the
  highest logit. It was trained on the search's expected mark of every legal card over its
  worlds (a softened best card: the teacher) and on the search's calls;
* the **value**, the seat's team's mark minus the other's (in hundreds), trained on the
  double-dummy value of the true deal (a critic that sees every hand: PerfectDou's idea).

The weights ship with the package (``rebelote/bots/data/net.npz``, float32, about 1 MB);
``scripts/train_net.py`` makes them again from a seed (:mod:`rebelote.bots.nettrain`).
Nothing here needs a training library.

>>> from rebelote.deal import DealState
>>> from rebelote.rules import parse_rules
>>> import random
>>> state = DealState.new(parse_rules("coinche:official"), dealer=0, rng=random.Random(3))
>>> action = NetBot().act(state.observation(state.player), random.Random(0))
>>> action in state.legal_actions()
True
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Any, Final, Protocol

import numpy as np
import numpy.typing as npt

from rebelote.actions import AUCTION, Action, Play
from rebelote.auction import PASS
from rebelote.bots.base import Bot
from rebelote.bots.encoding import (
    ACTIONS,
    OBSERVATION_SIZE,
    action_index,
    canonical_suits,
    encode,
    permute_action,
)
from rebelote.bots.explain import EXPLAIN, net_explanation
from rebelote.observation import Observation
from rebelote.rules import AUCTION_GAMES

__all__ = ["ALONE_LEVEL", "CALL_SCALE", "ENDGAME_CARDS", "ENDGAME_LEVEL", "KEYS", "MAX_WORLDS",
           "NetBot", "NetLevel", "forward", "legal_indices", "load_model", "make_net",
           "parse_net_level", "save_model", "shipped_model"]

Array = npt.NDArray[np.float32]
Model = dict[str, Array]

#: The weights' names: two hidden layers, the policy head (``wp``, ``bp``) and the value head.
KEYS: Final = ("w1", "b1", "w2", "b2", "wp", "bp", "wv", "bv")
WEIGHTS: Final = "net.npz"
#: The value head's unit: a mark of 100.
VALUE_SCALE: Final = 100.0
_PASS: Final = ACTIONS.index(PASS)


def forward(model: Model, x: Array) -> tuple[Array, Array]:
    """The policy's logits (``len(x) x 109``) and the values (``len(x)``, in marks) of the
    encoded observations ``x``."""
    h = np.maximum(x @ model["w1"] + model["b1"], 0.0)
    h = np.maximum(h @ model["w2"] + model["b2"], 0.0)
    logits = h @ model["wp"] + model["bp"]
    value = (h @ model["wv"] + model["bv"])[:, 0] * np.float32(VALUE_SCALE)
    return logits, value


def features(obs: Observation) -> tuple[Array, tuple[int, ...]]:
    """The encoded observation (the trump suit written first) and the suit permutation used."""
    suits = canonical_suits(obs.trump)
    x: Array = encode(obs, obs.rules.target, suits)
    return x, suits


def legal_indices(obs: Observation, suits: tuple[int, ...]
                  ) -> list[tuple[int, Action]]:
    """Each legal action of ``obs`` in the action space (permuted by ``suits``) with its index;
    the ``declare ...`` choices, outside the space, are left out."""
    out: list[tuple[int, Action]] = []
    for action in obs.legal:
        i = action_index(permute_action(action, suits))
        if i is not None:
            out.append((i, action))
    return out


def save_model(model: Model, path: str | Path) -> None:
    """Writes the weights as float32 (``np.savez``)."""
    np.savez(path, **{k: np.asarray(model[k], dtype=np.float32) for k in KEYS})  # type: ignore[arg-type]


def load_model(path: str | Path) -> Model:
    """Reads weights written by :func:`save_model`; :class:`ValueError` naming what is wrong."""
    with np.load(path) as data:
        missing = [k for k in KEYS if k not in data]
        if missing:
            raise ValueError(f"{path}: not a net's weights (missing {', '.join(missing)})")
        model = {k: np.asarray(data[k], dtype=np.float32) for k in KEYS}
    if model["w1"].shape[0] != OBSERVATION_SIZE or model["wp"].shape[1] != len(ACTIONS):
        raise ValueError(f"{path}: weights of another encoding ({model['w1'].shape[0]} inputs, "
                         f"{model['wp'].shape[1]} actions; this one has {OBSERVATION_SIZE} "
                         f"and {len(ACTIONS)})")
    return model


@lru_cache(maxsize=1)
def shipped_model() -> Model:
    """The weights shipped in the package (``rebelote/bots/data/net.npz``)."""
    ref = resources.files("rebelote.bots").joinpath("data", WEIGHTS)
    with resources.as_file(ref) as path:
        return load_model(path)


#: Marks a policy logit stands for in the calls learned as values (``train --call-q``):
#: :data:`rebelote.bots.nettrain.Q_SCALE`.
CALL_SCALE: Final = 20.0


class CardSearch(Protocol):
    """A search whose cards' marks can be asked (:meth:`rebelote.bots.pimc.PimcBot.card_values`):
    what ``net:prior`` and ``net:keep`` weigh with the policy."""

    def act(self, observation: Observation, rng: random.Random) -> Action: ...

    def card_values(self, observation: Observation, rng: random.Random
                    ) -> dict[int, float]: ...


class NetBot:
    """Plays the legal action of the highest logit of the policy; a single legal action is
    played without asking the network. ``model``: the weights (the shipped ones by default).
    ``pass_bonus``: marks added to the pass in the auction of coinche and contrée (whose calls
    are learned as values, :data:`CALL_SCALE` marks a logit): a more cautious bidder without
    training again (``net:pass=MARKS``). ``over_bonus``: marks added to the pass on top of it
    when an opponent holds the highest contract bid (its overcalls and coinches,
    ``net:over=MARKS``).

    ``endgame``: from this many cards in hand or fewer, each card with a choice is the card
    of ``search`` (the registry gives a counted search over a few worlds drawn from the
    seat's observation, :func:`rebelote.bots.pimc.endgame_budget`: deterministic from the
    ``rng``), asked with the same observation and ``rng``; the calls and the earlier cards
    stay the network's (0: the network alone, ``search`` unused).

    The search's card weighed with the policy (``search`` a :class:`CardSearch`; both 0: the
    search's own card): ``prior``, marks a unit of the policy's log-probability (over the
    legal cards) added to each card's mean mark over the worlds, the card of the highest sum
    played (``net:prior=P``); ``keep``, the network's own card played unless that sum of the
    best card beats its own by more than ``keep`` marks (``net:keep=M``). Ties go to the
    network's card, then to its higher logit."""

    name: str = "net"

    def __init__(self, model: Model | None = None, pass_bonus: float = 0.0, endgame: int = 0,
                 search: Bot | None = None, prior: float = 0.0, keep: float = 0.0,
                 over_bonus: float = 0.0) -> None:
        self.model = model if model is not None else shipped_model()
        self.pass_bonus = float(pass_bonus)
        self.over_bonus = float(over_bonus)
        if not 0 <= endgame <= 8:
            raise ValueError(f"endgame: cards in hand 0..8, not {endgame!r}")
        if endgame and search is None:
            raise ValueError("endgame: a search to play the last cards is needed (search)")
        self.endgame = endgame
        self.search = search
        if prior < 0.0 or keep < 0.0:
            raise ValueError(f"prior, keep: marks 0 or more, not {prior!r}, {keep!r}")
        if (prior or keep) and not hasattr(search, "card_values"):
            raise ValueError("prior, keep: a search that tells its cards' marks is needed "
                             "(card_values)")
        self.prior = float(prior)
        self.keep = float(keep)

    def act(self, observation: Observation, rng: random.Random) -> Action:
        legal = observation.legal
        if len(legal) == 1:
            return legal[0]
        if not legal:
            raise ValueError("act: the observed seat has no action to take")
        if self.search is not None and observation.phase != AUCTION \
                and observation.hand.bit_count() <= self.endgame \
                and sum(isinstance(a, Play) for a in legal) > 1:
            if self.prior or self.keep:
                return self._weighed(observation, rng)
            return self.search.act(observation, rng)
        x, suits = features(observation)
        logits, value = forward(self.model, x[None, :])
        choices = legal_indices(observation, suits)
        if not choices:  # only declare ... choices: the first (the best set)
            return legal[0]
        row = logits[0]
        bonus = self.pass_bonus
        if self.over_bonus and _opponent_holds(observation):
            bonus += self.over_bonus
        if bonus and observation.phase == AUCTION and observation.rules.game in AUCTION_GAMES:
            row = row.copy()
            row[_PASS] += np.float32(bonus / CALL_SCALE)
        chosen = max(choices, key=lambda c: float(row[c[0]]))[1]
        notes = EXPLAIN.get()
        if notes is not None:  # someone asks why: the policy's preferences, the value's mark
            notes.append(net_explanation(observation, chosen,
                                         [(a, float(row[i])) for i, a in choices],
                                         float(value[0])))
        return chosen

    def _weighed(self, observation: Observation, rng: random.Random) -> Action:
        """The search's card weighed with the policy (``prior``, ``keep``)."""
        search: CardSearch = self.search  # type: ignore[assignment]
        values = search.card_values(observation, rng)
        if not values:
            return search.act(observation, rng)
        x, suits = features(observation)
        logits, _ = forward(self.model, x[None, :])
        row = logits[0]
        cards = [(i, a) for i, a in legal_indices(observation, suits)
                 if isinstance(a, Play) and a.card in values]
        if not cards:
            return search.act(observation, rng)
        logit = {a.card: float(row[i]) for i, a in cards}
        top = max(logit.values())
        log_z = top + float(np.log(sum(np.exp(v - top) for v in logit.values())))
        score = {c: values[c] + self.prior * (logit[c] - log_z) for c in logit}
        own = max(logit, key=lambda c: logit[c])
        best = max(logit, key=lambda c: (score[c], c == own, logit[c]))
        if self.keep and score[best] - score[own] <= self.keep:
            best = own
        return Play(best)

    def value(self, observation: Observation) -> float:
        """The value head's estimate of the seat's team's mark minus the other's."""
        x, _ = features(observation)
        return float(forward(self.model, x[None, :])[1][0])


def _opponent_holds(observation: Observation) -> bool:
    """Whether the highest contract bid of the auction so far is an opponent's."""
    bids = [seat for seat, bid in observation.auction if bid.is_contract]
    return bool(bids) and (bids[-1] - observation.seat) % 2 == 1


#: The most worlds a card of the endgame may search (``net:endgame=K;worlds=W``).
MAX_WORLDS: Final = 1000
#: The cards in hand from which ``net`` searches its endgame when the level does not say
#: (docs/net.md, "The endgame searched"); ``net:endgame=0`` is the network alone.
ENDGAME_CARDS: Final = 6
#: The endgame's worlds a card when the level does not say.
ENDGAME_WORLDS: Final = 24
#: The named level of the endgame searched: ``net``'s own setting, said in full.
ENDGAME_LEVEL: Final = f"endgame={ENDGAME_CARDS};worlds={ENDGAME_WORLDS}"
#: The level of the network alone, every card its own (the training's data levels play it).
ALONE_LEVEL: Final = "endgame=0"


@dataclass(frozen=True, slots=True)
class NetLevel:
    """A level of ``net`` read (:func:`parse_net_level`): the pass bonus in marks, the cards in
    hand from which the endgame is searched (0: never) and its worlds a card; the search's
    card weighed with the policy (:class:`NetBot`'s ``prior`` and ``keep``) and the exponent
    on the worlds' weight from the auction (``alpha``,
    :func:`rebelote.bots.pimc.endgame_budget`); the play's inference on them (``infer``,
    ``pool``, ``model``: :attr:`rebelote.bots.pimc.Budget.infer`, ``pool``, ``play_model``),
    every deal that fits solved when at most ``every`` fit (``every_below``); and the pass's
    further bonus when an opponent holds the contract (``over``, marks)."""

    pass_bonus: float = 0.0
    endgame: int = ENDGAME_CARDS
    worlds: int = ENDGAME_WORLDS
    prior: float = 0.0
    keep: float = 0.0
    alpha: float = 1.0
    infer: float = 0.0
    pool: int = 1
    model: float = 0.0
    every: int = 0
    over: float = 0.0


#: Each setting of a level of ``net``: its :class:`NetLevel` field, whether it is a whole
#: number, its bounds and its rule as said to whoever wrote it.
_SETTINGS: Final[dict[str, tuple[str, bool, float, float, str]]] = {
    "pass": ("pass_bonus", False, -np.inf, np.inf, "a number of marks (pass=MARKS)"),
    "over": ("over", False, -np.inf, np.inf, "a number of marks (over=MARKS)"),
    "endgame": ("endgame", True, 0, 8, "a whole number of cards in hand 0..8"),
    "worlds": ("worlds", True, 1, MAX_WORLDS, f"a whole number of worlds 1..{MAX_WORLDS}"),
    "prior": ("prior", False, 0.0, np.inf, "a number of marks 0 or more"),
    "keep": ("keep", False, 0.0, np.inf, "a number of marks 0 or more"),
    "alpha": ("alpha", False, 0.0, 1.0, "a number 0..1"),
    "infer": ("infer", False, 0.0, 1.0, "a number 0..1"),
    "model": ("model", False, 0.0, 1.0, "a number 0..1"),
    "pool": ("pool", True, 1, 100, "a whole number 1..100"),
    "every": ("every", True, 0, 10_000, "a whole number of deals 0..10000"),
}
#: The settings that mean something without the endgame's search (``endgame=0``).
_WITHOUT_SEARCH: Final = frozenset({"pass", "over", "endgame"})


def parse_net_level(level: str) -> NetLevel:
    """Reads a level of ``net``: ``name=value`` settings joined by ``;``: ``pass=MARKS``
    (marks added to the pass), ``over=MARKS`` (more when an opponent holds the contract),
    ``endgame=K`` (the cards from K in hand searched, 0..8),
    ``worlds=W`` (the endgame's worlds a card, 1..:data:`MAX_WORLDS`), ``prior=P`` and
    ``keep=M`` (marks, 0 or more: the search's card weighed with the policy, :class:`NetBot`),
    ``alpha=A`` (0..1: the auction's weight on the endgame's worlds), ``infer=F``,
    ``pool=N`` and ``model=F`` (the play's inference on the endgame's worlds: floors 0..1,
    a pool of 1..100 times the worlds) and ``every=N`` (every deal that fits solved once
    when at most N fit, 0..10000), or ``endgame`` alone (:data:`ENDGAME_LEVEL`);
    :class:`ValueError` naming the setting and its rule otherwise.

    >>> got = parse_net_level("endgame=4;worlds=8;infer=0.1;pool=4;over=60")
    >>> got.endgame, got.worlds, got.infer, got.pool, got.prior, got.over
    (4, 8, 0.1, 4, 0.0, 60.0)
    >>> parse_net_level("endgame=9")
    Traceback (most recent call last):
    ...
    ValueError: endgame: a whole number of cards in hand 0..8, not '9'
    >>> parse_net_level("endgame=0;prior=3")
    Traceback (most recent call last):
    ...
    ValueError: prior: a setting of the endgame's search, which endgame=0 turns off (...)
    """
    if level.strip() == "endgame":  # the named level: net's own setting, said in full
        level = ENDGAME_LEVEL
    got: dict[str, float] = {}
    for part in level.split(";"):
        key, eq, value = part.strip().partition("=")
        key, value = key.strip(), value.strip()
        if key not in _SETTINGS or not eq:
            raise ValueError(f"a level of net is pass=MARKS, endgame=K (cards in hand), "
                             f"worlds=W, prior=P, keep=M, alpha=A, infer=F, pool=N, model=F, "
                             f"every=N or over=MARKS, joined by ';', not {part.strip()!r}")
        if key in got:
            raise ValueError(f"{key}: said twice in {level!r}")
        _, whole, low, high, rule = _SETTINGS[key]
        try:
            number = float(int(value) if whole else float(value))
        except ValueError:
            number = float("nan")
        if not (np.isfinite(number) and low <= number <= high):
            raise ValueError(f"{key}: {rule}, not {value!r}")
        got[key] = number
    if got.get("endgame") == 0:  # the network alone: a search's setting would do nothing
        for key in (k for k in got if k not in _WITHOUT_SEARCH):  # the first said
            raise ValueError(f"{key}: a setting of the endgame's search, which endgame=0 "
                             f"turns off (the network alone plays every card)")
    fields: dict[str, Any] = {_SETTINGS[key][0]: int(v) if _SETTINGS[key][1] else v
                              for key, v in got.items()}
    return NetLevel(**fields)


def make_net(level: str | None = None,
             search: Callable[[NetLevel], Bot] | None = None) -> NetBot:
    """The learned player of the registry: ``net`` (the shipped weights, the calls and first
    cards the network's, the last :data:`ENDGAME_CARDS` cards searched by ``search`` over
    :data:`ENDGAME_WORLDS` worlds a card), ``net:pass=MARKS`` (:class:`NetBot`'s
    ``pass_bonus``), ``net:endgame=K;worlds=W`` (the last K cards searched by ``search(W)``,
    which the registry gives from the level read: a counted search, its worlds weighed as
    the level says),
    ``net:prior=P``, ``net:keep=M`` (its card weighed with the policy), ``net:endgame=0`` the
    network alone;
    :class:`ValueError` naming the setting otherwise (:func:`parse_net_level`)."""
    got = parse_net_level(level) if level is not None else NetLevel()
    return NetBot(pass_bonus=got.pass_bonus, endgame=got.endgame,
                  search=search(got) if got.endgame and search is not None else None,
                  prior=got.prior, keep=got.keep, over_bonus=got.over)


def describe(model: Model) -> dict[str, Any]:
    """The network's shape and size, for the docs and the command line."""
    params = sum(int(np.asarray(model[k]).size) for k in KEYS)
    return {"inputs": int(model["w1"].shape[0]), "hidden": [int(model["w1"].shape[1]),
            int(model["w2"].shape[1])], "actions": int(model["wp"].shape[1]),
            "parameters": params, "bytes": params * 4}
