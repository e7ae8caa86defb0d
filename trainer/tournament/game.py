"""The chat-host tournament (seed 002, DESIGN §7) as a pure state machine: bets, the d13 deal, play,
settlement, the attack phase, elimination, the winner.

Readings of the seed, where it leaves a choice:

- "All players must bet" and "Minimum bet is $10": a player with less than $10 bets everything they
  have. The seed eliminates a player only "if a player runs out of money", so a player with $6 is still
  in and must still bet; the minimum yields to "all players must bet" rather than eliminating them.
- A player who does not bet before the host's timer ends bets the minimum (DESIGN §7), or all they
  have when that is less.
- A double or a split needs the cash to cover the second stake: chat cash cannot go below $0.
- "Roll strength = cash in hand": each side rolls 1..their cash in whole dollars (at least 1). The
  attacker wins only with a strictly higher roll; the defender is then eliminated and their cash leaves
  the game (the seed moves no money on a successful attack). A failed attacker loses half their cash,
  rounded down to whole dollars, to the bank.
- Each surviving player may attack once per attack phase, in the round's dealing order; a player
  eliminated earlier in the phase no longer attacks. With two players left at the beginning of an attack
  phase there are no attacks ("If 2 players are left at the beginning of an attacking round, AI is off").
- The game ends when one player is left. If the last players all go out in the same round, the one who
  started that round with the most cash wins; a tie there is settled by a roll-off of 1d100.

Nothing here reads a clock or prints: the betting timer is the front end's, which calls `bet_missed`.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from decimal import Decimal

from trainer.core.actions import Action
from trainer.core.errors import IllegalActionError, InvalidInputError, RulesetError
from trainer.core.events import Dealt
from trainer.core.money import Money, dollars, to_money
from trainer.core.round import Round, SeatView
from trainer.core.rules import Ruleset
from trainer.core.stakes import affordable_in
from trainer.tournament.attacks import AttackResult, roll_attack, roll_off
from trainer.tournament.dice import Dice, DiceShoe, RandomDice, card_of_roll
from trainer.tournament.players import StatedPolicy, TournamentPolicy
from trainer.tournament.posts import deal_post, event_posts, face, seat_outcomes, settlement_post
from trainer.tournament.standings import Entrant, Player, Stage, Standing, ranked

__all__ = ["AttackResult", "Entrant", "Stage", "Standing", "Tournament"]

class Tournament:
    """One chat-host game from the first bet to the winner; read `stage` and call the matching method."""

    def __init__(self, ruleset: Ruleset, entrants: Sequence[Entrant], *, rng: random.Random,
                 dice: Dice | None = None, policy: TournamentPolicy | None = None,
                 bet_timer: int | None = None) -> None:
        rules = ruleset.tournament
        if rules is None or not ruleset.infinite_deck:
            raise RulesetError(f"{ruleset.name} is not a chat-host tournament (try --ruleset chat-host)")
        lo, hi = rules.players
        hi = min(hi, ruleset.table.seats)
        if not lo <= len(entrants) <= hi:
            raise InvalidInputError(f"a {ruleset.name} game has {lo} to {hi} players, not {len(entrants)}")
        names = [e.name.strip() for e in entrants]
        if any(not n for n in names) or len(set(names)) != len(names):
            raise InvalidInputError(f"players need different, non-empty names: {names}")
        timer_lo, timer_hi = rules.bet_timer
        self.bet_timer = timer_lo if bet_timer is None else bet_timer
        if not timer_lo <= self.bet_timer <= timer_hi:
            raise InvalidInputError(f"the betting timer is {timer_lo} to {timer_hi} seconds, not {bet_timer}")
        self.ruleset = ruleset
        self.rng = rng
        self.dice: Dice = dice if dice is not None else RandomDice(rng)
        self.policy: TournamentPolicy = policy if policy is not None else StatedPolicy()
        self._players = {n: Player(name=n, computer=e.computer, cash=ruleset.table.bankroll)
                         for n, e in zip(names, entrants, strict=True)}
        self.transcript: list[str] = []
        self.attacks: list[AttackResult] = []
        self.round_number = 0
        self.settled: list[tuple[int, tuple[str, ...], Round]] = []
        """Each settled round: its number, the dealing order, and the round (for a round-by-round report)."""
        self.stage = Stage.BETTING
        self.bets: dict[str, Money] = {}
        self.order: list[str] = []
        """This round's dealing order (the host shuffles the player list every round)."""
        self.round: Round | None = None
        self.winner: str | None = None
        self._posted = 0
        self._attackers: list[str] = []
        self._open_betting()
        self._run()

    # --- reading the table ------------------------------------------------------------------

    def alive(self) -> list[str]:
        """Players still in, in the order they joined."""
        return [p.name for p in self._players.values() if p.out_round is None]

    def cash(self, name: str) -> Money:
        """What `name` has now (eliminated players keep what they went out with)."""
        return self._player(name).cash

    def standings(self) -> list[Standing]:
        """Everyone, best first: players still in by cash, then the eliminated, last out first."""
        return ranked(self._players.values())

    def _player(self, name: str) -> Player:
        try:
            return self._players[name]
        except KeyError:
            raise InvalidInputError(f"no player named {name!r} (players: {', '.join(self._players)})") \
                from None

    def _post(self, line: str) -> None:
        self.transcript.append(line)

    # --- betting ----------------------------------------------------------------------------

    def bet_bounds(self, name: str) -> tuple[Money, Money]:
        """The least and most `name` may bet: the minimum (or all their cash, if less) up to their cash."""
        cash = self._player(name).cash
        table = self.ruleset.table
        return min(table.min_bet, cash), min(table.max_bet, cash)

    @property
    def waiting_for_bets(self) -> list[str]:
        """Players (not computers) who have yet to bet this round."""
        if self.stage != Stage.BETTING:
            return []
        return [n for n in self.alive() if not self._players[n].computer and n not in self.bets]

    def bet(self, name: str, amount: Money | int | str) -> None:
        """`name` bets `amount`; a bet outside `bet_bounds` raises and changes nothing."""
        self._check_can_bet(name)
        stake = to_money(amount)
        lo, hi = self.bet_bounds(name)
        if not lo <= stake <= hi:
            raise InvalidInputError(f"{name} may bet {dollars(lo)} to {dollars(hi)}, not {dollars(stake)}")
        if stake != stake.quantize(Decimal("0.01")):
            raise InvalidInputError(f"a bet is in dollars and cents, not {stake}")
        self._place_bet(name, stake, "")
        self._run()

    def bet_missed(self, name: str) -> None:
        """The timer ran out before `name` bet: they bet the minimum, or all they have if that is less."""
        self._check_can_bet(name)
        lo, _ = self.bet_bounds(name)
        self._place_bet(name, lo, "no bet in time, so ")
        self._run()

    def _check_can_bet(self, name: str) -> None:
        if name not in self.waiting_for_bets:
            why = "it is not time to bet" if self.stage != Stage.BETTING else f"{name} cannot bet now"
            raise IllegalActionError(f"{why} (waiting for: {', '.join(self.waiting_for_bets) or 'nobody'})")

    def _place_bet(self, name: str, stake: Money, how: str) -> None:
        self.bets[name] = stake
        under = " (all in, under the minimum)" if stake < self.ruleset.table.min_bet else ""
        self._post(f"{name}: {how}bets {dollars(stake)}{under}")

    def _open_betting(self) -> None:
        self.round_number += 1
        self.stage = Stage.BETTING
        self.bets = {}
        self.round = None
        cash = ", ".join(f"{n} {dollars(self._players[n].cash)}" for n in self.alive())
        self._post(f"— Round {self.round_number} — bets, please: {dollars(self.ruleset.table.min_bet)} "
                   f"minimum, {self.bet_timer} seconds. ({cash})")
        for name in self.alive():
            player = self._players[name]
            if player.computer:
                lo, hi = self.bet_bounds(name)
                self._place_bet(name, min(hi, max(lo, self.policy.bet(player.cash, lo))), "")

    # --- the deal and play ------------------------------------------------------------------

    def _deal(self) -> None:
        self.stage = Stage.PLAY
        self.order = self.alive()
        self.rng.shuffle(self.order)
        for name in self.order:
            self._players[name].round_start_cash = self._players[name].cash
        shoe = DiceShoe(self.ruleset, self.dice, self._whose)
        (host,) = self.dice.roll(13, 1, "host")
        rolls = [host]
        self._post(f"Host: .roll 13 → {face(card_of_roll(host))}")
        self._post("Dealing order: " + ", ".join(self.order))
        for name in self.order:
            pair = self.dice.roll(13, 2, name)
            rolls.extend(pair)
            self._post(deal_post(name, [card_of_roll(v) for v in pair]))
        shoe.preroll(rolls)
        self.round = Round.start(self.ruleset, shoe, [self.bets[n] for n in self.order])
        dealt = [i for i, e in enumerate(self.round.events) if isinstance(e, Dealt)]
        self._posted = dealt[len(rolls) - 1] + 1
        self._post_events()

    def _whose(self) -> str:
        """Who the next card is rolled for: the player in turn, else the host."""
        if self.round is None or self.round.finished:
            return "host"
        return self.order[self.round.seat_in_turn]

    def _current_round(self) -> Round:
        if self.round is None:
            raise IllegalActionError(f"no round is dealt: the tournament is at {self.stage.value}")
        return self.round

    def _post_events(self) -> None:
        round_ = self._current_round()
        new = round_.events[self._posted:]
        self._posted = len(round_.events)
        for line in event_posts(new, round_, self.order):
            self._post(line)

    @property
    def in_turn(self) -> str | None:
        """The player whose hand is in play, or None outside play."""
        if self.stage != Stage.PLAY or self.round is None or self.round.finished:
            return None
        return self.order[self.round.seat_in_turn]

    def view(self) -> SeatView:
        """What the player in turn sees: their hands, the host's card, the cards shown."""
        name = self._require_turn()
        return self._current_round().view(self.order.index(name))

    def legal_actions(self) -> frozenset[Action]:
        """The round's legal actions for the player in turn, less a double or split they cannot cover."""
        if self.in_turn is None:
            return frozenset()
        return self._affordable(self.view())

    def _affordable(self, view: SeatView) -> frozenset[Action]:
        cash = self._players[self.order[view.seat]].cash
        return affordable_in(view, self._current_round().hand_in_turn, cash)

    def act(self, action: Action) -> None:
        """The player in turn takes `action`."""
        name = self._require_turn()
        legal = self.legal_actions()
        if action not in legal:
            if action in self.view().legal_actions:
                raise IllegalActionError(f"{name} has not the cash to cover a {action.value}: "
                                         f"{dollars(self.cash(name))} in hand")
            words = ", ".join(sorted(a.value for a in legal))
            raise IllegalActionError(f"{name} cannot {action.value} now (legal now: {words})")
        self._current_round().act(action)
        self._post_events()
        self._run()

    def _require_turn(self) -> str:
        name = self.in_turn
        if name is None:
            raise IllegalActionError(f"no hand is in play: the tournament is at {self.stage.value}")
        return name

    def _finish_round(self) -> None:
        round_ = self._current_round()
        self.settled.append((self.round_number, tuple(self.order), round_))
        for seat, (name, net) in enumerate(zip(self.order, round_.results, strict=True)):
            player = self._players[name]
            player.cash += net
            self._post(settlement_post(name, seat_outcomes(round_.events, seat), net, player.cash))
        for name in self.order:
            if self._players[name].cash <= 0:
                self._eliminate(name, "has no money left")
        left = self.alive()
        if len(left) <= 1:
            self._end()
        elif self.ruleset.tournament is not None and self.ruleset.tournament.attacks and len(left) > 2:
            self.stage = Stage.ATTACKS
            self._attackers = [n for n in self.order if n in left]
            self._post("Attacks! In turn, " + ", ".join(self._attackers)
                       + ": attack someone (both roll 1..their cash) or pass.")
        else:
            if self.ruleset.tournament is not None and self.ruleset.tournament.attacks:
                self._post("Two players are left: no attacks.")
            self._open_betting()

    def _eliminate(self, name: str, why: str) -> None:
        self._players[name].out_round = self.round_number
        self._post(f"{name} {why} and is eliminated.")

    # --- attacks ----------------------------------------------------------------------------

    @property
    def attacker(self) -> str | None:
        """The player whose turn it is to attack or pass, or None outside the attack phase."""
        if self.stage != Stage.ATTACKS:
            return None
        while self._attackers and self._players[self._attackers[0]].out_round is not None:
            self._attackers.pop(0)
        return self._attackers[0] if self._attackers else None

    def targets(self) -> list[str]:
        """Whom the attacker in turn may attack: every other player still in."""
        attacker = self.attacker
        return [n for n in self.alive() if n != attacker] if attacker else []

    def attack(self, target: str) -> AttackResult:
        """The attacker in turn attacks `target`: both roll, and the result is applied."""
        attacker = self.attacker
        if attacker is None:
            raise IllegalActionError(f"it is not time to attack: the tournament is at {self.stage.value}")
        if target not in self.targets():
            raise InvalidInputError(f"{attacker} may attack {', '.join(self.targets())}, not {target!r}")
        result = self._resolve_attack(attacker, target)
        self._run()
        return result

    def pass_attack(self) -> None:
        """The attacker in turn does not attack."""
        attacker = self.attacker
        if attacker is None:
            raise IllegalActionError(f"it is not time to attack: the tournament is at {self.stage.value}")
        self._attackers.pop(0)
        self._post(f"{attacker} passes.")
        self._run()

    def _resolve_attack(self, attacker: str, defender: str) -> AttackResult:
        self._attackers.pop(0)
        mine = self._players[attacker]
        result = roll_attack(self.dice, attacker, mine.cash, defender, self._players[defender].cash)
        self.attacks.append(result)
        if result.success:
            self._post(f"{attacker} attacks {defender}: {result.rolls()}. The attack succeeds.")
            self._eliminate(defender, "loses the attack")
        else:
            mine.cash -= result.loss
            self._post(f"{attacker} attacks {defender}: {result.rolls()}. The attack fails: {attacker} pays "
                       f"{dollars(result.loss)} (half, rounded down) to the bank → {dollars(mine.cash)}.")
            if mine.cash <= 0:
                self._eliminate(attacker, "has no money left")
        if len(self.alive()) <= 1:
            self._end()
        return result

    # --- running the computers, and the end -------------------------------------------------

    def advance(self) -> None:
        """With no player waiting to decide, play on to the next betting stage (or the end)."""
        self._run(deal=True)

    def _run(self, *, deal: bool = False) -> None:
        """Let the computer players decide until a person must, or, when no person is left in the
        game, until the next round's bets are in (so a front end can show the game round by round)."""
        while True:
            if self.stage == Stage.BETTING:
                if self.waiting_for_bets:
                    return
                if not deal and not any(not self._players[n].computer for n in self.alive()):
                    return
                deal = False
                self._deal()
            elif self.stage == Stage.PLAY:
                round_ = self._current_round()
                if round_.finished:
                    self._finish_round()
                    continue
                name = self.order[round_.seat_in_turn]
                if not self._players[name].computer:
                    return
                view = round_.view(round_.seat_in_turn)
                round_.act(self.policy.play(view, self._affordable(view)))
                self._post_events()
            elif self.stage == Stage.ATTACKS:
                attacker = self.attacker
                if attacker is None:
                    self._open_betting()
                elif not self._players[attacker].computer:
                    return
                else:
                    target = self.policy.attack(attacker, {n: self._players[n].cash for n in self.alive()})
                    if target is None or target not in self.targets():
                        self._attackers.pop(0)
                        self._post(f"{attacker} passes.")
                    else:
                        self._resolve_attack(attacker, target)
            else:
                return

    def _end(self) -> None:
        self.stage = Stage.OVER
        left = self.alive()
        if len(left) == 1:
            self.winner = left[0]
            self._post(f"{self.winner} wins the game with {dollars(self._players[self.winner].cash)}!")
            return
        last = [p for p in self._players.values() if p.out_round == self.round_number]
        best = max(p.round_start_cash for p in last)
        tied = [p.name for p in last if p.round_start_cash == best]
        self._post("Nobody is left. The last round began with "
                   + ", ".join(f"{p.name} {dollars(p.round_start_cash)}" for p in last) + ".")
        self.winner, posts = roll_off(self.dice, tied)
        self.transcript.extend(posts)
        self._post(f"{self.winner} wins the game, having gone out last with the most cash.")
