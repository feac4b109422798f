"""The search player (PIMC / IS-DD): for each decision it deals worlds consistent with its
seat's observation, solves each with the double-dummy solver, scores each world's outcome
through the real scoring function and takes the action of the best expected **mark**.

- **Worlds** come from :meth:`rebelote.deal.DealState.from_observation` (the hidden cards
  dealt again so that the same auction and cards replay: voids, refusals to trump or
  overtrump, shown declarations and belote are hard constraints there) and are **weighted**
  by what the auction says about the hidden hands (:func:`world_weight`): a seat that bid a
  contract probably holds a hand that supports it, a seat that passed probably does not.
- **Card play**: each world is solved by :func:`rebelote.solver.solve` (every legal card's
  final card points for the mover's team under perfect play); each value is turned into the
  deal's marks by :func:`rebelote.scoring.score_deal` (the contract's threshold, coinche and
  surcoinche, capot, declarations and belote all count) and the card with the best weighted
  mean of its team's mark minus the other team's is played.
- **Bidding by simulation**: for each trump mode among the legal bids, each world is solved
  from the first lead with the bidder's team taking (:func:`rebelote.solver.best_value`); each
  legal bid (a take, a value, coinche, surcoinche) gets the weighted mean mark of its outcome,
  ``pass`` the mark of the contract in force (0 when there is none yet). In belote the best
  is called (:func:`choose_call`); in coinche the heuristic's call is the prior and the
  simulation departs from it only by a margin, one step at a time, never to add a coinche
  (:func:`anchored_call`). When the budget runs out before enough worlds, the heuristic bot
  bids.

Budgets: a count of worlds (reproducible from the ``rng`` given to :meth:`PimcBot.act`), and
optionally a time limit per decision (for play against a human; then at least
``min_worlds`` are solved). Levels: :data:`LEVELS`.

>>> from rebelote.bots import make_bot
>>> bot = make_bot("pimc:fast")
>>> bot.worlds, bot.seconds
(8, None)

The search is laid out by concern: :mod:`~rebelote.bots.pimc.budget` (the budgets and the
levels), :mod:`~rebelote.bots.pimc.inference` (the worlds' weights from the calls and the
play, the learned model's factors), :mod:`~rebelote.bots.pimc.worlds` (the worlds: drawn,
uniform, listed, resampled), :mod:`~rebelote.bots.pimc.marks` (a world's marks and each
card's mean over the worlds), :mod:`~rebelote.bots.pimc.calls` (the calls' simulation) and
:mod:`~rebelote.bots.pimc.player` (:class:`PimcBot`). This package names their public API.
"""

from rebelote.bots.pimc.budget import (
    INFER_LEAST,
    LEARNED_SUFFIX,
    LEVELS,
    TUNED_SUFFIX,
    Budget,
    budget_of,
    endgame_budget,
)
from rebelote.bots.pimc.calls import (
    ANCHOR_CHANCE,
    ANCHOR_MARGIN,
    BID_CHANCE,
    COINCHE_CHANCE,
    DD_MARGIN,
    HOPELESS,
    MODES,
    STEP,
    SURCOINCHE_CHANCE,
    Played,
    anchored_call,
    bid_marks,
    call_takers,
    choose_call,
    hopeless,
    true_call_marks,
)
from rebelote.bots.pimc.inference import (
    BID_SCALE,
    CALL_SYSTEMS,
    FLOOR,
    PASS_SCALE,
    AuctionWeights,
    CallSystem,
    PlayWeights,
    SystemWeights,
    bot_calls,
    call_system,
    call_weight,
    hands_around,
    only_hands_differ,
    play_weight,
    register_call_system,
    world_weight,
)
from rebelote.bots.pimc.marks import (
    Marker,
    Postponed,
    card_marks,
    lead_is_clear,
    tie_break,
    tricks_won,
)
from rebelote.bots.pimc.player import (
    PimcBot,
    with_fields,
)
from rebelote.bots.pimc.worlds import (
    CLOCK,
    PRIOR_COST,
    Clock,
    Worlds,
    _resample,
)

__all__ = [
    "ANCHOR_CHANCE",
    "ANCHOR_MARGIN",
    "BID_CHANCE",
    "BID_SCALE",
    "CALL_SYSTEMS",
    "CLOCK",
    "COINCHE_CHANCE",
    "DD_MARGIN",
    "FLOOR",
    "HOPELESS",
    "INFER_LEAST",
    "LEARNED_SUFFIX",
    "LEVELS",
    "MODES",
    "PASS_SCALE",
    "PRIOR_COST",
    "STEP",
    "SURCOINCHE_CHANCE",
    "TUNED_SUFFIX",
    "AuctionWeights",
    "Budget",
    "CallSystem",
    "Clock",
    "Marker",
    "PimcBot",
    "PlayWeights",
    "Played",
    "Postponed",
    "SystemWeights",
    "Worlds",
    "_resample",
    "anchored_call",
    "bid_marks",
    "bot_calls",
    "budget_of",
    "call_system",
    "call_takers",
    "call_weight",
    "card_marks",
    "choose_call",
    "endgame_budget",
    "hands_around",
    "hopeless",
    "lead_is_clear",
    "only_hands_differ",
    "play_weight",
    "register_call_system",
    "tie_break",
    "tricks_won",
    "true_call_marks",
    "with_fields",
    "world_weight",
]
