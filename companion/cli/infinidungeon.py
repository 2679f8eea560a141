"""``infinite-referee infinidungeon``: referee the solo dungeon, advise rerolls, simulate.

Examples:
    $ infinite-referee infinidungeon game.txt --advise
    $ infinite-referee infinidungeon --deck my-deck.toml --check-deck
    $ infinite-referee infinidungeon --simulate 2000 --seed 1
    $ echo "roll" | infinite-referee infinidungeon --json

Without ``--deck`` the shipped stand-in deck is used (``docs/infinidungeon.md``).
"""

from __future__ import annotations

import argparse
import json
import random
import time
from typing import IO, Any

from companion.cli.command import Command
from companion.cli.referee import EXIT_OK, EXIT_REFUSED, EXIT_UNREADABLE, Annotator
from companion.games.core import SetupError
from companion.games.infinidungeon.advisor import Advice, advise, fresh_roll_defeat
from companion.games.infinidungeon.deck import Monster, Side
from companion.games.infinidungeon.deck_check import check_deck
from companion.games.infinidungeon.rulebook import dice
from companion.games.infinidungeon.setup import deck_from_toml
from companion.games.infinidungeon.simulate import simulate
from companion.games.infinidungeon.state import DungeonState, Phase
from companion.session import Session, Verdict

HELP = "referee Infinidungeon (deck, doorways, traps, fights, odds)"


def extend(parser: argparse.ArgumentParser) -> None:
    """Infinidungeon's own flags: the advisor, the deck check and the simulator."""
    parser.add_argument("--advise", action="store_true",
                        help="after each roll, print the exact odds of every reroll choice")
    parser.add_argument("--check-deck", action="store_true",
                        help="print every inconsistency of the deck with the rulebook and exit "
                             "(status 1 if there is any)")
    parser.add_argument("--simulate", type=int, metavar="N",
                        help="play N whole games on the advisor's policy and print the win "
                             "rate with its 95%% confidence interval")


def handle(command: Command) -> int:
    """Check the deck, simulate, or referee (with the advisor's odds if asked)."""
    args, deck = command.args, command.sources["deck"]
    if args.check_deck:
        return check(deck, args.json, command.out)
    if args.simulate is not None:
        return simulate_games(deck, args.simulate, args.seed, args.json, command.out,
                              command.err)
    _warn_if_inconsistent(deck, command.err)
    return command.referee(annotate=annotator(args.advise, args.json))


def _warn_if_inconsistent(source: tuple[str, str], err: IO[str]) -> None:
    """A deck that disagrees with the rulebook is still refereed, with a warning."""
    try:
        problems = check_deck(deck_from_toml(*source))
    except SetupError:
        return  # the referee reports it, naming the key, and exits 2
    if problems:
        print(f"warning: {source[0]}: {len(problems)} inconsistenc"
              f"{'y' if len(problems) == 1 else 'ies'} with the rulebook (see --check-deck), "
              f"first: {problems[0]}", file=err)


def check(source: tuple[str, str], as_json: bool, out: IO[str]) -> int:
    """Print every inconsistency of a deck with the rulebook; 0 none, 1 some.

    Raises:
        SetupError: the deck cannot be read (the command reports it, status 2).
    """
    name, text = source
    deck = deck_from_toml(name, text)
    problems = check_deck(deck)
    if as_json:
        print(json.dumps({"deck": name, "name": deck.name, "cards": len(deck.cards),
                          "consistent": not problems,
                          "problems": [{"card": p.card, "side": p.side, "problem": p.problem,
                                        "rule": f'infinidungeon: "{p.rule}"'}
                                       for p in problems]}, ensure_ascii=False), file=out)
    elif problems:
        print(f"{name}: {len(problems)} inconsistenc{'y' if len(problems) == 1 else 'ies'} "
              "with the rulebook", file=out)
        for problem in problems:
            print(f"  {problem}", file=out)
    else:
        print(f"{name}: the deck agrees with the rulebook ({len(deck.cards)} cards)", file=out)
    return EXIT_REFUSED if problems else EXIT_OK


def simulate_games(source: tuple[str, str], games: int, seed: int | None, as_json: bool,
                   out: IO[str], err: IO[str]) -> int:
    """Play ``games`` games on the advisor's policy and print the win rate and its 95% CI."""
    name, text = source
    if games < 1:
        print("error: --simulate: the number of games must be at least 1", file=err)
        return EXIT_UNREADABLE
    deck = deck_from_toml(name, text)
    started = time.perf_counter()
    report = simulate(deck, games, random.Random(seed))
    elapsed = time.perf_counter() - started
    if as_json:
        print(json.dumps({"deck": name, "games": report.games, "wins": report.wins,
                          "win_rate": report.rate, "ci95": [report.low, report.high],
                          "terminations": report.terminations, "seed": seed,
                          "actions": report.actions,
                          "games_per_second": games / elapsed if elapsed else None}), file=out)
    else:
        print(f"{name}: {report.describe()}", file=out)
        print(f"simulated in {elapsed:.2f} s ({games / elapsed:.0f} games/s)", file=out)
    return EXIT_OK


def annotator(with_advice: bool, as_json: bool) -> Annotator:
    """The notes added to verdicts: the room entered, and (``with_advice``) the odds."""
    seen: dict[str, DungeonState] = {}

    def annotate(session: Session, verdict: Verdict) -> dict[str, Any]:
        state: DungeonState = session.state
        before = seen.get("state")
        if before is None and len(session.record) == 1:
            before = session.game.initial_state(session.setup)
        seen["state"] = state
        notes: dict[str, Any] = {}
        if not verdict.legal:
            return notes
        if before is not None and (before.room != state.room or before.phase == Phase.SHUFFLE):
            notes["room"] = describe_room(state)
        if not with_advice:
            return notes
        advice = advise(state)
        if advice is not None:
            notes.update(advice_notes(advice, as_json))
        elif state.phase == Phase.FIGHT_ROLL:
            chance = fresh_roll_defeat(state.side.monsters, state.dice)
            notes["odds_before_rolling"] = (
                {"p_defeat": float(chance), "exact": str(chance), "dice": state.dice}
                if as_json else f"P(defeat) with {dice(state.dice)}, rerolling as advised = "
                                f"{float(chance):.4f} ({chance})")
        return notes

    return annotate


def describe_room(state: DungeonState) -> str:
    """The room on the table in one line, as the card should show it.

    Example:
        >>> from companion.games.infinidungeon.deck import Card, Deck, Side
        >>> card = Card("hall", "Hall", Side("sun", "empty", ()), entrance=True)
        >>> describe_room(DungeonState(Deck("d", (card,)), Phase.MOVE, room=("hall", "basic")))
        'Hall (hall, basic side, symbol sun): empty; doorways: none'
    """
    card = state.deck.card(state.room[0])
    side: Side = state.side
    ways = ", ".join(f"{d} [{' '.join(w.symbols)}]" + (f" trap {w.trap}" if w.trap else "")
                     for d, w in side.doorways) or "none"
    contents = side.kind.replace("_", " ")
    if side.monsters:
        contents += ": " + ", ".join(_monster_text(m) for m in side.monsters)
    if side.crystal:
        contents += "; crystal"
    return f"{card.name} ({card.id}, {state.room[1]} side, symbol {side.symbol}): {contents}; " \
           f"doorways: {ways}"


def _monster_text(monster: Monster) -> str:
    faces = "any" if len(monster.faces) == 6 else " ".join(map(str, monster.faces))
    mark = {1: "", 2: ", pair", 3: ", three equal"}[monster.dice]
    return f"{monster.name} [{faces}{mark}]"


def advice_notes(advice: Advice, as_json: bool) -> dict[str, Any]:
    """The advisor's figures as verdict notes (structured for ``--json``)."""
    if as_json:
        return {"advice": {
            "kind": advice.kind, "dice": list(advice.dice), "best": advice.best.reroll_text,
            "choices": [{"reroll": list(c.reroll), "action": c.reroll_text,
                         **({"p_defeat": float(c.defeat), "exact": str(c.defeat)}
                            if c.defeat is not None else
                            {"p_lose": [float(p) for p in c.losses],
                             "exact": [str(p) for p in c.losses],
                             "expected_loss": float(c.expected_loss)})}
                        for c in advice.choices]}}
    return {"advice": f"best: {advice.best.describe()}",
            "odds": [choice.describe() for choice in advice.choices]}

