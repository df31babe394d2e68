"""Matches: many deals at one table, with the button, Fantasyland and chips carried over.

>>> from ofc_fast import rules
>>> from ofc_fast.bots import RandomBot
>>> from ofc_fast.game import Match
>>> m = Match(rules.PINEAPPLE, players=3, seed=1)
>>> stats = m.play([RandomBot(seed=s) for s in range(3)], hands=20)
>>> m.hands_played, sum(m.totals)
(20, 0)
>>> again = Match(rules.PINEAPPLE, players=3, seed=1)
>>> _ = again.play([RandomBot(seed=s) for s in range(3)], hands=20)
>>> again.totals == m.totals                      # reproducible from one seed
True

Between deals (R-FLOW-OFC-8, R-FL-6): the button moves one seat clockwise (to the next
seat number), except that it does not move *for* a Fantasyland deal when the rules
freeze it (``rules.fantasyland.button_frozen``): while any seat plays the next deal in
Fantasyland the button stays where it was, and rotation resumes after.  Fantasyland is
carried with :func:`ofc_fast.fantasyland_cards` (entry, or the stay rule with this
deal's card count for a seat that played in Fantasyland).  With ``stacks`` every deal is
settled at table stakes (R-STAKES-*) and the chips carried over; the match is over when
fewer than two seats have chips left.  A seat with no chips left is still dealt in (its
cards, Fantasyland and place in the button's rotation as before) and neither wins nor
pays: both stake caps are its stack (docs/rules.md Q-5).
"""

from __future__ import annotations

import copy
import math
import threading
from collections import deque
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, fields
from functools import partial
from typing import TYPE_CHECKING, Any

from ..errors import (
    GameError,
    OfcError,
    RulesError,
    TableError,
    built_repr,
    quote,
    truth,
    whole_count,
)
from ..lazy import lazy_module
from ..rules import RuleSet, RulesLike, as_rules, carried_rules
from ..rules.model import GameKind
from ..table import (
    SEED_MAX,
    as_int,
    check_bots,
    check_match_stacks,
    check_one_deck,
    check_seed,
    check_stacks,
    check_table,
    random_seed,
)
from ._engine import deal_seed, resolve_rules
from .playout import finish
from .result import GameResult
from .state import Game, cards_per_seat
from .threads import consistent

if TYPE_CHECKING:  # (bots imports game)
    from ..bots import base as _bots
else:
    _bots = lazy_module("ofc_fast.bots.base")

__all__ = ["Match", "SeatStats", "max_fantasyland_cards"]


def max_fantasyland_cards(rules: RulesLike) -> int:
    """Most cards a Fantasyland hand can get under the rules (0 without Fantasyland).

    >>> max_fantasyland_cards("pineapple"), max_fantasyland_cards("classic_1_6")
    (14, 0)
    """
    rules = as_rules(rules, "max_fantasyland_cards")
    fl = rules.fantasyland
    if fl is None or rules.game is GameKind.CLASSIC:
        return 0
    counts = [c for _, c in fl.entry] + [fl.lowball_entry, fl.lowball_both]
    if isinstance(fl.stay_cards, int):
        counts.append(fl.stay_cards)
    return max(counts)


def check_deck(rules: RulesLike, players: int) -> None:
    """TableError naming ``players`` when ``players`` seats can need more than one
    deck over a match: the deal where every seat is dealt the most cards a deal or a
    Fantasyland hand gives, checked as :func:`ofc_fast.table.check_fantasyland`
    checks a deal (the same message).

    >>> from ofc_fast import rules
    >>> check_deck(rules.PINEAPPLE.replace(max_players=4), 4)
    Traceback (most recent call last):
    ...
    ofc_fast.errors.TableError: players: 4 seats of custom need 68 cards; one deck has 52
    """
    rules = as_rules(rules, "check_deck")
    most = max_fantasyland_cards(rules)  # a seat's largest hand: Fantasyland's, or
    hand = most if most > cards_per_seat(rules) else 0  # a normal deal's (0)
    check_one_deck(rules, players, (hand,) * players, "players: ")


_NET_MOST = 2**31  # a seat's net in one deal (C: int32_t), in size
_ROYALTIES_MOST = 3 * (2**15 - 1)  # a seat's royalties in one deal (C: int16_t a row)


@dataclass
class SeatStats:
    """Running figures of one seat over a match (:attr:`Match.stats`).

    >>> from ofc_fast.bots import RandomBot
    >>> m = Match("pineapple", players=2, seed=1)
    >>> _ = m.play([RandomBot(seed=1), RandomBot(seed=2)], hands=3)
    >>> m.stats[0].deals, m.stats[0].fouls
    (3, 2)
    """

    deals: int = 0
    total: int = 0
    sum_sq: int = 0
    fouls: int = 0
    royalties: int = 0
    fantasyland_deals: int = 0  #: deals played in Fantasyland
    fantasyland_entries: int = 0  #: normal deals that earned Fantasyland
    fantasyland_stays: int = 0  #: Fantasyland deals that earned another one
    surrenders: int = 0
    naturals: int = 0
    net: list[int] = field(default_factory=list, repr=False)

    def add(
        self,
        net: int,
        foul: bool,
        royalties: int,
        in_fl: bool,
        next_fl: bool,
        surrendered: bool,
        declared: bool,
        keep: bool,
    ) -> None:
        """Count one deal of this seat."""
        vars(self).update(
            self._counted(net, foul, royalties, in_fl, next_fl, surrendered, declared)
        )
        if keep:
            self.net.append(net)

    def _counted(self, net: int, foul: bool, royalties: int, *deal: bool) -> dict[str, int]:
        """The counts of this seat after one more deal, by field name (this seat
        unchanged): what :meth:`add` sets, and what ``book_deal`` sets at once;
        ``deal``: in Fantasyland, Fantasyland next, surrendered, declared."""
        in_fl, next_fl, surrendered, declared = deal
        return {
            "deals": self.deals + 1,
            "total": self.total + net,
            "sum_sq": self.sum_sq + net * net,
            "fouls": self.fouls + foul,
            "royalties": self.royalties + royalties,
            "fantasyland_deals": self.fantasyland_deals + in_fl,
            "fantasyland_entries": self.fantasyland_entries + ((not in_fl) and next_fl),
            "fantasyland_stays": self.fantasyland_stays + (in_fl and next_fl),
            "surrenders": self.surrenders + surrendered,
            "naturals": self.naturals + declared,
        }

    @property
    def mean(self) -> float:
        """Points per deal."""
        return self.total / self.deals if self.deals else 0.0

    @property
    def sd(self) -> float:
        """Standard deviation of the points of one deal."""
        n = self.deals
        if n < 2:
            return 0.0
        var = (self.sum_sq - self.total * self.total / n) / (n - 1)
        return math.sqrt(max(var, 0.0))

    @property
    def ci95(self) -> float:
        """Half-width of the 95% confidence interval of :attr:`mean`: the 97.5%
        quantile of Student's t with ``deals - 1`` degrees of freedom times the
        standard error ``sd / sqrt(deals)``; ``inf`` below 2 deals.

        The t quantile comes from SciPy, which the ``cli`` extra installs
        (``pip install 'ofc-fast[cli]'``); the core package depends on cffi and NumPy
        only.  Without SciPy the interval falls back to the normal approximation,
        1.96 standard errors, which is too narrow for short matches (5 deals: 1.96
        instead of 2.78, so about 30% narrower; 30 deals: 4% narrower).
        ``ofc-fast play`` says which of the two it printed.
        """
        if self.deals < 2:
            return float("inf")
        try:
            from scipy.stats import t as student_t
        except ImportError:  # normal approximation (documented above)
            quantile = 1.96
        else:
            quantile = float(student_t.ppf(0.975, self.deals - 1))
        return quantile * self.sd / math.sqrt(self.deals)

    def to_dict(self) -> dict[str, Any]:
        """The figures as plain JSON-able data (means, rates and the interval)."""
        n = max(self.deals, 1)
        normal = max(self.deals - self.fantasyland_deals, 1)
        return {
            "deals": self.deals,
            "total": self.total,
            "mean": self.mean,
            "ci95": self.ci95 if self.deals > 1 else None,
            "sd": self.sd,
            "foul_rate": self.fouls / n,
            "mean_royalties": self.royalties / n,
            "fantasyland_rate": self.fantasyland_deals / n,
            "fantasyland_entry_rate": self.fantasyland_entries / normal,
            "fantasyland_deals": self.fantasyland_deals,
            "fantasyland_entries": self.fantasyland_entries,
            "fantasyland_stays": self.fantasyland_stays,
            "fouls": self.fouls,
            "royalties": self.royalties,
            "surrenders": self.surrenders,
            "naturals": self.naturals,
            "sum_sq": self.sum_sq,
        }

    @classmethod
    def from_dict(cls, data: object, what: str = "seat") -> SeatStats:
        """The running figures of :meth:`to_dict` (its counts; the means and rates
        follow from them), else GameError naming ``what`` and the field: also a
        count of deals (``fouls`` ...) above the deals it counts among, and a sum
        (``total``, ``sum_sq``, ``royalties``) past what its deals can add up to."""
        if not isinstance(data, Mapping):
            raise GameError(f"{what}: expected a dict of seat figures, got {quote(data)}")
        counts: dict[str, Any] = {}
        for f in fields(cls):
            if f.name == "net":
                continue
            n = as_int(data.get(f.name))
            if n is None or (n < 0 and f.name != "total"):
                raise GameError(
                    f"{what}: {f.name} must be an int"
                    f"{'' if f.name == 'total' else ' >= 0'}, got {quote(data.get(f.name))}"
                )
            counts[f.name] = n
        deals, in_fl = counts["deals"], counts["fantasyland_deals"]
        for name, most, of in (
            ("fouls", deals, "deals"),
            ("surrenders", deals, "deals"),
            ("naturals", deals, "deals"),
            ("fantasyland_deals", deals, "deals"),
            ("fantasyland_entries", deals - in_fl, "deals out of Fantasyland"),
            ("fantasyland_stays", in_fl, "fantasyland_deals"),
            ("total", deals * _NET_MOST, "deals' largest nets in size"),
            ("sum_sq", deals * _NET_MOST**2, "deals' largest squared nets"),
            ("royalties", deals * _ROYALTIES_MOST, "deals' largest royalties"),
        ):
            if abs(counts[name]) > most:  # one count a deal at most (SeatStats.add)
                raise GameError(
                    f"{what}: {name} must be at most its {of} ({most}), "
                    f"got {quote(counts[name])}"
                )
        return cls(**counts)


def _seat_copy(stats: SeatStats) -> SeatStats:
    """A seat's figures copied, with their ``net`` list (a copy for a snapshot of a
    match: :meth:`Match.record` adds to both in place)."""
    out = copy.copy(stats)
    out.net = list(stats.net) if type(stats.net) is list else stats.net
    return out


def next_button(
    rules: RulesLike, button: int, players: int, fantasyland: Sequence[int]
) -> int:
    """The button of the next deal: one seat on, or where it is when the rules freeze
    it while a seat plays Fantasyland next deal (R-FL-6).

    >>> from ofc_fast import rules
    >>> next_button(rules.PINEAPPLE, 1, 3, [0, 0, 0]), next_button(rules.OFC, 2, 3, [0, 0, 0])
    (2, 0)
    """
    if type(rules) is not RuleSet:
        rules = as_rules(rules, "next_button")
    fl = rules.fantasyland
    if fl is not None and fl.button_frozen and any(fantasyland):
        return button
    return (button + 1) % players


def _per_seat(data: Mapping[str, Any], key: str, players: int, what: str) -> list[Any]:
    """``data[key]`` as a list of one entry per seat, else GameError naming ``key``."""
    value = data.get(key)
    if not isinstance(value, list) or len(value) != players:
        raise GameError(
            f"{what}: {key} must be a list of {players} entries, one per seat, "
            f"got {quote(value)}"
        )
    return value


def _int_field(value: object, what: str) -> int:
    n = as_int(value)
    if n is None:
        raise GameError(f"{what} must hold ints, got {quote(value)}")
    return n


PICKLED = "a pickled Match"
_PICKLED_KEYS = frozenset(
    (
        "rules",
        "players",
        "seed",
        "hands_played",
        "totals",
        "button",
        "fantasyland",
        "stacks",
        "start_stacks",
        "keep_nets",
        "stats",
        "_pending",
    )
)


def _restored(
    cls: type[Match],
    rules: RuleSet | str,
    data: Mapping[str, Any],
    what: str,
) -> Match:
    """The match of saved fields (named as :meth:`Match.to_dict` names them), each
    checked as :class:`Match` checks its arguments, and the books against each other:
    ``start_stacks`` only with ``stacks``, every seat's total its ``totals`` entry
    and its deals ``hands``, totals that sum to 0, every seat's stack its start
    stack plus its total; GameError (TableError for the table) starting with
    ``what`` otherwise.  The one check of :meth:`Match.from_dict` and unpickling."""
    m = cls(
        rules,
        data["players"],
        check_seed(data["seed"], f"{what}: seed"),  # None: no random one
        data.get("stacks"),
        button=data.get("button", 0),
        fantasyland=data.get("fantasyland"),
        keep_nets=data.get("keep_nets", False),  # False: a file from before it was saved
    )
    m.hands_played = check_seed(data["hands"], f"{what}: hands")  # a deal index
    start = check_stacks(data.get("start_stacks"), m.players, "start_stacks")
    if start is not None and m.stacks is None:
        raise TableError(f"{what}: start_stacks without stacks (a match without chips)")
    m.start_stacks = None if start is None else list(start)
    m.totals = [
        _int_field(t, f"{what}: totals") for t in _per_seat(data, "totals", m.players, what)
    ]
    m.stats = [
        SeatStats.from_dict(d, f"{what}: seats[{i}]")
        for i, d in enumerate(_per_seat(data, "seats", m.players, what))
    ]
    for s, (total, st) in enumerate(zip(m.totals, m.stats)):
        if st.total != total:
            raise TableError(
                f"{what}: totals: seat {s} has {total}, seats[{s}] a total of {st.total}"
            )
        if st.deals != m.hands_played:  # every seat is dealt every deal
            raise GameError(
                f"{what}: seats[{s}]: deals must be the match's hands "
                f"({m.hands_played}), got {st.deals}"
            )
    if sum(m.totals) != 0:  # every deal's nets do (what one seat wins, others pay)
        raise TableError(
            f"{what}: totals must sum to 0, got {m.totals} (sum {sum(m.totals)})"
        )
    if m.stacks is not None and m.start_stacks is not None:  # chips move as points do
        for s, (stack, first, total) in enumerate(zip(m.stacks, m.start_stacks, m.totals)):
            if stack != first + total:
                raise TableError(
                    f"{what}: stacks: seat {s} has {stack}, its start_stacks {first} "
                    f"and total {total} make {first + total}"
                )
    return m


def book_deal(match: Match, deal: Any, **after: Any) -> None:
    """Book one deal into ``match`` at once: each seat's :class:`SeatStats` (and
    ``net`` list, with ``keep_nets``), the totals, ``hands_played`` one more and
    ``after`` (the match's attributes the deal sets: ``button``, ...), made aside
    and then set in one C call (:func:`_at_once`), holding the match's lock: a
    Ctrl-C books the deal whole or not at all, a read in another thread sees the
    match before or after it.  ``deal``: a :class:`GameResult`, or anything with
    its figures as items (``net``, ``fouls``, ``royalties`` per row,
    ``in_fantasyland``, ``fantasyland``, ``surrendered``, ``declared``: a parallel
    run's deal outcome).  :meth:`Match.record` and the parallel runs book so."""
    get = deal.__getitem__ if isinstance(deal, Mapping) else partial(getattr, deal)
    net, fouls, royalties = get("net"), get("fouls"), get("royalties")
    in_fl, next_fl = get("in_fantasyland"), get("fantasyland")
    surrendered, declared = get("surrendered"), get("declared")
    with match._state_lock:
        seats = [  # each seat's counts after the deal, made aside (no copy of it)
            partial(
                vars(st).update,
                st._counted(
                    net[s],
                    fouls[s],
                    sum(royalties[s]),
                    bool(in_fl[s]),
                    bool(next_fl[s]),
                    s in surrendered,
                    s in declared,
                ),
            )
            for s, st in enumerate(match.stats)
        ]
        totals = [t + n for t, n in zip(match.totals, net)]
        nets = zip(match.stats, net) if match.keep_nets else ()
        _at_once(
            partial(match.totals.__setitem__, slice(None), totals),
            *seats,
            *(partial(st.net.append, n) for st, n in nets),
            partial(vars(match).update, hands_played=match.hands_played + 1, **after),
        )


def _at_once(*steps: partial[Any]) -> None:
    """Run ``steps`` (calls of C functions: ``dict.update``, ``list.append``) in one
    C call, so that a Ctrl-C lands before or after all of them: the KeyboardInterrupt
    of a signal handler is raised only between bytecodes, never inside a C call that
    runs no Python code.  :meth:`Match.record` books a deal so, made aside first: a
    booking done seat by seat was left half-made by one landing in between."""
    deque(map(partial.__call__, steps), maxlen=0)


class Match:
    """Deals at one table of ``players`` seats under ``rules``, reproducible from
    ``seed`` (None draws one, kept in :attr:`seed`).

    ``stacks``: chips per seat (an int gives every seat the same) for table stakes,
    at most ``STACK_MAX`` in all (one seat may come to hold them all);
    ``button``: the button of the first deal; ``fantasyland``: Fantasyland cards per
    seat in the first deal (as :class:`Game` takes them; later deals carry it over);
    ``keep_nets``: keep every deal's net per seat in :attr:`stats` (``SeatStats.net``).

    Drive it with :meth:`play` / :meth:`play_hand` and bots, or by hand:
    :meth:`next_game` gives the next deal, :meth:`record` books it once it is over.

    >>> from ofc_fast.bots import HeuristicBot, RandomBot
    >>> m = Match("pineapple", players=2, seed=1)
    >>> _ = m.play([HeuristicBot("pineapple", seed=1), RandomBot(seed=2)], hands=2)
    >>> [s.deals for s in m.stats], sum(s.total for s in m.stats)
    ([2, 2], 0)
    """

    def __init__(
        self,
        rules: RuleSet | str,
        players: int = 2,
        seed: int | None = None,
        stacks: int | Sequence[int] | None = None,
        *,
        button: int = 0,
        fantasyland: Sequence[int] | None = None,
        keep_nets: bool = False,
    ) -> None:
        self.rules = resolve_rules(rules)
        players, button, st, fl = check_table(
            self.rules, players, button, stacks, fantasyland
        )
        self.players = players
        check_deck(self.rules, players)
        check_match_stacks(st)
        if not isinstance(keep_nets, bool):  # "no" is no False
            raise GameError(f"keep_nets must be True or False, got {quote(keep_nets)}")
        self.seed: int = random_seed() if seed is None else check_seed(seed)
        self.stacks: list[int] | None = list(st) if st is not None else None
        self.start_stacks = list(self.stacks) if self.stacks is not None else None
        self.button = button
        self.fantasyland: tuple[int, ...] = fl
        self.totals = [0] * players
        self.hands_played = 0
        self.keep_nets = keep_nets
        self.stats = [SeatStats() for _ in range(players)]
        self._pending: Game | None = None
        self._state_lock = threading.RLock()  # held by record() and the reads

    @property
    def is_over(self) -> bool:
        """With stacks: fewer than two seats have chips left.  Never otherwise."""
        return self.stacks is not None and sum(1 for s in self.stacks if s > 0) < 2

    @consistent
    def next_game(self) -> Game:
        """The next deal (button, Fantasyland and stacks of the match).  Book it with
        :meth:`record` once it is over; asking again before that returns the same
        deal."""
        if self._pending is not None:
            return self._pending
        if self.is_over:
            raise GameError("the match is over: fewer than two seats have chips")
        g = Game(
            self.rules,
            self.players,
            seed=deal_seed(self.seed, self.hands_played),
            button=self.button,
            fantasyland=self.fantasyland,
            stacks=self.stacks,
        )
        self._pending = g
        return g

    @consistent
    def record(self, game: Game) -> GameResult:
        """Book a finished deal from :meth:`next_game`: totals, stacks, statistics,
        Fantasyland and the button for the next deal (a read of the match in another
        thread meanwhile waits for it: it sees the match before or after the deal).
        A Ctrl-C books it whole or not at all (then it is still the pending deal)."""
        if self._pending is None or game is not self._pending:  # record(None) too
            raise GameError("record() takes the deal next_game() returned")
        r = game.result()
        stacks = self.stacks
        if stacks is not None:
            after_stacks = r.settlement.stacks if r.settlement is not None else None
            stacks = (
                list(after_stacks)
                if after_stacks is not None
                else [x + n for x, n in zip(stacks, r.net)]
            )
        fantasyland = tuple(r.fantasyland)
        book_deal(
            self,
            r,
            _pending=None,
            stacks=stacks,
            fantasyland=fantasyland,
            button=next_button(self.rules, self.button, self.players, fantasyland),
        )
        return r

    def play_hand(self, bots: Sequence[_bots.Bot]) -> GameResult:
        """Play the next deal with ``bots`` (one per seat, ``act(observation) ->
        Move``) and book it."""
        check_bots(bots, self.players)
        return self._play_deal(bots, None)[1]

    def _play_deal(
        self,
        bots: Sequence[_bots.Bot],
        finish_deal: Callable[[Game, Sequence[_bots.Bot], int], None] | None,
    ) -> tuple[Game, GameResult]:
        """The next deal played out (``finish_deal``: see :meth:`play`) and booked."""
        g = self.next_game()
        if finish_deal is None:
            finish(g, bots)
        else:
            finish_deal(g, bots, self.hands_played)
        return g, self.record(g)

    def play(
        self,
        bots: Sequence[_bots.Bot],
        hands: int = 1,
        on_deal: Callable[[Game, GameResult], None] | None = None,
        *,
        stop: Callable[[], bool] | None = None,
        finish_deal: Callable[[Game, Sequence[_bots.Bot], int], None] | None = None,
    ) -> list[SeatStats]:
        """Play up to ``hands`` deals (fewer when the chips run out, or once
        ``stop()``, asked before each deal, is true: ``ofc-fast play``'s Ctrl-C);
        ``on_deal(game, result)`` is called after each.  ``finish_deal(game, bots,
        deal)`` plays a deal out, ``deal`` its index from 0 (:attr:`hands_played`)
        (default: the bots' moves, a bot's exception as it is; ``ofc-fast play``
        names the deal, seat and bot: ``ofc_fast.parallel.finish_naming``).  Returns
        :attr:`stats`.  ``hands``: an int (NumPy's too) from 0 to the deals a match
        has left: deal indices are 64-bit (:func:`~ofc_fast.game.deal_seed`), 0..2**64-1, so at most
        ``2**64 - hands_played``; GameError naming it otherwise (a count that would
        never end, not a loop that runs until the index overflows)."""
        check_bots(bots, self.players)
        count, room = (
            whole_count(hands, "hands", 0, GameError),
            SEED_MAX + 1 - self.hands_played,
        )
        if count > room:
            raise GameError(
                f"hands must be at most {room} (a match's deal indices are "
                f"0..2**64-1, {self.hands_played} played), got {quote(hands)}"
            )
        for name, hook in (
            ("on_deal", on_deal),
            ("stop", stop),
            ("finish_deal", finish_deal),
        ):
            if hook is not None and not callable(hook):
                raise GameError(f"{name} must be callable or None, got {quote(hook)}")
        for _ in range(count):
            if self.is_over or (stop is not None and truth(stop(), "stop", GameError)):
                break
            g, r = self._play_deal(bots, finish_deal)
            if on_deal is not None:
                on_deal(g, r)
        return self.stats

    @consistent
    def summary(self) -> list[dict[str, Any]]:
        """Per seat: points per deal with its 95% confidence interval, totals, foul,
        Fantasyland and royalty figures."""
        out = []
        for s, st in enumerate(self.stats):
            d = {"seat": s, **st.to_dict()}
            if self.stacks is not None:
                d["stack"] = self.stacks[s]
            out.append(d)
        return out

    @consistent
    def to_dict(self) -> dict[str, Any]:
        """JSON-able state and summary; :meth:`from_dict` reads it back.  ``rules``:
        the rule set's name; ``rule_set``: the whole rule set (:meth:`RuleSet.to_dict`)
        when it is not exactly the preset of that name, else None."""
        return {
            "rules": self.rules.name,
            "rule_set": carried_rules(self.rules),
            "players": self.players,
            "seed": self.seed,
            "hands": self.hands_played,
            "totals": list(self.totals),
            "button": self.button,
            "fantasyland": list(self.fantasyland),
            "stacks": None if self.stacks is None else list(self.stacks),
            "start_stacks": None if self.start_stacks is None else list(self.start_stacks),
            "keep_nets": self.keep_nets,
            "seats": self.summary(),
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Match:
        """The match :meth:`to_dict` saved, to play on from where it stopped (the same
        deals as the match that was never stopped): its rules (the ``rule_set`` it
        carries, else the preset named by ``rules``: a file with a name alone is a
        preset's), seats, seed, deals played, totals, button, Fantasyland, stacks,
        ``keep_nets`` (False when the file has none) and seat figures (the nets of
        the deals played, ``SeatStats.net``, are not saved: a ``keep_nets`` match
        keeps those of the deals it plays on).  GameError (RulesError for a
        bad rule set, TableError for the table) naming the field otherwise: also
        ``start_stacks`` without ``stacks``, ``totals`` that are not the seats'
        totals or do not sum to 0, ``stacks`` that are not each seat's start stack
        plus its total, and seat figures its ``hands`` cannot give (a seat's
        ``deals`` not ``hands``, more ``fouls`` than deals: :meth:`SeatStats.from_dict`).
        Other keys are left unread: ``ofc-fast play --json`` writes the match's keys
        beside those of the run (``bots``, ``deals``, ...), and its record plays on.

        >>> from ofc_fast import rules
        >>> m = Match(rules.PINEAPPLE.replace(sweep_bonus=6), 3, seed=1)
        >>> Match.from_dict(m.to_dict()).rules == m.rules
        True
        """
        if not isinstance(data, Mapping):
            raise GameError(f"Match.from_dict: expected a dict, got {quote(data)}")
        missing = [k for k in ("rules", "players", "seed", "hands") if k not in data]
        if missing:
            raise GameError(f"Match.from_dict: the match has no {missing[0]!r}")
        carried = data.get("rule_set")
        if carried is not None:
            try:
                rules: RuleSet | str = RuleSet.from_dict(carried)
            except OfcError as exc:
                raise RulesError(f"Match.from_dict: rule_set: {exc}") from None
        else:
            rules = data["rules"]
        return _restored(cls, rules, data, "Match.from_dict")

    def __setstate__(self, state: object) -> None:
        """Unpickling (and ``copy.deepcopy``): the pickled fields checked as
        :meth:`from_dict` checks a saved match (the same names), each seat's ``net``
        a list of ints, and the pending deal the match's next one; GameError (TableError
        for the table) naming the first problem of an edited or damaged pickle."""
        if not isinstance(state, dict) or not _PICKLED_KEYS.issubset(state):
            raise GameError(f"{PICKLED} of another ofc_fast version")
        rules, stats = state["rules"], state["stats"]
        if not isinstance(rules, RuleSet):
            raise GameError(f"{PICKLED}'s rules must be a RuleSet, got {quote(rules)}")
        if not isinstance(stats, list) or not all(type(x) is SeatStats for x in stats):
            raise GameError(f"{PICKLED}: stats must be a list of SeatStats")
        data = {
            **{k: state[k] for k in ("players", "seed", "totals", "button")},
            **{k: state[k] for k in ("fantasyland", "stacks", "start_stacks", "keep_nets")},
            "hands": state["hands_played"],
            "seats": [vars(x) for x in stats],
        }
        m = _restored(Match, rules, data, PICKLED)
        for s, x in enumerate(stats):
            nets = x.net if isinstance(x.net, list) else None
            if nets is None or any(as_int(n) is None for n in nets) or len(nets) > x.deals:
                raise GameError(
                    f"{PICKLED}: seats[{s}]: net must be a list of at most "
                    f"{x.deals} ints, one per deal, got {quote(x.net)}"
                )
            m.stats[s].net = [int(n) for n in nets]
        pending = state["_pending"]
        if pending is not None:
            stacks = None if m.stacks is None else tuple(m.stacks)
            table = (m.rules, m.players, m.button, m.fantasyland, stacks)
            seed = deal_seed(m.seed, m.hands_played)
            if (
                not isinstance(pending, Game)
                or (
                    pending.rules,
                    pending.players,
                    pending.button,
                    pending.fantasyland,
                    pending.stacks,
                )
                != table
                or pending.seed != seed
            ):
                raise GameError(f"{PICKLED}: its pending deal is not its next deal")
            m._pending = pending
        self.__dict__.update(state)  # a subclass's own attributes, then the checked
        self.__dict__.update(vars(m))

    def __eq__(self, other: object) -> bool:
        """Equal when in the same state, as games are: the same rules, table, seed,
        books, statistics (with ``SeatStats.net``) and pending deal."""
        return isinstance(other, Match) and self._state() == other._state()

    __hash__ = None  # type: ignore[assignment]  # mutable

    @consistent
    def _state(self) -> tuple[Any, ...]:
        """What :meth:`__eq__` compares."""
        return tuple(getattr(self, k) for k in sorted(_PICKLED_KEYS))

    def __copy__(self) -> Match:
        """``copy.copy(match)``: an independent copy, as ``copy.deepcopy`` (as a
        :class:`Game`'s): a deal booked on it leaves this match as it is (its totals,
        stacks, statistics and pending deal are its own; the rules are shared)."""
        return copy.deepcopy(self, {id(self.rules): self.rules})

    @consistent
    def __getstate__(self) -> dict[str, Any]:
        """Pickling (and copies): the match's fields but its lock, as between deals:
        what :meth:`record` changes in place (the lists, each seat's figures) copied
        one level (pickle, or a deep copy, reads them after this returns, while
        another thread may book the next deal); the rest as it is, deep-copied once
        by a deep copy."""
        state = {k: v for k, v in self.__dict__.items() if k != "_state_lock"}
        for k, v in state.items():  # totals, stacks, stats
            if type(v) is list:
                state[k] = [_seat_copy(x) if type(x) is SeatStats else x for x in v]
        return state

    @built_repr  # (outside consistent: a half-built match has no lock)
    @consistent
    def __repr__(self) -> str:
        return (
            f"<Match {self.rules.name} {self.players} players, seed {self.seed}, "
            f"{self.hands_played} hands, totals {self.totals}>"
        )
