"""`cutcard play --jsonl`: the table in machine mode (DESIGN §10 contract), on plain streams.

Each decision the learner owes is one JSON line `{"id", "kind", "prompt", "data", "choices"?}`, `kind`
one of `bet`, `insurance`, `even-money`, `action`, `count`, `true-count`; the answer is one line; the
grade is one line in the drills' shape (`{"id", "correct", "expected", "given", "explanation",
"latency_ms"}`). A malformed or illegal answer gets `{"id", "error"}`, is read again and records nothing.
A bet the table does not grade (counting cannot help) gets `{"id", "graded": false, "given",
"explanation"}`. After each round: `{"round": N, "net": "...", "hands": [...], "dealer": [...]}`. Where
counting cannot help, the first line is `{"notice": "..."}`. End of input ends the session cleanly; every
answer given was recorded as it was graded.
"""

from __future__ import annotations

import json
from typing import IO

from trainer.core.errors import TrainerError
from trainer.core.money import format_money
from trainer.session import grade_to_json
from trainer.table.bets import ungraded_reason
from trainer.table.decisions import Decision
from trainer.table.session import TableSession


class _InputEnded(Exception):
    """End of input: the session ends where it is."""


class TableMachine:
    """Drives a `TableSession` by JSON lines."""

    def __init__(self, table: TableSession, stdin: IO[str], stdout: IO[str]) -> None:
        self.table = table
        self.stdin = stdin
        self.stdout = stdout
        self.asked = 0

    def run(self, rounds: int | None = None) -> None:
        """Play until `rounds` are done, the chips run out or input ends."""
        table = self.table
        reason = ungraded_reason(table)
        if reason is not None:
            self._emit({"notice": reason})
        try:
            while rounds is None or table.tally.rounds < rounds:
                if table.broke:
                    self._emit({"notice": "you are out of chips for this table"})
                    return
                self._ask(table.decision())
                while table.learner_in_turn:
                    self._ask(table.decision())
                net = table.end_round()
                self._emit(self._round_line(net))
                due = table.count_check_due()
                if due is not None:
                    self._ask(table.count_decision("running count"))
                    if due == "checkpoint" and table.keeper.system.balanced:
                        self._ask(table.count_decision("true count"))
        except _InputEnded:
            return

    def _ask(self, decision: Decision) -> None:
        table = self.table
        self.asked += 1
        qid = f"{table.graded.session_id}-{self.asked}"
        self._emit(decision.to_json(qid))
        table.graded.start_timer()
        while True:
            line = self.stdin.readline()
            if line == "":
                raise _InputEnded
            latency = table.graded.elapsed_ms()
            try:
                grade = table.answer(decision, line.rstrip("\r\n"), latency)
            except TrainerError as e:
                self._emit({"id": qid, "error": str(e)})
                continue
            break
        if grade is None:
            self._emit({"id": qid, "graded": False, "given": line.strip(),
                        "explanation": ungraded_reason(table) or ""})
        else:
            self._emit(grade_to_json(qid, grade, latency))

    def _round_line(self, net: object) -> dict[str, object]:
        table = self.table
        round_ = table.round
        assert round_ is not None
        seat = round_.seats[table.learner]
        hands = [{"cards": [str(c) for c in h.cards], "total": h.as_hand().total,
                  "bet": format_money(h.bet)} for h in seat.hands]
        return {"round": table.tally.rounds, "net": format_money(round_.results[table.learner]),
                "hands": hands, "dealer": [str(c) for c in round_.dealer_cards],
                "bankroll": format_money(table.bankroll)}

    def _emit(self, line: dict[str, object]) -> None:
        self.stdout.write(json.dumps(line, ensure_ascii=False, default=str) + "\n")
        self.stdout.flush()
