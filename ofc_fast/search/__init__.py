"""Search: the best completion of a board, Monte Carlo advice on every legal move,
exact expectimax where it is affordable (C kernels in ``csrc/include/ofc_search.h``).

:func:`advise` values every legal move of the seat to act, from a :class:`Game` or
from an observation dict (so an engine can ask without a Game).  A move's value is
the searcher's expected points for the deal **under the search's model**: pair points
against the modelled play of every other seat, plus the value of the Fantasyland it
earns, minus a share of the Fantasyland the others earn (see :class:`SearchModel`).
It ranks the moves of one seat; it is not a fair estimate of the deal (the seats'
values do not sum to zero): the rollouts play on with the completion policy (at an
opening, a clairvoyant one) and count the searcher's own Fantasyland worth, so at the
opening both seats of one deal get positive values (docs/cli.md, "What advise's ev
means", has the measurement).  The unseen cards (the complement of
everything the seat knows: every visible card, its own dealt cards and discards) are
dealt uniformly to the rounds still to come; every candidate move is played on the
same sampled futures (common random numbers), and every seat completes its board by
a completion policy (:func:`best_completion`).  Where the whole tree is small enough
the values are exact (``exact=True`` in the result): on the last street always when
heads-up (every way to deal the opponents' last cards), on the last two Pineapple
streets when the other boards are complete.

>>> import ofc_fast as ofc
>>> g = ofc.Game("pineapple", players=2, seed=5)
>>> advice = ofc.advise(g, samples=16, seed=1)
>>> len(advice) == len(g.legal_actions()), advice[0].ev >= advice[-1].ev
(True, True)

The package: :mod:`~ofc_fast.search.model` (:class:`SearchModel`, the policies and
opponent models), ``ofc_fast.search._completion`` (:func:`best_completion`),
``ofc_fast.search._positions`` (observation to position, :func:`make_observation`)
and ``ofc_fast.search._advise`` (:func:`advise`).  The command line's text of the
advice is ``ofc_fast.cli._render``'s.
"""

from __future__ import annotations

from ._advise import (
    EXACT_NODES_DEFAULT,
    EXACT_NODES_MAX,
    MAX_SAMPLES,
    Advice,
    advise,
)
from ._advise import (
    Position as Position,
)
from ._advise import (
    check_settings as check_settings,
)
from ._checks import (
    exact_stopped_advice as exact_stopped_advice,  # serve's words for its clients
)
from ._checks import flag as flag  # the bots read their flag settings alike
from ._checks import in_range as in_range  # bots.search checks its settings alike
from ._checks import rows_of as rows_of  # serve names the board text at fault
from ._completion import Completion, best_completion
from ._positions import (
    check_observation as check_observation,  # bots name a bad observation
)
from ._positions import (
    check_seat as check_seat,  # bots check the observed seat alike
)
from ._positions import (
    decision_actions as decision_actions,  # the bots value the same actions
)
from ._positions import (
    given_actions as given_actions,  # the bots read legal_actions alike
)
from ._positions import make_observation, position
from ._positions import (
    missing_fields as missing_fields,  # bots name a missing field alike
)
from ._positions import (
    position_part as position_part,  # the CLI and serve name the part at fault
)
from .model import (
    OPPONENTS,
    POLICIES,
    Opponent,
    SearchModel,
)
from .model import (
    opponent_weight as opponent_weight,
)
from .model import (
    search_model as search_model,
)

__all__ = [
    "EXACT_NODES_DEFAULT",
    "EXACT_NODES_MAX",
    "MAX_SAMPLES",
    "OPPONENTS",
    "POLICIES",
    "Advice",
    "Completion",
    "Opponent",
    "SearchModel",
    "advise",
    "best_completion",
    "make_observation",
    "position",
]
