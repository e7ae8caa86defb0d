"""Quiz questions on the pay tables of the side bets a table offers (`rulesets/sidebets/*.toml`).

`drill quiz --set sidebets=21+3,perfect-pairs` (or `sidebets=all`) adds them, as the payout and settle
drills deal those bets: what one outcome pays ("21+3 (classic table): what does a suited three of a kind
pay?") and which cards settle the bet. No seed offers a side bet, so each question rests on this
trainer's reading, and says which: the pay table it deals, with the file's own line quoted (a `reading`
basis, in the quiz's two kinds; each table is one common one, as casinos post them). The chat-host
tournament has no side bets; insurance is asked as a side bet only where the rule set offers it.
"""

from __future__ import annotations

from decimal import Decimal

from drills.quiz.bank import QuizItem
from trainer.core.basis import Basis, BasisKind
from trainer.core.money import Ratio, format_money
from trainer.core.rules import Ruleset
from trainer.core.sidebets import OUTCOME_WORDS, SideBet, SideBetKind, builtin_sidebets

FOLDER = "rulesets/sidebets"
COMMON_RATIOS = ("2:1", "3:1", "4:1", "5:1", "6:1", "9:1", "10:1", "12:1", "19:1", "25:1", "30:1", "40:1",
                 "100:1", "125:1", "1000:1")
"""Ratios side-bet tables pay, for the wrong choices."""


def offered(ruleset: Ruleset, bets: tuple[SideBet, ...] | None = None) -> list[SideBet]:
    """The side bets a table of this rule set can offer, of `bets` (None: every built-in one):
    insurance only where the rule set has it; none at the chat-host tournament."""
    if ruleset.tournament is not None:
        return []
    chosen = tuple(builtin_sidebets().values()) if bets is None else bets
    return [bet for bet in chosen if bet.kind is not SideBetKind.DEALER_BLACKJACK or ruleset.player.insurance]


def label(bet: SideBet) -> str:
    """The bet's name as a question says it, without its pays: '21+3 (classic table)', 'Perfect Pairs'."""
    short = bet.title.split(" (")[0]
    others = [b for b in builtin_sidebets().values() if b is not bet and b.title.split(" (")[0] != short
              and b.title.startswith(short)]
    return f"{short} (classic table)" if others else short


def table_words(bet: SideBet) -> str:
    """The whole pay table: 'suited three of a kind 100:1, straight flush 40:1, ...'."""
    return ", ".join(f"{OUTCOME_WORDS[o]} {r}" for o, r in bet.pays)


def quote(bet: SideBet, outcome: str | None) -> str:
    """The pay table's own line: 'suited-trips = "9:1"' (or its kind, for what it reads)."""
    return f'{outcome} = "{bet.ratio(outcome)}"' if outcome else f'kind = "{bet.kind.value}"'


def basis_of(bet: SideBet, outcome: str | None = None) -> Basis:
    """No seed offers side bets: the pay table this trainer deals, its line quoted."""
    why = (f"no seed offers side bets; the pay table this trainer deals, {FOLDER}/{bet.name}.toml, "
           f"reads «{quote(bet, outcome)}»")
    return Basis(kind=BasisKind.READING, why=why)


def _pays_item(bet: SideBet, outcome: str, ratio: Ratio) -> QuizItem:
    answer = str(ratio)
    # the table's other lines first (the mistake a dealer makes), then the nearest common ratios
    near = sorted(COMMON_RATIOS, key=lambda r: abs(Ratio.parse(r).fraction - ratio.fraction))
    wrong = [r for r in (*(str(x) for _, x in bet.pays), *near) if r != answer]
    stake = Decimal(5)
    why = (f"{label(bet)} pays {OUTCOME_WORDS[outcome]} {answer}: a ${stake} bet wins "
           f"${format_money(ratio.pay(stake))} (and keeps its stake). The table: {table_words(bet)}.")
    return QuizItem(key=f"sidebet-{bet.name}-{outcome}",
                    prompt=f"{label(bet)}: what does {_article(OUTCOME_WORDS[outcome])} pay?",
                    answer=answer, wrong=tuple(dict.fromkeys(wrong))[:3], explanation=why,
                    basis=basis_of(bet, outcome),
                    rule={"sidebet": bet.name, "file": f"{FOLDER}/{bet.name}.toml",
                          "line": quote(bet, outcome), "pays": {o: str(r) for o, r in bet.pays}})


def _reads_item(bet: SideBet) -> QuizItem:
    answer = bet.kind.reads
    wrong = [k.reads for k in SideBetKind if k is not bet.kind]
    why = f"{label(bet)} is settled on {answer}; it pays by its table: {table_words(bet)}."
    return QuizItem(key=f"sidebet-{bet.name}-reads", prompt=f"{label(bet)}: which cards settle the bet?",
                    answer=answer, wrong=tuple(wrong), explanation=why, basis=basis_of(bet),
                    rule={"sidebet": bet.name, "file": f"{FOLDER}/{bet.name}.toml", "line": quote(bet, None),
                          "kind": bet.kind.value})


def _article(words: str) -> str:
    if words.startswith(("two ", "any ")):
        return words
    return f"an {words}" if words[0] in "aeiou" else f"a {words}"


def sidebet_items(ruleset: Ruleset, bets: tuple[SideBet, ...] | None = None) -> list[QuizItem]:
    """The pay-table questions of the side bets (`bets`, None: every built-in one) the table offers."""
    items: list[QuizItem] = []
    for bet in offered(ruleset, bets):
        pays = bet.pays if len({r for _, r in bet.pays}) > 1 else bet.pays[:1]  # one pay for all: ask it once
        items += [_pays_item(bet, outcome, ratio) for outcome, ratio in pays]
        items.append(_reads_item(bet))
    return items
