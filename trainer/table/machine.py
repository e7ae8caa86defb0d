"""`cutcard play --jsonl`: the table in machine mode (DESIGN §10 contract), on plain streams.

Each decision the learner owes is one JSON line `{"id", "kind", "prompt", "data", "choices"?}`, `kind`
one of `bet`, `insurance`, `even-money`, `action`, `count`, `side-count` (a count that keeps one, at a
checkpoint after the running count: the surplus), `true-count`; the answer is one line; the
grade is one line in the drills' shape (`{"id", "correct", "expected", "given", "explanation",
"latency_ms"}`). A malformed or illegal answer gets `{"id", "error"}`, is read again and records nothing.
A bet the table does not grade (counting cannot help) gets `{"id", "graded": false, "given",
"explanation"}`. After each round: `{"round": N, "net": "...", "hands": [...], "dealer": [...]}`, and
from `play` (an `EdgeWatch`) the next round's `true_count`, `count_edge` and `exact_edge`. Where
counting cannot help, the first line is `{"notice": "..."}`. End of input ends the session cleanly; every
answer given was recorded as it was graded.

With `--dealer-errors RATE`, each round's last play is followed by a `foul` decision: its `data` is the
round as the dealer settled it (`dealer`, `dealer_total`, `dealer_bust`, `seats` with each hand's
`outcome` and `net` as paid, `insurance`), the answer `ok` or `f SEAT` / `f dealer`. A call is graded at
once (`verdict` caught or false call, `detail` {outcome, error, where, your_difference}); after a false
call the decision is asked again, until `ok` (which grades a miss, or is not graded on a clean round) or
a catch. The round line then carries `dealer_error`: null, or {error, where, outcome}; its `net` is what
the learner was paid (the floor's correction after a catch, the dealer's payment after a miss).

With `--wong`, each round begins with a `wong` decision (choices `sit`/`watch` when watching,
`stay`/`leave` when playing; `data`: the running count, cards left, decks left, the entry and exit
counts, `playing`, `gone`, `fresh_shoe`); a round the learner watches has no bet and no play, and its
round line has `"watched": true`, no hands and a net of 0.

With `--distract`, about one round in three is followed (after its round line, before any count check)
by `{"id", "kind": "interruption", "prompt", "expected", "data": {"interruption", "asks"?}}`: one answer
line (any line for chatter), then `{"id", "interruption", "correct", "expected", "given"}`. The count
checks until the next round are recorded as distracted; their grades are unchanged.

The chat-host tournament speaks the same lines, with one more kind, `attack` (see `TournamentMachine`).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from decimal import Decimal
from typing import IO

from drills.base import Grade
from trainer.core.errors import TrainerError
from trainer.core.money import format_money
from trainer.core.round import SeatView
from trainer.practice.session import DrillRun, grade_to_json
from trainer.table.bets import ungraded_reason
from trainer.table.decisions import Decision
from trainer.table.edge_line import EdgeWatch
from trainer.table.session import TableSession
from trainer.table.tournament_checks import BET_NOTE, TournamentChecks
from trainer.tournament.game import Stage


class _InputEnded(Exception):
    """End of input: the session ends where it is."""


class TableMachine:
    """Drives a `TableSession` by JSON lines."""

    def __init__(self, table: TableSession, stdin: IO[str], stdout: IO[str], *,
                 edges: EdgeWatch | None = None) -> None:
        """`edges` (computing at once): the round lines carry `true_count`, `count_edge` and
        `exact_edge` for the next round."""
        self.table = table
        self.stdin = stdin
        self.stdout = stdout
        self.asked = 0
        self.edges = edges

    def run(self, rounds: int | None = None) -> None:
        """Play until `rounds` are done, the chips run out or input ends."""
        table = self.table
        reason = ungraded_reason(table.ruleset, table.keeper.system)
        if reason is not None:
            self._emit({"notice": reason})
        try:
            while rounds is None or table.tally.rounds < rounds:
                if table.broke:
                    self._emit({"notice": "you are out of chips for this table"})
                    return
                self._ask(table.decision())
                if table.wonging is not None and table.wong_seat.playing and not _dealt(table):
                    self._ask(table.decision())  # the bet (or the spots' bets), once seated
                while table.learner_in_turn:
                    self._ask(table.decision())
                while table.fouls.on and table.fouls.open and not table.fouls.fixed:
                    self._ask(table.foul_decision())
                net = table.end_round()
                self._emit(self._round_line(net))
                self._interrupt()
                due = table.count_check_due()
                if due is not None:
                    self._ask(table.count_decision("running count"))
                    if due == "checkpoint" and table.keeper.keeps_side_count:
                        self._ask(table.count_decision("side count"))
                    if due == "checkpoint" and table.keeper.system.balanced:
                        self._ask(table.count_decision("true count"))
        except _InputEnded:
            return

    def _interrupt(self) -> None:
        """`--distract`: the interruption after a round, if one is due, as a line of its own kind with
        its expected answer; one answer line, then the result line."""
        interruption = self.table.interruption()
        if interruption is None:
            return
        self.asked += 1
        qid = f"{self.table.graded.session_id}-{self.asked}"
        self._emit(interruption.to_json(qid))
        line = self.stdin.readline()
        if line == "":
            raise _InputEnded
        self._emit(self.table.dealt_with(interruption, line.rstrip("\r\n")).to_json(qid))

    def _ask(self, decision: Decision) -> None:
        table = self.table
        self.asked += 1
        qid = f"{table.graded.session_id}-{self.asked}"
        grade, line, latency = _answered(self.stdin, self.stdout, qid, decision, table.graded, table.answer)
        if grade is None:
            clean = "a clean round: nothing to call"
            reason = ungraded_reason(table.ruleset, table.keeper.system)
            why = clean if decision.kind == "foul" else reason or ""
            self._emit({"id": qid, "graded": False, "given": line.strip(), "explanation": why})
        else:
            self._emit(grade_to_json(qid, grade, latency))

    def _round_line(self, net: object) -> dict[str, object]:
        table = self.table
        round_ = table.round
        assert round_ is not None
        dealer = [str(c) for c in table.dealer_cards_shown()]
        if table.watching:
            return {"round": table.tally.rounds, "net": "0", "hands": [], "dealer": dealer,
                    "bankroll": format_money(table.bankroll), "watched": True, **self._edges()}
        spots = table.learner_spots
        hands = [hand for spot in spots for hand in _hand_lines(round_.view(spot))]
        paid = sum((table.paid(spot) for spot in spots), Decimal(0))
        line: dict[str, object] = {
            "round": table.tally.rounds, "net": format_money(paid), "hands": hands,
            "dealer": dealer, "bankroll": format_money(table.bankroll)}
        if table.fouls.on:
            slip = table.fouls.slip
            outcome = "caught" if table.fouls.fixed else "missed"
            line["dealer_error"] = None if slip is None else {"error": slip.error, "where": slip.where,
                                                              "outcome": outcome}
        return {**line, **self._edges()}

    def _edges(self) -> dict[str, object]:
        """The next round's true count and edges (fractions of a bet, null where there is none)."""
        table = self.table
        if self.edges is None:
            return {}
        counting = table.ruleset.counting_helps and table.keeper.system.balanced
        reading = self.edges.after_round(table.shoe, table.betting_true_count_now() if counting else None)
        return {"true_count": reading.true_count, "count_edge": _rounded(reading.count_edge),
                "exact_edge": _rounded(reading.exact_edge)}

    def _emit(self, line: dict[str, object]) -> None:
        _emit(self.stdout, line)


class TournamentMachine:
    """Drives the chat-host tournament by JSON lines: the learner's bets (not graded), plays and attack
    phases (`kind` `attack`, choices `pass` and each rival), a round line after each round's
    settlement, and `{"over": true, "winner", "standings"}` at the end."""

    def __init__(self, checks: TournamentChecks, stdin: IO[str], stdout: IO[str]) -> None:
        self.checks = checks
        self.stdin = stdin
        self.stdout = stdout
        self.asked = 0
        self.reported = 0

    def run(self, rounds: int | None = None) -> None:
        """Play until the game is over, `rounds` rounds are settled or input ends."""
        t = self.checks.t
        _emit(self.stdout, {"notice": BET_NOTE})
        try:
            while t.stage is not Stage.OVER:
                if self._report(rounds):
                    return
                decision = self.checks.decision()
                if decision is None:  # the computers' turn, or the learner is out: play on
                    t.advance()
                    continue
                self._ask(decision)
        except _InputEnded:
            return
        if self._report(rounds):
            return
        _emit(self.stdout, {"over": True, "winner": t.winner,
                            "standings": [{"name": s.name, "cash": format_money(s.cash)}
                                          for s in t.standings()]})

    def _report(self, rounds: int | None) -> bool:
        """A line for each round settled since the last; True once `rounds` are reported."""
        t, me = self.checks.t, self.checks.learner
        for number, order, round_ in t.settled[self.reported:]:
            self.reported += 1
            line: dict[str, object] = {"round": number, "net": "0", "hands": [],
                                       "host": [str(c) for c in round_.dealer_hand.cards],
                                       "cash": {n: format_money(t.cash(n)) for n in t.alive()}}
            if me in order:
                seat = order.index(me)
                line["net"] = format_money(round_.results[seat])
                line["hands"] = _hand_lines(round_.view(seat))
            _emit(self.stdout, line)
            if rounds is not None and self.reported >= rounds:
                return True
        return False

    def _ask(self, decision: Decision) -> None:
        checks = self.checks
        self.asked += 1
        qid = f"{checks.graded.session_id}-{self.asked}"
        grade, line, latency = _answered(self.stdin, self.stdout, qid, decision, checks.graded, checks.answer)
        if grade is None:
            _emit(self.stdout, {"id": qid, "graded": False, "given": line.strip(), "explanation": BET_NOTE})
        else:
            _emit(self.stdout, grade_to_json(qid, grade, latency))


def _rounded(edge: float | None) -> float | None:
    """An edge to eight decimals (a millionth of a percent): the engine's last digits are noise."""
    return None if edge is None else round(edge, 8)


def _dealt(table: TableSession) -> bool:
    """A round is dealt and not yet settled."""
    return table.round is not None and not table.settled


def _emit(stdout: IO[str], line: dict[str, object]) -> None:
    stdout.write(json.dumps(line, ensure_ascii=False, default=str) + "\n")
    stdout.flush()


def _answered(stdin: IO[str], stdout: IO[str], qid: str, decision: Decision, graded: DrillRun,
              answer: Callable[[Decision, str, int], Grade | None]) -> tuple[Grade | None, str, int]:
    """Ask `decision` as a JSON line and read answers until one is taken: a malformed or illegal one
    gets `{"id", "error"}` and is read again. The grade (None: not graded), the line and its latency."""
    _emit(stdout, decision.to_json(qid))
    graded.start_timer()
    while True:
        line = stdin.readline()
        if line == "":
            raise _InputEnded
        latency = graded.elapsed_ms()
        try:
            return answer(decision, line.rstrip("\r\n"), latency), line, latency
        except TrainerError as e:
            _emit(stdout, {"id": qid, "error": str(e)})


def _hand_lines(seat: SeatView) -> list[dict[str, object]]:
    """A seat's hands in a round line: cards, total and bet."""
    return [{"cards": [str(c) for c in h.cards], "total": h.total, "bet": format_money(bet)}
            for h, bet in zip(seat.hands, seat.bets, strict=True)]
