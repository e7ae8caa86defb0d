"""A seat that splits: its hands played in turn, the dealer's play, and the settlement of every hand.

Splits come in a few rounds in a hundred, so this path favours plain code over speed. It deals in the
order of `Round`: the first hand takes its second card at once, each later hand when its turn comes,
and a resplit hand goes right after the hand it came from.
"""

from __future__ import annotations

from collections.abc import Callable

from trainer.sim.codes import ACE
from trainer.sim.game import Game
from trainer.sim.hands import BUST, SOFT, STANDS
from trainer.sim.plays import DOUBLE, HIT, SPLIT, UpPlays

_STANDING, _SETTLED, _NATURAL = 0, 1, 2


def play_split(game: Game, plays: UpPlays, pair: int, up: int, hole: int, dealer_may_have_natural: bool,
               insured: bool, draw: Callable[[], int]) -> int:
    """Play a seat that splits its pair of `pair` against `up`; its net result in result units.

    `hole` is the hole card (-1 in a game without one: the dealer then draws a second card only if a
    hand is left to play against); `insured` is an insurance bet still waiting for the dealer's natural.
    """
    hands = game.hands
    start, nxt, total = hands.start, hands.next_state, hands.total
    value, pair_key = game.codes.value, game.codes.pair_key
    scale = game.scale
    firsts = [pair, pair]
    states: list[int] = []
    stakes: list[int] = []
    status: list[int] = []
    net = 0
    i = 0
    while i < len(firsts):
        first = firsts[i]
        second = draw()
        is_pair = pair_key[second] == pair_key[first]
        can_split = (is_pair and len(firsts) < game.max_hands
                     and (value[first] != ACE or game.resplit_aces))
        if can_split and plays.split_pair[second] == SPLIT:
            firsts.insert(i + 1, second)
            continue
        state = start[first][second]
        stake = 1
        split_natural = game.split_21_is_blackjack and state == SOFT + 21
        if (value[first] == ACE and game.one_card_split_aces) or split_natural:
            pass  # one card to each split ace, or a split 21 that is a blackjack: the hand stands
        else:
            if is_pair:
                action = plays.split_pair[second] if can_split else plays.split_pair_capped[second]
            else:
                action = plays.split_first[state]
            if action == HIT:
                hits = plays.hits
                state = nxt[state][draw()]
                while hits[state]:
                    state = nxt[state][draw()]
            elif action == DOUBLE:
                state = nxt[state][draw()]
                stake = 2
        states.append(state)
        stakes.append(stake)
        if state == BUST:
            status.append(_SETTLED)
            net -= stake * scale
        elif (game.split_21_is_blackjack and state == SOFT + 21 and stake == 1
              and start[first][second] == state):
            status.append(_NATURAL)
        else:
            status.append(_STANDING)
        i += 1

    if hole < 0 and any(s != _SETTLED for s in status):
        hole = draw()
    dealer_natural = dealer_may_have_natural and hole >= 0 and hands.natural[up][hole]
    busted = -net
    if insured:
        net += game.insurance_win if dealer_natural else -game.insurance_stake
    if dealer_natural:
        owed = scale - min(scale, busted)  # under "original": one original bet in all, busts included
        for k in range(len(states)):
            if status[k] != _STANDING:
                continue  # busted hands are settled; a split natural pushes
            loss = stakes[k] * scale if game.takes_all else min(owed, stakes[k] * scale)
            owed -= loss
            net -= loss
        return net
    if any(s == _STANDING for s in status):
        d = hands.dealer_start[up][hole]
        dealer_next = hands.dealer_next
        while d < STANDS:
            d = dealer_next[d][draw()]
        dealer_total = d - STANDS
    else:
        dealer_total = 0
    for k, state in enumerate(states):
        if status[k] == _NATURAL:
            net += game.blackjack
        elif status[k] == _STANDING:
            mine = total[state]
            if dealer_total > 21 or mine > dealer_total:
                net += stakes[k] * scale
            elif mine < dealer_total:
                net -= stakes[k] * scale
    return net
