"""The chat-host tournament at a terminal: as a player against computer players, or as a chat's host.

As a player (`cutcard play --ruleset chat-host`) the transcript scrolls by as the chat would show it;
the learner bets before the timer runs out (or bets the minimum), plays with h/s/d/p and chooses whom
to attack. As a host (`--host`) every player is a person in the chat: cutcard prints each line to post,
and the host types what the dice bot rolled and what each player chose.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Sequence

from rich.console import Console
from rich.text import Text

from drills.base import choice_keys
from trainer.core.actions import Action
from trainer.core.errors import InvalidInputError, TrainerError
from trainer.core.hands import total_words
from trainer.core.money import dollars, parse_money
from trainer.core.rules import Ruleset
from trainer.render import Page
from trainer.screens.ask import read_line, timed_line
from trainer.screens.keys import read_key
from trainer.table.tournament_checks import BET_NOTE, TournamentChecks, option_lines
from trainer.tournament.attacks import attack_chance
from trainer.tournament.game import Entrant, Stage, Tournament
from trainer.tournament.posts import face

PLAY_KEYS: dict[str, Action] = {"h": Action.HIT, "s": Action.STAND, "d": Action.DOUBLE, "p": Action.SPLIT}
COMPUTER_NAMES = ("Ace", "Bix", "Coco", "Dex", "Eve", "Fitz", "Gus", "Hal")
"""The computer players' chat names: seven for the eight players of seed 002, and one to spare for a
learner who takes one of their names."""

ReadLine = Callable[[str], str]
ReadKey = Callable[[str, dict[str, str]], str]
TimedLine = Callable[[str, float], str | None]


class TournamentUI:
    """Shows a tournament's transcript and asks the people in it for their decisions."""

    def __init__(self, tournament: Tournament, console: Console, *, host: bool = False,
                 line: ReadLine = read_line, key: ReadKey = read_key, timed: TimedLine = timed_line,
                 clock: Callable[[], float] = time.monotonic, checks: TournamentChecks | None = None) -> None:
        self.t = tournament
        self.checks = checks
        """The learner's plays and attacks graded and recorded (None: a host's game, nothing graded)."""
        self.console = console
        self.host = host
        self.line = line
        self.key = key
        self.timed = timed
        self.clock = clock
        self._shown = 0

    def run(self) -> None:
        """Until the game is over, or the user stops it (Ctrl-C, or q)."""
        try:
            while self.t.stage is not Stage.OVER:
                self.print_transcript()
                if not self.ask_next():
                    break
        except (KeyboardInterrupt, EOFError):
            self.console.print(Text("game stopped", style="muted"))
        self.print_transcript()
        self._standings()
        self._summary()

    def _summary(self) -> None:
        if self.checks is None:
            return
        tally = self.checks.tally
        if tally.plays:
            right = sum(v.correct for v in tally.plays)
            self.console.print(f"  plays: {right} of {len(tally.plays)} by the chat-host chart")
        if tally.attacks:
            right = sum(a.correct for a in tally.attacks)
            self.console.print(f"  attack phases: {right} of {len(tally.attacks)} with the best choice")

    def ask_next(self) -> bool:
        """Ask whoever must decide now; False when the user chose to leave."""
        t = self.t
        if t.waiting_for_bets:
            for name in t.waiting_for_bets:
                self._ask_bet(name)
        elif t.in_turn is not None:
            self._ask_play(t.in_turn)
        elif t.attacker is not None:
            self._ask_attack(t.attacker)
        else:  # only computer players are left in the game
            pressed = self.key("  Enter next round · a play to the end · q leave > ",
                               {"enter": "next", "a": "all", "q": "leave"})
            if pressed == "q":
                return False
            if pressed == "a":
                while t.stage is not Stage.OVER:
                    t.advance()
            else:
                t.advance()
        return True

    def print_transcript(self) -> None:
        """Print the posts not shown yet, as one page: the same lines as a `console.print` of each, for a
        fraction of the cost (a game played to the end by its computer players is thousands of posts)."""
        page = Page(self.console)
        for post in self.t.transcript[self._shown:]:
            style = "title" if post.startswith("—") else ("warn" if "attack" in post.lower() else "")
            page.print(Text(("» " if self.host else "  ") + post, style=style))
        page.flush()
        self._shown = len(self.t.transcript)

    def _ask_bet(self, name: str) -> None:
        lo, hi = self.t.bet_bounds(name)
        if self.host:
            typed = self.line(f"{name}'s bet ({dollars(lo)}-{dollars(hi)}; Enter: the timer ran out) > ")
            self._place(name, typed.strip() or None)
            return
        deadline = self.clock() + self.t.bet_timer
        while name in self.t.waiting_for_bets:
            left = deadline - self.clock()
            prompt = f"your bet ({dollars(lo)}-{dollars(hi)}, {max(0, round(left))} s) > "
            self._place(name, self.timed(prompt, left) if left > 0 else None)

    def _place(self, name: str, text: str | None) -> None:
        """Place a typed bet: None (no bet in time) bets the minimum, as does an empty line."""
        if text is None:
            self.t.bet_missed(name)
            return
        try:
            self.t.bet(name, parse_money(text) if text.strip() else self.t.bet_bounds(name)[0])
        except TrainerError as e:
            self.console.print(Text(f"? {e}", style="warn"))

    def _ask_play(self, name: str) -> None:
        view = self.t.view()
        assert view.hand_in_turn is not None
        hand = view.hands[view.hand_in_turn]
        legal = self.t.legal_actions()
        keys = {k: a.value for k, a in PLAY_KEYS.items() if a in legal}
        which = f" hand {view.hand_in_turn + 1}" if len(view.hands) > 1 else ""
        who = name if self.host else "you"
        shown = ", ".join(face(c) for c in hand.cards) if self.host else " ".join(str(c) for c in hand.cards)
        up = face(view.up_card) if self.host else str(view.up_card)
        prompt = (f"  {who}{which}: {shown} = {total_words(hand)} against the host's {up} · "
                  + " · ".join(f"{k} {w}" for k, w in keys.items()) + " > ")
        if self.checks is None:
            self.t.act(PLAY_KEYS[self.key(prompt, keys)])
            return
        decision = self.checks.decision()
        assert decision is not None
        self.checks.graded.start_timer()
        self.checks.answer(decision, PLAY_KEYS[self.key(prompt, keys)].value)
        verdict = self.checks.tally.plays[-1]
        self.console.print(Text(f"  {verdict.message()}", style="good" if verdict.correct else "bad"))

    def _ask_attack(self, name: str) -> None:
        targets = self.t.targets()
        mine = self.t.cash(name)
        if self.checks is not None:
            self._ask_graded_attack(self.checks)
            return
        for number, rival in enumerate(targets, 1):
            theirs = self.t.cash(rival)
            chance = 100 * float(attack_chance(mine, theirs))
            odds = "" if self.host else f"   you win {chance:.0f}% of the time"
            self.console.print(f"    {number}) {rival} {dollars(theirs)}{odds}")
        who = f"{name} attacks" if self.host else f"attack with {dollars(mine)}"
        text = self.line(f"  {who}: number or name, Enter to pass > ").strip()
        if not text:
            self.t.pass_attack()
            return
        target = _pick(text, targets)
        if target is None:
            self.console.print(Text(f"? {text!r} is none of {', '.join(targets)}", style="warn"))
            return
        self.t.attack(target)

    def _ask_graded_attack(self, checks: TournamentChecks) -> None:
        """Each choice with its chance, expected cash change and expected share; the choice graded."""
        decision = checks.decision()
        assert decision is not None
        options = checks.options()
        keys = choice_keys(decision.question)
        for key, option, line in zip(keys, options, option_lines(options), strict=True):
            cash = "" if option.target is None else f" {dollars(self.t.cash(option.target))}"
            shown = line.replace(option.word, option.word + cash, 1)
            self.console.print(f"    {key}) {shown}")
        checks.graded.start_timer()
        while True:
            text = self.line(f"  attack with {dollars(self.t.cash(checks.learner))}: letter or name, "
                             "Enter to pass > ")
            try:
                checks.answer(decision, text)
            except TrainerError as e:
                self.console.print(Text(f"? {e}", style="warn"))
                continue
            break
        check = checks.tally.attacks[-1]
        self.console.print(Text(f"  {check.message()}", style="good" if check.correct else "bad"))

    def _standings(self) -> None:
        self.console.print(Text("Standings", style="title"))
        for place, standing in enumerate(self.t.standings(), 1):
            out = f"out in round {standing.out_round}" if standing.out_round else "still in"
            if standing.name == self.t.winner:
                out = "winner"
            self.console.print(f"  {place}. {standing.name:<8} {dollars(standing.cash):>8}  {out}")


def _pick(text: str, names: Sequence[str]) -> str | None:
    """A target by its number in the list or by its name (any case, or a unique start of it)."""
    if text.isdecimal() and 1 <= int(text) <= len(names):
        return names[int(text) - 1]
    matches = [n for n in names if n.lower().startswith(text.lower())]
    exact = [n for n in names if n.lower() == text.lower()]
    return exact[0] if exact else (matches[0] if len(matches) == 1 else None)


class TypedDice:
    """The host's dice: cutcard says which roll to post, the host types what the chat's dice bot showed."""

    def __init__(self, console: Console, line: ReadLine = read_line) -> None:
        self.console = console
        self.line = line
        self.before_roll: Callable[[], None] = lambda: None
        """Called before each roll: the UI prints the posts so far (the dealing order comes first)."""

    def roll(self, sides: int, count: int, who: str) -> tuple[int, ...]:
        self.before_roll()
        command = ".roll 13" if (count, sides) == (1, 13) else f".roll {count}d{sides}"
        self.console.print(Text(f"» {command}", style="key") + Text(f"   (for {who})", style="muted"))
        while True:
            text = self.line(f"  the bot rolled ({count} number{'s' if count > 1 else ''}, 1-{sides}) > ")
            words = text.replace(",", " ").split()
            try:
                values = tuple(int(w) for w in words)
            except ValueError:
                values = ()
            if len(values) == count and all(1 <= v <= sides for v in values):
                return values
            many = "s" if count > 1 else ""
            self.console.print(Text(f"? type {count} whole number{many} from 1 to {sides}", style="warn"))


def seat_tournament(rules: Ruleset, *, players: int, rng: random.Random, name: str,
                    timer: int | None) -> Tournament:
    """The learner against computer players (named from `COMPUTER_NAMES`)."""
    names_left = [n for n in COMPUTER_NAMES if n.lower() != name.lower()]
    if players - 1 > len(names_left):
        raise InvalidInputError(f"cutcard has names for {len(names_left)} computer players: at most "
                                f"{len(names_left) + 1} players, not {players}")
    others = names_left[:players - 1]
    entrants = [Entrant(name=name, computer=False), *(Entrant(name=n, computer=True) for n in others)]
    return Tournament(rules, entrants, rng=rng, bet_timer=timer)


def play_tournament(rules: Ruleset, console: Console, *, players: int, rng: random.Random, host: bool,
                    names: str | None, name: str, timer: int | None,
                    checks: Callable[[Tournament], TournamentChecks] | None = None) -> Tournament:
    """Seat the players and run the game: the learner against computer players, or a chat's host."""
    if host:
        people = _names(names or read_line(f"the {players} or more players' names, separated by commas > "))
        dice = TypedDice(console)
        tournament = Tournament(rules, [Entrant(name=n, computer=False) for n in people], rng=rng,
                                dice=dice, bet_timer=timer)
        console.print(Text("Post each » line in the chat; type what the dice bot rolled and what the "
                           "players chose. Ctrl-C stops.", style="muted"))
        ui = TournamentUI(tournament, console, host=True)
        dice.before_roll = ui.print_transcript
        ui.run()
        return tournament
    if names:
        raise InvalidInputError("--names lists the people of a --host game; use --name for your own name")
    tournament = seat_tournament(rules, players=players, rng=rng, name=name, timer=timer)
    others = [n for n in tournament.alive() if n != name]
    table = rules.table
    console.print(Text(f"You are {name}, with {', '.join(others)}: {dollars(table.bankroll)} each. Bet "
                       f"within {tournament.bet_timer} seconds (Enter bets the {dollars(table.min_bet)} "
                       "minimum, and so does the timer); h hit · s stand · d double · p split. Ctrl-C "
                       "leaves.", style="muted"))
    graded = checks(tournament) if checks is not None else None
    if graded is not None:
        console.print(Text("Every play is graded against the chat-host chart and every attack phase "
                           "against the best choice, and recorded. " + BET_NOTE, style="muted"))
    TournamentUI(tournament, console, checks=graded).run()
    return tournament


def _names(text: str) -> list[str]:
    names = [n.strip() for n in text.split(",") if n.strip()]
    if len(names) < 2:
        raise InvalidInputError(f"a chat-host game needs 2 to 8 players, not {len(names)}: give names "
                                "separated by commas, e.g. --names Ann,Bob,Cat")
    return names
