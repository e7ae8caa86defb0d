"""A round in which the seat plays several hands (spots) at once: every rule of `Round` for a table of
that many seats, the hands played in turn before the dealer.

The single hand's round (`engine.play_rounds`) settles a hand as soon as it can (a bust before the
dealer draws, a natural before the hands after it); with several hands the dealer plays once, after the
last hand, if any hand is left to play against, and a game without a hole card deals the dealer's
second card only then. Written for clarity, not speed: spots are played at high counts, a round in a
few. `tests/test_sim_spread.py` plays this and `Round` with as many seats on the same shoes.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence

from trainer.core.deal import opening_deal
from trainer.core.events import DEALER
from trainer.core.rules import Ruleset
from trainer.sim.codes import ACE
from trainer.sim.game import Game
from trainer.sim.hands import BUST, SOFT, STANDS
from trainer.sim.plays import DOUBLE, HIT, SPLIT, STAND, SURRENDER, UpPlays

UP, HOLE = -1, -2
"""The dealer's up card and hole card in a deal order (the players' hands are 0, 1, ...)."""
_LIVE, _DONE, _NATURAL, _LATE_SURRENDER = 0, 1, 2, 3
"""A hand's standing before the dealer: to settle against the dealer's total, settled, a blackjack
waiting for the dealer's natural, a surrender that waits on the dealer's natural (no peek)."""

Tables = Callable[[Sequence[int], int], tuple[Sequence[UpPlays], bool]]
"""(the cards dealt face up: every hand's two and the up card, the up card) -> the tables the hands
are played by and whether to insure (the counter reads the count once the deal is seen)."""


@functools.cache
def deal_order(ruleset: Ruleset, hands: int) -> tuple[int, ...]:
    """Whom each card of the opening deal goes to: a hand's index, `UP` or `HOLE`."""
    order = []
    for seat, face_up in opening_deal(ruleset, hands):
        if seat == DEALER:
            order.append(UP if face_up else HOLE)
        else:
            order.append(seat)
    return tuple(order)


def play_spread(game: Game, hands: int, draw: Callable[[], int], tables: Tables) -> list[int]:
    """Play one round of `hands` hands of one unit each; each hand's net in result units (its
    insurance included)."""
    firsts = [0] * hands
    seconds = [0] * hands
    got = [0] * hands
    up = hole = -1
    for to in deal_order(game.ruleset, hands):
        card = draw()
        if to == UP:
            up = card
        elif to == HOLE:
            hole = card
        elif got[to] == 0:
            firsts[to] = card
            got[to] = 1
        else:
            seconds[to] = card
    return _play(game, hands, firsts, seconds, up, hole, draw, tables)


def _play(game: Game, n: int, firsts: list[int], seconds: list[int], up: int, hole: int,
          draw: Callable[[], int], tables: Tables) -> list[int]:
    hands_t = game.hands
    natural, start, nxt, total = hands_t.natural, hands_t.start, hands_t.next_state, hands_t.total
    pair_key = game.codes.pair_key
    scale = game.scale
    shown = [*firsts, *seconds, up]
    by_up, insure = tables(shown, up)
    plays = by_up[up]
    nets = [0] * n
    status = [_LIVE] * n
    insured = [False] * n
    dealer_may = False
    for i in range(n):  # the offers, each hand in turn: early surrender, then insurance or even money
        if not game.offers[up]:
            break
        p1, p2 = firsts[i], seconds[i]
        player_natural = natural[p1][p2]
        if game.early_surrender[up] and not player_natural:
            first = plays.pair[p1] if pair_key[p1] == pair_key[p2] else plays.first[start[p1][p2]]
            if first == SURRENDER:
                nets[i] = -game.surrender_loss
                status[i] = _DONE
                continue
        if game.insurance[up] and insure:
            if player_natural and game.even_money:
                nets[i] = scale
                status[i] = _DONE
            else:
                insured[i] = True
    if game.offers[up]:
        if game.peeks[up]:
            if natural[up][hole]:  # the peek finds a natural: every hand is settled here
                for i in range(n):
                    if status[i] == _DONE:
                        continue
                    if not natural[firsts[i]][seconds[i]]:
                        nets[i] = -scale
                    if insured[i]:
                        nets[i] += game.insurance_win
                return nets
            for i in range(n):
                if insured[i]:
                    nets[i] = -game.insurance_stake
                    insured[i] = False
        else:
            dealer_may = game.may_have_natural[up]
    # the hands in turn; split hands are kept as (state, stake, status) beside their hand
    splits: list[SplitHands | None] = [None] * n
    states = [0] * n
    stakes = [scale] * n
    for i in range(n):
        if status[i] != _LIVE:
            continue
        p1, p2 = firsts[i], seconds[i]
        if natural[p1][p2]:
            if dealer_may:
                status[i] = _NATURAL
            else:
                nets[i] += game.blackjack
                status[i] = _DONE
            continue
        state = start[p1][p2]
        action = plays.pair[p1] if pair_key[p1] == pair_key[p2] else plays.first[state]
        if action == HIT:
            state = nxt[state][draw()]
            while plays.hits[state]:
                state = nxt[state][draw()]
        elif action == DOUBLE:
            state = nxt[state][draw()]
            stakes[i] = 2 * scale
        elif action == SPLIT:
            splits[i] = _split_hands(game, plays, p1, draw)
            continue
        elif action == SURRENDER:
            if game.surrender_early or not dealer_may:
                nets[i] -= game.surrender_loss
                status[i] = _DONE
            else:
                status[i] = _LATE_SURRENDER
            continue
        elif action != STAND:
            raise AssertionError(f"no such play {action}")
        states[i] = state
        if state == BUST:
            nets[i] -= stakes[i]
            status[i] = _DONE
    live = any(status[i] != _DONE and splits[i] is None for i in range(n)) or any(
        s is not None and any(st != _DONE for _, _, st in s) for s in splits)
    if hole < 0 and live:
        hole = draw()
    dealer_natural = dealer_may and hole >= 0 and natural[up][hole]
    for i in range(n):  # insurance taken in a game without a peek: settled by the dealer's second card
        if insured[i]:
            nets[i] += game.insurance_win if dealer_natural else -game.insurance_stake
    dealer_total = 0
    if not dealer_natural and (any(status[i] == _LIVE and splits[i] is None for i in range(n)) or any(
            s is not None and any(st == _LIVE for _, _, st in s) for s in splits)):
        d = hands_t.dealer_start[up][hole]
        while d < STANDS:
            d = hands_t.dealer_next[d][draw()]
        dealer_total = d - STANDS
    for i in range(n):
        split = splits[i]
        if split is not None:
            nets[i] += _settle_split(game, split, dealer_natural, dealer_total)
            continue
        if status[i] == _DONE:
            continue
        if dealer_natural:
            if status[i] == _LIVE:
                nets[i] -= stakes[i] if game.takes_all else scale
            elif status[i] == _LATE_SURRENDER:
                nets[i] -= scale
            continue  # a blackjack pushes the dealer's
        if status[i] == _NATURAL:
            nets[i] += game.blackjack
        elif status[i] == _LATE_SURRENDER:
            nets[i] -= game.surrender_loss
        else:
            mine = total[states[i]]
            if dealer_total > 21 or mine > dealer_total:
                nets[i] += stakes[i]
            elif mine < dealer_total:
                nets[i] -= stakes[i]
    return nets


SplitHands = list[tuple[int, int, int]]
"""A split pair's hands: (state, stake in units, standing) each."""


def _split_hands(game: Game, plays: UpPlays, pair: int, draw: Callable[[], int]) -> SplitHands:
    """A split pair's hands played out (as `splits.play_split` plays them, without the dealer): each
    hand's (state, stake in units, standing)."""
    hands_t = game.hands
    start, nxt = hands_t.start, hands_t.next_state
    value, pair_key = game.codes.value, game.codes.pair_key
    firsts = [pair, pair]
    out: list[tuple[int, int, int]] = []
    i = 0
    while i < len(firsts):
        first = firsts[i]
        second = draw()
        is_pair = pair_key[second] == pair_key[first]
        can_split = is_pair and len(firsts) < game.max_hands and (value[first] != ACE or game.resplit_aces)
        if can_split and plays.split_pair[second] == SPLIT:
            firsts.insert(i + 1, second)
            continue
        state = start[first][second]
        stake = 1
        split_natural = game.split_21_is_blackjack and state == SOFT + 21
        if not ((value[first] == ACE and game.one_card_split_aces) or split_natural):
            if is_pair:
                action = plays.split_pair[second] if can_split else plays.split_pair_capped[second]
            else:
                action = plays.split_first[state]
            if action == HIT:
                state = nxt[state][draw()]
                while plays.hits[state]:
                    state = nxt[state][draw()]
            elif action == DOUBLE:
                state = nxt[state][draw()]
                stake = 2
        if state == BUST:
            out.append((state, stake, _DONE))
        elif split_natural and stake == 1 and start[first][second] == state:
            out.append((state, stake, _NATURAL))
        else:
            out.append((state, stake, _LIVE))
        i += 1
    return out


def _settle_split(game: Game, split: SplitHands, dealer_natural: bool, dealer_total: int) -> int:
    """A split pair's net against the dealer (`splits.play_split`'s settlement)."""
    scale = game.scale
    net = -sum(stake * scale for _, stake, st in split if st == _DONE)
    if dealer_natural:
        owed = scale - min(scale, -net)  # under "original": one original bet in all, busts included
        for _, stake, st in split:
            if st != _LIVE:
                continue
            loss = stake * scale if game.takes_all else min(owed, stake * scale)
            owed -= loss
            net -= loss
        return net
    for state, stake, st in split:
        if st == _NATURAL:
            net += game.blackjack
        elif st == _LIVE:
            mine = game.hands.total[state]
            if dealer_total > 21 or mine > dealer_total:
                net += stake * scale
            elif mine < dealer_total:
                net -= stake * scale
    return net
