"""The hot loop compiled by numba: `trainer.sim.engine.play_rounds` and `play_split`, rule for rule.

This module and `trainer.sim.native_shoe` are the optional fast path (`pip install -e '.[fast]'`);
only `trainer.sim.fast` imports them, and only when a run asks for it, so `cutcard` starts without
loading numba. Every table is the Python engine's own (`Game`, `UpPlays`, the count plan), laid out
as numpy arrays by `trainer.sim.fast.NativeSeat`; the round below is the engine's round line for
line, with the shoe, the count, the true count, the bet ramp and the learner's mistakes kept in small
arrays (`trainer.sim.layout`) so that a job plays its rounds in chunks.

`tests/test_sim_engine.py` plays this kernel and `Round` on the same recorded shoes and asserts
identical results round by round, as it does for the Python engine; `tests/test_sim_fast.py` checks
its counting bet by bet against the Python engine's.

It is over 600 lines because it is one concept, the engine's round in compiled form: the round, the
split hands, back-counting's sit-and-leave and several spots are steps of the one loop, reading the same
arrays by the same indices, and are kept beside it so that it can be read against the engine's round.
"""

from __future__ import annotations

import math

import numpy as np

from trainer.sim.layout import (
    ACE,
    BUST,
    COUNT_REACH,
    COUNTED_TO,
    CUT,
    DOUBLE,
    DRIFT,
    END,
    FAILED,
    FLOOR,
    GONE,
    HIT,
    LAST_LEFT,
    M_BET,
    M_COUNT,
    M_STRATEGY,
    M_TRUE_COUNT,
    NATURAL,
    OFF_TABLE,
    POS,
    R_BET_FIRST,
    R_BET_LOW,
    R_BLACKJACK,
    R_BURN_SHOWN,
    R_COUNTING,
    R_COUNTS,
    R_DECKS,
    R_EARLY_RULE,
    R_EVEN_MONEY,
    R_HOLE,
    R_HOLE_FIRST,
    R_INITIAL,
    R_INS_STAKE,
    R_INS_WIN,
    R_INSURE_FROM,
    R_LOW,
    R_MAX_HANDS,
    R_ONE_CARD_ACES,
    R_RESPLIT_ACES,
    R_ROUNDING,
    R_SCALE,
    R_SETS,
    R_SIDE_DEN,
    R_SIDE_NUM,
    R_SIDE_PER_DECK,
    R_SIDE_RANKS,
    R_SPLIT_21_BJ,
    R_SURRENDER_LOSS,
    R_TAG_SCALE,
    R_TAKES_ALL,
    R_TC_LOW,
    R_TC_MODE,
    R_WONG,
    R_WONG_IN,
    R_WONG_OUT,
    R_WONG_PATH,
    RUNNING,
    S_FIRSTS,
    S_STAKES,
    S_STATES,
    S_STATUS,
    SEATED,
    SETTLED,
    SIDE_SEEN,
    SOFT,
    SPLIT,
    STANDING,
    STANDS,
    SURRENDER,
    TC_BALANCED,
    TC_ZERO,
    TRUNCATE,
    U_EARLY,
    U_INSURANCE,
    U_MAY,
    U_OFFERS,
    U_PEEKS,
    W_COUNTS,
    W_FIRSTS,
    W_INSURED,
    W_NETS,
    W_S_FIRSTS,
    W_S_STAKES,
    W_S_STATES,
    W_S_STATUS,
    W_SECONDS,
    W_SPLIT,
    W_STAKES,
    W_STATES,
    W_STATUS,
)
from trainer.sim.native_shoe import _below, _chance, _run_out, _shuffle, compiled, inlined, inner


@inlined
def _floor_div(x, d):
    """x // d for d > 0 and |x| < 2**52, by one floating-point division (a fraction of an integer one's
    time): the quotient is correctly rounded, so it is exact when x / d is whole, and otherwise at least
    1/d from the nearest whole number, far more than its rounding error."""
    return np.int64(math.floor(np.float64(x) / np.float64(d)))


@inlined
def _whole(x, d, rounding):
    """`trainer.sim.count.whole_count`."""
    if rounding == FLOOR:
        return _floor_div(x, d)
    if rounding == TRUNCATE:
        return _floor_div(x, d) if x >= 0 else -_floor_div(-x, d)
    n = _floor_div(2 * abs(x) + d, 2 * d)
    return n if x >= 0 else -n


@inlined
def _drifted(running, left, rules, rates, seat, slip):
    """The running count with the learner's drift (`_with_count_mistakes`)."""
    if rates[M_COUNT] > 0 or rates[M_TRUE_COUNT] > 0:
        last = seat[LAST_LEFT]
        if left > last:
            seat[DRIFT] = 0
        else:
            drift = seat[DRIFT]
            per_card = rates[M_COUNT]
            for _ in range(last - left):
                if _chance(slip) < per_card:
                    drift += rules[R_TAG_SCALE] if _chance(slip) < 0.5 else -rules[R_TAG_SCALE]
            seat[DRIFT] = drift
        seat[LAST_LEFT] = left
        running += seat[DRIFT]
    return running


@inlined
def _slipped(count, rates, slip):
    """The count, one off at the learner's conversion error rate."""
    if rates[M_TRUE_COUNT] > 0 and _chance(slip) < rates[M_TRUE_COUNT]:
        count += 1 if _chance(slip) < 0.5 else -1
    return count


@inlined
def _true_count(running, left, rules, rates, seat, mults, divs, tcs, slip):
    """The count the plays read (and the ramp without a side count), with the learner's drift and slips."""
    mode = rules[R_TC_MODE]
    if mode == TC_ZERO:
        return 0
    running = _drifted(running, left, rules, rates, seat, slip)
    if mode == TC_BALANCED:  # from the table where it holds the count: a load instead of a division
        i = running - rules[R_TC_LOW]
        count = OFF_TABLE
        if 0 <= i < tcs.shape[1]:
            count = int(tcs[left, i])
        if count == OFF_TABLE:
            count = _whole(running * mults[left], divs[left], rules[R_ROUNDING])
    else:
        count = _floor_div(running, rules[R_TAG_SCALE])
    return _slipped(count, rates, slip)


@inlined
def _bet_count(running, seen, left, rules, rates, seat, mults, divs, tcs, slip):
    """The count the ramp reads: with a side count the adjusted one (`count.SideCounter`), its `seen`
    cards kept without mistakes; else `_true_count`."""
    den = rules[R_SIDE_DEN]
    if den == 0:
        return _true_count(running, left, rules, rates, seat, mults, divs, tcs, slip)
    running = _drifted(running, left, rules, rates, seat, slip)
    m, d, scale = mults[left], divs[left], rules[R_TAG_SCALE]
    x = running * m * den + rules[R_SIDE_NUM] * (
        rules[R_SIDE_PER_DECK] * (rules[R_DECKS] * scale * m - d) - seen * m * scale)
    return _slipped(_whole(x, d * den, rules[R_ROUNDING]), rates, slip)


@inlined
def _ramp(count, rules, bets):
    i = count - rules[R_BET_FIRST]
    if i < 0:
        return rules[R_BET_LOW]
    top = len(bets) - 1
    return bets[i if i < top else top]


@inlined
def _bet(count, rules, rates, bets, slip):
    """The ramp's bet, or a step off it at the learner's bet error rate (`_with_bet_mistakes`)."""
    right = _ramp(count, rules, bets)
    rate = rates[M_BET]
    if rate <= 0 or _chance(slip) >= rate:
        return right
    first = 1 if _chance(slip) < 0.5 else -1
    for step in range(1, 12):
        for way in (first, -first):
            b = _ramp(count + way * step, rules, bets)
            if b != right:
                return b
    return right


@inlined
def _draw_for(action, state, t, up, buf, pos, nxt, hits):
    """A hand's draws for its first play: a hit and then more while the chart hits, a double's one
    card, nothing otherwise; (its state after, where the shoe is, whether the bet was doubled)."""
    if action == HIT:
        state = nxt[state, buf[pos]]
        pos += 1
        while hits[t, up, state]:
            state = nxt[state, buf[pos]]
            pos += 1
    elif action == DOUBLE:
        return nxt[state, buf[pos]], pos + 1, True
    return state, pos, False


@inlined
def _table(count, rules, rates, slip):
    """The table set played at `count` (`_by_count`), a mistaken one at the strategy error rate."""
    i = count - rules[R_LOW]
    top = rules[R_COUNTS] - 1
    i = 0 if i < 0 else (i if i < top else top)
    if rules[R_SETS] > 1 and rates[M_STRATEGY] > 0 and _chance(slip) < rates[M_STRATEGY]:
        k = _below(slip, rules[R_SETS] - 1)
        return (1 + k) * rules[R_COUNTS] + i
    return i


@inner
def _split(pair, up, hole, dealer_may, insured, t, buf, pos, rules, start, nxt, total, dealer_start,
           dealer_next, natural, value, pair_key, split_first, split_pair, capped, hits, scratch):
    """`trainer.sim.splits.play_split`."""
    scale = rules[R_SCALE]
    scratch[S_FIRSTS, 0] = pair
    scratch[S_FIRSTS, 1] = pair
    n = 2
    done = 0
    net = 0
    i = 0
    max_hands = rules[R_MAX_HANDS]
    while i < n:
        first = scratch[S_FIRSTS, i]
        second = buf[pos]
        pos += 1
        is_pair = pair_key[second] == pair_key[first]
        can_split = is_pair and n < max_hands and (value[first] != ACE or rules[R_RESPLIT_ACES] != 0)
        if can_split and split_pair[t, up, second] == SPLIT:
            for k in range(n, i + 1, -1):
                scratch[S_FIRSTS, k] = scratch[S_FIRSTS, k - 1]
            scratch[S_FIRSTS, i + 1] = second
            n += 1
            continue
        state = start[first, second]
        stake = 1
        split_natural = rules[R_SPLIT_21_BJ] != 0 and state == SOFT + 21
        if not ((value[first] == ACE and rules[R_ONE_CARD_ACES] != 0) or split_natural):
            if is_pair:
                action = split_pair[t, up, second] if can_split else capped[t, up, second]
            else:
                action = split_first[t, up, state]
            state, pos, doubled = _draw_for(action, state, t, up, buf, pos, nxt, hits)
            if doubled:
                stake = 2
        scratch[S_STATES, done] = state
        scratch[S_STAKES, done] = stake
        if state == BUST:
            scratch[S_STATUS, done] = SETTLED
            net -= stake * scale
        elif rules[R_SPLIT_21_BJ] != 0 and state == SOFT + 21 and stake == 1 and start[first,
                                                                                       second] == state:
            scratch[S_STATUS, done] = NATURAL
        else:
            scratch[S_STATUS, done] = STANDING
        done += 1
        i += 1

    open_hand = False
    standing = False
    for k in range(done):
        if scratch[S_STATUS, k] != SETTLED:
            open_hand = True
        if scratch[S_STATUS, k] == STANDING:
            standing = True
    if hole < 0 and open_hand:
        hole = buf[pos]
        pos += 1
    dealer_natural = dealer_may and hole >= 0 and natural[up, hole]
    busted = -net
    if insured:
        net += rules[R_INS_WIN] if dealer_natural else -rules[R_INS_STAKE]
    if dealer_natural:
        owed = scale - min(scale, busted)
        for k in range(done):
            if scratch[S_STATUS, k] != STANDING:
                continue
            stake = scratch[S_STAKES, k] * scale
            loss = stake if rules[R_TAKES_ALL] != 0 else min(owed, stake)
            owed -= loss
            net -= loss
        return net, pos
    dealer_total = 0
    if standing:
        d = dealer_start[up, hole]
        while d < STANDS:
            d = dealer_next[d, buf[pos]]
            pos += 1
        dealer_total = d - STANDS
    for k in range(done):
        if scratch[S_STATUS, k] == NATURAL:
            net += rules[R_BLACKJACK]
        elif scratch[S_STATUS, k] == STANDING:
            mine = total[scratch[S_STATES, k]]
            if dealer_total > 21 or mine > dealer_total:
                net += scratch[S_STAKES, k] * scale
            elif mine < dealer_total:
                net -= scratch[S_STAKES, k] * scale
    return net, pos


@inlined
def _round(running, t0, buf, pos, seat, slip, rules, rates, start, nxt, total, dealer_start, dealer_next,
           natural,
           value, pair_key, tag, ups, first_plays, pair_plays, split_first, split_pair, capped, hits, mults,
           divs, tcs, scratch):
    """One round of the seat (`play_rounds`' loop body): its net result in result units, and where the
    shoe is after it (past its end: the round ran out, and `play` replays it)."""
    scale = rules[R_SCALE]
    if rules[R_HOLE] != 0:  # the deal order of `trainer.core.deal`: the hole card second or last
        if rules[R_HOLE_FIRST] != 0:
            p1, hole, p2, up = buf[pos], buf[pos + 1], buf[pos + 2], buf[pos + 3]
        else:
            p1, up, p2, hole = buf[pos], buf[pos + 1], buf[pos + 2], buf[pos + 3]
        pos += 4
    else:  # no hole card: the up card first
        up, p1, p2 = buf[pos], buf[pos + 1], buf[pos + 2]
        hole = -1
        pos += 3
    if pos > seat[END]:  # ran out in the deal: replayed
        return 0, pos
    t = t0
    insure = False
    if rules[R_COUNTING] != 0:
        seen = running + tag[p1] + tag[p2] + tag[up]
        tc = _true_count(seen, seat[END] - pos, rules, rates, seat, mults, divs, tcs, slip)
        t = _table(tc, rules, rates, slip)
        insure = tc >= rules[R_INSURE_FROM]
    is_pair = pair_key[p1] == pair_key[p2]
    player_natural = natural[p1, p2]
    net = 0
    dealer_may = False
    insured = False
    early = False
    if ups[U_OFFERS, up]:
        even_money = False
        if ups[U_EARLY, up] and not player_natural:
            first = pair_plays[t, up, p1] if is_pair else first_plays[t, up, start[p1, p2]]
            early = first == SURRENDER
        if ups[U_INSURANCE, up] and insure and not early:
            if player_natural and rules[R_EVEN_MONEY] != 0:
                even_money = True
            else:
                insured = True
        if ups[U_PEEKS, up]:
            if natural[up, hole]:
                if even_money:
                    net = scale
                elif not player_natural:
                    net = -rules[R_SURRENDER_LOSS] if early else -scale
                if insured:
                    net += rules[R_INS_WIN]
                return net, pos
            if insured:
                net = -rules[R_INS_STAKE]
                insured = False
        else:
            dealer_may = ups[U_MAY, up] != 0
        if early:
            return net - rules[R_SURRENDER_LOSS], pos
        if even_money:
            return net + scale, pos
    if player_natural:
        if dealer_may:
            if hole < 0:
                hole = buf[pos]
                pos += 1
            if natural[up, hole]:
                return net + (rules[R_INS_WIN] if insured else 0), pos
        net += rules[R_BLACKJACK]
        if insured:
            net -= rules[R_INS_STAKE]
        return net, pos

    state = start[p1, p2]
    action = pair_plays[t, up, p1] if is_pair else first_plays[t, up, state]
    stake = scale
    if action == SPLIT:
        net_split, pos = _split(p1, up, hole, dealer_may, insured, t, buf, pos, rules, start, nxt, total,
                                dealer_start, dealer_next, natural, value, pair_key, split_first, split_pair,
                                capped, hits, scratch)
        return net + net_split, pos
    state, pos, doubled = _draw_for(action, state, t, up, buf, pos, nxt, hits)
    if doubled:
        stake = 2 * scale
    elif action == SURRENDER and (rules[R_EARLY_RULE] != 0 or not dealer_may):
        return net - rules[R_SURRENDER_LOSS], pos

    if state == BUST:
        net -= stake
        if insured:
            net += rules[R_INS_WIN] if dealer_may and hole >= 0 and natural[up, hole] else -rules[R_INS_STAKE]
        return net, pos
    if hole < 0:
        hole = buf[pos]
        pos += 1
    if dealer_may and natural[up, hole]:
        net -= stake if rules[R_TAKES_ALL] != 0 and action != SURRENDER else scale
        if insured:
            net += rules[R_INS_WIN]
        return net, pos
    if insured:
        net -= rules[R_INS_STAKE]
    if action == SURRENDER:
        return net - rules[R_SURRENDER_LOSS], pos
    dealer = dealer_start[up, hole]
    while dealer < STANDS:
        dealer = dealer_next[dealer, buf[pos]]
        pos += 1
    dealer -= STANDS
    mine = total[state]
    if dealer > 21 or mine > dealer:
        net += stake
    elif mine < dealer:
        net -= stake
    return net, pos


@compiled
def play(rounds, buf, deck, spare, seat, rng, slip, rules, rates, faces, start, nxt, total, dealer_start,
         dealer_next,
         natural, value, pair_key, tag, ups, first_plays, pair_plays, split_first, split_pair, capped, hits,
         mults, divs, tcs, bets, shoes, shoe_sizes, shoe_cuts, shoe_burns, out, bet_counts, count_sums,
         record, scratch, spots, spot_sums, work):
    """Play `rounds` rounds on from the seat's state `seat`, adding to `out` (net, net squares, wagered,
    rounds watched by a back-counter: `trainer.core.wonging`, as `engine.play_rounds`),
    `bet_counts` and `count_sums` (the rounds played, by the true count at round start that the bet
    reads + COUNT_REACH, clipped: rounds, results and squared results per unit bet, as
    `Winnings.by_count`), and each round's result to `record` when it has room for them. `spots`
    ([count, hands] rows, counts rising; none: one hand) deals several hands from their counts up
    (`_spread`), their sums into `spot_sums` (`Winnings.spot_hands` on)."""
    counting = rules[R_COUNTING] != 0
    keep = len(record) >= rounds
    net_sum = 0
    net_sq = 0
    wagered = 0
    bet = 1
    t0 = 0
    start_count = 0
    watched = 0
    playing = True
    hands_now = 1
    nets = work[W_NETS]
    has_spots = len(spots) > 0
    for n in range(rounds):
        if seat[END] - seat[POS] <= seat[CUT]:
            burn = _shuffle(buf, deck, faces, seat, rng, rules, shoes, shoe_sizes, shoe_cuts, shoe_burns)
            if seat[FAILED] != 0:
                break
            if counting:
                seat[RUNNING] = rules[R_INITIAL]
                seat[SIDE_SEEN] = 0
                seat[COUNTED_TO] = 0 if rules[R_BURN_SHOWN] != 0 else burn
            seat[SEATED] = 0
            seat[GONE] = 0
        at = seat[POS]
        running = 0
        if counting:
            running = seat[RUNNING]
            for i in range(seat[COUNTED_TO], at):
                running += tag[buf[i]]
            if rules[R_SIDE_DEN] != 0:
                for i in range(seat[COUNTED_TO], at):
                    seat[SIDE_SEEN] += (rules[R_SIDE_RANKS] >> value[buf[i]]) & 1
            seat[RUNNING] = running
            seat[COUNTED_TO] = at
            start_count = _bet_count(running, seat[SIDE_SEEN], seat[END] - at, rules, rates, seat, mults,
                                     divs, tcs, slip)
            bet = _bet(start_count, rules, rates, bets, slip)
            if rules[R_WONG] != 0:  # `Wonging.move` and `Wonging.after`
                if seat[SEATED] != 0:
                    if start_count < rules[R_WONG_OUT]:
                        seat[SEATED] = 0
                        if rules[R_WONG_PATH] != 0:
                            seat[GONE] = 1
                elif seat[GONE] == 0 and start_count >= rules[R_WONG_IN]:
                    seat[SEATED] = 1
                playing = seat[SEATED] != 0
            if has_spots:
                hands_now = 1
                for j in range(len(spots)):
                    if start_count >= spots[j, 0]:
                        hands_now = spots[j, 1]
        while True:
            if hands_now > 1:
                pos = _spread(hands_now, running, buf, seat[POS], seat, slip, rules, rates, start, nxt, total,
                              dealer_start, dealer_next, natural, value, pair_key, tag, ups, first_plays,
                              pair_plays, split_first, split_pair, capped, hits, mults, divs, tcs, work)
                net = 0
                for i in range(hands_now):
                    net += nets[i]
            else:
                net, pos = _round(running, t0, buf, seat[POS], seat, slip, rules, rates, start, nxt, total,
                                  dealer_start,
                                  dealer_next, natural, value, pair_key, tag, ups, first_plays, pair_plays,
                                  split_first, split_pair, capped, hits, mults, divs, tcs, scratch)
            seat[POS] = pos
            if pos <= seat[END]:
                break
            if not _run_out(buf, deck, faces, seat, at, spare, rng, rules):
                seat[FAILED] = 2
                break
            at = seat[POS]
            seat[COUNTED_TO] = at
        if seat[FAILED] != 0:
            break
        if keep:
            record[n] = net
        if not playing:
            watched += 1
            continue
        if counting:
            first = nets[0] if hands_now > 1 else net  # a round of several hands: its first hand's
            row = start_count + COUNT_REACH
            row = 0 if row < 0 else (2 * COUNT_REACH if row > 2 * COUNT_REACH else row)
            count_sums[row, 0] += 1
            count_sums[row, 1] += first
            count_sums[row, 2] += first * first
        if has_spots:  # `engine._add_spots`
            if hands_now > 1:
                spot_sums[0] += hands_now
                for i in range(hands_now):
                    spot_sums[1] += nets[i]
                    spot_sums[2] += nets[i] * nets[i]
                spot_sums[3] += 1
                spot_sums[4] += nets[0]
                spot_sums[5] += nets[1]
                spot_sums[6] += nets[0] * nets[1]
                wagered += bet * (hands_now - 1)
                bet_counts[bet] += hands_now - 1
            else:
                spot_sums[0] += 1
                spot_sums[1] += net
                spot_sums[2] += net * net
        net *= bet
        net_sum += net
        net_sq += net * net
        if counting:
            wagered += bet
            bet_counts[bet] += 1
    out[0] += net_sum
    out[1] += net_sq
    out[2] += wagered
    out[3] += watched


@inner
def _spread(n, running, buf, pos, seat, slip, rules, rates, start, nxt, total, dealer_start, dealer_next,
            natural,
            value, pair_key, tag, ups, first_plays, pair_plays, split_first, split_pair, capped, hits, mults,
            divs, tcs, work):
    """`trainer.sim.spread.play_spread`: a round of `n` hands of one unit, each hand's net into
    `work[W_NETS]` (the other rows of `work` are its hands, `layout.W_*`: the kernel allocates
    nothing); where the shoe is after it (past its end: the round ran out, and `play` replays it)."""
    scale = rules[R_SCALE]
    firsts, seconds, nets, status, insured = work[W_FIRSTS], work[W_SECONDS], work[W_NETS], work[W_STATUS], \
        work[W_INSURED]
    states, stakes, split, counts = work[W_STATES], work[W_STAKES], work[W_SPLIT], work[W_COUNTS]
    s_states, s_stakes, s_status, s_firsts = work[W_S_STATES], work[W_S_STAKES], work[W_S_STATUS], \
        work[W_S_FIRSTS]
    most = rules[R_MAX_HANDS]
    width = most + 1
    for i in range(n):
        status[i] = 0
        insured[i] = 0
        states[i] = 0
        stakes[i] = scale
        split[i] = 0
        counts[i] = 0
    hole = -1
    up = -1
    if rules[R_HOLE] != 0:
        for i in range(n):
            firsts[i] = buf[pos + i]
        pos += n
        if rules[R_HOLE_FIRST] != 0:
            hole = buf[pos]
        else:
            up = buf[pos]
        pos += 1
        for i in range(n):
            seconds[i] = buf[pos + i]
        pos += n
        if rules[R_HOLE_FIRST] != 0:
            up = buf[pos]
        else:
            hole = buf[pos]
        pos += 1
    else:
        up = buf[pos]
        pos += 1
        for i in range(n):
            firsts[i] = buf[pos]
            seconds[i] = buf[pos + 1]
            pos += 2
    for i in range(n):
        nets[i] = 0
    if pos > seat[END]:  # ran out in the deal: replayed
        return pos
    t = 0
    insure = False
    if rules[R_COUNTING] != 0:
        seen = running + tag[up]
        for i in range(n):
            seen += tag[firsts[i]] + tag[seconds[i]]
        tc = _true_count(seen, seat[END] - pos, rules, rates, seat, mults, divs, tcs, slip)
        t = _table(tc, rules, rates, slip)
        insure = tc >= rules[R_INSURE_FROM]
    # status: 0 live, 1 done, 2 a natural waiting on the dealer's, 3 a late surrender waiting on it
    dealer_may = False
    if ups[U_OFFERS, up]:
        for i in range(n):
            p1, p2 = firsts[i], seconds[i]
            player_natural = natural[p1, p2]
            if ups[U_EARLY, up] and not player_natural:
                is_pair = pair_key[p1] == pair_key[p2]
                first = pair_plays[t, up, p1] if is_pair else first_plays[t, up, start[p1, p2]]
                if first == SURRENDER:
                    nets[i] = -rules[R_SURRENDER_LOSS]
                    status[i] = 1
                    continue
            if ups[U_INSURANCE, up] and insure:
                if player_natural and rules[R_EVEN_MONEY] != 0:
                    nets[i] = scale
                    status[i] = 1
                else:
                    insured[i] = 1
        if ups[U_PEEKS, up]:
            if natural[up, hole]:
                for i in range(n):
                    if status[i] == 1:
                        continue
                    if not natural[firsts[i], seconds[i]]:
                        nets[i] = -scale
                    if insured[i]:
                        nets[i] += rules[R_INS_WIN]
                return pos
            for i in range(n):
                if insured[i]:
                    nets[i] = -rules[R_INS_STAKE]
                    insured[i] = 0
        else:
            dealer_may = ups[U_MAY, up] != 0
    for i in range(n):
        if status[i] != 0:
            continue
        p1, p2 = firsts[i], seconds[i]
        if natural[p1, p2]:
            if dealer_may:
                status[i] = 2
            else:
                nets[i] += rules[R_BLACKJACK]
                status[i] = 1
            continue
        state = start[p1, p2]
        action = pair_plays[t, up, p1] if pair_key[p1] == pair_key[p2] else first_plays[t, up, state]
        if action == SPLIT:
            split[i] = 1
            s_firsts[0] = p1
            s_firsts[1] = p1
            k = 2
            done = 0
            j = 0
            while j < k:
                first = s_firsts[j]
                second = buf[pos]
                pos += 1
                is_pair = pair_key[second] == pair_key[first]
                can_split = is_pair and k < most and (value[first] != ACE or rules[R_RESPLIT_ACES] != 0)
                if can_split and split_pair[t, up, second] == SPLIT:
                    for q in range(k, j + 1, -1):
                        s_firsts[q] = s_firsts[q - 1]
                    s_firsts[j + 1] = second
                    k += 1
                    continue
                hand = start[first, second]
                stake = 1
                split_natural = rules[R_SPLIT_21_BJ] != 0 and hand == SOFT + 21
                if not ((value[first] == ACE and rules[R_ONE_CARD_ACES] != 0) or split_natural):
                    if is_pair:
                        act = split_pair[t, up, second] if can_split else capped[t, up, second]
                    else:
                        act = split_first[t, up, hand]
                    hand, pos, doubled = _draw_for(act, hand, t, up, buf, pos, nxt, hits)
                    if doubled:
                        stake = 2
                s_states[i * width + done] = hand
                s_stakes[i * width + done] = stake
                if hand == BUST:
                    s_status[i * width + done] = SETTLED
                elif split_natural and stake == 1 and start[first, second] == hand:
                    s_status[i * width + done] = NATURAL
                else:
                    s_status[i * width + done] = STANDING
                done += 1
                j += 1
            counts[i] = done
            continue
        if action == SURRENDER:
            if rules[R_EARLY_RULE] != 0 or not dealer_may:
                nets[i] -= rules[R_SURRENDER_LOSS]
                status[i] = 1
            else:
                status[i] = 3
            continue
        state, pos, doubled = _draw_for(action, state, t, up, buf, pos, nxt, hits)
        if doubled:
            stakes[i] = 2 * scale
        states[i] = state
        if state == BUST:
            nets[i] -= stakes[i]
            status[i] = 1
    live = False
    standing = False
    for i in range(n):
        if split[i]:
            for k in range(counts[i]):
                if s_status[i * width + k] != SETTLED:
                    live = True
                if s_status[i * width + k] == STANDING:
                    standing = True
        elif status[i] != 1:
            live = True
            if status[i] == 0:
                standing = True
    if hole < 0 and live:
        hole = buf[pos]
        pos += 1
    dealer_natural = dealer_may and hole >= 0 and natural[up, hole]
    for i in range(n):
        if insured[i]:
            nets[i] += rules[R_INS_WIN] if dealer_natural else -rules[R_INS_STAKE]
    dealer_total = 0
    if not dealer_natural and standing:
        d = dealer_start[up, hole]
        while d < STANDS:
            d = dealer_next[d, buf[pos]]
            pos += 1
        dealer_total = d - STANDS
    for i in range(n):
        if split[i]:
            net = 0
            for k in range(counts[i]):
                if s_status[i * width + k] == SETTLED:
                    net -= s_stakes[i * width + k] * scale
            if dealer_natural:
                owed = scale - min(scale, -net)
                for k in range(counts[i]):
                    if s_status[i * width + k] != STANDING:
                        continue
                    stake = s_stakes[i * width + k] * scale
                    loss = stake if rules[R_TAKES_ALL] != 0 else min(owed, stake)
                    owed -= loss
                    net -= loss
            else:
                for k in range(counts[i]):
                    if s_status[i * width + k] == NATURAL:
                        net += rules[R_BLACKJACK]
                    elif s_status[i * width + k] == STANDING:
                        mine = total[s_states[i * width + k]]
                        if dealer_total > 21 or mine > dealer_total:
                            net += s_stakes[i * width + k] * scale
                        elif mine < dealer_total:
                            net -= s_stakes[i * width + k] * scale
            nets[i] += net
            continue
        if status[i] == 1:
            continue
        if dealer_natural:
            if status[i] == 0:
                nets[i] -= stakes[i] if rules[R_TAKES_ALL] != 0 else scale
            elif status[i] == 3:
                nets[i] -= scale
            continue
        if status[i] == 2:
            nets[i] += rules[R_BLACKJACK]
        elif status[i] == 3:
            nets[i] -= rules[R_SURRENDER_LOSS]
        else:
            mine = total[states[i]]
            if dealer_total > 21 or mine > dealer_total:
                nets[i] += stakes[i]
            elif mine < dealer_total:
                nets[i] -= stakes[i]
    return pos
