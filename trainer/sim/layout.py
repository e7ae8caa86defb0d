"""The compiled simulator's arrays: what each slot of its state, rules and rates arrays holds.

Plain constants, free of numba, so that `trainer.sim.fast` can fill the arrays without loading the
compiler; `trainer.sim.native` and `trainer.sim.native_shoe` read them as compile-time constants. The
hand states, actions and shoe sizes are the Python engine's own, re-exported here for the kernels.
"""

from __future__ import annotations

from trainer.sim.codes import ACE
from trainer.sim.engine import COUNT_REACH
from trainer.sim.hands import BUST, SOFT, STANDS
from trainer.sim.plays import DOUBLE, HIT, SPLIT, STAND, SURRENDER
from trainer.sim.shoes import ALWAYS, EVERY_ROUND_FIRST, INFINITE_BLOCK, INFINITE_RESERVE

__all__ = ["ACE", "ALWAYS", "BUST", "COUNT_REACH", "DOUBLE", "EVERY_ROUND_FIRST", "HIT", "INFINITE_BLOCK",
           "INFINITE_RESERVE", "SOFT", "SPLIT", "STAND", "STANDS", "SURRENDER"]

# shoe kinds (rules[R_KIND]); RECORDED replays the shoes a test gives
CUT_CARD, EVERY_ROUND, INFINITE, RECORDED = 0, 1, 2, 3

# the seat's state between calls: seat[...]
(POS, END, CUT, SHUFFLED, FAILED, NEXT_SHOE, RUNNING, COUNTED_TO, DRIFT, LAST_LEFT, SEATED, GONE, SIDE_SEEN,
 STATE_SIZE) = range(14)

# the rules and the counter's plain figures: rules[...]; a side count (`count.SideCounter`): the values
# it keeps as a bit mask (bit v: value v), its adjustment num / den (den 0: no side count), per deck, decks
(R_HOLE, R_HOLE_FIRST, R_EVEN_MONEY, R_SCALE, R_BLACKJACK, R_SURRENDER_LOSS, R_INS_STAKE, R_INS_WIN,
 R_TAKES_ALL, R_EARLY_RULE, R_MAX_HANDS, R_ONE_CARD_ACES, R_RESPLIT_ACES, R_SPLIT_21_BJ, R_KIND, R_BURN,
 R_CUT_LO, R_CUT_HI, R_COUNTING, R_TC_MODE, R_ROUNDING, R_TAG_SCALE, R_INITIAL, R_BURN_SHOWN, R_LOW,
 R_COUNTS, R_SETS, R_INSURE_FROM, R_BET_FIRST, R_BET_LOW, R_PAD, R_TC_LOW, R_WONG, R_WONG_IN, R_WONG_OUT,
 R_WONG_PATH, R_SIDE_RANKS, R_SIDE_NUM, R_SIDE_DEN, R_SIDE_PER_DECK, R_DECKS, RULES_SIZE) = range(42)

# the learner's error rates: rates[...]
M_COUNT, M_TRUE_COUNT, M_STRATEGY, M_BET, RATES_SIZE = range(5)

# per-up-card flags: ups[k, up]
U_OFFERS, U_PEEKS, U_MAY, U_INSURANCE, U_EARLY = range(5)

# true-count modes and roundings; OFF_TABLE marks a true count the kernel's table does not hold
TC_ZERO, TC_BALANCED, TC_RUNNING = 0, 1, 2
FLOOR, TRUNCATE, ROUND = 0, 1, 2
OFF_TABLE = -128

# a split hand's standing (`trainer.sim.splits`)
STANDING, SETTLED, NATURAL = 0, 1, 2

# the split's scratch rows: scratch[row, hand] (`_split`)
S_FIRSTS, S_STATES, S_STAKES, S_STATUS, SCRATCH_ROWS = range(5)

# a round of several hands' work rows: work[row, hand] (`_spread`; the split rows hold hand i's split
# hands from column i * (max hands + 1))
(W_FIRSTS, W_SECONDS, W_NETS, W_STATUS, W_INSURED, W_STATES, W_STAKES, W_SPLIT, W_COUNTS, W_S_STATES,
 W_S_STAKES, W_S_STATUS, W_S_FIRSTS, WORK_ROWS) = range(14)
