"""Table: count a whole table, seat by seat and round by round, through a real shoe.

Rounds are dealt from the rule set's shoe (`--decks` to change it) to 1-7 computer seats (`--seats`),
each playing seed 003's Easy policy (hit below 17, otherwise stand). Everything a player would see is
shown and must be counted; the burn card stays face down (unless the rule set shows it) and the hole
card counts only once turned. The count is asked at checkpoints you cannot predict: after one to three
rounds, now and then straight after a deal with the hole card still down, and always at the end of a
shoe, when the cut card has come out. The count starts again at each shuffle.

When a count is wrong the grade shows where the drift began: the first round since your last right count
(or the shuffle), with the true count after each round since, so you can find the hand you missed.

Machine mode (`data`): `system`, `decks`, `seats`, `initial_running_count`, `cards` (every card shown
since the shuffle, in order; when the shoe runs out mid-round, the cards of that round seen so far),
`checkpoint` (`hidden`, `after the deal`, `end of the shoe`), `rounds` ([first, last] shown in this
question), `trail` (the count after each round since the last right count). The expected answer is
initial_running_count + the tags of `cards`.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import ClassVar

from drills.base import Answer, DrillOptions, Grade, Lines, Question, refusal
from drills.counting.count_drill import CountDrill, count_json
from drills.counting.table_transcript import round_lines
from trainer.core.cards import Card
from trainer.core.counting import CountSystem, format_count, parse_count
from trainer.core.errors import InvalidInputError
from trainer.core.events import Shuffled, cards_since_shuffle
from trainer.core.round import Round
from trainer.core.rules import Ruleset
from trainer.core.seats import EasySeat
from trainer.core.shoe import Shoe

ROUNDS_BETWEEN = (1, 3)
"""Rounds dealt between hidden checkpoints, both ends included."""
DEAL_CHECKPOINT = 0.25
"""How often a checkpoint falls straight after a deal, with the hole card still face down."""
END_OF_SHOE = "end of the shoe"
AFTER_DEAL = "after the deal"


class TableDrill(CountDrill):
    """A table of computer seats dealt from a real shoe; the running count at hidden checkpoints."""

    name: ClassVar[str] = "table"
    title: ClassVar[str] = "table count"
    target_ms: ClassVar[int | None] = None
    reads: ClassVar[Mapping[str, str]] = {
        "system": "", "decks": "Decks in the shoe (default: the rule set's).", "seats": "Computer seats.",
        "speed": "Seconds a card each round stays on screen (default: a key deals the next round).",
        "distract": ""}

    def __init__(self, options: DrillOptions | None = None) -> None:
        super().__init__(options)
        self.seats = self.options.seats
        self._rules: Ruleset | None = None
        self._shoe: Shoe | None = None
        self._table_system = self.system
        """The count system of the table in play (a review item may name another than the session's)."""
        self._seated = self.seats
        self._paused: tuple[Round, int] | None = None
        """A round stopped after its deal, and how many of its events were shown."""
        self._seen: list[Card] = []
        """Every card shown since the shuffle: what the count is made of."""
        self._counted: tuple[Round | None, int, list[Card]] = (None, 0, [])
        """The round being counted, how many of its events are counted, and the cards seen before it."""
        self._trail: list[dict[str, object]] = []
        self._round_no = 0
        self._shoe_tally = [0, 0]
        """Right counts and counts asked in the current shoe."""

    @property
    def shoe(self) -> Shoe | None:
        """The shoe being dealt (None before the first question)."""
        return self._shoe

    @property
    def paused_round(self) -> Round | None:
        """The round stopped after its deal for a count, if the last question stopped one there."""
        return self._paused[0] if self._paused is not None else None

    @property
    def rounds_dealt(self) -> int:
        """How many rounds this session has dealt."""
        return self._round_no

    def cannot_ask(self, item: str, ruleset: Ruleset) -> str | None:
        return refusal(lambda: self._item(item, ruleset))

    def _item(self, item: str, ruleset: Ruleset) -> tuple[CountSystem, int]:
        """The system and seats a review item names ('table:hi-lo:3s'), if this table can seat them."""
        parts = item.split(":")
        seats = parts[2].removesuffix("s") if len(parts) == 3 and parts[2].endswith("s") else ""
        if not seats.isdecimal():
            raise InvalidInputError(f"{item!r} is not a table item (e.g. table:hi-lo:3s)")
        system = self.system_named(parts[1])
        _check_table(self._dealt_rules(ruleset), system, int(seats))
        return system, int(seats)

    def _dealt_rules(self, ruleset: Ruleset) -> Ruleset:
        return ruleset.with_decks(self.options.decks) if self.options.decks else ruleset

    def _table(self, ruleset: Ruleset, rng: random.Random, system: CountSystem,
               seats: int) -> tuple[Ruleset, Shoe, list[str]]:
        """The rule set and shoe, set up on the first question and again when a review item names
        another count system or number of seats; lines announcing a new table."""
        if self._rules is not None and self._shoe is not None and (system, seats) == (self._table_system,
                                                                                      self._seated):
            return self._rules, self._shoe, []
        rules = self._dealt_rules(ruleset)
        _check_table(rules, system, seats)
        moved = self._rules is not None
        self._rules, self._shoe = rules, Shoe.shuffled(rules, rng)
        self._table_system, self._seated, self._counted = system, seats, (None, 0, [])
        self._paused, self._seen, self._trail, self._shoe_tally = None, [], [], [0, 0]
        if rules.shoe.burn_shown:
            self._seen.extend(self._shoe.burned)
        shoe = "an infinite deck" if rules.infinite_deck else f"a {rules.shoe.decks}-deck shoe"
        irc = system.initial_running_count(rules.shoe.decks)
        counted = f", counted in {system.title}" if moved else ""
        opening = "A new table: " if moved else ""
        return rules, self._shoe, [f"{opening}{seats} seat{'s' if seats > 1 else ''} at {rules.name}, "
                                   f"dealt from {shoe}{counted}; the count starts at {format_count(irc)}."]

    def _take(self, rules: Ruleset, table: Round) -> None:
        """Count what the round has shown so far; a shuffle starts the count (and the drift trail) again.

        A shoe that runs out mid-round has its discards shuffled: the cards already on the table are
        not in the new pack, so the new count starts with the ones seen this round (`cards_since_shuffle`).
        An infinite deck has nothing to reshuffle: its count runs on.
        """
        counting, counted, before = self._counted
        if counting is not table:
            counted, before = 0, self._seen
        events = [e for e in table.events if not (rules.infinite_deck and isinstance(e, Shuffled))]
        if any(isinstance(e, Shuffled) for e in events[counted:]):
            self._trail, self._shoe_tally = [], [0, 0]
        self._seen = cards_since_shuffle(events, before=before, burn_shown=rules.shoe.burn_shown)
        self._counted = (table, len(events), before)

    def _count(self, rules: Ruleset) -> int | float:
        return count_json(self._table_system.running_count(self._seen, decks=rules.shoe.decks))

    def ask(self, rng: random.Random, ruleset: Ruleset, item: str | None = None) -> Question:
        system, seats = self._item(item, ruleset) if item else (self.system, self.seats)
        rules, shoe, lines = self._table(ruleset, rng, system, seats)
        wanted = rng.randint(*ROUNDS_BETWEEN)
        first = self._round_no if self._paused else self._round_no + 1
        checkpoint, played = "hidden", 0
        shuffles, burn_shown = not rules.infinite_deck, rules.shoe.burn_shown
        while True:
            if self._paused is not None:
                table, shown = self._paused
                self._paused = None
                _play_out(table)
                events = table.events[shown:]
                lines.append(f"Round {self._round_no}, played out:")
                lines.extend("  " + line for line in round_lines(events, dealing=False, shuffles=shuffles,
                                                                  burn_shown=burn_shown,
                                                                  before=table.events[:shown]))
            else:
                self._round_no += 1
                table = Round.start(rules, shoe, [rules.table.min_bet] * seats)
                pause = rules.dealer.hole_card and not table.finished and rng.random() < DEAL_CHECKPOINT
                if not pause:
                    _play_out(table)
                events = list(table.events)
                lines.append(f"Round {self._round_no}:")
                lines.extend("  " + line for line in round_lines(events, shuffles=shuffles,
                                                                  burn_shown=burn_shown))
                if pause:
                    self._take(rules, table)
                    self._paused = (table, len(events))
                    checkpoint = AFTER_DEAL
                    self._trail.append({"round": self._round_no, "stage": "deal",
                                        "count": self._count(rules)})
                    break
            self._take(rules, table)
            self._trail.append({"round": self._round_no, "stage": "end", "count": self._count(rules)})
            played += 1
            if shoe.needs_shuffle and not rules.infinite_deck:
                checkpoint = END_OF_SHOE
                break
            if played >= wanted:
                break
        count = system.running_count(self._seen, decks=rules.shoe.decks)
        prompt = {"hidden": "Running count?",
                  AFTER_DEAL: "Running count after the deal (the hole card is still face down)?",
                  END_OF_SHOE: "The cut card is out, end of the shoe: running count?"}[checkpoint]
        return Question(
            drill=self.name,
            item=f"{self.name}:{system.name}:{seats}s",
            prompt=prompt,
            data={
                "system": system.name,
                "decks": rules.shoe.decks,
                "seats": seats,
                "initial_running_count": count_json(system.initial_running_count(rules.shoe.decks)),
                "cards": [str(c) for c in self._seen],
                "checkpoint": checkpoint,
                "rounds": [first, self._round_no],
                "trail": [dict(step) for step in self._trail],
            },
            expected=format_count(count, signed=False),
            show=(Lines(lines=tuple(lines), by_round=True, seconds_per_card=self.options.speed),),
        )

    def grade(self, question: Question, answer: Answer) -> Grade:
        return self.grade_count(question, answer, why=_drift(question.data["trail"]),
                                detail={"checkpoint": question.data["checkpoint"]})

    def after(self, question: Question, grade: Grade) -> str | None:
        """A right count closes the drift trail; the end of a shoe gets its tally."""
        self._shoe_tally[0] += grade.correct
        self._shoe_tally[1] += 1
        if grade.correct:
            self._trail = []
        if question.data["checkpoint"] != END_OF_SHOE:
            return None
        right, asked = self._shoe_tally
        return f"End of the shoe: {right} of {asked} counts right. The dealer shuffles; count from the start."

    def summary(self, grades: Sequence[Grade]) -> list[str]:
        if not grades:
            return []
        lines = super().summary(grades)
        run = best = 0
        for grade in grades:
            run = run + 1 if grade.correct else 0
            best = max(best, run)
        ends = [g for g in grades if g.detail.get("checkpoint") == END_OF_SHOE]
        lines.append(f"{self._round_no} rounds dealt; longest run of right counts: {best}")
        if ends:
            lines.append(f"end-of-shoe counts right: {sum(g.correct for g in ends)} of {len(ends)}")
        return lines


def _check_table(rules: Ruleset, system: CountSystem, seats: int) -> None:
    """Refuse a table that cannot be dealt: too many seats, or a colour count on suitless cards."""
    if not 1 <= seats <= rules.table.seats:
        raise InvalidInputError(f"a {rules.name} table seats 1 to {rules.table.seats}, not --seats {seats}")
    if rules.infinite_deck and system.counts_colour:
        raise InvalidInputError(f"{system.title} counts sevens by colour, and the infinite "
                                f"deck of {rules.name} deals ranks without suits")


def _play_out(table: Round) -> None:
    """Every seat plays the Easy policy from its own view until the round is settled."""
    while not table.finished:
        table.act(EasySeat().decide(table.view(table.seat_in_turn)))


def _drift(trail: object) -> str:
    """Where a wrong count went wrong: the first round since the last right count, and the counts since."""
    steps = [s for s in trail if isinstance(s, dict)] if isinstance(trail, list) else []
    if not steps:
        return ""
    first = steps[0]
    words = []
    for step in steps[:10]:
        stage = " (after the deal)" if step["stage"] == "deal" else ""
        words.append(f"round {step['round']}{stage} {format_count(parse_count(str(step['count'])))}")
    more = f", and {len(steps) - 10} more" if len(steps) > 10 else ""
    return (f"The count first went wrong in round {first['round']} or after: your last right count (or the "
            f"shuffle) came just before it. The count after each round since: {', '.join(words)}{more}.")
