"""`hand_evs`: the exact EV of every legal action for one hand, and `ev_cost` of a wrong play.

The hand is a dealt, unsplit hand; the rest of the rule set's full shoe (less the hand, the up card and
`removed`) is what is drawn from. Where the dealer peeks, EVs are conditioned on no dealer natural.
After a hit the hand is played on by the best play for its exact cards; a split is evaluated to the
rule set's hand limit (see `split.py`).

Cost: a hand from the full shoe is read off the rule set's chart engine (`full_shoe_engine`: kept from
the chart's own build, or built at the third such hand of a rule set), so a strategy drill's grading is
a lookup after the first answers; a lone hand, or one with `removed` cards, builds a small engine of
its own. Results are memoised.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from trainer.core.actions import Action
from trainer.core.cards import Card
from trainer.core.errors import IllegalActionError, InvalidInputError
from trainer.core.hands import hand_total
from trainer.core.legal import is_natural, may_double, may_hit, may_split, may_surrender
from trainer.core.rules import Ruleset
from trainer.strategy.composition import TEN, Composition
from trainer.strategy.engine import Engine, PairShoe, full_shoe_engine
from trainer.strategy.terms import Terms
from trainer.strategy.tree import Context

_ORDER = (Action.STAND, Action.HIT, Action.DOUBLE, Action.SPLIT, Action.SURRENDER)


@dataclass(frozen=True, slots=True, kw_only=True)
class HandEVs:
    """EV per unit bet of each legal action for one hand against one up card, and the best of them."""

    cards: tuple[Card, ...]
    up: Card
    ev: dict[Action, float]
    """Legal actions only."""
    best: Action
    natural: bool
    """The hand is a blackjack: nothing to decide, it stands and is paid."""
    peeked: bool
    """The EVs are conditioned on no dealer natural (the dealer peeks under this up card)."""

    @property
    def legal(self) -> frozenset[Action]:
        return frozenset(self.ev)

    def cost(self, action: Action) -> float:
        """What `action` gives up against the best play, per unit bet (0 for the best)."""
        if action not in self.ev:
            legal = ", ".join(a.value for a in self.ev)
            raise IllegalActionError(f"{action.value} is not allowed with this hand (legal: {legal})")
        return self.ev[self.best] - self.ev[action]


def legal_actions(ruleset: Ruleset, cards: Sequence[Card]) -> frozenset[Action]:
    """What a dealt (unsplit) hand may do: the core's own rules (`trainer.core.legal`), which the
    `Round` state machine also follows; a natural only stands."""
    if is_natural(ruleset, cards, from_split=False):
        return frozenset({Action.STAND})
    actions = {Action.STAND}
    if may_hit(ruleset, cards, split_aces=False):
        actions.add(Action.HIT)
    if may_double(ruleset, cards, from_split=False, split_aces=False):
        actions.add(Action.DOUBLE)
    if may_split(ruleset, cards, hands=1, from_split=False):
        actions.add(Action.SPLIT)
    if may_surrender(ruleset, cards, hands=1, from_split=False):
        actions.add(Action.SURRENDER)
    return frozenset(actions)


_MEMO: dict[tuple[object, ...], HandEVs] = {}


def hand_evs(ruleset: Ruleset, cards: Sequence[Card], up: Card, *, removed: Sequence[Card] = ()) -> HandEVs:
    """Exact EVs of every legal action for `cards` against `up`, drawing from the full shoe less the
    hand, the up card and `removed`."""
    cards = tuple(cards)
    if len(cards) < 2:
        raise InvalidInputError(f"a hand has at least two cards, not {len(cards)}")
    total, _ = hand_total(cards)
    if total > 21:
        raise InvalidInputError(f"{' '.join(str(c) for c in cards)} is bust ({total}): nothing to decide")
    full = Composition.full(ruleset)
    full.without((*cards, up, *removed))  # raises when the shoe cannot hold them
    key = (ruleset.fingerprint, tuple(sorted(c.rank for c in cards)), up.rank,
           tuple(sorted(c.rank for c in removed)))
    found = _MEMO.get(key)
    if found is not None:
        return HandEVs(cards=cards, up=up, ev=found.ev, best=found.best, natural=found.natural,
                       peeked=found.peeked)
    result = _compute(ruleset, full, cards, up, tuple(removed))
    if len(_MEMO) > 2048:
        _MEMO.clear()
    _MEMO[key] = result
    return result


_SMALL_BUILDS: dict[str, int] = {}
"""Per rule set (fingerprint): full-shoe hands that built an engine of their own since the chart engine
was last used. At `_SMALL_BEFORE_FULL` the next one builds the whole chart engine (about ten small
engines' work) and later ones are lookups; a lone question (`cutcard ev`) builds only its small one."""
_SMALL_BEFORE_FULL = 2


def _compute(ruleset: Ruleset, full: Composition, cards: tuple[Card, ...], up: Card,
             removed: tuple[Card, ...]) -> HandEVs:
    terms = Terms.of(ruleset)
    legal = legal_actions(ruleset, cards)
    u = up.value
    col = u - 1
    own = [0] * 10
    for c in cards:
        own[c.value - 1] += 1
    extra = [0] * 10
    for c in removed:
        extra[c.value - 1] += 1
    shoe = full.without(removed)
    pair = cards[0].value if Action.SPLIT in legal else 0
    engine = None
    if not any(extra):  # dealt from the full shoe: the rule set's chart engine has every such hand
        small = _SMALL_BUILDS.get(ruleset.fingerprint, 0)
        engine = full_shoe_engine(ruleset, build=small >= _SMALL_BEFORE_FULL)
        _SMALL_BUILDS[ruleset.fingerprint] = 0 if engine is not None else small + 1
    if engine is None:
        contexts = [Context(extra=tuple(extra), root=tuple(own))]
        if pair:
            contexts += Engine.split_contexts_for(terms, pair, extra, infinite=full.infinite)
        engine = Engine(ruleset, full, contexts)
    node = engine.node(own)
    bj = float(engine.blackjack_chance(node)[col])
    norm = 1.0 - bj if terms.peeked[col] else 1.0
    natural = is_natural(ruleset, cards, from_split=False)
    raw: dict[Action, float] = {}
    if natural:
        raw[Action.STAND] = terms.blackjack_pays * (1.0 - bj)
    else:
        raw[Action.STAND] = float(engine.pay.stand[node, col])
        raw[Action.HIT] = float(engine.optimal.hit[node, col])
        if Action.DOUBLE in legal:
            raw[Action.DOUBLE] = float(engine.optimal.double[node, col])
        if Action.SPLIT in legal:
            rank_left = shoe.rank_count(cards[0].rank) if terms.same_rank and pair == TEN else None
            pair_shoe = engine.pair_shoe(pair, extra, rank_left=rank_left,
                                         up_rank_is_pair=up.rank == cards[0].rank)
            raw[Action.SPLIT] = _split_ev(engine, pair, node, pair_shoe)[col]
        if Action.SURRENDER in legal:
            raw[Action.SURRENDER] = float(engine.surrender_ev(node)[col])
    ev = {a: raw[a] / norm for a in _ORDER if a in raw}
    best = max(ev, key=lambda a: ev[a])  # ties: the first in _ORDER (stand before hit ...)
    return HandEVs(cards=cards, up=up, ev=ev, best=best, natural=natural, peeked=terms.peeked[col])


def _split_ev(engine: Engine, pair: int, node: int, pair_shoe: PairShoe) -> list[float]:
    """The split values of `pair` against every up card, memoised on the engine (the full-shoe engine
    is kept, so a pair asked again costs a lookup)."""
    key = (pair, pair_shoe)
    found = engine.split_memo.get(key)
    if found is None:
        seat = None
        if engine.seat_blackjack_correction_needed():
            seat = (engine.blackjack_chance(node), engine.split_bust_chance(pair, engine.optimal.decision))
        found = [float(v) for v in engine.split_ev(pair, engine.optimal, pair_shoe, seat)]
        engine.split_memo[key] = found
    return found


def ev_cost(ruleset: Ruleset, cards: Sequence[Card], up: Card, action: Action, *,
            removed: Sequence[Card] = ()) -> float:
    """What `action` costs against the best play for this hand, per unit bet (0 when it is the best).

    For drill explanations: `ev_cost(r, parse_cards("10 6"), parse_card("10"), Action.STAND)`.
    """
    return hand_evs(ruleset, cards, up, removed=removed).cost(action)
