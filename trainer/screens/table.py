"""`cutcard play` at a terminal: bets, single-key plays, the table drawn with rich, checks and a summary.

Keys: h hit, s stand, d double, p split, r surrender; under an ace i insurance (e even money), n no.
Ctrl-C (or q at the bet) ends the session with its summary; every key that means nothing is ignored,
and a malformed bet or count is asked again. Every bet, play and count answer is graded and recorded
the moment it is given (`TableSession.answer`); a bet off the learner's ramp is told at once.

With dealer errors on, the dealer's mistakes are called at any prompt between its settlement and the
next deal (the count checks, the bet): `f 3`, `f dealer`, or `f` and then the seat. A catch, a false
call and a miss (the next bet placed with the error uncalled) are graded at once (`foul_calls`).
"""

from __future__ import annotations

import re
from collections.abc import Callable

from rich.console import Console
from rich.text import Text

from drills.base import Grade
from trainer.core.actions import Action
from trainer.core.counting import format_count
from trainer.core.errors import TrainerError
from trainer.core.money import format_money
from trainer.render.table import event_line, money_text, table_picture
from trainer.screens.ask import read_line
from trainer.screens.keys import read_key
from trainer.table.bets import ungraded_reason
from trainer.table.count_checks import bet_ramp
from trainer.table.edge_line import EdgeReading, EdgeWatch, edge_line
from trainer.table.foul_calls import CALL_WORDS
from trainer.table.session import Scorecard, TableSession

KEYS: dict[str, Action] = {
    "h": Action.HIT, "s": Action.STAND, "d": Action.DOUBLE, "p": Action.SPLIT, "r": Action.SURRENDER,
    "i": Action.INSURE, "e": Action.EVEN_MONEY, "n": Action.DECLINE,
}
WORDS = {Action.DECLINE: "no"}
CALL = re.compile(r"(f|foul)(\s*(\d+|d|dealer|(seat\s*)\d+))?")
"""A line that calls a foul: 'f', 'f 3', 'f3', 'foul seat 3', 'f d', 'f dealer'."""

ReadLine = Callable[[str], str]
ReadKey = Callable[[str, dict[str, str]], str]


class TableUI:
    """One learner's session at the terminal."""

    def __init__(self, session: TableSession, console: Console, *, line: ReadLine = read_line,
                 key: ReadKey = read_key, bet_count: bool = False, edges: EdgeWatch | None = None) -> None:
        """`bet_count`: a right bet's grade shows the counts too (a wrong one's always does). `edges`:
        the edge line after each round (`trainer.table.edge_line`)."""
        self.session = session
        self.edges = edges
        self.bet_count = bet_count
        self.console = console
        self.line = line
        self.key = key
        self.names = [session.seat_name(i) for i in range(len(session.kinds))]
        self._shown = 0

    def run(self, rounds: int | None = None) -> Scorecard:
        """Play until `rounds` are done, the learner leaves or runs out of chips; print the summary."""
        self._intro()
        try:
            while rounds is None or self.session.tally.rounds < rounds:
                if self.session.broke:
                    self.console.print(Text("You are out of chips for this table.", style="warn"))
                    break
                if self.session.wong_owed and not self._ask_wong():
                    break
                if not self.session.watching_now and not self._ask_bet():
                    break
                self._play_round()
                reading = self._edge_reading()  # started before the count check: it computes meanwhile
                self._interrupt()
                self._count_check()
                self._edge_line(reading)
            if self.session.fouls.on and self.session.fouls.open and rounds is not None:
                self._last_calls()
        except (KeyboardInterrupt, EOFError):
            self.console.print(Text("session stopped", style="muted"))
        finally:
            if self.edges is not None:
                self.edges.close()
        self._summary()
        return self.session.tally

    def _intro(self) -> None:
        s = self.session
        rules = s.ruleset
        seats = ", ".join(f"{i + 1} {kind}" for i, kind in enumerate(s.kinds))
        lo, hi = s.bet_bounds()
        self.console.print(Text(f"{rules.title}", style="title"))
        self.console.print(f"Seats from first base: {seats}. Bankroll ${format_money(s.bankroll)}; "
                           f"bets ${format_money(lo)} to ${format_money(hi)}.")
        if s.shoe.cards_behind_cut:
            burned = f"burns {len(s.shoe.burned)} card{'s' if len(s.shoe.burned) > 1 else ''} and " \
                if s.shoe.burned else ""
            decks = f"{rules.shoe.decks} deck{'' if rules.shoe.decks == 1 else 's'}"
            self.console.print(Text(f"The dealer shuffles {decks}, {burned}places the cut "
                                    f"card {s.shoe.cards_behind_cut} cards from the end.", style="muted"))
        if rules.players_face_down:
            self.console.print(Text("A pitch game: the players' cards are dealt face down and held; you see "
                                    "another seat's only when it busts, doubles, splits, has a blackjack or "
                                    "is turned at the settlement.", style="muted"))
        if s.keeper.counting_helps:
            self.console.print(f"Keep the {s.keeper.system.short_title} count: you are asked at "
                               "random checkpoints and whenever the cut card comes out.")
            side = s.keeper.system.side_count
            if side is not None:
                adjust = format_count(side.adjustment)
                self.console.print(f"Keep the {side.names} apart: at checkpoints, the surplus "
                                   f"({side.per_deck} a deck dealt less those seen); bet by the count it "
                                   f"adjusts ({adjust} each), play by the plain count.")
        else:
            self.console.print(Text("Counting cannot help at this table (the cards are reshuffled every "
                                    "round or rolled): no count checks.", style="warn"))
        self.console.print(f"Your bet ramp: {s.ramp.text} (one unit = ${format_money(rules.table.min_bet)}); "
                           "? at the bet shows it. Every bet, play and count is graded and recorded.")
        reason = ungraded_reason(s.ruleset, s.keeper.system)
        if reason is not None:
            self.console.print(Text(reason, style="warn"))
        if s.fouls.on:
            self.console.print(Text(f"Dealer errors on: in about {s.fouls.rate:.0%} of rounds the dealer "
                                    "pays, takes or counts a hand wrong. Call it before your next bet: f "
                                    "and the seat (f 3), or f dealer.", style="warn"))
        if s.spots is not None:
            first = next((step for step in s.spots.steps if step.hands > 1), None)
            where = f"from true count {first.true_count:+d}" if first else "nowhere"
            self.console.print(Text(f"Spots: your plan in force spreads to more hands {where}; type one bet "
                                    f"per hand (up to {s.spots.most}), graded against the plan.",
                                    style="warn"))
        if s.wonging is not None:
            self.console.print(Text(f"Back-counting: {s.wonging.describe()}. Before each round sit, stay, "
                                    "watch or leave; you start watching, and watch again after each "
                                    "shuffle.", style="warn"))
        if s.distractor is not None:
            self.console.print(Text("Distraction on: after about one round in three the casino interrupts "
                                    "(a sum, a question, a drink order, chatter). Deal with it and keep the "
                                    "count; the count checks after it are recorded as distracted.",
                                    style="warn"))
        foul = " · f foul" if s.fouls.on else ""
        self.console.print(Text("Keys: h hit · s stand · d double · p split · r surrender · i insurance · "
                                f"n no{foul}. Ctrl-C ends the session.", style="muted"))

    def _ask_wong(self) -> bool:
        """Ask and grade sit, stay, watch or leave; a watched round is dealt. False when the learner
        quits the session."""
        s = self.session
        decision = s.decision()
        playing = s.wong_seat.playing
        keys = "s stay, l leave" if playing else "s sit, w watch"
        prompt = f"{'playing' if playing else 'watching'}: {keys}, q quit > "
        s.graded.start_timer()
        while True:
            text = self.line(prompt).strip().lower()
            if text in ("q", "quit", "exit"):
                return False
            try:
                s.answer(decision, text)
            except TrainerError as e:
                self.console.print(Text(f"? {e}", style="warn"))
                continue
            break
        check = s.tally.wongs[-1]
        self.console.print(Text(f"  {check.message}", style="good" if check.correct else "bad"))
        return True

    def _edge_reading(self) -> EdgeReading | None:
        """The next round's figures, the exact edge started in the background as the round ends."""
        s = self.session
        if self.edges is None or not s.ruleset.counting_helps:
            return None
        true_count = s.betting_true_count_now() if s.keeper.system.balanced else None
        return self.edges.after_round(s.shoe, true_count)

    def _edge_line(self, reading: EdgeReading | None) -> None:
        """After the round and its count check (the line would give the count away before it): the
        true count, its edge and the exact edge, or 'computing' (then the next screen shows it)."""
        if self.edges is not None and reading is not None:
            self.console.print(Text(edge_line(self.edges.settled(reading)), style="muted"))

    def _pending_edge(self) -> None:
        """The exact edge the edge line said was computing, once it is ready."""
        if self.edges is not None and (line := self.edges.pending()) is not None:
            self.console.print(Text(line, style="muted"))

    def _ask_bet(self) -> bool:
        """Ask, grade and place the bet, which deals the round; False when the learner leaves."""
        s = self.session
        self._pending_edge()
        lo, hi = s.bet_bounds()
        default = s.last_bet if s.last_bet is not None and lo <= s.last_bet <= hi else lo
        foul = "f SEAT foul, " if s.fouls.on and s.round is not None else ""
        prompt = (f"bet (${format_money(lo)}-${format_money(hi)}, Enter ${format_money(default)}, "
                  f"{foul}? ramp, q leave) > ")
        decision = s.decision()
        if decision.kind == "spots":
            prompt = (f"bets, one per hand, up to {s.spots.most if s.spots else 1} (e.g. "
                      f"{format_money(lo)} {format_money(lo)}; Enter ${format_money(default)}; q leave) > ")
        s.graded.start_timer()
        while True:
            text = self.line(prompt).strip().lower()
            if self._called(text):
                continue
            if text in ("?", "ramp", "help"):
                for line in bet_ramp(s.ruleset, s.keeper.system, s.ramp, s.ruleset.table.min_bet):
                    self.console.print(Text(line, style="muted"))
                continue
            if text in ("q", "quit", "exit"):
                self._close_calls()
                return False
            try:
                s.parse(decision, text or format_money(default))  # a bad bet: calls stay open
                self._close_calls()
                grade = s.answer(decision, text or format_money(default))
            except TrainerError as e:
                self.console.print(Text(f"? {e}", style="warn"))
                continue
            break
        if decision.kind == "spots" and s.tally.spreads:
            spread = s.tally.spreads[-1]
            self.console.print(Text(f"  {spread.message}", style="good" if spread.correct else "bad"))
        elif grade is not None and s.tally.bets:
            check = s.tally.bets[-1]
            shown = f"{check.message} — {check.why}" if check.correct and self.bet_count and check.why \
                else check.message
            self.console.print(Text(f"  {shown}", style="good" if check.correct else "bad"))
        return True

    def _play_round(self) -> None:
        s = self.session
        self._shown = 0
        round_ = s.round
        assert round_ is not None
        self._pending_edge()
        self._print_events()
        while s.learner_in_turn:
            self.console.print(self._picture())
            legal = s.legal_actions()
            keys = {k: WORDS.get(a, a.value) for k, a in KEYS.items() if a in legal}
            if s.fouls.on:  # a natural paid at once can be called before the round is over
                keys["f"] = "foul"
            choices = " · ".join(f"{k} {word}" for k, word in keys.items())
            decision = s.decision()
            s.graded.start_timer()
            pressed = self.key(f"  {choices} > ", keys)
            if pressed == "f":
                self._called("f")
                continue
            s.answer(decision, KEYS[pressed].value)
            verdict = s.tally.plays[-1]
            style = "bad" if not verdict.correct else ("warn" if verdict.index is not None else "good")
            self.console.print(Text(f"  {verdict.message()}", style=style))
            self._print_events()
        self.console.print(self._picture())
        watched = s.watching
        net = s.end_round()
        result = Text("Round over: ")
        if watched:
            result.append("you watched it; keep the count")
        elif net:
            result.append("you win " if net > 0 else "you lose ").append_text(money_text(abs(net)))
        else:
            result.append("a push")
        result.append(f"  (bankroll ${format_money(s.bankroll)})", style="muted")
        self.console.print(result)
        if s.shoe.needs_shuffle and s.ruleset.counting_helps:
            self.console.print(Text("The cut card is out: the dealer shuffles before the next round.",
                                    style="warn"))

    def _picture(self) -> object:
        s = self.session
        assert s.round is not None
        return table_picture(s.round, s.round_names(), learner=s.round_learner,
                             dealer_cards=s.dealer_cards_shown())

    def _print_events(self) -> None:
        round_ = self.session.round
        if round_ is None:
            return
        shown = self.session.shown_events()
        for event in shown[self._shown:]:
            line = event_line(event, round_, self.session.round_names())
            if line is not None:
                self.console.print(Text("  ").append_text(line))
        self._shown = len(shown)

    # --- the learner's foul calls ----------------------------------------------------------------

    def _called(self, text: str) -> bool:
        """Take `text` as a foul call if it is one ('f 3', 'f dealer', or 'f' and then the seat)."""
        s = self.session
        words = text.strip().lower()
        if not s.fouls.on or not CALL.fullmatch(words):
            return False
        if words in CALL_WORDS:
            seats = len(s.kinds)
            where = self.line(f"foul at which seat? (1-{seats}, or d for the dealer) > ").strip()
            words = f"f {where}"
        try:
            grade = s.call_foul(words)
        except TrainerError as e:
            self.console.print(Text(f"? {e}", style="warn"))
            return True
        if grade is not None:
            self._print_call(grade)
        return True

    def _close_calls(self) -> None:
        grade = self.session.close_calls()
        if grade is not None:
            self._print_call(grade)

    def _print_call(self, grade: Grade) -> None:
        s = self.session
        mark = "✓" if grade.correct else "✗"
        self.console.print(Text(f"  {mark} {grade.explanation}", style="good" if grade.correct else "bad"))
        if grade.correct and s.round is not None:
            for event in s.corrections():
                line = event_line(event, s.round, self.names)
                if line is not None:
                    self.console.print(Text("    ").append_text(line))
            if grade.detail.get("your_difference") not in (None, "0"):
                self.console.print(Text(f"  (bankroll ${format_money(s.bankroll)})", style="muted"))
            self._shown = len(s.shown_events())

    def _last_calls(self) -> None:
        """After the last round of a session of `--rounds`: the call window before the table closes."""
        while True:
            text = self.line("f SEAT to call a foul, Enter to leave the table > ")
            if not self._called(text):
                break
        self._close_calls()

    def _interrupt(self) -> None:
        """`--distract`: the casino's interruption after a round, if one is due, answered before play
        goes on (a wrong answer is shown, and changes no grade)."""
        s = self.session
        interruption = s.interruption()
        if interruption is None:
            return
        self.console.print(Text("The casino interrupts: keep your count.", style="warn"))
        self.console.print(Text(f"  {interruption.says}", style="title"))
        text = self.line("Enter > " if not interruption.question else "> ")
        handled = s.dealt_with(interruption, text)
        self.console.print(Text(("  ✓ " if handled.correct else "  ✗ ") + handled.words(),
                                style="good" if handled.correct else "bad"))

    def _count_check(self) -> None:
        s = self.session
        due = s.count_check_due()
        if due is None:
            return
        head = "Before the shuffle" if due == "reshuffle" else "Count check"
        self.console.print(Text(f"{head}: what is the running count?", style="count"))
        self._ask_count("running count")
        if due == "checkpoint" and s.keeper.keeps_side_count:
            side = s.keeper.system.side_count
            assert side is not None
            self.console.print(Text(f"And your side count: how many {side.names} above the norm for the "
                                    "tray are left?", style="count"))
            self._ask_count("side count")
        if due == "checkpoint" and s.keeper.system.balanced:
            self._ask_count("true count")

    def _ask_count(self, question: str) -> None:
        decision = self.session.count_decision(question)
        self.session.graded.start_timer()
        while True:
            text = self.line(f"{question} > ")
            if self._called(text):
                continue
            try:
                self.session.answer(decision, text)
            except TrainerError as e:
                self.console.print(Text(f"? {e}", style="warn"))
                continue
            break
        grade = self.session.tally.counts[-1]
        if grade.correct:
            self.console.print(Text(f"  ✓ {grade.question} {grade.given}", style="good"))
        else:
            self.console.print(Text(f"  ✗ the {grade.question} is {grade.expected}, not {grade.given}",
                                    style="bad"))
        self.console.print(Text(f"  {grade.explanation}", style="muted"))

    def _summary(self) -> None:
        tally = self.session.tally
        plays, counts = len(tally.plays), len(tally.counts)
        net = Text(f"{tally.rounds} round{'' if tally.rounds == 1 else 's'}, net ")
        net.append_text(money_text(tally.net, signed=True))
        net.append(f" (bankroll ${format_money(self.session.bankroll)})")
        self.console.print(Text("Session summary", style="title"))
        self.console.print(Text("  ").append_text(net))
        if plays:
            wrong = plays - tally.plays_right
            cost = f"; the {wrong} wrong gave up {tally.ev_given_up:.2f} bets in EV" if wrong else ""
            self.console.print(f"  strategy: {tally.plays_right} of {plays} plays by the chart or an index "
                               f"play ({100 * tally.plays_right / plays:.0f}%){cost}")
        if counts:
            sides = [c for c in tally.counts if c.question == "side count"]
            of_sides = (f"; side count {sum(c.correct for c in sides)} of {len(sides)}" if sides else "")
            self.console.print(f"  count: {tally.counts_right} of {counts} right "
                               f"({100 * tally.counts_right / counts:.0f}%){of_sides}")
        if self.session.fouls.on:
            caught, missed = tally.fouls.count("caught"), tally.fouls.count("missed")
            false = tally.fouls.count("false call")
            self.console.print(f"  dealer errors: {caught} caught, {missed} missed, {false} false "
                               f"call{'' if false == 1 else 's'} ({self.session.fouls.slips} made by the "
                               "dealer)")
        if tally.wongs:
            wongs = len(tally.wongs)
            self.console.print(f"  back-counting: {tally.wongs_right} of {wongs} sit, stay, watch or leave "
                               f"decisions right ({100 * tally.wongs_right / wongs:.0f}%); {tally.watched} "
                               "rounds watched")
        if tally.spreads:
            right = sum(p.correct for p in tally.spreads)
            self.console.print(f"  spots: {right} of {len(tally.spreads)} bets by your plan's hands and "
                               f"bets ({100 * right / len(tally.spreads):.0f}%)")
        if tally.bets:
            bets = len(tally.bets)
            self.console.print(f"  bets: {tally.bets_right} of {bets} by your ramp "
                               f"({100 * tally.bets_right / bets:.0f}%)")
        if plays or counts or tally.bets or tally.wongs or tally.spreads:
            self.console.print(Text("  Every decision is recorded: `cutcard review` brings back the ones "
                                    "missed; `cutcard stats` counts them.", style="muted"))
