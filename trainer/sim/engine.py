"""The hot loop: rounds of one seat dealt from a shoe of card codes and played by decision tables.

Every rule of `trainer.core.round.Round` is here in the same order (the deal in table order, insurance
and even money, early surrender, the peek, naturals, play, the dealer's turn, settlement), written for
speed: cards are ints drawn with an iterator's `__next__`, hands are state numbers, decisions and hand
arithmetic are table lookups, and results are whole numbers. A round that splits goes to `play_split`.
`tests/test_sim_engine.py` plays this engine and `Round` on the same shoes and asserts identical
results round by round, for every shipped rule set and the rule options no seed uses.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from trainer.core.wonging import WATCHING
from trainer.sim.count import CountPlan
from trainer.sim.game import Game
from trainer.sim.hands import BUST, STANDS
from trainer.sim.plays import DOUBLE, HIT, SPLIT, STAND, SURRENDER, UpPlays
from trainer.sim.shoes import ALWAYS, ShoeSource
from trainer.sim.splits import play_split
from trainer.sim.spread import play_spread


def deal_from(cards: list[int]) -> tuple[Callable[[], int], Callable[[], int]]:
    """(draw the next card, cards left) over a list: the C methods of one list iterator, the cheapest
    draw Python has; the iterator raises StopIteration when the cards run out."""
    it = iter(cards)
    return it.__next__, it.__length_hint__  # type: ignore[attr-defined]  # list iterators have it


@dataclass(slots=True)
class Winnings:
    """What a run of rounds won, in result units (`Game.scale` per unit bet): sums that add up exactly
    across jobs, so a simulation split over processes gives the same figures in any order."""

    rounds: int = 0
    """Rounds dealt (observed): with back-counting, those played and those watched."""
    watched: int = 0
    """Back-counting: rounds dealt while the seat watched (no bet, no result)."""
    net: int = 0
    """Sum over rounds of bet x result."""
    net_squares: int = 0
    wagered: int = 0
    """Sum of initial bets, in betting units."""
    bets: dict[int, int] = field(default_factory=dict)
    """Rounds played at each initial bet (counting mode)."""
    spot_hands: int = 0
    """Several spots (`CountPlan.spots`): the hands played, and the sums of their results and squared
    results per unit of a hand's initial bet; for the rounds of two hands or more, the sums of the
    first two hands' results and of their products (the covariance of two hands of one round)."""
    spot_sum: int = 0
    spot_squares: int = 0
    pair_rounds: int = 0
    pair_first: int = 0
    pair_second: int = 0
    pair_products: int = 0
    by_count: dict[int, list[int]] = field(default_factory=dict)
    """Counting mode, the rounds played (a back-counter's watched rounds left out): for each true count at
    round start (as the counter reads it: the count its bet follows, a side count's adjusted one,
    clipped to `COUNT_REACH`), [rounds, sum of results, sum of squared results], each round's
    result per unit of its initial bet (in result units): what a bet ramp is planned from."""

    def add(self, other: Winnings) -> None:
        self.rounds += other.rounds
        self.watched += other.watched
        self.net += other.net
        self.net_squares += other.net_squares
        self.wagered += other.wagered
        for name in ("spot_hands", "spot_sum", "spot_squares", "pair_rounds", "pair_first", "pair_second",
                     "pair_products"):
            setattr(self, name, getattr(self, name) + getattr(other, name))
        for bet, n in other.bets.items():
            self.bets[bet] = self.bets.get(bet, 0) + n
        for count, sums in other.by_count.items():
            mine = self.by_count.setdefault(count, [0, 0, 0])
            for i in range(3):
                mine[i] += sums[i]


def _add_spots(spot: list[int], nets: Sequence[int]) -> None:
    """Add a played round's hands to the spot sums (`Winnings.spot_hands` on)."""
    spot[0] += len(nets)
    spot[1] += sum(nets)
    spot[2] += sum(x * x for x in nets)
    if len(nets) > 1:
        spot[3] += 1
        spot[4] += nets[0]
        spot[5] += nets[1]
        spot[6] += nets[0] * nets[1]


COUNT_REACH = 99
"""The per-count sums keep true counts from -99 to 99; a round beyond them (no balanced count of a
real shoe gets there) is tallied at the nearer end."""


def play_rounds(game: Game, plays: tuple[UpPlays, ...], source: ShoeSource, rounds: int, tally: Winnings,
                *, count: CountPlan | None = None, record: list[int] | None = None,
                progress: Callable[[int], None] | None = None, chunk: int = 25_000) -> None:
    """Play `rounds` rounds for one seat, adding to `tally` (and each round's result to `record`).

    Without `count` the seat bets one unit and plays `plays` (indexed by up-card code) every round;
    with it, the bet and the tables follow the true count (see `CountPlan`; with a side count the bet
    follows the adjusted count, the tables the plain one), and a back-counter
    (`CountPlan.wonging`) plays only the rounds its policy sits for: every round is dealt and counted
    (the others' hands take the cards the seat's would), but only a played round's bet and result go
    into the seat's sums and the per-count sums (`Winnings.rounds` counts every round observed).
    `progress` hears of every `chunk` rounds.
    """
    hands = game.hands
    start, nxt, natural, total = hands.start, hands.next_state, hands.natural, hands.total
    dealer_start, dealer_next = hands.dealer_start, hands.dealer_next
    pair_key = game.codes.pair_key
    hole_card, hole_first = game.hole_card, game.hole_card_first
    offers, peeks, may_nat = game.offers, game.peeks, game.may_have_natural
    insurance_on, early_on, even_money_rule = game.insurance, game.early_surrender, game.even_money
    scale, blackjack, sur = game.scale, game.blackjack, game.surrender_loss
    ins_stake, ins_win = game.insurance_stake, game.insurance_win
    takes_all = game.takes_all
    early_rule = game.surrender_early
    counting = count is not None
    if count is not None:
        tag, true_count, bet_for, plays_for = count.tag, count.true_count, count.bet_for, count.plays_for
        insure_from, start_shoe = count.insure_from, count.start_shoe
        wonging = count.wonging
        spots = count.spots
        bet_count, start_side = count.bet_count, count.start_side
    else:
        wonging = None
        spots = None
        bet_count = None
    hands_now = 1
    spot = [0, 0, 0, 0, 0, 0, 0]  # the Winnings's spot sums, in its order

    def spread_tables(shown: Sequence[int], up: int) -> tuple[Sequence[UpPlays], bool]:
        """The tables and insurance of a round of several hands, by the count once the deal is seen."""
        if count is None:
            return plays, False
        tc = true_count(running + sum(tag[c] for c in shown), left())
        return plays_for(tc), tc >= insure_from
    seat = WATCHING
    playing = True
    watched = 0
    insure = False
    by_up = plays
    bet = 1
    shuffle, run_out = source.shuffle, source.run_out

    cards: list[int] = []  # an empty shoe: the first round starts with a shuffle
    cut = ALWAYS
    draw, left = deal_from(cards)
    seen: list[int] = []
    side_seen: list[int] = []  # with a side count: its cards among the first i dealt

    net_sum = net_sq = wagered = 0
    bets: dict[int, int] = {}
    by_count: dict[int, list[int]] = {}
    start_count = 0
    done = 0
    while done < rounds:
        size = min(chunk, rounds - done)
        for _ in range(size):
            if left() <= cut:
                cards, cut, burn = shuffle()
                draw, left = deal_from(cards)
                for _ in range(burn):
                    draw()
                if counting:
                    seen = start_shoe(cards, burn)
                    if bet_count is not None:
                        side_seen = start_side(cards, burn)
                seat = WATCHING
            at = len(cards) - left()
            if counting:
                running = seen[at]
                start_count = true_count(running, left()) if bet_count is None else \
                    bet_count(running, side_seen[at], left())
                bet = bet_for(start_count)
                if wonging is not None:
                    seat = wonging.after(seat, wonging.move(seat, start_count))
                    playing = seat.playing
                if spots is not None:
                    hands_now = spots.at(start_count)
            nets: list[int] | None = None
            while True:  # once, unless the shoe runs out mid-round: then again on the continued shoe
                try:
                    if hands_now > 1:
                        nets = play_spread(game, hands_now, draw, spread_tables)
                        net = sum(nets)
                        break
                    if hole_card:
                        if hole_first:
                            p1 = draw()
                            hole = draw()
                            p2 = draw()
                            up = draw()
                        else:
                            p1 = draw()
                            up = draw()
                            p2 = draw()
                            hole = draw()
                    else:
                        up = draw()
                        p1 = draw()
                        p2 = draw()
                        hole = -1
                    if counting:
                        tc = true_count(running + tag[p1] + tag[p2] + tag[up], left())
                        by_up = plays_for(tc)
                        insure = tc >= insure_from
                    up_plays = by_up[up]
                    player_natural = natural[p1][p2]
                    net = 0
                    dealer_may = False
                    insured = early = False
                    if offers[up]:
                        even_money = False
                        if early_on[up] and not player_natural:
                            first = up_plays.pair[p1] if pair_key[p1] == pair_key[p2] else \
                                up_plays.first[start[p1][p2]]
                            early = first == SURRENDER
                        if insurance_on[up] and insure and not early:  # a seat answers one offer
                            if player_natural and even_money_rule:
                                even_money = True
                            else:
                                insured = True
                        if peeks[up]:
                            if natural[up][hole]:  # the peek finds a natural: the round ends here
                                if even_money:
                                    net = scale
                                elif not player_natural:
                                    net = -sur if early else -scale
                                if insured:
                                    net += ins_win
                                break
                            if insured:
                                net = -ins_stake
                                insured = False
                        else:
                            dealer_may = may_nat[up]
                        if early:
                            net -= sur
                            break
                        if even_money:
                            net += scale
                            break
                    if player_natural:
                        if dealer_may:
                            if hole < 0:
                                hole = draw()
                            if natural[up][hole]:
                                net += ins_win if insured else 0
                                break
                        net += blackjack
                        if insured:
                            net -= ins_stake
                        break

                    state = start[p1][p2]
                    action = up_plays.pair[p1] if pair_key[p1] == pair_key[p2] else up_plays.first[state]
                    stake = scale
                    if action == HIT:
                        hits = up_plays.hits
                        state = nxt[state][draw()]
                        while hits[state]:
                            state = nxt[state][draw()]
                    elif action == STAND:
                        pass
                    elif action == DOUBLE:
                        state = nxt[state][draw()]
                        stake = 2 * scale
                    elif action == SPLIT:
                        net += play_split(game, up_plays, p1, up, hole, dealer_may, insured, draw)
                        break
                    elif action == SURRENDER and (early_rule or not dealer_may):
                        net -= sur
                        break

                    if state == BUST:
                        net -= stake
                        if insured:  # only a game without a peek gets here with insurance open
                            net += ins_win if dealer_may and hole >= 0 and natural[up][hole] else -ins_stake
                        break
                    if hole < 0:
                        hole = draw()
                    if dealer_may and natural[up][hole]:
                        net -= stake if takes_all and action != SURRENDER else scale
                        if insured:
                            net += ins_win
                        break
                    if insured:
                        net -= ins_stake
                    if action == SURRENDER:
                        net -= sur
                        break
                    dealer = dealer_start[up][hole]
                    while dealer < STANDS:
                        dealer = dealer_next[dealer][draw()]
                    dealer -= STANDS
                    mine = total[state]
                    if dealer > 21 or mine > dealer:
                        net += stake
                    elif mine < dealer:
                        net -= stake
                    break
                except StopIteration:
                    cards = run_out(cards, at)
                    draw, left = deal_from(cards)
                    at = 0
                    cut = ALWAYS  # the dealer reshuffles after this round (`Shoe._run_out`)
            if record is not None:
                record.append(net)
            if not playing:
                watched += 1
                continue
            if counting:
                key = -COUNT_REACH if start_count < -COUNT_REACH else (
                    COUNT_REACH if start_count > COUNT_REACH else start_count)
                sums = by_count.get(key)
                if sums is None:
                    sums = by_count[key] = [0, 0, 0]
                first = net if nets is None else nets[0]  # a round of several hands: its first hand's
                sums[0] += 1
                sums[1] += first
                sums[2] += first * first
            if spots is not None:
                _add_spots(spot, [net] if nets is None else nets)
                if nets is not None:
                    wagered += bet * (hands_now - 1)
                    bets[bet] = bets.get(bet, 0) + hands_now - 1
            net *= bet
            net_sum += net
            net_sq += net * net
            if counting:
                wagered += bet
                bets[bet] = bets.get(bet, 0) + 1
        done += size
        if progress is not None:
            progress(size)
    tally.rounds += rounds
    tally.watched += watched
    tally.add(Winnings(spot_hands=spot[0], spot_sum=spot[1], spot_squares=spot[2], pair_rounds=spot[3],
                       pair_first=spot[4], pair_second=spot[5], pair_products=spot[6]))
    tally.net += net_sum
    tally.net_squares += net_sq
    tally.wagered += wagered if counting else rounds - watched
    for b, n in bets.items():
        tally.bets[b] = tally.bets.get(b, 0) + n
    tally.add(Winnings(by_count=by_count))
