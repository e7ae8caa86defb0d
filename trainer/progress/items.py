"""Review items: what identifies one (`ItemKey`), and the one home of their human names and skills (and of
the places an answer is given, `SOURCES`).

An item key is a drill's own shorthand (`running-count:hi-lo:0.50s`, `payout:bj 3:2:35`); a learner
reads `item_name(key)` instead ("running count at 0.5 s a card, Hi-Lo", "blackjack 3:2 on $35") in
`stats`, `review` and the REPL's toolbar. A family this module does not know (one added by a newer drill)
still gets a readable name from its parts. Pure and light: the read path imports it without any drill.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from trainer.core.errors import escaped


@dataclass(frozen=True, slots=True, kw_only=True)
class ItemKey:
    """Which review item: the drill that asks it, the drill's item key, and the rule set."""

    drill: str
    item: str
    ruleset: str


SOURCES = ("drill", "review", "play")
"""Where an attempt can be made: a drill session, the review queue, or the table (`cutcard play`); an
attempt's `source`, in the order `stats` lists them."""

SYSTEM_TITLES = {"hi-lo": "Hi-Lo", "ko": "KO", "hi-opt-i": "Hi-Opt I", "hi-opt-ii": "Hi-Opt II",
                 "omega-ii": "Omega II", "zen": "Zen", "wong-halves": "Wong Halves", "red-7": "Red 7"}
"""Count systems by their short titles (the core's registry loads TOML: too slow for the toolbar)."""

SKILLS: dict[str, str] = {
    "running-count": "counting", "countdown": "counting", "table": "counting", "speed-count": "counting",
    "true-count": "true count", "deck-estimation": "true count",
    "aces": "bets", "strategy": "basic strategy", "deviations": "index plays", "bet": "bets",
    "wong": "back-counting",
    "payout": "payouts", "color-up": "payouts", "settle": "payouts", "cut": "payouts", "catch": "payouts",
    "quiz": "rules", "attack": "tournament",
    "procedure": "dealer procedure", "protect": "dealer procedure",
    "rundown": "payouts", "addition": "dealer arithmetic",
}
"""Item family -> the skill it trains; the same skill whether practised in a drill, a review or at play."""
SKILL_ORDER = ("counting", "true count", "basic strategy", "index plays", "bets", "back-counting", "payouts",
               "dealer arithmetic", "dealer procedure", "rules", "tournament")


def family(item: str) -> str:
    """The family of an item key: the part before the first colon.

    >>> family("strategy:hard 16 vs 10"), family("odd")
    ('strategy', 'odd')
    """
    return item.partition(":")[0]


def skill(item: str) -> str:
    """The skill an item trains (its family when no skill is named for it).

    >>> skill("deviations:s17:16 vs 10"), skill("speed-count:hi-lo:2"), skill("new-thing:1")
    ('index plays', 'counting', 'new-thing')
    """
    name = family(item)
    return SKILLS.get(name, name)


def system_title(name: str) -> str:
    return SYSTEM_TITLES.get(name, name)


def _seconds(text: str) -> str:
    """'0.50s' -> '0.5 s'."""
    number = text.removesuffix("s")
    try:
        return f"{float(number):g} s"
    except ValueError:
        return text


def _money(text: str) -> str:
    return text if text.startswith("$") else f"${text}"


def _signed(text: str) -> str:
    return text if text[:1] in "+-" else f"+{text}"


def _running_count(parts: list[str]) -> str:
    system, speed = parts
    return f"running count at {_seconds(speed)} a card, {system_title(system)}"


def _countdown(parts: list[str]) -> str:
    system, decks, *rest = parts
    n = decks.removesuffix("d")
    text = f"count down {n} deck{'' if n == '1' else 's'}, {system_title(system)}"
    return text + (", and the missing card" if "checkout" in rest else "")


def _true_count(parts: list[str]) -> str:
    system, estimation, rounding, band = parts
    return (f"true count {_signed(band)}, {system_title(system)} "
            f"({estimation}-deck estimate, {rounding})")


def _deck_estimation(parts: list[str]) -> str:
    decks, estimation, estimate = parts
    return f"{estimate} decks left of {decks.removesuffix('d')}, to the {estimation} deck"


def _aces(parts: list[str]) -> str:
    system, band = parts
    edge = " or more" if band == "+4" else (" or less" if band == "-4" else "")
    return f"ace side count, surplus {_signed(band)}{edge}, {system_title(system)}"


def _table(parts: list[str]) -> str:
    system, seats = parts
    return f"count a {seats.removesuffix('s')}-seat table, {system_title(system)}"


def _payout(parts: list[str]) -> str:
    head, _, first = parts[0].partition(" ")
    rest = [first, *parts[1:]] if first else parts[1:]
    if head == "bj":  # bj 3:2:35 -> ['3', '2', '35'] after the split on ':'
        return f"blackjack {rest[0]}:{rest[1]} on {_money(rest[2])}"
    if head == "insurance":  # insurance 2:1:35:17.50
        text = f"insurance {rest[0]}:{rest[1]} on {_money(rest[2])}"
        return text + (f" (insured {_money(rest[3])})" if len(rest) > 3 else "")
    if head == "even-money":
        return f"even money on {_money(rest[0])}"
    if head == "surrender":
        return f"surrender on {_money(rest[0])}"
    if head == "settle":
        return "settle " + ":".join(rest)
    raise ValueError(head)


def _strategy(parts: list[str]) -> str:
    cell = ":".join(parts)
    hand, vs, up = cell.partition(" vs ")
    if hand.startswith("pair "):
        face = hand.removeprefix("pair ").partition("-")[0]
        hand = f"pair of {face}s" if face != "A" else "pair of aces"
    return f"{hand}{vs}{up}"


def _deviations(parts: list[str]) -> str:
    game, play = parts[0], ":".join(parts[1:])
    return f"index play {play} ({game.upper()})"


def _quiz(parts: list[str]) -> str:
    ruleset, key = parts[0], ":".join(parts[1:])
    return f"rules of {ruleset}: {key.replace('-', ' ')}"


def _color_up(parts: list[str]) -> str:
    return f"colour up {_money(parts[0])}"


def _bet(parts: list[str]) -> str:
    system, count = parts[0], parts[1]
    return f"bet at true count {_signed(count.removeprefix('tc'))}, {system_title(system)}"


def _wong(parts: list[str]) -> str:
    system = system_title(parts[0])
    if parts[1] == "gone":
        return f"back-counting after leaving the shoe, {system}"
    state, edge = parts[1], int(parts[2])
    line = "exit (or entry)" if state == "playing" else "entry"
    where = "at" if edge == 0 else (f"{abs(edge)} {'above' if edge > 0 else 'below'}")
    return f"back-counting while {state}, the count {where} your {line} count, {system}"


def _speed_count(parts: list[str]) -> str:
    system, decks, seats = parts
    if not (decks.endswith("d") and seats.endswith("s")):
        raise ValueError(parts)
    count = decks.removesuffix("d")
    return (f"speed count of {count} deck{'s' if count != '1' else ''} at a {seats.removesuffix('s')}-seat "
            f"table, {system_title(system)}")


def _settle(parts: list[str]) -> str:
    kind = ":".join(parts)
    if kind.startswith("sidebet "):
        return f"settle a seat with a winning {kind.removeprefix('sidebet ')} side bet"
    done = {"win": "won", "lose": "lost", "push": "pushed"}
    return f"settle a seat that {done[kind]}" if kind in done else f"settle a {kind} seat"


def _cut(parts: list[str]) -> str:
    head = parts[0]
    if head.startswith("stack "):
        return f"what a stack of {head.removeprefix('stack ')} is worth"
    if head == "win":
        return f"cut a {_money(parts[1])} payout"
    if head.startswith("bj "):  # bj 3:2:35 -> ['bj 3', '2', '35']
        return f"cut blackjack {head.removeprefix('bj ')}:{parts[1]} on {_money(parts[2])}"
    raise ValueError(head)


def _catch(parts: list[str]) -> str:
    error = parts[0]
    return "a clean table (no foul to call)" if error == "clean" else \
        f"catch the dealer's error: {error.replace('-', ' ')}"


def _attack(parts: list[str]) -> str:
    rivals, best = parts
    return f"attack phase with {rivals} (best: {'attack' if best == 'attack' else 'pass'})"


def _procedure(parts: list[str]) -> str:
    return f"dealer procedure: {':'.join(parts).replace('-', ' ')}"


def _protect(parts: list[str]) -> str:
    return f"game protection: {':'.join(parts).replace('-', ' ')}"


def _rundown(parts: list[str]) -> str:
    size, colours = parts
    names = colours.split("+")
    listed = names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"
    if not size.isdecimal():
        raise ValueError(size)
    return f"run down {size} cheques of {listed}"


def _addition(parts: list[str]) -> str:
    if parts[0] == "sum":
        return {"carry": "two-digit sum with a carry", "plain": "two-digit sum, no carry"}[parts[1]]
    if parts[0] == "hand":
        kind, n = parts[1], parts[2]
        return f"total of a {kind} hand of {n} cards"
    raise ValueError(parts[0])


NAMERS: dict[str, Callable[[list[str]], str]] = {
    "running-count": _running_count, "countdown": _countdown, "true-count": _true_count,
    "deck-estimation": _deck_estimation, "aces": _aces, "table": _table, "payout": _payout,
    "strategy": _strategy,
    "deviations": _deviations, "quiz": _quiz, "color-up": _color_up, "bet": _bet, "wong": _wong,
    "speed-count": _speed_count, "settle": _settle, "cut": _cut, "catch": _catch, "attack": _attack,
    "procedure": _procedure, "protect": _protect, "rundown": _rundown, "addition": _addition,
}


def item_name(item: str) -> str:
    """A learner's words for an item key; an unknown or unexpected one reads as its family and parts.

    >>> item_name("running-count:hi-lo:0.50s")
    'running count at 0.5 s a card, Hi-Lo'
    >>> item_name("strategy:hard 16 vs 10"), item_name("payout:insurance 2:1:35:17.50")
    ('hard 16 vs 10', 'insurance 2:1 on $35 (insured $17.50)')
    >>> item_name("bet:hi-lo:tc+3"), item_name("speed-count:hi-lo:1d:3s")
    ('bet at true count +3, Hi-Lo', 'speed count of 1 deck at a 3-seat table, Hi-Lo')
    >>> item_name("settle:blackjack 6:5"), item_name("cut:bj 3:2:35"), item_name("new-thing:a:b")
    ('settle a blackjack 6:5 seat', 'cut blackjack 3:2 on $35', 'new-thing: a, b')
    """
    if not item.isprintable():  # stored text shown escaped: a control sequence never reaches the terminal
        return item_name(escaped(item))
    name, _, rest = item.partition(":")
    parts = rest.split(":") if rest else []
    namer = NAMERS.get(name)
    if namer is not None and parts:
        try:
            return namer(parts)
        except (ValueError, IndexError):
            pass
    if not parts:
        return item
    return f"{name.replace('-', ' ') if name in NAMERS else name}: {', '.join(parts)}"


DRILL_TITLES = {"running-count": "running count", "countdown": "count down a deck",
                "true-count": "true count", "deck-estimation": "deck estimation", "aces": "ace side count",
                "table": "table count",
                "payout": "payouts", "color-up": "colour up", "strategy": "basic strategy",
                "deviations": "index plays", "quiz": "rules quiz", "bet": "bets",
                "speed-count": "speed count", "play": "table play", "settle": "settle a table",
                "cut": "cut cheques", "catch": "catch dealer errors", "attack": "attack phase",
                "procedure": "dealer procedure", "protect": "game protection",
                "rundown": "run down a stack", "addition": "dealer arithmetic",
                "wong": "back-counting"}


def drill_title(drill: str) -> str:
    """A drill's name in words (`running-count` -> 'running count'); an unknown one as it is."""
    return DRILL_TITLES.get(drill, drill)
