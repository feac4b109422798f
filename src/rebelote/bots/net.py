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
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Any, Final

import numpy as np
import numpy.typing as npt

from rebelote.actions import AUCTION, Action
from rebelote.auction import PASS
from rebelote.bots.encoding import (
    ACTIONS,
    OBSERVATION_SIZE,
    action_index,
    canonical_suits,
    encode,
    permute_action,
)
from rebelote.observation import Observation
from rebelote.rules import AUCTION_GAMES

__all__ = ["CALL_SCALE", "KEYS", "NetBot", "forward", "legal_indices", "load_model", "make_net",
           "save_model", "shipped_model"]

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


class NetBot:
    """Plays the legal action of the highest logit of the policy; a single legal action is
    played without asking the network. ``model``: the weights (the shipped ones by default).
    ``pass_bonus``: marks added to the pass in the auction of coinche and contrée (whose calls
    are learned as values, :data:`CALL_SCALE` marks a logit): a more cautious bidder without
    training again (``net:pass=MARKS``)."""

    name: str = "net"

    def __init__(self, model: Model | None = None, pass_bonus: float = 0.0) -> None:
        self.model = model if model is not None else shipped_model()
        self.pass_bonus = float(pass_bonus)

    def act(self, observation: Observation, rng: random.Random) -> Action:
        legal = observation.legal
        if len(legal) == 1:
            return legal[0]
        if not legal:
            raise ValueError("act: the observed seat has no action to take")
        x, suits = features(observation)
        logits, _ = forward(self.model, x[None, :])
        choices = legal_indices(observation, suits)
        if not choices:  # only declare ... choices: the first (the best set)
            return legal[0]
        row = logits[0]
        if self.pass_bonus and observation.phase == AUCTION \
                and observation.rules.game in AUCTION_GAMES:
            row = row.copy()
            row[_PASS] += np.float32(self.pass_bonus / CALL_SCALE)
        return max(choices, key=lambda c: float(row[c[0]]))[1]

    def value(self, observation: Observation) -> float:
        """The value head's estimate of the seat's team's mark minus the other's."""
        x, _ = features(observation)
        return float(forward(self.model, x[None, :])[1][0])


def make_net(level: str | None = None) -> NetBot:
    """The learned player of the registry: ``net`` (the shipped weights), ``net:pass=MARKS``
    (:class:`NetBot`'s ``pass_bonus``); :class:`ValueError` naming the form otherwise."""
    if level is None:
        return NetBot()
    key, eq, value = level.strip().partition("=")
    try:
        bonus = float(value)
    except ValueError:
        bonus = float("nan")
    if key.strip() != "pass" or not eq or not np.isfinite(bonus):
        raise ValueError(f"a level of net is pass=MARKS (a number of marks), not {level!r}")
    return NetBot(pass_bonus=bonus)


def describe(model: Model) -> dict[str, Any]:
    """The network's shape and size, for the docs and the command line."""
    params = sum(int(np.asarray(model[k]).size) for k in KEYS)
    return {"inputs": int(model["w1"].shape[0]), "hidden": [int(model["w1"].shape[1]),
            int(model["w2"].shape[1])], "actions": int(model["wp"].shape[1]),
            "parameters": params, "bytes": params * 4}
