"""The exact strategy engine: dealer distributions, hand EVs, basic-strategy charts and house edges.

Pure: imports `trainer.core` and the standard library (plus numpy, lazily, for the dealer kernel);
no file I/O. Everything is exact combinatorics (floats for EVs), for any rule set and shoe,
the infinite deck and no-peek games included.

Public API
----------
`chart_for(ruleset, *, progress=None) -> Chart`
    The total-dependent basic-strategy chart of the rule set's full shoe, with each cell's EVs and the
    house edge of the game played by the chart. Kept in memory and in the installed `ChartCache`;
    `progress(done, total)` is called while it is computed. How a cell is chosen: `chart.py`.
`Chart`: `.cells: dict[str, Cell]` keyed 'hard 16 vs 10', 'soft 18 vs A', 'pair 8-8 vs 9',
    'pair 10-10 vs A', 'pair A-A vs 6'; `Cell.action` (H S Dh Ds P Rh Rs Rp) and `Cell.ev` (stand,
    hit, double, split, surrender per unit bet; None where not allowed); `.ev`, `.house_edge_pct`,
    `.exceptions` (composition-dependent `Deviation`s), `.to_json()`, and `.lookup(kind, number, up)`,
    an O(1) letter lookup for simulators (kind 'hard' | 'soft' | 'pair'; aces as 1 or 11).
`hand_evs(ruleset, cards, up, *, removed=()) -> HandEVs`
    EV of every legal action for one dealt hand (`.ev`, `.best`, `.legal`), drawing from the full
    shoe less the hand, the up card and `removed`; conditioned on no dealer natural where the dealer
    peeks.
`ev_cost(ruleset, cards, up, action, *, removed=()) -> float`
    What a play gives up against the best one, per unit bet.
`chart_action(chart, hand_cards, up, legal_actions, *, double_after_split=True) -> Action`
    The play a chart prescribes for any hand (multi-card hands by total, unsplittable pairs by total),
    made legal (Dh -> hit when doubling is not allowed, Rs -> stand without surrender, ...).
`NormalSeat`, `HardSeat`: computer seats deciding from a `SeatView` (`.decide(view) -> Action`);
    `GENERIC_CHART` is the Normal seats' fixed card. (The Easy seat is `trainer.core.seats.EasySeat`.)
`trainer.strategy.edge.exact_edge(ruleset, shoe, *, chart=None) -> float`
    The player's EV of one round dealt from a depleted `Composition`, flat bet, played by the rule
    set's full-shoe chart (the exact edge `play` shows after each round); `round_starts` deals the
    compositions real shoes meet.
`dealer_outcomes(ruleset, up, *, removed=()) -> DealerOutcomes`
    The dealer's exact final-total distribution for one up card.
`ChartCache`, `install_cache(cache)`: the cache protocol (`load(key) -> bytes | None`,
    `save(key, bytes)`) and how the CLI/REPL plug a file-backed one in (`trainer.chartcache`).
"""

from typing import TYPE_CHECKING

from trainer.core.exports import lazy_exports

if TYPE_CHECKING:
    from trainer.strategy.cache import (
        ChartCache,
        cache_key,
        chart_for,
        forget_charts,
        has_chart,
        install_cache,
    )
    from trainer.strategy.chart import Cell, Chart, Deviation, cell_key
    from trainer.strategy.dealer import DealerOutcomes, dealer_outcomes
    from trainer.strategy.engine import Progress
    from trainer.strategy.hand import HandEVs, ev_cost, hand_evs, legal_actions
    from trainer.strategy.play import GENERIC_CHART, StrategyTable, chart_action, hand_row
    from trainer.strategy.seats import HardSeat, NormalSeat

_HOMES = {
    "trainer.strategy.cache": ("ChartCache", "cache_key", "chart_for", "forget_charts", "has_chart",
                               "install_cache"),
    "trainer.strategy.chart": ("Cell", "Chart", "Deviation", "cell_key"),
    "trainer.strategy.dealer": ("DealerOutcomes", "dealer_outcomes"),
    "trainer.strategy.engine": ("Progress",),
    "trainer.strategy.hand": ("HandEVs", "ev_cost", "hand_evs", "legal_actions"),
    "trainer.strategy.play": ("GENERIC_CHART", "StrategyTable", "chart_action", "hand_row"),
    "trainer.strategy.seats": ("HardSeat", "NormalSeat"),
}
__getattr__, __dir__ = lazy_exports(globals(), _HOMES)  # a chart built loads neither the seats nor the rounds

__all__ = [
    "GENERIC_CHART",
    "Cell",
    "Chart",
    "ChartCache",
    "DealerOutcomes",
    "Deviation",
    "HandEVs",
    "HardSeat",
    "NormalSeat",
    "Progress",
    "StrategyTable",
    "cache_key",
    "cell_key",
    "chart_action",
    "chart_for",
    "dealer_outcomes",
    "ev_cost",
    "forget_charts",
    "hand_evs",
    "hand_row",
    "has_chart",
    "install_cache",
    "legal_actions",
]
